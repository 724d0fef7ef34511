import type { ApiKey } from '@leadrelay/shared';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetAuthForTests } from '../../../lib/auth';
import { jsonResponse, renderPage } from '../../../test/render';
import { ApiKeysCard, formatInZone } from './api-keys-card';

configure({ asyncUtilTimeout: 5000 });

const FULL_KEY = `lr_Ab12Cd34_${'s'.repeat(43)}`;
let keys: ApiKey[];
let posted: unknown[];
let deleted: string[];

beforeEach(() => {
  resetAuthForTests();
  posted = [];
  deleted = [];
  keys = [
    {
      id: 'k1',
      name: 'CRM sync',
      scope: 'write',
      prefix: 'lr_Zz98Yy76',
      // 23:30 UTC is already the next day in Kyiv.
      createdAt: '2026-11-20T23:30:00.000Z',
      lastUsedAt: null,
    },
  ];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      if (method === 'GET' && url === '/api/account/api-keys')
        return jsonResponse(200, { data: keys, total: keys.length, max: 20 });
      if (method === 'POST' && url === '/api/account/api-keys') {
        const body = JSON.parse(String(init.body));
        posted.push(body);
        if (body.name === 'CRM sync')
          return jsonResponse(409, { statusCode: 409, code: 'API_KEY_NAME_TAKEN', message: 'taken' });
        const made = { id: 'k2', prefix: 'lr_Ab12Cd34', createdAt: '2026-11-28T10:00:00.000Z', lastUsedAt: null };
        keys = [{ ...made, name: body.name, scope: body.scope }, ...keys];
        return jsonResponse(201, { ...keys[0], key: FULL_KEY });
      }
      if (method === 'DELETE' && url.startsWith('/api/account/api-keys/')) {
        const id = url.slice('/api/account/api-keys/'.length);
        deleted.push(id);
        keys = keys.filter((k) => k.id !== id);
        return jsonResponse(200, { success: true });
      }
      return jsonResponse(404, { statusCode: 404, code: 'NOT_FOUND', message: 'no' });
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('API keys card', () => {
  it("lists keys with their scope, prefix and dates in the account's time zone", async () => {
    renderPage(<ApiKeysCard timeZone="Europe/Kyiv" />, { locale: 'en', path: '/en/admin/account' });
    const table = await screen.findByRole('table');
    expect(await within(table).findByText('CRM sync')).toBeTruthy();
    expect(within(table).getByText('Read and write')).toBeTruthy();
    expect(within(table).getByText('lr_Zz98Yy76…')).toBeTruthy();
    expect(within(table).getByText('Never')).toBeTruthy();
    expect(within(table).getByText(/21 Nov 2026/)).toBeTruthy();
  });

  it('makes a key, shows it once with a warning, and forgets it when closed', async () => {
    renderPage(<ApiKeysCard timeZone="Europe/Kyiv" />, { locale: 'en', path: '/en/admin/account' });
    fireEvent.click(await screen.findByRole('button', { name: 'Create key' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Website' } });
    fireEvent.click(within(dialog).getByRole('radio', { name: /^Read and write/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create key' }));
    expect(await screen.findByDisplayValue(FULL_KEY)).toBeTruthy();
    expect(screen.getByText(/shown only this once/)).toBeTruthy();
    expect(posted).toEqual([{ name: 'Website', scope: 'write' }]);
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(await within(await screen.findByRole('table')).findByText('Website')).toBeTruthy();
    // Opened again, the dialog asks for a new key: the one made cannot be seen again.
    fireEvent.click(screen.getByRole('button', { name: 'Create key' }));
    await waitFor(() => expect(screen.queryByDisplayValue(FULL_KEY)).toBeNull());
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('');
  });

  it("puts the server's refusal on the name field, in Ukrainian", async () => {
    renderPage(<ApiKeysCard timeZone="Europe/Kyiv" />, { locale: 'uk', path: '/admin/account' });
    fireEvent.click(await screen.findByRole('button', { name: 'Створити ключ' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Назва'), { target: { value: 'CRM sync' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Створити ключ' }));
    expect(await screen.findByText('Ключ із такою назвою вже є')).toBeTruthy();
  });

  it('refuses an empty name before asking the server', async () => {
    renderPage(<ApiKeysCard timeZone="Europe/Kyiv" />, { locale: 'en', path: '/en/admin/account' });
    fireEvent.click(await screen.findByRole('button', { name: 'Create key' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create key' }));
    expect(await within(dialog).findByText('This field is required')).toBeTruthy();
    expect(posted).toEqual([]);
  });

  it('revokes a key after confirmation', async () => {
    renderPage(<ApiKeysCard timeZone="Europe/Kyiv" />, { locale: 'en', path: '/en/admin/account' });
    const table = await screen.findByRole('table');
    fireEvent.click(await within(table).findByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('Revoke the key “CRM sync”?')).toBeTruthy();
    expect(deleted).toEqual([]);
    const confirm = screen.getAllByRole('button', { name: 'Revoke' }).at(-1) as HTMLElement;
    fireEvent.click(confirm);
    expect(await screen.findByText('Key “CRM sync” revoked')).toBeTruthy();
    expect(deleted).toEqual(['k1']);
    expect(await screen.findByText('No API keys yet')).toBeTruthy();
  });
});

describe('formatInZone', () => {
  it("shows a moment on the account's calendar, not the browser's", () => {
    expect(formatInZone('2026-11-20T23:30:00.000Z', 'Europe/Kyiv')).toMatch(/21/);
    expect(formatInZone('2026-11-20T23:30:00.000Z', 'America/New_York')).toMatch(/20/);
  });
});
