import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callsTo, makeIntegration, routeFetch } from '../../../test/integration-fixtures';
import { jsonResponse, renderRoute, stubLocation } from '../../../test/render';
import { facebookKeys } from '../queries';
import { brokenConnection, CONN_ID, CONN2_ID, connection, FORM_ID, PAGE_ID, pageState } from '../test/fb-fixtures';
import { FacebookPage } from './facebook-page';

afterEach(() => vi.unstubAllGlobals());

const EN = '/en/admin/integrations/facebook';
const UK = '/admin/integrations/facebook';
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
  (await screen.findAllByTestId('fb-connection', {}, { timeout: 5000 })).find((c) =>
    within(c).queryByText(name),
  ) as HTMLElement;

describe('Facebook connections screen', { timeout: 30_000 }, () => {
  it('shows each connection with its status and token expiry; a broken one says why and offers reconnect', async () => {
    setup();
    renderRoute(EN, <FacebookPage />, EN);
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
    renderRoute(UK, <FacebookPage />, UK, 'uk');
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
    renderRoute(EN, <FacebookPage />, EN);
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
    const { router } = renderRoute(EN, <FacebookPage />, EN);
    const ok = await connectionCard('Olena Kovalenko');
    fireEvent.click(within(ok).getAllByRole('button', { name: /Lead forms/ })[0] as HTMLElement);
    const forms = await within(ok).findAllByTestId('fb-form', {}, { timeout: 5000 });
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
    renderRoute(EN, <FacebookPage />, EN);
    await connectionCard('Olena Kovalenko');
    fireEvent.click(screen.getByRole('button', { name: /Connect Facebook/ }));
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('https://www.facebook.com/v20.0/dialog/oauth?state=s1'));
    expect(callsTo(fetch, 'POST /facebook/start')[0]?.body).toEqual({ locale: 'en' });
  });

  it('with no connection invites to connect', async () => {
    routeFetch({ 'GET /api/facebook/connections': [] });
    renderRoute(EN, <FacebookPage />, EN);
    expect(await screen.findByText('No Facebook connection yet', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getAllByRole('button', { name: /Connect Facebook/ })).toHaveLength(2);
  });

  it('the return from Facebook shows a toast and cleans the query; an error is translated', async () => {
    setup();
    const { router } = renderRoute(EN, <FacebookPage />, `${EN}?connected=${CONN_ID}`);
    expect(await screen.findByText('Facebook is connected', {}, { timeout: 5000 })).toBeTruthy();
    await vi.waitFor(() => expect(router.state.location.search).toBe(''));

    setup();
    const second = renderRoute(EN, <FacebookPage />, `${EN}?error=OAUTH_STATE_INVALID`);
    expect(await screen.findByText(/The connection link has expired or was opened in another account/)).toBeTruthy();
    await vi.waitFor(() => expect(second.router.state.location.search).toBe(''));
  });

  it('removing a connection asks first, then deletes it', async () => {
    const fetch = setup({ [`DELETE /api/legacy/api/facebook/accounts/${CONN2_ID}`]: { success: true } });
    renderRoute(EN, <FacebookPage />, EN);
    await connectionCard('Ivan Petrenko');
    fireEvent.click(screen.getByRole('button', { name: 'Remove the connection Ivan Petrenko' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Remove' }));
    await vi.waitFor(() =>
      expect(callsTo(fetch, `DELETE /api/legacy/api/facebook/accounts/${CONN2_ID}`)).toHaveLength(1),
    );
  });

  it('keeps pictures for 2 hours: a live refresh of the screen does not ask for them again', async () => {
    const fetch = setup();
    const { client } = renderRoute(EN, <FacebookPage />, EN);
    await connectionCard('Olena Kovalenko');
    await vi.waitFor(() => expect(callsTo(fetch, 'GET /api/facebook/accountPicture').length).toBeGreaterThan(0));
    const pictures = callsTo(fetch, 'GET /api/facebook/accountPicture').length;
    const lists = callsTo(fetch, 'GET /api/facebook/connections').length;
    await client.invalidateQueries({ queryKey: facebookKeys.all });
    await vi.waitFor(() => expect(callsTo(fetch, 'GET /api/facebook/connections').length).toBe(lists + 1));
    expect(callsTo(fetch, 'GET /api/facebook/accountPicture').length).toBe(pictures);
    const picture = client.getQueryCache().find({ queryKey: facebookKeys.picture('1001') });
    expect(picture?.isStaleByTime(7_199_000)).toBe(false);
  });
});
