// /admin/integrations/:type: a connector whose manifest describes its page gets it (its words, its
// title, its empty list); any other type the generic list of that type.
import { screen } from '@testing-library/react';
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
});
