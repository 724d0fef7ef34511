import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadManifest } from '../../lib/connectors/manifests';
import { callsTo, makeIntegration, makeSetting, routeFetch } from '../../test/integration-fixtures';
import { renderRoute } from '../../test/render';
import { ConnectorDetailPage } from './connector-pages';

afterEach(() => vi.unstubAllGlobals());

const ID = '88888888-8888-4888-8888-888888888888';
// The generic page drawn from the connector's manifest, as /admin/integrations/:type/:id draws it.
const manifest = await loadManifest('ga');
if (!manifest?.page) throw new Error('the ga manifest describes no page');
const page = <ConnectorDetailPage manifest={{ ...manifest, page: manifest.page }} />;
const connectPut = `PUT /api/admin/integration/${ID}/connect`;
const debugPost = `POST /api/integrations/${ID}/actions/debug`;
const settings = {
  measurementId: 'G-ABC1234',
  region: 'global',
  eventName: 'generate_lead',
  currency: 'UAH',
  clientIdField: 'custom._ga',
  utm: true,
  params: [],
};
const ga = (overrides = {}) =>
  makeIntegration({
    _id: ID,
    name: 'GA4 сайт',
    type: 'ga',
    kind: 'destination',
    isConnected: true,
    settings,
    ...overrides,
  });

function setup(debug: unknown = { valid: true, issues: [], validationMessages: [], payload: {} }) {
  const integration = ga();
  return routeFetch({
    'GET /api/legacy/api/admin/integration/settings': [makeSetting('ga', 'destination')],
    [`GET /api/integrations/${ID}`]: integration,
    [debugPost]: debug,
    [connectPut]: (_u: URL, init: RequestInit) => ({
      ok: true,
      status: 'ok',
      integration: { ...integration, settings: JSON.parse(init.body as string).settings ?? integration.settings },
    }),
  });
}

describe('GA4 integration page', { timeout: 30_000 }, () => {
  it('a reserved event name or a bad parameter is refused on the spot; a good one saves with its parameters', async () => {
    const fetch = setup();
    renderRoute('/en/admin/integrations/ga/:id', page, `/en/admin/integrations/ga/${ID}?tab=event`, 'en');
    const name = await screen.findByLabelText('Event name', {}, { timeout: 5000 });
    fireEvent.change(name, { target: { value: 'session_start' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save the event' }));
    expect(await screen.findByText('Google reserves this name or prefix', {}, { timeout: 5000 })).toBeTruthy();
    expect(callsTo(fetch, connectPut)).toHaveLength(0);

    fireEvent.change(name, { target: { value: 'lead_form' } });
    fireEvent.click(screen.getByRole('button', { name: /Add a parameter/ }));
    fireEvent.change(screen.getByLabelText('Parameter name'), { target: { value: '1city' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save the event' }));
    expect(
      await screen.findByText('Latin letters, digits and _ only, a letter first', {}, { timeout: 5000 }),
    ).toBeTruthy();
    expect(callsTo(fetch, connectPut)).toHaveLength(0);

    fireEvent.change(screen.getByLabelText('Parameter name'), { target: { value: 'city' } });
    fireEvent.change(screen.getByLabelText('Lead field'), { target: { value: 'custom.city' } });
    fireEvent.change(screen.getByLabelText('Value'), { target: { value: '250' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save the event' }));
    await vi.waitFor(() => expect(callsTo(fetch, connectPut)).toHaveLength(1));
    expect(callsTo(fetch, connectPut)[0]?.body).toEqual({
      settings: { ...settings, eventName: 'lead_form', value: 250, params: [{ name: 'city', from: 'custom.city' }] },
    });
  });

  it("a test lead shows Google's validation messages in the user's language", async () => {
    const fetch = setup({
      valid: false,
      issues: [],
      validationMessages: [
        {
          fieldPath: 'events',
          description: 'Event at index: [0] has name [x] which is reserved.',
          validationCode: 'NAME_RESERVED',
        },
      ],
      payload: { client_id: '1.2', events: [{ name: 'x', params: {} }] },
    });
    renderRoute('/admin/integrations/ga/:id', page, `/admin/integrations/ga/${ID}?tab=event`, 'uk');
    fireEvent.change(await screen.findByLabelText('Cookie _ga', {}, { timeout: 5000 }), {
      target: { value: 'GA1.1.5.6' },
    });
    fireEvent.click(screen.getByRole('button', { name: /Надіслати тестовий лід/ }));
    expect(await screen.findByText('Google знайшов 1 помилку', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText('Назву зарезервовано Google')).toBeTruthy();
    expect(screen.getByText('Відповідь Google: Event at index: [0] has name [x] which is reserved.')).toBeTruthy();
    expect(callsTo(fetch, debugPost)[0]?.body).toEqual({ lead: { custom: { _ga: 'GA1.1.5.6' } } });
  });

  it('a test lead Google accepts says so', async () => {
    setup();
    renderRoute('/en/admin/integrations/ga/:id', page, `/en/admin/integrations/ga/${ID}?tab=event`, 'en');
    fireEvent.click(await screen.findByRole('button', { name: /Send a test lead/ }, { timeout: 5000 }));
    expect(await screen.findByText('Google accepted the event', {}, { timeout: 5000 })).toBeTruthy();
  });

  it('the secret is write-only; the measurement id is checked before saving', async () => {
    const fetch = setup();
    renderRoute('/en/admin/integrations/ga/:id', page, `/en/admin/integrations/ga/${ID}`, 'en');
    expect(await screen.findByText('Set', {}, { timeout: 5000 })).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Measurement ID'), { target: { value: 'ua-123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save and check' }));
    expect(await screen.findByText('An id like G-XXXXXXXXXX', {}, { timeout: 5000 })).toBeTruthy();
    expect(callsTo(fetch, connectPut)).toHaveLength(0);
    fireEvent.change(screen.getByLabelText('Measurement ID'), { target: { value: 'g-new9999' } });
    fireEvent.click(screen.getByLabelText('European Union'));
    fireEvent.click(screen.getByRole('button', { name: 'Save and check' }));
    await vi.waitFor(() => expect(callsTo(fetch, connectPut)).toHaveLength(1));
    expect(callsTo(fetch, connectPut)[0]?.body).toEqual({
      settings: { ...settings, measurementId: 'G-NEW9999', region: 'eu' },
    });
  });
});
