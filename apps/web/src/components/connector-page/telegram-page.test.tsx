import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadManifest } from '../../lib/connectors/manifests';
import { callsTo, makeIntegration, makeSetting, routeFetch } from '../../test/integration-fixtures';
import { jsonResponse, renderRoute } from '../../test/render';
import { ConnectorDetailPage } from './connector-pages';

afterEach(() => vi.unstubAllGlobals());

const ID = '88888888-8888-4888-8888-888888888888';
const TOKEN = '7000000100:AAH-demo-own-bot-token-0123456789abcdef';
// The generic page drawn from the connector's manifest, as /admin/integrations/:type/:id draws it.
const manifest = await loadManifest('telegram');
if (!manifest?.page) throw new Error('the telegram manifest describes no page');
const page = <ConnectorDetailPage manifest={{ ...manifest, page: manifest.page }} />;
const bot = (overrides = {}) =>
  makeIntegration({
    _id: ID,
    name: 'Менеджери',
    type: 'telegram',
    kind: 'destination',
    isConnected: false,
    ...overrides,
  });
const collections = {
  total: 1,
  data: [
    {
      _id: 'c-sales',
      name: 'Відділ продажу',
      items: [
        {
          id: 'i1',
          name: 'Олена',
          value: '101',
          telegram: { chatId: 5, username: 'olena', language: 'uk', linkedAt: 'x' },
        },
        { id: 'i2', name: 'Тарас', value: '102' },
      ],
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    },
  ],
};

function setup(account: object, connect?: (body: { mode: string; botToken?: string }) => Response | object) {
  return routeFetch({
    'GET /api/legacy/api/admin/integration/settings': [makeSetting('telegram', 'destination')],
    [`GET /api/integrations/${ID}`]: bot({ distributionId: 'c-sales' }),
    [`GET /api/telegram/account/${ID}`]: account,
    'GET /api/legacy/api/admin/collection': collections,
    'POST /api/telegram/connect': (_u: URL, init: RequestInit) => connect?.(JSON.parse(String(init.body))) ?? {},
  });
}
const open = (lang: 'uk' | 'en' = 'uk') =>
  renderRoute('/admin/integrations/telegram/:id', page, `/admin/integrations/telegram/${ID}`, lang);

describe('Telegram integration page', { timeout: 30_000 }, () => {
  it('connects the account’s own bot by its token and says which bot is used', async () => {
    const fetch = setup({ connected: false, platformAvailable: false, collectionId: 'c-sales' }, (body) => ({
      connected: true,
      mode: body.mode,
      botUsername: 'shop_sales_bot',
      platformAvailable: false,
      collectionId: 'c-sales',
    }));
    const user = userEvent.setup();
    open();
    // Without the platform's bot on this server, only the own bot can be chosen.
    expect(
      await screen.findByText('На цьому сервері недоступний: підключіть власного бота.', {}, { timeout: 5000 }),
    ).toBeTruthy();
    expect((screen.getByRole('radio', { name: /Бот LeadRelay/ }) as HTMLInputElement).disabled).toBe(true);
    await user.type(screen.getByLabelText('Токен бота'), 'not a token');
    await user.click(screen.getByRole('button', { name: 'Підключити' }));
    expect(await screen.findByText(/Це не токен бота/)).toBeTruthy();
    expect(callsTo(fetch, 'POST /api/telegram/connect')).toEqual([]);
    await user.clear(screen.getByLabelText('Токен бота'));
    await user.type(screen.getByLabelText('Токен бота'), TOKEN);
    await user.click(screen.getByRole('button', { name: 'Підключити' }));
    expect(await screen.findByText('@shop_sales_bot', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText('Власний бот')).toBeTruthy();
    expect(callsTo(fetch, 'POST /api/telegram/connect').map((c) => c.body)).toEqual([
      { integrationId: ID, mode: 'own', botToken: TOKEN },
    ]);
  });

  it('uses the platform’s bot, shows who of the managers linked their Telegram, and translates a refusal', async () => {
    setup({ connected: false, platformAvailable: true, collectionId: 'c-sales' }, () =>
      jsonResponse(424, { statusCode: 424, code: 'TELEGRAM_UNAVAILABLE', message: 'x' }),
    );
    const user = userEvent.setup();
    open('en');
    expect(await screen.findByText('@olena', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText('not linked yet')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Connect' }));
    await waitFor(() =>
      expect(screen.getByText('Telegram cannot be reached right now. Try again in a few minutes')).toBeTruthy(),
    );
  });
});
