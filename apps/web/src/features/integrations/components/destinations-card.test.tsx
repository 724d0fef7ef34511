import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callsTo, makeIntegration, makeSetting, routeFetch } from '../../../test/integration-fixtures';
import { renderPage } from '../../../test/render';
import { DestinationsCard } from './destinations-card';

afterEach(() => vi.unstubAllGlobals());

const SRC = '11111111-1111-4111-8111-111111111111';
const dest = (n: number, overrides = {}) =>
  makeIntegration({
    _id: `d${n}d${n}d${n}d${n}-0000-4000-8000-00000000000${n}`,
    name: `Destination ${n}`,
    type: 'http',
    kind: 'destination',
    settings: { url: 'https://crm.example.ua/leads' },
    ...overrides,
  });
const d1 = dest(1, { name: 'CRM вебхук', status: 'broken', statusReason: 'INTEGRATION_NOT_CONNECTED' });
const d2 = dest(2, { name: 'Резервний сервер', settings: {} });
const otherSource = makeIntegration({ _id: 'a3a3a3a3-0000-4000-8000-000000000003', name: 'Інша форма' });
const amo = dest(4, { name: 'Мій amoCRM', type: 'amocrm' });
const source = makeIntegration({ destination: [{ _id: d1._id, name: d1.name, type: 'http' }] });

function setup(current = [d1], extra: Record<string, unknown> = {}) {
  return routeFetch({
    // The webhook type allows only http destinations here.
    'GET /api/legacy/api/admin/integration/settings': [
      makeSetting('webhook', 'source', { destinations: [{ slug: 'http' }] }),
      makeSetting('http', 'destination'),
      makeSetting('amocrm', 'destination'),
    ],
    'GET /api/legacy/api/admin/integration/categories': [],
    [`GET /api/integrations/${SRC}/destinations`]: current,
    'GET /api/integrations': {
      data: [source, d1, d2, otherSource, amo],
      total: 5,
      filter: { page: 1, limit: 100 },
    },
    ...extra,
  });
}

describe('destinations picker', { timeout: 20_000 }, () => {
  it('lists the current destinations with their status and translated reason', async () => {
    setup();
    renderPage(<DestinationsCard integration={source} />, { locale: 'en', path: '/en/admin/integrations/webhook/x' });
    const row = await screen.findByTestId('destination-row');
    expect(within(row).getByText('CRM вебхук')).toBeTruthy();
    expect(within(row).getByText('Not working')).toBeTruthy();
    expect(within(row).getByText('The integration is not connected yet')).toBeTruthy();
    expect(within(row).getByRole('link', { name: 'CRM вебхук' }).getAttribute('href')).toBe(
      `/en/admin/integrations/http/${d1._id}`,
    );
  });

  it('offers only the account’s destinations of the types the catalogue allows, not those already added', async () => {
    setup();
    renderPage(<DestinationsCard integration={source} />, { locale: 'en', path: '/en/admin/integrations/webhook/x' });
    await screen.findByTestId('destination-row');
    await vi.waitFor(() =>
      expect(screen.getByLabelText('Choose a destination').closest('.ant-select-disabled')).toBeNull(),
    );
    fireEvent.mouseDown(screen.getByLabelText('Choose a destination'));
    const options = await screen.findAllByRole('option');
    const titles = [...document.querySelectorAll('.ant-select-item-option')].map((o) => o.getAttribute('title'));
    expect(options.length).toBeGreaterThan(0);
    expect(titles).toEqual(['Резервний сервер · HTTP webhook']);
  });

  it('adds a destination with PUT …/addDestination and removes one with …/removeDestination', async () => {
    const fetch = setup([d1], {
      [`PUT /api/legacy/api/admin/integration/${SRC}/addDestination`]: source,
      [`PUT /api/legacy/api/admin/integration/${SRC}/removeDestination`]: source,
    });
    renderPage(<DestinationsCard integration={source} />, { locale: 'en', path: '/en/admin/integrations/webhook/x' });
    await screen.findByTestId('destination-row');
    await vi.waitFor(() =>
      expect(screen.getByLabelText('Choose a destination').closest('.ant-select-disabled')).toBeNull(),
    );
    fireEvent.mouseDown(screen.getByLabelText('Choose a destination'));
    fireEvent.click(await screen.findByTitle('Резервний сервер · HTTP webhook'));
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Destination added')).toBeTruthy();
    expect(callsTo(fetch, `PUT /api/legacy/api/admin/integration/${SRC}/addDestination`)[0]?.body).toEqual({
      destination: d2._id,
    });

    fireEvent.click(screen.getByRole('button', { name: 'Remove “CRM вебхук”' }));
    expect(await screen.findByText('Destination removed')).toBeTruthy();
    expect(callsTo(fetch, `PUT /api/legacy/api/admin/integration/${SRC}/removeDestination`)[0]?.body).toEqual({
      destination: d1._id,
    });
  });

  it('is done as soon as the destination is added, even while the other lists are still reloading', async () => {
    const routed = setup([d1], { [`PUT /api/legacy/api/admin/integration/${SRC}/addDestination`]: source });
    let added = false;
    vi.stubGlobal('fetch', (input: string, init: RequestInit = {}) => {
      const key = `${init.method ?? 'GET'} ${new URL(input, 'http://localhost').pathname}`;
      if (key.startsWith('PUT ')) added = true;
      // A list that never answers after the change (a CRM that hangs, say).
      else if (added && key === 'GET /api/integrations') return new Promise(() => {});
      return routed(input, init);
    });
    renderPage(<DestinationsCard integration={source} />, { locale: 'en', path: '/en/admin/integrations/webhook/x' });
    await screen.findByTestId('destination-row');
    await vi.waitFor(() =>
      expect(screen.getByLabelText('Choose a destination').closest('.ant-select-disabled')).toBeNull(),
    );
    fireEvent.mouseDown(screen.getByLabelText('Choose a destination'));
    fireEvent.click(await screen.findByTitle('Резервний сервер · HTTP webhook'));
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Destination added')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add' }).classList.contains('ant-btn-loading')).toBe(false);
  });

  it('shows the server’s refusal translated', async () => {
    setup([d1], {
      [`PUT /api/legacy/api/admin/integration/${SRC}/addDestination`]: new Response(
        JSON.stringify({ statusCode: 400, code: 'DESTINATION_NOT_ALLOWED', message: 'x' }),
        { status: 400, headers: { 'Content-Type': 'application/json' } },
      ),
    });
    renderPage(<DestinationsCard integration={source} />, { locale: 'uk', path: '/admin/integrations/webhook/x' });
    await screen.findByTestId('destination-row');
    await vi.waitFor(() =>
      expect(screen.getByLabelText('Оберіть призначення').closest('.ant-select-disabled')).toBeNull(),
    );
    fireEvent.mouseDown(screen.getByLabelText('Оберіть призначення'));
    fireEvent.click(await screen.findByTitle('Резервний сервер · HTTP-вебхук'));
    fireEvent.click(screen.getByRole('button', { name: 'Додати' }));
    expect(await screen.findByText('Це призначення не можна під’єднати до цієї інтеграції')).toBeTruthy();
  });

  it('says when there are no destinations yet', async () => {
    setup([]);
    renderPage(<DestinationsCard integration={makeIntegration()} />, {
      locale: 'en',
      path: '/en/admin/integrations/webhook/x',
    });
    expect(await screen.findByText('No destinations yet: leads are stored but sent nowhere.')).toBeTruthy();
  });
});
