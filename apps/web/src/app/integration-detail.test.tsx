// The facebook source on the generic integration page (/admin/integrations/facebook/:id), as app/ wires it.
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  brokenConnection,
  CONN_ID,
  CONN2_ID,
  connection,
  FB_INT_ID,
  FORM_ID,
  fbIntegration,
  PAGE_ID,
  pageState,
} from '../features/facebook/test/fb-fixtures';
import { callsTo, makeSetting, routeFetch } from '../test/integration-fixtures';
import { choose, renderRoute } from '../test/render';
import { IntegrationDetailPage } from './integration-detail';

afterEach(() => vi.unstubAllGlobals());

const PATTERN = '/en/admin/integrations/:type/:id';
const url = (tab = 'settings') => `/en/admin/integrations/facebook/${FB_INT_ID}?tab=${tab}`;

function setup(extra: Record<string, unknown> = {}) {
  return routeFetch({
    'GET /api/legacy/api/admin/integration/settings': [makeSetting('facebook', 'source', { name: 'Facebook' })],
    'GET /api/legacy/api/admin/integration/categories': [],
    [`GET /api/integrations/${FB_INT_ID}`]: fbIntegration(),
    'GET /api/facebook/connections': [connection(), brokenConnection()],
    'GET /api/facebook/accountPicture': { url: null },
    [`GET /api/facebook/connection/${CONN_ID}/account/${PAGE_ID}`]: pageState(),
    [`GET /api/facebook/connection/${CONN2_ID}/account/${PAGE_ID}`]: pageState({ isSubscribed: true }),
    'GET /api/hook': { data: [], total: 0 },
    ...extra,
  });
}

describe('facebook integration page', { timeout: 30_000 }, () => {
  it('shows the connection, page and form it takes leads from, and warns while the page is unsubscribed', async () => {
    const fetch = setup();
    renderRoute(PATTERN, <IntegrationDetailPage />, url());
    const card = await screen.findByTestId('fb-source', {}, { timeout: 5000 });
    expect(await within(card).findByText('Free consultation')).toBeTruthy();
    expect(within(card).getByText('Olena Kovalenko')).toBeTruthy();
    expect(within(card).getByText('Smile Dental Kyiv')).toBeTruthy();
    expect(within(card).getByText('Working')).toBeTruthy();
    expect(within(card).getByText(/Lead delivery is off for this page/)).toBeTruthy();
    // Not a webhook source: no webhook URL of ours is asked for.
    expect(callsTo(fetch, `GET /api/integrations/${FB_INT_ID}/generateHook`)).toHaveLength(0);
  });

  it('a broken connection: moves the integration to another connection of the same page', async () => {
    const fetch = setup({
      [`GET /api/integrations/${FB_INT_ID}`]: fbIntegration({
        settings: { fbConnectionId: CONN2_ID, fbPageId: PAGE_ID, fbFormId: FORM_ID },
        status: 'broken',
        statusReason: 'Error validating access token (code 190)',
      }),
      [`POST /api/integrations/migrate/fb/${FB_INT_ID}`]: fbIntegration(),
    });
    renderRoute(PATTERN, <IntegrationDetailPage />, url());
    const card = await screen.findByTestId('fb-source', {}, { timeout: 5000 });
    expect(await within(card).findByText('The Facebook connection is not working')).toBeTruthy();
    expect(within(card).getByText('Not working')).toBeTruthy();
    await choose('Another connection', 'Olena Kovalenko');
    fireEvent.click(within(card).getByRole('button', { name: /Move/ }));
    await vi.waitFor(() => expect(callsTo(fetch, `POST /api/integrations/migrate/fb/${FB_INT_ID}`)).toHaveLength(1));
    expect(callsTo(fetch, `POST /api/integrations/migrate/fb/${FB_INT_ID}`)[0]?.body).toEqual({
      fbConnectionId: CONN_ID,
    });
    expect(await screen.findByText('The integration now uses the chosen connection')).toBeTruthy();
  });

  it("the mapping's incoming fields are the form's questions plus the standard and fb_* fields", async () => {
    setup();
    renderRoute(PATTERN, <IntegrationDetailPage />, url('mapping'));
    const sample = (await screen.findByLabelText(
      'Sample request (JSON)',
      {},
      { timeout: 5000 },
    )) as HTMLTextAreaElement;
    // The form's questions come from a second request after the page's.
    await vi.waitFor(() => expect(sample.value).toContain('"preferred_clinic"'), { timeout: 5000 });
    const payload = JSON.parse(sample.value) as Record<string, string>;
    expect(Object.keys(payload)).toEqual(
      expect.arrayContaining([
        'full_name',
        'phone_number',
        'preferred_clinic',
        'leadgen_id',
        'fb_form_id',
        'fb_campaign_name',
      ]),
    );
    expect(payload.fb_form_id).toBe(FORM_ID);
  });

  it('"Send a test lead" asks Facebook for a test lead on the form, with an answer to every question', async () => {
    const fetch = setup({ [`POST /api/facebook/integration/${FB_INT_ID}/test-lead`]: { leadgenId: '8000000000007' } });
    renderRoute(PATTERN, <IntegrationDetailPage />, url('mapping'));
    const sample = (await screen.findByLabelText(
      'Sample request (JSON)',
      {},
      { timeout: 5000 },
    )) as HTMLTextAreaElement;
    // The form's questions come from a second request after the page's.
    await vi.waitFor(() => expect(sample.value).toContain('"preferred_clinic"'), { timeout: 5000 });
    fireEvent.click(await screen.findByRole('button', { name: /Send a test lead/ }, { timeout: 5000 }));
    expect(await screen.findByText(/Facebook made the test lead/)).toBeTruthy();
    const call = fetch.mock.calls.find(([input]) => String(input).includes('/test-lead'));
    const body = JSON.parse(String(call?.[1]?.body)) as { fieldData: { name: string }[] };
    expect(body.fieldData.map((f) => f.name)).toEqual(['full_name', 'phone_number', 'preferred_clinic']);
  });
});
