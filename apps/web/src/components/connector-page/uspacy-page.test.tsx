import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { connectorPages, listPath, US_ID, usFields, usFunnels, usIntegration, usUsers } from '../../test/crm-fixtures';
import { callsTo, makeSetting, routeFetch } from '../../test/integration-fixtures';
import { choose, jsonResponse, renderRoute } from '../../test/render';

// The generic pages drawn from Uspacy's manifest, as /admin/integrations/:type(/:id) draw them.
const pages = await connectorPages('uspacy');

afterEach(() => vi.unstubAllGlobals());

const WEBHOOK = 'https://acme.uspacy.ua/company/v1/incoming_webhooks/run/ihMDgsDwRND5FdOD';
const list = (items: unknown[]) => ({ data: items, total: items.length, filter: { page: 1, limit: 10 } });
const catalogue = {
  'GET /api/legacy/api/admin/integration/settings': [makeSetting('uspacy', 'destination', { name: 'Uspacy' })],
  'GET /api/legacy/api/admin/integration/categories': [],
};
const connectPut = `PUT /api/admin/integration/${US_ID}/connect`;

function detail(integration = usIntegration(), extra: Record<string, unknown> = {}) {
  return routeFetch({
    ...catalogue,
    [`GET /api/integrations/${US_ID}`]: integration,
    [`GET /api/uspacy/account/${US_ID}`]: {
      connected: true,
      mode: 'password',
      portal: 'acme.uspacy.ua',
      email: 'anna@acme.ua',
    },
    [listPath(US_ID, 'uspacy', 'leadFunnels')]: usFunnels.lead,
    [listPath(US_ID, 'uspacy', 'dealFunnels')]: usFunnels.deal,
    [listPath(US_ID, 'uspacy', 'uspacyFields')]: usFields,
    [listPath(US_ID, 'uspacy', 'uspacyUsers')]: usUsers,
    [connectPut]: (_u: URL, init: RequestInit) => ({
      ok: true,
      status: 'ok',
      integration: { ...integration, settings: JSON.parse(init.body as string).settings },
    }),
    ...extra,
  });
}
const PATTERN = '/:lang?/admin/integrations/uspacy/:id';

describe('Uspacy list page', { timeout: 30_000 }, () => {
  it('connects a new integration by its incoming webhook; a pasted address of another shape is refused in the form', async () => {
    const fetch = routeFetch({
      ...catalogue,
      'GET /api/integrations': list([]),
      'POST /api/integrations': usIntegration({ isConnected: false, name: 'Продажі' }),
      'POST /api/uspacy/connect': { integrationId: US_ID, type: 'uspacy', mode: 'webhook' },
    });
    const { router } = renderRoute('/admin/integrations/uspacy', pages.list, '/admin/integrations/uspacy', 'uk');
    expect(await screen.findByText(/стають лідами або угодами Uspacy/, {}, { timeout: 5000 })).toBeTruthy();
    expect(callsTo(fetch, 'GET /api/integrations')[0]?.url.searchParams.get('type')).toBe('uspacy');

    fireEvent.click(screen.getAllByRole('button', { name: /Підключити Uspacy/ })[0] as HTMLElement);
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Назва'), { target: { value: 'Продажі' } });
    // The webhook is the default way.
    const url = within(dialog).getByLabelText('Адреса вхідного вебхука');
    fireEvent.change(url, { target: { value: 'https://acme.uspacy.ua/api/leads' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Підключити' }));
    expect(await within(dialog).findByText(/Це не адреса вхідного вебхука Uspacy/)).toBeTruthy();
    expect(callsTo(fetch, 'POST /api/integrations')).toHaveLength(0);

    fireEvent.change(url, { target: { value: ` ${WEBHOOK} ` } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Підключити' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe(`/admin/integrations/uspacy/${US_ID}`));
    expect(callsTo(fetch, 'POST /api/integrations')[0]?.body).toEqual({ type: 'uspacy', name: 'Продажі' });
    expect(callsTo(fetch, 'POST /api/uspacy/connect')[0]?.body).toEqual({
      mode: 'webhook',
      integrationId: US_ID,
      webhookUrl: WEBHOOK,
    });
  });

  it('signs in with portal, e-mail, password and 2FA code; a refusal is said in words and the new page offers to try again', async () => {
    const fetch = routeFetch({
      ...catalogue,
      'GET /api/integrations': list([]),
      'POST /api/integrations': usIntegration({ isConnected: false }),
      'POST /api/uspacy/connect': () =>
        jsonResponse(400, { statusCode: 400, code: 'USPACY_SIGN_IN_FAILED', message: 'USPACY_SIGN_IN_FAILED' }),
    });
    const { router } = renderRoute('/en/admin/integrations/uspacy', pages.list, '/en/admin/integrations/uspacy');
    fireEvent.click(
      (await screen.findAllByRole('button', { name: /Connect Uspacy/ }, { timeout: 5000 }))[0] as HTMLElement,
    );
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByLabelText('Sign in with a Uspacy account'));
    fireEvent.change(await within(dialog).findByLabelText('Portal'), { target: { value: 'acme' } });
    fireEvent.change(within(dialog).getByLabelText('E-mail'), { target: { value: 'anna@acme.ua' } });
    fireEvent.change(within(dialog).getByLabelText('Password'), { target: { value: 's3cret pass' } });
    fireEvent.change(within(dialog).getByLabelText('2FA code'), { target: { value: ' 123456 ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Connect' }));

    expect(
      await screen.findByText(/Uspacy did not accept this e-mail and password/, {}, { timeout: 5000 }),
    ).toBeTruthy();
    expect(callsTo(fetch, 'POST /api/uspacy/connect')[0]?.body).toEqual({
      mode: 'password',
      integrationId: US_ID,
      portal: 'acme',
      email: 'anna@acme.ua',
      password: 's3cret pass',
      code: '123456',
    });
    await vi.waitFor(() => expect(router.state.location.pathname).toBe(`/en/admin/integrations/uspacy/${US_ID}`));
  });
});

describe('Uspacy integration page', { timeout: 30_000 }, () => {
  it('a deal: the funnels of deals, then a working stage of the one chosen, the responsible user and the title are saved', async () => {
    const fetch = detail();
    renderRoute(PATTERN, pages.detail, `/en/admin/integrations/uspacy/${US_ID}?tab=pipeline`);
    fireEvent.click(await screen.findByLabelText('A deal in a sales funnel', {}, { timeout: 5000 }));
    await choose('Funnel', 'Опт');
    await vi.waitFor(() => expect(screen.getByLabelText('Stage').closest('.ant-select-disabled')).toBeNull());
    fireEvent.mouseDown(screen.getByLabelText('Stage'));
    await screen.findByTitle('Запит прайсу');
    const dropdown = [...document.querySelectorAll('.ant-select-dropdown')].at(-1) as HTMLElement;
    const titles = [...dropdown.querySelectorAll('.ant-select-item-option')].map((o) => o.getAttribute('title'));
    // In the funnel's order; the closing stage (lost) is not offered for a new deal.
    expect(titles).toEqual(['Запит прайсу', 'Замовлення']);
    fireEvent.click(screen.getByTitle('Замовлення'));
    await choose('Responsible user', 'Богдан Мельник');
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'Сайт: {name}' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    await vi.waitFor(() => expect(callsTo(fetch, connectPut)).toHaveLength(1));
    expect(callsTo(fetch, connectPut)[0]?.body).toEqual({
      settings: { target: 'deal', funnelId: 4, stageId: 402, title: 'Сайт: {name}', note: true, ownerId: 2 },
    });
    expect(await screen.findByText('Saved successfully')).toBeTruthy();
  });

  it('switching between lead and deal clears the funnel, whose lists differ', async () => {
    const fetch = detail(usIntegration({ settings: { target: 'lead', funnelId: 1, stageId: 102, note: false } }));
    renderRoute(PATTERN, pages.detail, `/en/admin/integrations/uspacy/${US_ID}?tab=pipeline`);
    expect(await screen.findByTitle('Вхідні заявки', {}, { timeout: 5000 })).toBeTruthy();
    fireEvent.click(screen.getByLabelText('A deal in a sales funnel'));
    fireEvent.click(screen.getByLabelText('A lead in a lead funnel'));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(callsTo(fetch, connectPut)).toHaveLength(1));
    expect(callsTo(fetch, connectPut)[0]?.body).toEqual({ settings: { target: 'lead', note: false } });
  });

  it("maps lead fields to the portal's real fields of the record and of the contact", async () => {
    const fetch = detail();
    renderRoute(PATTERN, pages.detail, `/en/admin/integrations/uspacy/${US_ID}?tab=fields`);
    fireEvent.click(await screen.findByRole('button', { name: /Add a field/ }, { timeout: 5000 }));
    fireEvent.change(screen.getByRole('combobox', { name: 'Lead field, row 1' }), { target: { value: 'custom.city' } });
    fireEvent.mouseDown(screen.getByLabelText('CRM field, row 1'));
    await screen.findByTitle('Місто');
    // A lead is made: the deal's fields are not offered.
    expect(screen.queryByTitle('Промокод')).toBeNull();
    expect(screen.getByTitle('Посада')).toBeTruthy();
    fireEvent.click(screen.getByTitle('Місто'));
    fireEvent.click(screen.getByRole('button', { name: /Add a field/ }));
    fireEvent.change(screen.getByRole('combobox', { name: 'Lead field, row 2' }), { target: { value: 'custom.job' } });
    await choose('CRM field, row 2', 'Посада');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    await vi.waitFor(() => expect(callsTo(fetch, connectPut)).toHaveLength(1));
    expect((callsTo(fetch, connectPut)[0]!.body as { settings: { fields: unknown } }).settings.fields).toEqual([
      { from: 'custom.city', entity: 'lead', code: 'city' },
      { from: 'custom.job', entity: 'contact', code: 'position' },
    ]);
  });

  it('shows how it is connected and why it broke, in Ukrainian; connecting again takes a new webhook', async () => {
    const fetch = detail(usIntegration({ status: 'broken', statusReason: 'USPACY_REFRESH_FAILED: HTTP 401' }), {
      'POST /api/uspacy/connect': { integrationId: US_ID, type: 'uspacy', mode: 'webhook' },
    });
    renderRoute(PATTERN, pages.detail, `/admin/integrations/uspacy/${US_ID}`, 'uk');
    const account = await screen.findByTestId('uspacy-account', {}, { timeout: 5000 });
    expect(account.textContent).toContain('acme.uspacy.ua');
    expect(account.textContent).toContain('Вхід обліковим записом');
    expect(account.textContent).toContain('anna@acme.ua');
    expect(
      screen.getAllByText(/Uspacy завершила сесію: увійдіть знову на вкладці «Підключення»/).length,
    ).toBeGreaterThan(0);
    expect(screen.queryByText(/refresh|reconnect/i)).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: /Підключити наново/ }));
    const dialog = await screen.findByRole('dialog');
    // It opens the way it is connected now: the portal and e-mail filled in, the password not.
    expect(((await within(dialog).findByLabelText('Портал')) as HTMLInputElement).value).toBe('acme.uspacy.ua');
    expect((within(dialog).getByLabelText('E-mail') as HTMLInputElement).value).toBe('anna@acme.ua');
    expect((within(dialog).getByLabelText('Пароль') as HTMLInputElement).value).toBe('');
    fireEvent.click(within(dialog).getByLabelText('Вхідний вебхук (рекомендовано)'));
    fireEvent.change(await within(dialog).findByLabelText('Адреса вхідного вебхука'), { target: { value: WEBHOOK } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Підключити' }));
    await vi.waitFor(() => expect(callsTo(fetch, 'POST /api/uspacy/connect')).toHaveLength(1));
    expect(callsTo(fetch, 'POST /api/uspacy/connect')[0]?.body).toEqual({
      mode: 'webhook',
      integrationId: US_ID,
      webhookUrl: WEBHOOK,
    });
    expect(await screen.findByText('Uspacy підключено')).toBeTruthy();
  });
});
