import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callsTo, makeIntegration, makeSetting, routeFetch } from '../../../test/integration-fixtures';
import { renderPage } from '../../../test/render';
import { IntegrationsPage } from './integrations-page';

afterEach(() => vi.unstubAllGlobals());

const catalogue = [makeSetting('http', 'destination'), makeSetting('webhook', 'source')];
const form = makeIntegration({ name: 'Форма на сайті', destination: [{ _id: 'd1', name: 'CRM', type: 'http' }] });
const crm = makeIntegration({
  _id: '22222222-2222-4222-8222-222222222222',
  name: 'CRM вебхук',
  type: 'http',
  kind: 'destination',
  active: false,
  status: 'broken',
  statusReason: 'HTTP 404: not found',
});

/** The list answers by the query the page sends, as the server filters. */
function listRoute(all = [form, crm]) {
  return (url: URL) => {
    const active = url.searchParams.get('active');
    const type = url.searchParams.get('type');
    const data = all.filter(
      (i) => (active === null || String(i.active) === active) && (type === null || i.type === type),
    );
    return {
      data,
      total: data.length,
      filter: { page: Number(url.searchParams.get('page')), limit: Number(url.searchParams.get('limit')) },
    };
  };
}

function setup(all = [form, crm]) {
  return routeFetch({
    'GET /api/legacy/api/admin/integration/settings': catalogue,
    'GET /api/legacy/api/admin/integration/categories': [],
    'GET /api/integrations': listRoute(all),
  });
}

/** Opens an antd Select by its label and picks an option. */
async function choose(label: string, option: string) {
  const select = screen.getByLabelText(label);
  fireEvent.mouseDown(select);
  const item = await screen.findByTitle(option);
  fireEvent.click(item);
}

describe('integrations list', { timeout: 20_000 }, () => {
  it('shows name, type with its catalogue name, state, status with the reason in red, destinations count', async () => {
    setup();
    renderPage(<IntegrationsPage />, { locale: 'en', path: '/en/admin/integrations' });
    const row = (await screen.findByText('CRM вебхук')).closest('tr') as HTMLElement;
    expect(within(row).getByText('HTTP webhook')).toBeTruthy();
    // Switched off says so first, whatever its last connection error was.
    expect(within(row).getByText('Switched off')).toBeTruthy();
    expect(within(row).queryByText(/HTTP 404/)).toBeNull();
    expect(within(row).getByRole('switch').getAttribute('aria-checked')).toBe('false');
    const formRow = screen.getByText('Форма на сайті').closest('tr') as HTMLElement;
    expect(within(formRow).getByText('1 destination')).toBeTruthy();
    expect(within(formRow).getByText('Working')).toBeTruthy();
  });

  it('filters by state and by type, asking the server with the filter', async () => {
    const fetch = setup();
    renderPage(<IntegrationsPage />, { locale: 'en', path: '/en/admin/integrations' });
    await screen.findByText('CRM вебхук');

    await choose('State', 'Inactive only');
    await vi.waitFor(() => expect(screen.queryByText('Форма на сайті')).toBeNull());
    expect(screen.getByText('CRM вебхук')).toBeTruthy();
    expect(callsTo(fetch, 'GET /api/integrations').at(-1)?.url.searchParams.get('active')).toBe('false');

    await choose('State', 'Active and inactive');
    await choose('Type', 'Webhook');
    await vi.waitFor(() => expect(screen.queryByText('CRM вебхук')).toBeNull());
    expect(screen.getByText('Форма на сайті')).toBeTruthy();
    const last = callsTo(fetch, 'GET /api/integrations').at(-1)?.url.searchParams;
    expect(last?.get('type')).toBe('webhook');
    expect(last?.get('active')).toBeNull();
  });

  it('pages with the page size kept in local storage', async () => {
    localStorage.setItem('limit', '20');
    const fetch = setup();
    renderPage(<IntegrationsPage />, { locale: 'en', path: '/en/admin/integrations' });
    await screen.findByText('CRM вебхук');
    const first = callsTo(fetch, 'GET /api/integrations')[0]?.url.searchParams;
    expect(first?.get('limit')).toBe('20');
    expect(first?.get('page')).toBe('1');
  });

  it('says no integrations match when a filter leaves none', async () => {
    setup([crm]);
    renderPage(<IntegrationsPage />, { locale: 'en', path: '/en/admin/integrations' });
    await screen.findByText('CRM вебхук');
    await choose('State', 'Active only');
    expect(await screen.findByText('No integrations match the filters')).toBeTruthy();
    expect(screen.queryByText('No integrations yet')).toBeNull();
  });

  it('explains what to do first when the account has no integrations (Ukrainian)', async () => {
    setup([]);
    renderPage(<IntegrationsPage />, { locale: 'uk', path: '/admin/integrations' });
    expect(await screen.findByText('Інтеграцій ще немає')).toBeTruthy();
    expect(screen.getByText(/Почніть із джерела: створіть «Вебхук»/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /Створити першу інтеграцію/ }));
    // The catalogue picker opens as a modal for every client.
    expect(await screen.findByRole('dialog')).toBeTruthy();
    expect(await screen.findByText('Секретна адреса, на яку форма вашого сайту надсилає заявки')).toBeTruthy();
  });

  it('turns an integration off through PUT …/update and deletes one after confirmation', async () => {
    const fetch = routeFetch({
      'GET /api/legacy/api/admin/integration/settings': catalogue,
      'GET /api/legacy/api/admin/integration/categories': [],
      'GET /api/integrations': listRoute(),
      [`PUT /api/integrations/${form._id}/update`]: { ...form, active: false },
      [`DELETE /api/legacy/api/admin/integration/${crm._id}`]: { success: true },
    });
    renderPage(<IntegrationsPage />, { locale: 'en', path: '/en/admin/integrations' });
    fireEvent.click(await screen.findByRole('switch', { name: 'Active: Форма на сайті' }));
    await vi.waitFor(() =>
      expect(callsTo(fetch, `PUT /api/integrations/${form._id}/update`)[0]?.body).toEqual({ active: false }),
    );

    fireEvent.click(screen.getByRole('button', { name: 'Delete “CRM вебхук”' }));
    expect(callsTo(fetch, `DELETE /api/legacy/api/admin/integration/${crm._id}`)).toHaveLength(0);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Deleted')).toBeTruthy();
    expect(callsTo(fetch, `DELETE /api/legacy/api/admin/integration/${crm._id}`)).toHaveLength(1);
  });
});
