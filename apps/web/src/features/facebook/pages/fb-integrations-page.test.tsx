import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callsTo, makeSetting, routeFetch } from '../../../test/integration-fixtures';
import { choose, renderRoute } from '../../../test/render';
import { CONN_ID, FORM_ID, fbIntegration, PAGE_ID, pageState } from '../test/fb-fixtures';
import { FbIntegrationsPage } from './fb-integrations-page';

afterEach(() => vi.unstubAllGlobals());

const EN = '/en/admin/integrations/fb';
const pageItems = [
  {
    connectionId: CONN_ID,
    connectionName: 'Olena Kovalenko',
    pageId: PAGE_ID,
    pageName: 'Smile Dental Kyiv',
    isSubscribed: true,
  },
];

describe('Facebook integrations list', { timeout: 30_000 }, () => {
  it('lists only facebook integrations and creates one for a chosen page and form', async () => {
    const fetch = routeFetch({
      'GET /api/legacy/api/admin/integration/settings': [makeSetting('facebook', 'source', { name: 'Facebook' })],
      'GET /api/integrations': { data: [fbIntegration()], total: 1, filter: {} },
      'GET /api/legacy/api/admin/integration/fbPageItems': pageItems,
      'POST /api/legacy/api/facebook/leadform': pageState().leadForms,
      'POST /api/integrations': fbIntegration({ _id: 'new-fb' }),
    });
    const { router } = renderRoute(EN, <FbIntegrationsPage />, EN);
    expect(await screen.findByText('Smile Dental — consultation', {}, { timeout: 5000 })).toBeTruthy();
    expect(callsTo(fetch, 'GET /api/integrations')[0]?.url.searchParams.get('type')).toBe('facebook');

    fireEvent.click(screen.getByRole('button', { name: /New integration/ }));
    const dialog = await screen.findByRole('dialog');
    await choose('Page', 'Smile Dental Kyiv (Olena Kovalenko)');
    await choose('Lead form', 'Free consultation');
    expect(callsTo(fetch, 'POST /api/legacy/api/facebook/leadform')[0]?.body).toEqual({
      connectionId: CONN_ID,
      pageId: PAGE_ID,
    });
    // The name follows the page and form until the user types one.
    await vi.waitFor(() =>
      expect((within(dialog).getByLabelText('Name') as HTMLInputElement).value).toBe(
        'Smile Dental Kyiv — Free consultation',
      ),
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    await vi.waitFor(() => expect(callsTo(fetch, 'POST /api/integrations')).toHaveLength(1));
    expect(callsTo(fetch, 'POST /api/integrations')[0]?.body).toEqual({
      type: 'facebook',
      name: 'Smile Dental Kyiv — Free consultation',
      settings: { fbConnectionId: CONN_ID, fbPageId: PAGE_ID, fbFormId: FORM_ID },
    });
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/en/admin/integrations/facebook/new-fb'));
  });

  it('without any Facebook page the new-integration dialog sends the user to connect first', async () => {
    routeFetch({
      'GET /api/integrations': { data: [], total: 0, filter: {} },
      'GET /api/legacy/api/admin/integration/fbPageItems': [],
    });
    renderRoute(EN, <FbIntegrationsPage />, EN);
    fireEvent.click(await screen.findByRole('button', { name: /New integration/ }, { timeout: 5000 }));
    expect(await screen.findByText(/Connect Facebook first/)).toBeTruthy();
  });
});
