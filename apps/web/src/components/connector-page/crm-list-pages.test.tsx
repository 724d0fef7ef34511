import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AMO_ID, amoIntegration, connectorPages, PD_ID, pdIntegration } from '../../test/crm-fixtures';
import { callsTo, makeSetting, routeFetch } from '../../test/integration-fixtures';
import { jsonResponse, renderRoute, stubLocation } from '../../test/render';

// The generic list pages drawn from the manifests, as /admin/integrations/:type draws them.
const amocrm = await connectorPages('amocrm');
const pipedrive = await connectorPages('pipedrive');

afterEach(() => vi.unstubAllGlobals());

const list = (items: unknown[]) => ({ data: items, total: items.length, filter: { page: 1, limit: 10 } });
const catalogue = {
  'GET /api/legacy/api/admin/integration/settings': [
    makeSetting('amocrm', 'destination', { name: 'amoCRM' }),
    makeSetting('pipedrive', 'destination', { name: 'Pipedrive' }),
  ],
  'GET /api/legacy/api/admin/integration/categories': [],
};

describe('CRM list pages', { timeout: 30_000 }, () => {
  it('amoCRM: lists only amoCRM integrations; "Connect amoCRM" creates one and goes to amoCRM', async () => {
    const assign = vi.fn();
    stubLocation({ assign });
    const fetch = routeFetch({
      ...catalogue,
      'GET /api/integrations': list([amoIntegration()]),
      'POST /api/integrations': amoIntegration({ isConnected: false, name: 'Опт' }),
      [`GET /api/integrations/${AMO_ID}`]: amoIntegration({ isConnected: false }),
      'POST /api/legacy/api/amocrm/connect': { url: 'https://www.amocrm.ru/oauth?state=s9' },
    });
    renderRoute('/admin/integrations/amocrm', amocrm.list, '/admin/integrations/amocrm', 'uk');
    expect(await screen.findByText('Відділ продажу', {}, { timeout: 5000 })).toBeTruthy();
    expect(callsTo(fetch, 'GET /api/integrations')[0]?.url.searchParams.get('type')).toBe('amocrm');

    fireEvent.click(screen.getAllByRole('button', { name: /Підключити amoCRM/ })[0] as HTMLElement);
    const name = await screen.findByLabelText('Назва');
    fireEvent.change(name, { target: { value: 'Опт' } });
    fireEvent.click(screen.getByRole('button', { name: /Перейти до amoCRM/ }));
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('https://www.amocrm.ru/oauth?state=s9'));
    // Progress from the first click until the browser leaves: the dialog stays, busy, saying what it does.
    expect(screen.getByRole('dialog')).toBeTruthy();
    expect(screen.getByTestId('connect-status').textContent).toContain('Відкриваємо amoCRM');
    expect(screen.getByRole('button', { name: /Перейти до amoCRM/ }).className).toContain('ant-btn-loading');
    expect(callsTo(fetch, 'POST /api/integrations')[0]?.body).toEqual({ type: 'amocrm', name: 'Опт' });
    expect(callsTo(fetch, 'POST /api/legacy/api/amocrm/connect')[0]?.body).toEqual({
      integrationId: AMO_ID,
      locale: 'uk',
    });
  });

  it('Pipedrive: a new connection with an API token, then its page; a bad token is refused in the form', async () => {
    const fetch = routeFetch({
      ...catalogue,
      'GET /api/integrations': list([]),
      'POST /api/integrations': pdIntegration({ isConnected: false }),
      'POST /api/legacy/api/pipedrive/connect': { integrationId: PD_ID, type: 'pipedrive' },
    });
    const { router } = renderRoute(
      '/en/admin/integrations/pipedrive',
      pipedrive.list,
      '/en/admin/integrations/pipedrive',
    );
    fireEvent.click(
      (await screen.findAllByRole('button', { name: /Connect Pipedrive/ }, { timeout: 5000 }))[0] as HTMLElement,
    );
    fireEvent.click(await screen.findByLabelText('API token', { selector: 'input[type=radio]' }));
    const token = await screen.findByLabelText('API token', { selector: 'input[type=password]' });
    // Padded to 10 characters, still too short once trimmed: the spec's MIN_LENGTH_10, as the server says.
    fireEvent.change(token, { target: { value: '  short   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    expect(await screen.findByText('At least 10 characters', {}, { timeout: 5000 })).toBeTruthy();
    expect(callsTo(fetch, 'POST /api/integrations')).toHaveLength(0);

    fireEvent.change(token, { target: { value: 'abcdef0123456789' } });
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe(`/en/admin/integrations/pipedrive/${PD_ID}`));
    expect(callsTo(fetch, 'POST /api/integrations')[0]?.body).toEqual({ type: 'pipedrive', name: 'Pipedrive' });
    expect(callsTo(fetch, 'POST /api/legacy/api/pipedrive/connect')[0]?.body).toEqual({
      integrationId: PD_ID,
      apiToken: 'abcdef0123456789',
    });
  });

  it('Pipedrive: a refused OAuth start closes the reserved tab and says why', async () => {
    const tab = { closed: false, opener: {}, location: { href: '' }, close: vi.fn() };
    vi.stubGlobal(
      'open',
      vi.fn(() => tab),
    );
    routeFetch({
      ...catalogue,
      'GET /api/integrations': list([]),
      'POST /api/integrations': pdIntegration({ isConnected: false }),
      'POST /pipedrive/state': () =>
        jsonResponse(400, { statusCode: 400, code: 'OAUTH_NOT_CONFIGURED', message: 'OAUTH_NOT_CONFIGURED' }),
    });
    renderRoute('/en/admin/integrations/pipedrive', pipedrive.list, '/en/admin/integrations/pipedrive');
    fireEvent.click(
      (await screen.findAllByRole('button', { name: /Connect Pipedrive/ }, { timeout: 5000 }))[0] as HTMLElement,
    );
    fireEvent.click(await screen.findByRole('button', { name: /Continue to Pipedrive/ }));
    expect(await screen.findByText(/This connection is not set up on this server yet/)).toBeTruthy();
    expect(tab.close).toHaveBeenCalled();
  });
});
