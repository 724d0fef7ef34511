// The Horoshop source on the generic source integration page (/admin/integrations/horoshop/:id), drawn
// from the cards its manifest declares, calling the generic source paths.
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callsTo, makeIntegration, makeSetting, routeFetch } from '../../../test/integration-fixtures';
import { jsonResponse, renderRoute } from '../../../test/render';
import { IntegrationPage } from './integration-page';

afterEach(() => vi.unstubAllGlobals());

const ID = '22222222-2222-4222-8222-222222222222';
const PATTERN = '/:lang/admin/integrations/:type/:id';
const url = (lang: 'en' | 'uk', tab = 'settings') =>
  `${lang === 'en' ? '/en' : '/uk'}/admin/integrations/horoshop/${ID}?tab=${tab}`;

const shop = (connected: boolean) =>
  makeIntegration({
    _id: ID,
    type: 'horoshop',
    name: 'Кавовий магазин',
    isConnected: connected,
    settings: connected ? { shopUrl: 'https://coffee.com.ua' } : {},
  });

// What GET /api/integrations/:id/source answers for Horoshop (packages/connectors/src/horoshop/schema.ts ZHoroshopState).
function state(overrides: Record<string, unknown> = {}) {
  return {
    shopUrl: 'https://coffee.com.ua',
    authMode: 'password',
    login: 'api',
    webhook: { status: 'active', registeredAt: '2026-11-20T10:00:00.000Z', removedAt: null },
    poll: { polledUntil: '2026-11-24T10:00:00.000Z', lastPollAt: '2026-11-24T10:00:00.000Z', lastError: null },
    orders: [
      {
        orderId: '1024',
        name: 'Олена Коваленко',
        phone: '+380671234567',
        total: '4500',
        currency: 'UAH',
        via: 'webhook',
        timesSeen: 2,
        hookId: 'h1',
        status: 'delivered',
        receivedAt: '2026-11-24T09:58:00.000Z',
        lastSeenAt: '2026-11-24T10:03:00.000Z',
      },
    ],
    ...overrides,
  };
}

function setup(routes: Record<string, unknown>) {
  return routeFetch({
    'GET /api/legacy/api/admin/integration/settings': [makeSetting('horoshop', 'source', { name: 'Horoshop' })],
    'GET /api/legacy/api/admin/integration/categories': [],
    'GET /api/hook': { data: [], total: 0 },
    ...routes,
  });
}

describe('Horoshop integration page', { timeout: 30_000 }, () => {
  it('not connected: asks for the shop and its API admin, and sends them once (never shown again)', async () => {
    const fetch = setup({
      [`GET /api/integrations/${ID}`]: shop(false),
      [`GET /api/integrations/${ID}/source`]: state({ shopUrl: null, authMode: 'none', login: null, orders: [] }),
      [`POST /api/integrations/${ID}/connect`]: { data: { integration: shop(true) } },
    });
    renderRoute(PATTERN, <IntegrationPage />, url('en'));
    const form = await screen.findByTestId('connect-form', {}, { timeout: 5000 });
    expect(screen.getByText(/No orders yet/)).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('Shop address'), { target: { value: 'not a shop' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Connect' }));
    expect(await within(form).findByText("Enter the Horoshop shop's address, e.g. myshop.com.ua")).toBeTruthy();
    expect(await within(form).findAllByText('This field is required')).toHaveLength(2);

    fireEvent.change(within(form).getByLabelText('Shop address'), { target: { value: 'coffee.com.ua' } });
    fireEvent.change(within(form).getByLabelText('API admin login'), { target: { value: 'api' } });
    fireEvent.change(within(form).getByLabelText('Password'), { target: { value: 'Secret-1' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Connect' }));
    await vi.waitFor(() => expect(callsTo(fetch, `POST /api/integrations/${ID}/connect`)).toHaveLength(1));
    expect(callsTo(fetch, `POST /api/integrations/${ID}/connect`)[0]?.body).toEqual({
      domain: 'coffee.com.ua',
      login: 'api',
      password: 'Secret-1',
    });
  });

  it('a refused password is said on the form, in Ukrainian', async () => {
    setup({
      [`GET /api/integrations/${ID}`]: shop(false),
      [`GET /api/integrations/${ID}/source`]: state({ shopUrl: null, authMode: 'none', login: null, orders: [] }),
      [`POST /api/integrations/${ID}/connect`]: () =>
        jsonResponse(400, { statusCode: 400, code: 'HOROSHOP_AUTH_FAILED', message: 'Incorrect login or password' }),
    });
    renderRoute(PATTERN, <IntegrationPage />, url('uk'), 'uk');
    const form = await screen.findByTestId('connect-form', {}, { timeout: 5000 });
    fireEvent.change(within(form).getByLabelText('Адреса магазину'), { target: { value: 'coffee.com.ua' } });
    fireEvent.change(within(form).getByLabelText('Логін API-адміна'), { target: { value: 'api' } });
    fireEvent.change(within(form).getByLabelText('Пароль'), { target: { value: 'wrong' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Підключити' }));
    const alert = await within(form).findByRole('alert');
    expect(alert.textContent).toContain('Магазин не прийняв логін і пароль');
    expect(alert.textContent).not.toContain('Incorrect');
  });

  it('connected: the shop, the webhook, the check and the last orders with their repeats and lead status', async () => {
    const fetch = setup({
      [`GET /api/integrations/${ID}`]: shop(true),
      [`GET /api/integrations/${ID}/source`]: state(),
      [`POST /api/integrations/${ID}/source/poll`]: {
        data: state({
          poll: { polledUntil: null, lastPollAt: '2026-11-24T10:05:00.000Z', lastError: 'HOROSHOP_UNAVAILABLE' },
        }),
      },
    });
    renderRoute(PATTERN, <IntegrationPage />, url('en'));
    const card = await screen.findByTestId('connect-card', {}, { timeout: 5000 });
    expect(within(card).getByText('coffee.com.ua')).toBeTruthy();
    expect(within(card).getByText('API admin api: the token is renewed automatically')).toBeTruthy();
    expect(within(card).getByText(/^Active since/)).toBeTruthy();
    const orders = screen.getByTestId('source-items');
    expect(within(orders).getByText('No. 1024')).toBeTruthy();
    expect(within(orders).getByText('Олена Коваленко')).toBeTruthy();
    expect(within(orders).getByText(/4,500\.00/)).toBeTruthy();
    expect(within(orders).getByTestId('times-seen').textContent).toBe('× 2');
    expect(within(orders).getByText('Delivered')).toBeTruthy();

    fireEvent.click(within(card).getByRole('button', { name: 'Check now' }));
    await vi.waitFor(() => expect(callsTo(fetch, `POST /api/integrations/${ID}/source/poll`)).toHaveLength(1));
    expect(await within(card).findByText('The shop is not answering. Try again in a few minutes')).toBeTruthy();
  });

  it("the mapping's sample is a typical order as the server makes it", async () => {
    setup({
      [`GET /api/integrations/${ID}`]: shop(true),
      [`GET /api/integrations/${ID}/source`]: state(),
    });
    renderRoute(PATTERN, <IntegrationPage />, url('en', 'mapping'));
    const sample = (await screen.findByLabelText(
      'Sample request (JSON)',
      {},
      { timeout: 5000 },
    )) as HTMLTextAreaElement;
    expect(JSON.parse(sample.value)).toMatchObject({ order_id: '1024', name: 'Олена Коваленко', total: '4500' });
  });
});
