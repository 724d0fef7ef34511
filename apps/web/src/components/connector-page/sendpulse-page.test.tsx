import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadManifest } from '../../lib/connectors/manifests';
import { listPath } from '../../test/crm-fixtures';
import { callsTo, makeIntegration, makeSetting, routeFetch } from '../../test/integration-fixtures';
import { choose, renderRoute } from '../../test/render';
import { ConnectorDetailPage } from './connector-pages';

afterEach(() => vi.unstubAllGlobals());

const ID = '88888888-8888-4888-8888-888888888888';
// The generic page drawn from the connector's manifest, as /admin/integrations/:type/:id draws it.
const manifest = await loadManifest('sendpulse');
if (!manifest?.page) throw new Error('the sendpulse manifest describes no page');
const page = <ConnectorDetailPage manifest={{ ...manifest, page: manifest.page }} />;
const connectPut = `PUT /api/admin/integration/${ID}/connect`;
const settings = { channel: 'whatsapp', botId: 'bot-7', matchVariable: 'tel', pipelineId: 5, stepId: 51 };
const sendpulse = (overrides = {}) =>
  makeIntegration({
    _id: ID,
    name: 'Чат-бот магазину',
    type: 'sendpulse',
    kind: 'destination',
    isConnected: true,
    settings,
    ...overrides,
  });

function setup(integration = sendpulse()) {
  return routeFetch({
    'GET /api/legacy/api/admin/integration/settings': [makeSetting('sendpulse', 'destination')],
    [`GET /api/integrations/${ID}`]: integration,
    [listPath(ID, 'sendpulse', 'pipelines')]: [
      { id: 4, name: 'Роздріб', steps: [{ id: 41, name: 'Новий' }] },
      {
        id: 5,
        name: 'Опт',
        steps: [
          { id: 51, name: 'Запит' },
          { id: 52, name: 'Рахунок' },
        ],
      },
    ],
    [connectPut]: (_u: URL, init: RequestInit) => ({
      ok: true,
      status: 'ok',
      integration: { ...integration, settings: JSON.parse(init.body as string).settings ?? integration.settings },
    }),
  });
}

/** The errors the form shows under its fields. */
const fieldErrors = () => [...document.querySelectorAll('.ant-form-item-explain-error')].map((e) => e.textContent);
const connectionCard = async (title: string) =>
  within((await screen.findByText(title, {}, { timeout: 5000 })).closest('.ant-card') as HTMLElement);

const open = (tab = 'connection', language: 'uk' | 'en' = 'en') =>
  language === 'en'
    ? renderRoute(
        '/en/admin/integrations/sendpulse/:id',
        page,
        `/en/admin/integrations/sendpulse/${ID}?tab=${tab}`,
        'en',
      )
    : renderRoute('/admin/integrations/sendpulse/:id', page, `/admin/integrations/sendpulse/${ID}?tab=${tab}`, 'uk');

describe('SendPulse integration page', { timeout: 30_000 }, () => {
  it('shows the chatbot settings; the app ID and Secret only as stored, typed anew together', async () => {
    const fetch = setup();
    open();
    const card = await connectionCard('SendPulse connection');
    expect((screen.getByLabelText('Bot ID') as HTMLInputElement).value).toBe('bot-7');
    expect((screen.getByLabelText('Variable with the phone') as HTMLInputElement).value).toBe('tel');
    expect(screen.getByTitle('WhatsApp')).toBeTruthy();
    // Never shown back: neither the ID nor the Secret has a box until they are replaced.
    expect(screen.getByText('Set')).toBeTruthy();
    expect(screen.queryByLabelText('ID')).toBeNull();
    fireEvent.click(card.getByRole('button', { name: 'Replace' }));
    fireEvent.change(screen.getByLabelText('ID'), { target: { value: 'client-2' } });
    fireEvent.click(card.getByRole('button', { name: 'Save' }));
    // The ID alone is refused on the spot with the line that says where both are found.
    await vi.waitFor(() =>
      expect(fieldErrors()).toEqual(['The ID and Secret of a REST API app: in SendPulse open Settings → API.']),
    );
    expect(callsTo(fetch, connectPut)).toHaveLength(0);

    fireEvent.change(screen.getByLabelText('Secret'), { target: { value: ' secret-2 ' } });
    fireEvent.click(card.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(callsTo(fetch, connectPut)).toHaveLength(1));
    // The deal's pipeline and step, set on the other tab, are kept.
    expect(callsTo(fetch, connectPut)[0]?.body).toEqual({
      auth: { clientId: 'client-2', clientSecret: 'secret-2' },
      settings,
    });
    expect((await screen.findByRole('status')).textContent).toContain('Connected');
  });

  it('not connected yet: asks for both in Ukrainian and connects with the channel chosen', async () => {
    const fetch = setup(sendpulse({ isConnected: false, settings: {}, state: { code: 'not_connected' } }));
    open('connection', 'uk');
    const card = await connectionCard('Підключення SendPulse');
    fireEvent.click(card.getByRole('button', { name: 'Підключити' }));
    const where = 'ID і секрет застосунку REST API: у SendPulse відкрийте Налаштування → API.';
    await vi.waitFor(() => expect(fieldErrors()).toEqual([where, where]));
    expect(callsTo(fetch, connectPut)).toHaveLength(0);

    fireEvent.change(screen.getByLabelText('ID'), { target: { value: 'client-1' } });
    fireEvent.change(screen.getByLabelText('Секрет'), { target: { value: 'secret-1' } });
    await choose('Канал чат-бота', 'Онлайн-чат');
    fireEvent.change(screen.getByLabelText('Змінна з телефоном'), { target: { value: '' } });
    fireEvent.click(card.getByRole('button', { name: 'Підключити' }));
    await vi.waitFor(() => expect(callsTo(fetch, connectPut)).toHaveLength(1));
    // An emptied variable is left to the server's default (phone); an empty bot means every bot.
    expect(callsTo(fetch, connectPut)[0]?.body).toEqual({
      auth: { clientId: 'client-1', clientSecret: 'secret-1' },
      settings: { channel: 'livechat' },
    });
  });

  it('a lead also becomes a deal in the pipeline and step chosen, the chatbot settings kept', async () => {
    const fetch = setup();
    open('deals');
    expect(await screen.findByLabelText('Pipeline', {}, { timeout: 5000 })).toBeTruthy();
    await choose('Pipeline', 'Роздріб');
    await choose('Step', 'Новий');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(callsTo(fetch, connectPut)).toHaveLength(1));
    expect(callsTo(fetch, connectPut)[0]?.body).toEqual({
      settings: { ...settings, pipelineId: 4, stepId: 41 },
    });
  });
});
