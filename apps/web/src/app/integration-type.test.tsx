// /admin/integrations/:type: a connector whose manifest describes its page gets it (its words, its
// title, its empty list); any other type the generic list of that type.
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callsTo, makeSetting, routeFetch } from '../test/integration-fixtures';
import { renderRoute } from '../test/render';
import { IntegrationTypePage } from './integration-type';

afterEach(() => vi.unstubAllGlobals());

function setup() {
  return routeFetch({
    'GET /api/legacy/api/admin/integration/settings': [
      makeSetting('alfasms', 'destination', { name: 'AlphaSMS' }),
      makeSetting('webhook', 'source'),
      makeSetting('telegram', 'destination', { name: 'Telegram' }),
      makeSetting('horoshop', 'source', { name: 'Horoshop' }),
    ],
    'GET /api/legacy/api/admin/integration/categories': [],
    'GET /api/integrations': { data: [], total: 0 },
  });
}

describe('the page of an integration type', { timeout: 30_000 }, () => {
  it("draws a connector's list from its manifest: brand, words, its own empty list and tab title", async () => {
    const fetch = setup();
    renderRoute('/admin/integrations/:type', <IntegrationTypePage />, '/admin/integrations/alfasms', 'uk');
    expect(await screen.findByRole('heading', { name: 'AlphaSMS', level: 2 }, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText(/SMS або Viber клієнтові й менеджерові на кожен лід/)).toBeTruthy();
    expect(screen.getByRole('button', { name: /Підключити AlphaSMS/ })).toBeTruthy();
    expect(await screen.findByText('AlphaSMS ще не підключено', {}, { timeout: 5000 })).toBeTruthy();
    expect(document.title).toBe('AlphaSMS — LeadRelay');
    expect(callsTo(fetch, 'GET /api/integrations')[0]?.url.searchParams.get('type')).toBe('alfasms');
  });

  it('draws the generic list of a type that is no connector', async () => {
    setup();
    renderRoute('/en/admin/integrations/:type', <IntegrationTypePage />, '/en/admin/integrations/webhook', 'en');
    expect(await screen.findByRole('heading', { name: 'Webhook', level: 2 }, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByRole('button', { name: /New integration/ })).toBeTruthy();
  });

  it("says while empty what a type is for and offers its own first step, never 'create a Webhook'", async () => {
    setup();
    renderRoute('/admin/integrations/:type', <IntegrationTypePage />, '/admin/integrations/telegram', 'uk');
    const empty = await screen.findByTestId('integrations-empty', {}, { timeout: 5000 });
    expect(empty.textContent).toContain('Telegram ще не підключено');
    expect(empty.textContent).toContain('кожен лід прийде менеджерові на зміні карткою в Telegram');
    expect(empty.textContent).not.toContain('Вебхук');
    expect(within(empty).getByRole('button', { name: /Підключити Telegram/ })).toBeTruthy();
  });

  it("a source connector's empty list offers to connect the shop, which opens the new integration's dialog", async () => {
    setup();
    renderRoute('/en/admin/integrations/:type', <IntegrationTypePage />, '/en/admin/integrations/horoshop', 'en');
    const empty = await screen.findByTestId('integrations-empty', {}, { timeout: 5000 });
    expect(empty.textContent).toContain('No Horoshop shop connected yet');
    expect(empty.textContent).not.toMatch(/Webhook/i);
    fireEvent.click(within(empty).getByRole('button', { name: /Connect a shop/ }));
    expect(await screen.findByRole('dialog', {}, { timeout: 5000 })).toBeTruthy();
  });

  it('an unknown type is the 404 page, not a page titled with the slug', async () => {
    setup();
    renderRoute('/admin/integrations/:type', <IntegrationTypePage />, '/admin/integrations/bogus', 'uk');
    expect(await screen.findByText('404', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'bogus' })).toBeNull();
  });
});
