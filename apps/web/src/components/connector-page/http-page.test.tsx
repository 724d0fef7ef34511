import type { Integration } from '@leadrelay/shared';
import { fireEvent, screen } from '@testing-library/react';
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadManifest } from '../../lib/connectors/manifests';
import { callsTo, makeIntegration, makeSetting, routeFetch } from '../../test/integration-fixtures';
import { renderRoute } from '../../test/render';
import { ConnectorDetailPage } from './connector-pages';

afterEach(() => vi.unstubAllGlobals());

// The generic page drawn from HTTP webhook's manifest, as /admin/integrations/:type/:id draws it.
const manifest = await loadManifest('http');
if (!manifest?.page) throw new Error('the http manifest describes no page');
const page = <ConnectorDetailPage manifest={{ ...manifest, page: manifest.page }} />;

const ID = '33333333-3333-4333-8333-333333333333';
const http = makeIntegration({
  _id: ID,
  name: 'CRM вебхук',
  type: 'http',
  kind: 'destination',
  settings: { url: 'https://crm.example.ua/leads', headers: { Authorization: 'Bearer abc' } },
  isConnected: true,
});

function renderAt(url: string) {
  return renderRoute('/en/admin/integrations/:type/:id', page, url).client;
}

const catalogue = {
  'GET /api/legacy/api/admin/integration/settings': [makeSetting('http', 'destination')],
  'GET /api/legacy/api/admin/integration/categories': [],
};

describe('integration page (http destination)', { timeout: 20_000 }, () => {
  it('links back to the sources that send to it, or says that none does yet', async () => {
    const ref = { _id: ID, name: http.name, type: 'http' };
    const source = (id: string, name: string, destination: (typeof ref)[]) =>
      makeIntegration({ _id: id, name, type: 'webhook', kind: 'source', destination });
    let all = [source('s1', 'Site form', [ref]), source('s2', 'Other form', []), http];
    routeFetch({
      ...catalogue,
      [`GET /api/integrations/${ID}`]: http,
      'GET /api/integrations': () => ({ data: all, total: all.length, filter: { page: 1, limit: 100 } }),
    });
    const client = renderAt(`/en/admin/integrations/http/${ID}`);
    const line = await screen.findByTestId('sent-from', {}, { timeout: 5000 });
    expect(line.textContent).toBe('Leads come here from: Site form');
    expect(screen.getByRole('link', { name: 'Site form' }).getAttribute('href')).toBe(
      '/en/admin/integrations/webhook/s1',
    );
    expect(screen.queryByRole('link', { name: 'Other form' })).toBeNull();

    all = [source('s2', 'Other form', []), http];
    await act(() => client.invalidateQueries({ queryKey: ['integrations'] }));
    await vi.waitFor(() =>
      expect(screen.getByTestId('sent-from').textContent).toMatch(/^No source sends leads here yet/),
    );
  });

  it('shows a broken connection with its reason and updates live when integrations are invalidated', async () => {
    let current: Integration = makeIntegration({
      ...http,
      status: 'broken',
      statusReason: 'HTTP 401: Unauthorized',
      state: undefined,
    });
    routeFetch({ ...catalogue, [`GET /api/integrations/${ID}`]: () => current });
    const client = renderAt(`/en/admin/integrations/http/${ID}`);
    // The server's "HTTP 401: Unauthorized" as a state: auth, said in the page's language.
    expect(await screen.findByText('The service refused the credentials: connect the integration again')).toBeTruthy();
    expect(screen.getAllByText('Authorisation failed').length).toBeGreaterThan(0);
    expect(
      screen.getAllByText('The server refused the authorisation (HTTP 401)', { exact: false }).length,
    ).toBeGreaterThan(0);
    // The server's own word is kept out of the sentence, folded under "Technical details".
    const details = screen.getByTestId('reason-details');
    expect(details.querySelector('summary')?.textContent).toBe('Technical details');
    expect(details.querySelector('code')?.textContent).toBe('Unauthorized');

    // UPDATE_INTEGRATION → lib/realtime invalidates every query starting with 'integrations'.
    current = makeIntegration({ ...http, status: 'ok', statusReason: null, state: undefined });
    await act(() => client.invalidateQueries({ queryKey: ['integrations'] }));
    await vi.waitFor(() =>
      expect(screen.queryByText('The service refused the credentials: connect the integration again')).toBeNull(),
    );
    expect(screen.getAllByText('Working').length).toBeGreaterThan(0);
  });

  it('keeps the secret write-only and saves settings and a new secret through …/connect', async () => {
    const fetch = routeFetch({
      ...catalogue,
      [`GET /api/integrations/${ID}`]: http,
      [`PUT /api/admin/integration/${ID}/connect`]: { ok: true, status: 'ok', integration: http },
    });
    renderAt(`/en/admin/integrations/http/${ID}`);
    expect(await screen.findByText('Set')).toBeTruthy();
    expect(screen.queryByPlaceholderText('Optional')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Replace' }));
    fireEvent.change(screen.getByPlaceholderText('Optional'), { target: { value: 's3cr3t' } });
    fireEvent.change(screen.getByDisplayValue('https://crm.example.ua/leads'), {
      target: { value: 'https://crm.example.ua/v2/leads' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save and check' }));
    expect(await screen.findByText('The connection works')).toBeTruthy();
    expect(callsTo(fetch, `PUT /api/admin/integration/${ID}/connect`)[0]?.body).toEqual({
      settings: { url: 'https://crm.example.ua/v2/leads', format: 'lead', headers: { Authorization: 'Bearer abc' } },
      auth: { secret: 's3cr3t' },
    });
  });

  it('refuses a URL that is not http(s) before calling the server', async () => {
    const fetch = routeFetch({ ...catalogue, [`GET /api/integrations/${ID}`]: http });
    renderAt(`/en/admin/integrations/http/${ID}`);
    fireEvent.change(await screen.findByDisplayValue('https://crm.example.ua/leads'), {
      target: { value: 'ftp://crm.example.ua' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save and check' }));
    // antd validates asynchronously; on a busy machine that takes more than the default second.
    expect(await screen.findByText('Enter an http:// or https:// URL', {}, { timeout: 5000 })).toBeTruthy();
    expect(callsTo(fetch, `PUT /api/admin/integration/${ID}/connect`)).toHaveLength(0);
  });

  it('shows why the connection check failed', async () => {
    routeFetch({
      ...catalogue,
      [`GET /api/integrations/${ID}`]: http,
      [`POST /api/admin/integration/${ID}/check-connection`]: {
        ok: false,
        status: 'broken',
        reason: 'URL_NOT_ALLOWED: crm.local resolves to 10.0.0.5',
        reasonKey: { code: 'URL_NOT_ALLOWED' },
      },
    });
    renderAt(`/en/admin/integrations/http/${ID}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Check connection' }));
    expect(await screen.findByText('The connection does not work')).toBeTruthy();
    // The code in words, without the server's English detail.
    expect(screen.getByText('The address is not allowed: a private or reserved network')).toBeTruthy();
    expect(screen.queryByText(/resolves to/)).toBeNull();
  });

  it('edits extra headers as name/value rows, refusing a reserved name, and saves them as one object', async () => {
    const fetch = routeFetch({
      ...catalogue,
      [`GET /api/integrations/${ID}`]: http,
      [`PUT /api/admin/integration/${ID}/connect`]: { ok: true, status: 'ok', integration: http },
    });
    renderAt(`/en/admin/integrations/http/${ID}`);
    expect(await screen.findByDisplayValue('Authorization')).toBeTruthy();
    expect(screen.getByDisplayValue('Bearer abc')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Add header' }));
    const names = screen.getAllByRole('textbox', { name: 'Header name' });
    const values = screen.getAllByRole('textbox', { name: 'Value' });
    fireEvent.change(names[1]!, { target: { value: 'Host' } });
    fireEvent.change(values[1]!, { target: { value: 'evil.example' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save and check' }));
    expect(await screen.findByText('Invalid or reserved header name', {}, { timeout: 5000 })).toBeTruthy();
    expect(callsTo(fetch, `PUT /api/admin/integration/${ID}/connect`)).toHaveLength(0);

    fireEvent.change(names[1]!, { target: { value: 'X-Tenant' } });
    fireEvent.change(values[1]!, { target: { value: 'acme' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save and check' }));
    expect(await screen.findByText('The connection works')).toBeTruthy();
    expect(callsTo(fetch, `PUT /api/admin/integration/${ID}/connect`)[0]?.body).toEqual({
      settings: {
        url: 'https://crm.example.ua/leads',
        format: 'lead',
        headers: { Authorization: 'Bearer abc', 'X-Tenant': 'acme' },
      },
    });

    // Every row removed: no headers at all.
    for (const remove of screen.getAllByRole('button', { name: 'Remove header' })) fireEvent.click(remove);
    fireEvent.click(screen.getByRole('button', { name: 'Save and check' }));
    await vi.waitFor(() => expect(callsTo(fetch, `PUT /api/admin/integration/${ID}/connect`)).toHaveLength(2));
    expect(callsTo(fetch, `PUT /api/admin/integration/${ID}/connect`)[1]?.body).toEqual({
      settings: { url: 'https://crm.example.ua/leads', format: 'lead' },
    });
  });

  it('saves a new destination without a secret: the secret is optional', async () => {
    const fresh = makeIntegration({ ...http, settings: {}, isConnected: false, status: 'ok', statusReason: null });
    const fetch = routeFetch({
      ...catalogue,
      [`GET /api/integrations/${ID}`]: fresh,
      [`PUT /api/admin/integration/${ID}/connect`]: { ok: true, status: 'ok', integration: http },
    });
    renderAt(`/en/admin/integrations/http/${ID}`);
    // Nothing stored yet: the secret box is open, no "Set", no check of an address not saved.
    expect(await screen.findByPlaceholderText('Optional')).toBeTruthy();
    expect(screen.queryByText('Set')).toBeNull();
    expect(screen.getByRole('button', { name: 'Check connection' }).hasAttribute('disabled')).toBe(true);
    fireEvent.change(screen.getByRole('textbox', { name: 'URL' }), {
      target: { value: ' https://hooks.example.ua/in ' },
    });
    fireEvent.click(screen.getByRole('radio', { name: 'The lead and the original request' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save and check' }));
    expect(await screen.findByText('The connection works')).toBeTruthy();
    expect(callsTo(fetch, `PUT /api/admin/integration/${ID}/connect`)[0]?.body).toEqual({
      settings: { url: 'https://hooks.example.ua/in', format: 'lead+raw' },
    });
  });

  it('offers the check once a URL is stored, with no secret set', async () => {
    // No auth stored: the server says not connected, yet the address can be checked.
    const unsigned = makeIntegration({ ...http, isConnected: false });
    routeFetch({
      ...catalogue,
      [`GET /api/integrations/${ID}`]: unsigned,
      [`POST /api/admin/integration/${ID}/check-connection`]: { ok: true, status: 'ok' },
    });
    renderAt(`/en/admin/integrations/http/${ID}`);
    expect(await screen.findByPlaceholderText('Optional')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Check connection' }));
    expect(await screen.findByText('The connection works')).toBeTruthy();
  });

  it('removes a stored secret, sending an empty auth', async () => {
    const fetch = routeFetch({
      ...catalogue,
      [`GET /api/integrations/${ID}`]: http,
      [`PUT /api/admin/integration/${ID}/connect`]: { ok: true, status: 'ok', integration: http },
    });
    renderAt(`/en/admin/integrations/http/${ID}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Remove' }));
    await vi.waitFor(() => expect(callsTo(fetch, `PUT /api/admin/integration/${ID}/connect`)).toHaveLength(1));
    expect(callsTo(fetch, `PUT /api/admin/integration/${ID}/connect`)[0]?.body).toEqual({ auth: {} });
  });

  it('checks only what is stored: the check waits while the form has unsaved changes', async () => {
    routeFetch({ ...catalogue, [`GET /api/integrations/${ID}`]: http });
    renderAt(`/en/admin/integrations/http/${ID}`);
    const check = await screen.findByRole('button', { name: 'Check connection' });
    expect(check.hasAttribute('disabled')).toBe(false);
    fireEvent.change(screen.getByRole('textbox', { name: 'URL' }), { target: { value: 'https://other.example.ua/' } });
    await vi.waitFor(() => expect(check.hasAttribute('disabled')).toBe(true));
  });
});
