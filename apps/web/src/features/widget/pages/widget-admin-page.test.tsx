import type { Integration } from '@leadrelay/shared';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeUser, renderPage } from '../../../test/render';
import { localisedUrl } from '../components/widget-url-card';
import { WidgetAdminPage } from './widget-admin-page';

const now = '2026-01-01T00:00:00.000Z';
const integration = (over: Partial<Integration>): Integration => ({
  _id: 'x',
  name: 'x',
  type: 'pipedrive',
  kind: 'destination',
  active: true,
  options: {},
  settings: {},
  destination: [],
  distributionId: null,
  category: null,
  isConnected: true,
  status: 'ok',
  statusReason: null,
  state: { code: 'working' },
  createdAt: now,
  updatedAt: now,
  ...over,
});

interface Call {
  method: string;
  path: string;
  body: unknown;
}

function fakeServer(rows: Integration[]) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://localhost');
      const method = init.method ?? 'GET';
      const body = init.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ method, path: url.pathname, body });
      if (url.pathname === '/api/integrations') {
        const data = rows.filter((r) => r.type === url.searchParams.get('type'));
        return jsonResponse(200, { data, total: data.length, filter: {} });
      }
      const connect = /^\/api\/admin\/integration\/([^/]+)\/connect$/.exec(url.pathname);
      if (connect && method === 'PUT') {
        const row = rows.find((r) => r._id === connect[1])!;
        if (body.settings) row.settings = body.settings;
        if (body.auth) row.isConnected = true;
        return jsonResponse(200, { ok: true, status: 'ok', integration: row });
      }
      const widget = /^\/api\/pipedrive\/widget\/([^/]+)$/.exec(url.pathname);
      if (widget)
        return jsonResponse(200, { url: `https://app.test/widgets/pipedrive-sendpulse?token=tok-${widget[1]}` });
      return jsonResponse(404, { code: 'NOT_FOUND', message: 'x' });
    }),
  );
  return calls;
}

const render = () => renderPage(<WidgetAdminPage />, { user: makeUser(), locale: 'en', path: '/en/admin/widget' });

beforeEach(() => vi.unstubAllGlobals());

describe('WidgetAdminPage', { timeout: 30_000 }, () => {
  it('links the SendPulse integration to Pipedrive, keeping its other settings, then shows the link to copy', async () => {
    const calls = fakeServer([
      integration({ _id: 'pd1', name: 'Our Pipedrive', settings: { target: 'deal', note: true } }),
      integration({ _id: 'sp1', name: 'Shop bot', type: 'sendpulse', settings: { channel: 'telegram' } }),
    ]);
    render();
    expect(await screen.findByText('Our Pipedrive')).toBeTruthy();
    expect(screen.getByText('Choose both integrations and save to get the link.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Save the choice' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PUT')).toEqual({
        method: 'PUT',
        path: '/api/admin/integration/pd1/connect',
        body: { settings: { target: 'deal', note: true, sendpulseIntegrationId: 'sp1' } },
      }),
    );
    // The English admin hands out the English panel.
    const url = (await screen.findByLabelText('Link for Pipedrive')) as HTMLInputElement;
    expect(url.value).toBe('https://app.test/en/widgets/pipedrive-sendpulse?token=tok-pd1');
    expect(screen.getByText('How to add it to Pipedrive')).toBeTruthy();
  });

  it('connects SendPulse with the app ID and Secret and the chatbot channel', async () => {
    const calls = fakeServer([
      integration({ _id: 'pd1', name: 'Our Pipedrive', settings: { sendpulseIntegrationId: 'sp1' } }),
      integration({
        _id: 'sp1',
        name: 'Shop bot',
        type: 'sendpulse',
        isConnected: false,
        state: { code: 'not_connected' },
      }),
    ]);
    render();
    expect(await screen.findByText('Not connected')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('ID'), 'client-1');
    await userEvent.type(screen.getByLabelText('Secret'), 'secret-1');
    await userEvent.type(screen.getByLabelText('Bot ID'), 'bot-42');
    await userEvent.click(screen.getByRole('button', { name: 'Connect' }));
    await waitFor(() =>
      expect(calls.find((c) => c.path === '/api/admin/integration/sp1/connect')?.body).toEqual({
        auth: { clientId: 'client-1', clientSecret: 'secret-1' },
        settings: { channel: 'telegram', matchVariable: 'phone', botId: 'bot-42' },
      }),
    );
  });

  it("invites to connect what is missing, straight into that type's connect dialog", async () => {
    fakeServer([integration({ _id: 'sp1', type: 'sendpulse' })]);
    render();
    expect(await screen.findByText(/Connect Pipedrive first/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Connect Pipedrive' }).getAttribute('href')).toBe(
      '/en/admin/integrations/pipedrive?connect=1',
    );
  });
});

describe('localisedUrl', () => {
  it('adds /en for English and leaves Ukrainian as it is', () => {
    const url = 'https://app.test/widgets/pipedrive-sendpulse?token=a.b.c';
    expect(localisedUrl(url, 'en')).toBe('https://app.test/en/widgets/pipedrive-sendpulse?token=a.b.c');
    expect(localisedUrl(url, 'uk')).toBe(url);
  });
});
