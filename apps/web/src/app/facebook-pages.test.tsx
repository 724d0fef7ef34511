// Facebook Lead Ads drawn from its manifest (kit/manifest-accounts.ts, ADR 014) through the generic
// routes: /admin/integrations/facebook (its connections, pages and lead forms), /admin/integrations/fb
// (its integrations, made from a form) and /admin/integrations/facebook/:id (where an integration's
// leads come from, its mapping and test lead). The answers are shaped like packages/connectors/src/facebook/schema.ts.

import type { Integration } from '@leadrelay/shared';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FbAccountState, FbConnection } from '../../../../packages/connectors/src/facebook/schema';
import { accountKeys } from '../lib/connectors/account-keys';
import { loadManifest } from '../lib/connectors/manifests';
import { callsTo, makeIntegration, makeSetting, routeFetch } from '../test/integration-fixtures';
import { choose, jsonResponse, renderRoute, stubLocation } from '../test/render';
import { IntegrationTypeDetailPage, IntegrationTypePage } from './integration-type';

afterEach(() => vi.unstubAllGlobals());

const TYPE_EN = '/en/admin/integrations/:type';
const TYPE_UK = '/admin/integrations/:type';
const EN = '/en/admin/integrations/facebook';
const UK = '/admin/integrations/facebook';
const LIST_EN = '/en/admin/integrations/fb';

const manifest = await loadManifest('facebook');
if (!manifest?.accounts) throw new Error('the facebook manifest declares no account connections');
const { accounts } = manifest;

const CONN_ID = '77777777-7777-4777-8777-777777777777';
const CONN2_ID = '88888888-8888-4888-8888-888888888888';
const FB_INT_ID = '99999999-9999-4999-8999-999999999999';
const PAGE_ID = '2001';
const FORM_ID = '3001';

const inDays = (n: number) => new Date(Date.now() + n * 86_400_000 + 3_600_000).toISOString();

const connection = (overrides: Partial<FbConnection> = {}): FbConnection => ({
  _id: CONN_ID,
  fbUserId: '1001',
  name: 'Olena Kovalenko',
  email: 'olena@clinic.ua',
  status: 'ok',
  statusReason: null,
  expiresAt: inDays(45),
  createdAt: '2026-03-01T10:00:00.000Z',
  pages: [
    { id: PAGE_ID, name: 'Smile Dental Kyiv', category: 'Dentist', isSubscribed: false },
    { id: '2002', name: 'Coffee Ranok', category: 'Cafe', isSubscribed: true },
  ],
  ...overrides,
});

const brokenConnection = (overrides: Partial<FbConnection> = {}) =>
  connection({
    _id: CONN2_ID,
    fbUserId: '1002',
    name: 'Ivan Petrenko',
    status: 'broken',
    statusReason: 'Error validating access token: Session has expired (code 190/463)',
    expiresAt: inDays(-2),
    pages: [{ id: PAGE_ID, name: 'Smile Dental Kyiv', category: 'Dentist', isSubscribed: true }],
    ...overrides,
  });

const pageState = (overrides: Partial<FbAccountState> = {}): FbAccountState => ({
  id: PAGE_ID,
  name: 'Smile Dental Kyiv',
  isSubscribed: false,
  leadForms: [
    {
      id: FORM_ID,
      name: 'Free consultation',
      status: 'ACTIVE',
      locale: 'uk_UA',
      questions: [
        { key: 'full_name', label: 'Full name', type: 'FULL_NAME' },
        { key: 'phone_number', label: 'Phone number', type: 'PHONE' },
        { key: 'preferred_clinic', label: 'Which clinic is closer?', type: 'CUSTOM' },
      ],
    },
    { id: '3002', name: 'Old promo', status: 'ARCHIVED', locale: null, questions: [] },
  ],
  ...overrides,
});

const fbIntegration = (overrides: Partial<Integration> = {}) =>
  makeIntegration({
    _id: FB_INT_ID,
    name: 'Smile Dental — consultation',
    type: 'facebook',
    kind: 'source',
    isConnected: true,
    settings: { fbConnectionId: CONN_ID, fbPageId: PAGE_ID, fbFormId: FORM_ID },
    ...overrides,
  });

const pagePath = `/api/facebook/connection/${CONN_ID}/account/${PAGE_ID}`;

function setup(extra: Record<string, unknown> = {}) {
  return routeFetch({
    'GET /api/facebook/connections': [connection(), brokenConnection()],
    'GET /api/facebook/accountPicture': (url: URL) => ({
      url: `https://graph.example/${url.searchParams.get('accountId')}.jpg`,
    }),
    [`GET ${pagePath}`]: pageState(),
    ...extra,
  });
}

const connectionCard = async (name: string) =>
  (await screen.findAllByTestId('account-connection', {}, { timeout: 5000 })).find((c) =>
    within(c).queryByText(name),
  ) as HTMLElement;

describe('Facebook connections screen', { timeout: 30_000 }, () => {
  it('shows each connection with its status and token expiry; a broken one says why and offers reconnect', async () => {
    setup();
    renderRoute(TYPE_EN, <IntegrationTypePage />, EN);
    const ok = await connectionCard('Olena Kovalenko');
    expect(within(ok).getByText('Working')).toBeTruthy();
    expect(within(ok).getByText('Access expires in 45 days')).toBeTruthy();
    expect(within(ok).getByText('Smile Dental Kyiv')).toBeTruthy();
    expect(within(ok).getByText('Coffee Ranok')).toBeTruthy();

    const broken = await connectionCard('Ivan Petrenko');
    expect(within(broken).getByText('Not working')).toBeTruthy();
    expect(within(broken).getByText('Access expired')).toBeTruthy();
    expect(within(broken).getByText('Facebook no longer accepts this connection')).toBeTruthy();
    expect(within(broken).getByText(/Session has expired \(code 190\/463\)/)).toBeTruthy();
  });

  it('says the days in Ukrainian with the right declension', async () => {
    routeFetch({
      'GET /api/facebook/connections': [
        connection({ expiresAt: new Date(Date.now() + 3 * 86_400_000 + 3_600_000).toISOString() }),
      ],
      'GET /api/facebook/accountPicture': { url: null },
    });
    renderRoute(TYPE_UK, <IntegrationTypePage />, UK, 'uk');
    expect(await screen.findByText('Доступ закінчується через 3 дні', {}, { timeout: 5000 })).toBeTruthy();
  });

  it('subscribes and unsubscribes a page with the spec toasts; a failure says "something went wrong"', async () => {
    let subscribed = false;
    const fetch = setup({
      'GET /api/facebook/connections': () => [
        connection({
          pages: [{ id: PAGE_ID, name: 'Smile Dental Kyiv', category: 'Dentist', isSubscribed: subscribed }],
        }),
      ],
      [`POST ${pagePath}/subscribe`]: () => {
        subscribed = true;
        return { success: true };
      },
      [`DELETE ${pagePath}/unsubscribe`]: () => jsonResponse(400, { code: 'CONNECTION_FAILED', message: 'x' }),
    });
    renderRoute(TYPE_EN, <IntegrationTypePage />, EN);
    fireEvent.click(await screen.findByLabelText('Receive leads from Smile Dental Kyiv', {}, { timeout: 5000 }));
    expect(await screen.findByText('Subscribed successfully')).toBeTruthy();
    expect(callsTo(fetch, `POST ${pagePath}/subscribe`)).toHaveLength(1);
    await vi.waitFor(() => expect(screen.getByText('Receiving leads')).toBeTruthy());

    fireEvent.click(screen.getByLabelText('Receive leads from Smile Dental Kyiv'));
    expect(await screen.findByText('Something went wrong')).toBeTruthy();
    expect(callsTo(fetch, `DELETE ${pagePath}/unsubscribe`)).toHaveLength(1);
    // Still on: the server refused.
    expect(screen.getByText('Receiving leads')).toBeTruthy();
  });

  it('lists a page\'s lead forms with their questions; "Create integration" makes a facebook source and opens it', async () => {
    const created = makeIntegration({ _id: 'new-fb', type: 'facebook', name: 'Smile Dental Kyiv — Free consultation' });
    const fetch = setup({ 'POST /api/integrations': created });
    const { router } = renderRoute(TYPE_EN, <IntegrationTypePage />, EN);
    const ok = await connectionCard('Olena Kovalenko');
    fireEvent.click(within(ok).getAllByRole('button', { name: /Lead forms/ })[0] as HTMLElement);
    const forms = await within(ok).findAllByTestId('account-form', {}, { timeout: 5000 });
    expect(within(forms[0] as HTMLElement).getByText('Free consultation')).toBeTruthy();
    expect(within(forms[0] as HTMLElement).getByText('Which clinic is closer?')).toBeTruthy();
    expect(within(forms[1] as HTMLElement).getByText('Archived')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Create an integration for the form Free consultation' }));
    await vi.waitFor(() => expect(callsTo(fetch, 'POST /api/integrations')).toHaveLength(1));
    expect(callsTo(fetch, 'POST /api/integrations')[0]?.body).toEqual({
      type: 'facebook',
      name: 'Smile Dental Kyiv — Free consultation',
      settings: { fbConnectionId: CONN_ID, fbPageId: PAGE_ID, fbFormId: FORM_ID },
    });
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/en/admin/integrations/facebook/new-fb'));
  });

  it('connect goes to Facebook Login with the language the user is in', async () => {
    const assign = vi.fn();
    stubLocation({ assign });
    const fetch = setup({
      'POST /facebook/start': { authUrl: 'https://www.facebook.com/v20.0/dialog/oauth?state=s1' },
    });
    renderRoute(TYPE_EN, <IntegrationTypePage />, EN);
    await connectionCard('Olena Kovalenko');
    fireEvent.click(screen.getByRole('button', { name: /Connect Facebook/ }));
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('https://www.facebook.com/v20.0/dialog/oauth?state=s1'));
    expect(callsTo(fetch, 'POST /facebook/start')[0]?.body).toEqual({ locale: 'en' });
  });

  it('with no connection invites to connect', async () => {
    routeFetch({ 'GET /api/facebook/connections': [] });
    renderRoute(TYPE_EN, <IntegrationTypePage />, EN);
    expect(await screen.findByText('No Facebook connection yet', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getAllByRole('button', { name: /Connect Facebook/ })).toHaveLength(2);
  });

  it('the return from Facebook shows a toast and cleans the query; an error is translated', async () => {
    setup();
    const { router } = renderRoute(TYPE_EN, <IntegrationTypePage />, `${EN}?connected=${CONN_ID}`);
    expect(await screen.findByText('Facebook is connected', {}, { timeout: 5000 })).toBeTruthy();
    await vi.waitFor(() => expect(router.state.location.search).toBe(''));

    setup();
    const second = renderRoute(TYPE_EN, <IntegrationTypePage />, `${EN}?error=OAUTH_STATE_INVALID`);
    expect(await screen.findByText(/The connection link has expired or was opened in another account/)).toBeTruthy();
    await vi.waitFor(() => expect(second.router.state.location.search).toBe(''));
  });

  it('removing a connection asks first, then deletes it', async () => {
    const fetch = setup({ [`DELETE /api/legacy/api/facebook/accounts/${CONN2_ID}`]: { success: true } });
    renderRoute(TYPE_EN, <IntegrationTypePage />, EN);
    await connectionCard('Ivan Petrenko');
    fireEvent.click(screen.getByRole('button', { name: 'Remove the connection Ivan Petrenko' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Remove' }));
    await vi.waitFor(() =>
      expect(callsTo(fetch, `DELETE /api/legacy/api/facebook/accounts/${CONN2_ID}`)).toHaveLength(1),
    );
  });

  it('keeps pictures for 2 hours: a live refresh of the screen does not ask for them again', async () => {
    const fetch = setup();
    const { client } = renderRoute(TYPE_EN, <IntegrationTypePage />, EN);
    await connectionCard('Olena Kovalenko');
    await vi.waitFor(() => expect(callsTo(fetch, 'GET /api/facebook/accountPicture').length).toBeGreaterThan(0));
    const pictures = callsTo(fetch, 'GET /api/facebook/accountPicture').length;
    const lists = callsTo(fetch, 'GET /api/facebook/connections').length;
    await client.invalidateQueries({ queryKey: accountKeys.all('facebook') });
    await vi.waitFor(() => expect(callsTo(fetch, 'GET /api/facebook/connections').length).toBe(lists + 1));
    expect(callsTo(fetch, 'GET /api/facebook/accountPicture').length).toBe(pictures);
    const picture = client.getQueryCache().find({ queryKey: accountKeys.picture('facebook', '1001') });
    expect(picture?.isStaleByTime(7_199_000)).toBe(false);
  });
});

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
    const { router } = renderRoute(TYPE_EN, <IntegrationTypePage />, LIST_EN);
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

  it("a type that is no connector's list (webhook) keeps the generic list of its integrations", async () => {
    const fetch = routeFetch({
      'GET /api/legacy/api/admin/integration/settings': [makeSetting('webhook', 'source')],
      'GET /api/integrations': { data: [], total: 0, filter: {} },
    });
    renderRoute(TYPE_EN, <IntegrationTypePage />, '/en/admin/integrations/webhook');
    expect(await screen.findByRole('heading', { name: 'Webhook' }, { timeout: 5000 })).toBeTruthy();
    await vi.waitFor(() =>
      expect(callsTo(fetch, 'GET /api/integrations')[0]?.url.searchParams.get('type')).toBe('webhook'),
    );
    expect(screen.queryByText('Facebook lead forms')).toBeNull();
  });

  it('without any Facebook page the new-integration dialog sends the user to connect first', async () => {
    routeFetch({
      'GET /api/integrations': { data: [], total: 0, filter: {} },
      'GET /api/legacy/api/admin/integration/fbPageItems': [],
    });
    renderRoute(TYPE_EN, <IntegrationTypePage />, LIST_EN);
    fireEvent.click(await screen.findByRole('button', { name: /New integration/ }, { timeout: 5000 }));
    expect(await screen.findByText(/Connect Facebook first/)).toBeTruthy();
  });
});

const PATTERN = '/en/admin/integrations/:type/:id';
const url = (tab = 'settings') => `/en/admin/integrations/facebook/${FB_INT_ID}?tab=${tab}`;

function setupDetail(extra: Record<string, unknown> = {}) {
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
    const fetch = setupDetail();
    renderRoute(PATTERN, <IntegrationTypeDetailPage />, url());
    const card = await screen.findByTestId('account-source', {}, { timeout: 5000 });
    expect(await within(card).findByText('Free consultation')).toBeTruthy();
    expect(within(card).getByText('Olena Kovalenko')).toBeTruthy();
    expect(within(card).getByText('Smile Dental Kyiv')).toBeTruthy();
    expect(within(card).getByText('Working')).toBeTruthy();
    expect(within(card).getByText(/Lead delivery is off for this page/)).toBeTruthy();
    // Not a webhook source: no webhook URL of ours is asked for.
    expect(callsTo(fetch, `GET /api/integrations/${FB_INT_ID}/generateHook`)).toHaveLength(0);
  });

  it('a broken connection: moves the integration to another connection of the same page', async () => {
    const fetch = setupDetail({
      [`GET /api/integrations/${FB_INT_ID}`]: fbIntegration({
        settings: { fbConnectionId: CONN2_ID, fbPageId: PAGE_ID, fbFormId: FORM_ID },
        status: 'broken',
        statusReason: 'Error validating access token (code 190)',
      }),
      [`POST /api/integrations/migrate/fb/${FB_INT_ID}`]: fbIntegration(),
    });
    renderRoute(PATTERN, <IntegrationTypeDetailPage />, url());
    const card = await screen.findByTestId('account-source', {}, { timeout: 5000 });
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
    setupDetail();
    renderRoute(PATTERN, <IntegrationTypeDetailPage />, url('mapping'));
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
    const fetch = setupDetail({
      [`POST /api/facebook/integration/${FB_INT_ID}/test-lead`]: { leadgenId: '8000000000007' },
    });
    renderRoute(PATTERN, <IntegrationTypeDetailPage />, url('mapping'));
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

describe('the sample lead of a Meta form', () => {
  it('answers a question keyed like a built-in member (constructor, toString, __proto__) with text', () => {
    const keys = ['constructor', 'toString', '__proto__', 'valueOf', 'hasOwnProperty'];
    const form = { id: '301', questions: keys.map((key) => ({ key, label: key, type: 'CUSTOM' })) };
    expect(accounts.sample.answers(form)).toEqual(keys.map((name) => ({ name, values: ['Так'] })));
    const payload = accounts.sample.payload(form);
    for (const key of keys) expect(Object.hasOwn(payload, key) && payload[key], key).toBe('Так');
  });
});
