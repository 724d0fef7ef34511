import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { connectorPages, listPath, PD_ID, pdIntegration } from '../../test/crm-fixtures';
import { callsTo, makeSetting, routeFetch } from '../../test/integration-fixtures';
import { choose, jsonResponse, renderRoute } from '../../test/render';

afterEach(() => vi.unstubAllGlobals());

const PATTERN = '/en/admin/integrations/pipedrive/:id';
// The generic page drawn from Pipedrive's manifest, as /admin/integrations/:type/:id draws it.
const page = (await connectorPages('pipedrive')).detail;
const connectPut = `PUT /api/admin/integration/${PD_ID}/connect`;
const hooksPath = `/api/pipedrive/webhooks/${PD_ID}`;

const pipelines = [
  { id: 1, name: 'Основна', stages: [{ id: 11, name: 'Кваліфікація', order_nr: 1 }] },
  {
    id: 2,
    name: 'Партнери',
    stages: [
      { id: 22, name: 'Переговори', order_nr: 2 },
      { id: 21, name: 'Запит', order_nr: 1 },
    ],
  },
];
const field = (id: number | undefined, key: string, name: string) => ({ id, key, name, field_type: 'varchar' });

function setup(integration = pdIntegration(), extra: Record<string, unknown> = {}) {
  return routeFetch({
    'GET /api/legacy/api/admin/integration/settings': [makeSetting('pipedrive', 'destination')],
    [`GET /api/integrations/${PD_ID}`]: integration,
    [listPath(PD_ID, 'pipedrive', 'stages')]: { data: pipelines },
    [listPath(PD_ID, 'pipedrive', 'dealFields')]: {
      data: [field(1, 'title', 'Назва'), field(undefined, 'broken', 'Без id'), field(3, 'a1b2'.repeat(10), 'Бюджет')],
    },
    [listPath(PD_ID, 'pipedrive', 'personFields')]: [field(4, 'email', 'Email'), field(5, 'c3d4'.repeat(10), 'Посада')],
    [listPath(PD_ID, 'pipedrive', 'organizationFields')]: [field(6, 'name', 'Назва організації')],
    [listPath(PD_ID, 'pipedrive', 'users')]: [
      { id: '31', name: 'Марія Шевчук' },
      { id: '32', name: 'Тарас Бойко' },
    ],
    [listPath(PD_ID, 'pipedrive', 'activityTypes')]: [
      { id: 1, key: 'call', name: 'Дзвінок' },
      { id: 2, key: 'meeting', name: 'Зустріч' },
    ],
    [`GET ${hooksPath}`]: [],
    [connectPut]: (_u: URL, init: RequestInit) => ({
      ok: true,
      status: 'ok',
      integration: { ...integration, settings: JSON.parse(init.body as string).settings },
    }),
    ...extra,
  });
}

describe('Pipedrive integration page', { timeout: 30_000 }, () => {
  it('deal target: pipeline then its stage, a follow-up activity and an owner are saved', async () => {
    const fetch = setup();
    renderRoute(PATTERN, page, `/en/admin/integrations/pipedrive/${PD_ID}?tab=pipeline`);
    fireEvent.click(await screen.findByLabelText('A deal in a pipeline', {}, { timeout: 5000 }));
    // Pipeline and stage are offered for deals only.
    expect(await screen.findByLabelText('Pipeline', {}, { timeout: 5000 })).toBeTruthy();
    await choose('Pipeline', 'Партнери');
    await vi.waitFor(() => expect(screen.getByLabelText('Stage').closest('.ant-select-disabled')).toBeNull());
    fireEvent.mouseDown(screen.getByLabelText('Stage'));
    // The chosen pipeline's stages, in Pipedrive's order.
    await screen.findByTitle('Запит');
    const dropdown = [...document.querySelectorAll('.ant-select-dropdown')].at(-1) as HTMLElement;
    const titles = [...dropdown.querySelectorAll('.ant-select-item-option')].map((o) => o.getAttribute('title'));
    expect(titles).toEqual(['Запит', 'Переговори']);
    fireEvent.click(screen.getByTitle('Переговори'));
    fireEvent.click(screen.getByRole('switch', { name: 'Follow-up activity' }));
    await choose('Activity type', 'Дзвінок');
    await choose('Owner', 'Тарас Бойко');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    await vi.waitFor(() => expect(callsTo(fetch, connectPut)).toHaveLength(1));
    expect(callsTo(fetch, connectPut)[0]?.body).toEqual({
      settings: {
        target: 'deal',
        pipelineId: 2,
        stageId: 22,
        organization: false,
        note: true,
        activity: { type: 'call', dueInMinutes: 60 },
        ownerId: 32,
      },
    });
    expect(await screen.findByText('Saved successfully')).toBeTruthy();
  });

  it('maps lead fields to the real person and deal fields; fields without an id are not offered', async () => {
    const fetch = setup();
    renderRoute(PATTERN, page, `/en/admin/integrations/pipedrive/${PD_ID}?tab=fields`);
    fireEvent.click(await screen.findByRole('button', { name: /Add a field/ }));
    fireEvent.change(screen.getByRole('combobox', { name: 'Lead field, row 1' }), {
      target: { value: 'custom.position' },
    });
    fireEvent.mouseDown(screen.getByLabelText('CRM field, row 1'));
    await screen.findByTitle('Посада');
    expect(screen.queryByTitle('Без id')).toBeNull();
    fireEvent.click(screen.getByTitle('Посада'));
    fireEvent.click(screen.getByRole('button', { name: /Add a field/ }));
    fireEvent.change(screen.getByRole('combobox', { name: 'Lead field, row 2' }), { target: { value: 'comment' } });
    await choose('CRM field, row 2', 'Бюджет');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    await vi.waitFor(() => expect(callsTo(fetch, connectPut)).toHaveLength(1));
    expect((callsTo(fetch, connectPut)[0]!.body as { settings: { fields: unknown } }).settings.fields).toEqual([
      { from: 'custom.position', entity: 'person', key: 'c3d4'.repeat(10) },
      { from: 'comment', entity: 'deal', key: 'a1b2'.repeat(10) },
    ]);
  });

  it('lists the CRM webhooks, creates one and deletes one', async () => {
    let hooks = [{ id: '77', url: 'https://shop.example.ua/pd', event: 'change.deal', active: true }];
    const fetch = setup(pdIntegration(), {
      [`GET ${hooksPath}`]: () => hooks,
      [`POST ${hooksPath}`]: (_u: URL, init: RequestInit) => {
        const body = JSON.parse(init.body as string);
        const created = { id: '78', url: body.url, event: body.event, active: true };
        hooks = [...hooks, created];
        return created;
      },
      [`DELETE ${hooksPath}`]: (url: URL) => {
        hooks = hooks.filter((h) => h.id !== url.searchParams.get('id'));
        return { success: true };
      },
    });
    renderRoute(PATTERN, page, `/en/admin/integrations/pipedrive/${PD_ID}?tab=webhooks`);
    expect(await screen.findByText('https://shop.example.ua/pd')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Address (https)'), { target: { value: 'https://crm.example.ua/in' } });
    await choose('What', 'Person');
    fireEvent.click(screen.getByRole('button', { name: /Add webhook/ }));
    await vi.waitFor(() => expect(screen.getAllByTestId('pipedrive-webhook')).toHaveLength(2));
    expect(callsTo(fetch, `POST ${hooksPath}`)[0]?.body).toEqual({
      url: 'https://crm.example.ua/in',
      event: '*.person',
    });

    const first = screen.getAllByTestId('pipedrive-webhook')[0] as HTMLElement;
    fireEvent.click(within(first).getByRole('button', { name: /Delete webhook/ }));
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    await vi.waitFor(() => expect(screen.getAllByTestId('pipedrive-webhook')).toHaveLength(1));
    expect(callsTo(fetch, `DELETE ${hooksPath}`)[0]?.url.searchParams.get('id')).toBe('77');
    expect(await screen.findByText('Deleted successfully')).toBeTruthy();
  });

  it('refuses a webhook address that is not a URL before calling Pipedrive', async () => {
    const fetch = setup();
    renderRoute(PATTERN, page, `/en/admin/integrations/pipedrive/${PD_ID}?tab=webhooks`);
    fireEvent.change(await screen.findByLabelText('Address (https)'), { target: { value: 'crm example' } });
    fireEvent.click(screen.getByRole('button', { name: /Add webhook/ }));
    expect(
      await screen.findByText('Enter a full address, e.g. https://example.com/pipedrive', {}, { timeout: 5000 }),
    ).toBeTruthy();
    expect(callsTo(fetch, `POST ${hooksPath}`)).toHaveLength(0);
  });

  it('not connected: every CRM card says "connect first"; Connect opens Pipedrive in a new tab', async () => {
    const tab = { closed: false, opener: {}, location: { href: '' }, close: vi.fn() };
    const open = vi.fn(() => tab);
    vi.stubGlobal('open', open);
    const fetch = setup(pdIntegration({ isConnected: false, settings: {} }), {
      'POST /pipedrive/state': { state: 'st-1' },
      'POST /pipedrive/start': { authUrl: 'https://oauth.pipedrive.com/oauth/authorize?state=st-1' },
    });
    renderRoute(PATTERN, page, `/en/admin/integrations/pipedrive/${PD_ID}?tab=webhooks`);
    expect(await screen.findByText('Connect the CRM first')).toBeTruthy();
    expect(fetch.mock.calls.filter(([u]) => String(u).includes('/pipedrive/'))).toHaveLength(0);

    fireEvent.click(screen.getByRole('tab', { name: 'Connection' }));
    fireEvent.click(screen.getByRole('button', { name: /Connect Pipedrive/ }));
    await vi.waitFor(() => expect(tab.location.href).toBe('https://oauth.pipedrive.com/oauth/authorize?state=st-1'));
    expect(open).toHaveBeenCalledWith('', '_blank');
    expect(tab.opener).toBeNull();
    expect(callsTo(fetch, 'POST /pipedrive/state')[0]?.body).toEqual({ integrationId: PD_ID, locale: 'en' });
    expect(callsTo(fetch, 'POST /pipedrive/start')[0]?.body).toEqual({ state: 'st-1' });
  });

  it('connects with an API token instead, and shows a translated refusal', async () => {
    let answer: Response | object = jsonResponse(400, { statusCode: 400, code: 'CONNECTION_FAILED', message: 'x' });
    const fetch = setup(pdIntegration({ isConnected: false, settings: {} }), {
      'POST /api/legacy/api/pipedrive/connect': () => answer,
    });
    renderRoute(PATTERN, page, `/en/admin/integrations/pipedrive/${PD_ID}`);
    fireEvent.click(await screen.findByText('Use an API token instead'));
    expect(screen.getByTestId('crm-reaction-note').textContent).toContain('another stage in Pipedrive');
    fireEvent.change(screen.getByLabelText('API token'), { target: { value: '0123456789abcdef' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save token' }));
    expect(await screen.findByText('Could not connect to the service')).toBeTruthy();
    answer = { integrationId: PD_ID, type: 'pipedrive' };
    fireEvent.click(screen.getByRole('button', { name: 'Save token' }));
    expect(await screen.findByText('Saved successfully')).toBeTruthy();
    expect(callsTo(fetch, 'POST /api/legacy/api/pipedrive/connect').map((c) => c.body)).toEqual([
      { integrationId: PD_ID, apiToken: '0123456789abcdef' },
      { integrationId: PD_ID, apiToken: '0123456789abcdef' },
    ]);
  });

  it('says whether Pipedrive tells LeadRelay of stage changes, and why not, in Ukrainian', async () => {
    let watch: object = { state: 'watching', since: '2026-11-27T10:00:00.000Z', reason: null, nextTryAt: null };
    setup(pdIntegration(), { [`GET /api/integrations/${PD_ID}/crm-watch`]: () => watch });
    renderRoute('/admin/integrations/pipedrive/:id', page, `/admin/integrations/pipedrive/${PD_ID}`, 'uk');
    expect(await screen.findByText('✓ Вебхук у Pipedrive налаштовано: зміни етапу надходять у LeadRelay')).toBeTruthy();
    cleanup();

    watch = {
      state: 'failed',
      since: '2026-11-27T10:00:00.000Z',
      reason: 'HTTP 403: You do not have permission to manage webhooks',
      nextTryAt: '2026-11-27T16:00:00.000Z',
    };
    renderRoute('/admin/integrations/pipedrive/:id', page, `/admin/integrations/pipedrive/${PD_ID}`, 'uk');
    const alert = await screen.findByTestId('crm-watch-state');
    expect(alert.textContent).toContain('Pipedrive не прийняв вебхук LeadRelay');
    expect(alert.textContent).toMatch(/Спробуємо знову .*27/);
    expect(alert.textContent).toContain('підключити Pipedrive від імені адміністратора');
    // The CRM's own words only under "technical details", folded.
    const details = within(alert).getByTestId('reason-details');
    expect(details.hasAttribute('open')).toBe(false);
    expect(details.querySelector('code')?.textContent).toBe('You do not have permission to manage webhooks');
  });
});
