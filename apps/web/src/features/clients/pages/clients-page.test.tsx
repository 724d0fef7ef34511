import type { Client } from '@leadrelay/shared';
import { configure, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetAuthForTests } from '../../../lib/auth';
import { jsonResponse, makeUser, renderPage } from '../../../test/render';
import { ClientsPage } from './clients-page';

const client = (login: string, overrides: Partial<Client> = {}): Client => ({
  ...makeUser({ _id: `id-${login}`, login, role: 'client' }),
  isActive: true,
  planTitle: null,
  deletedAt: null,
  ...overrides,
});

type Call = { method: string; url: string; body?: unknown };
let calls: Call[];
beforeEach(() => {
  resetAuthForTests();
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      calls.push({ method, url, body: init.body ? JSON.parse(String(init.body)) : undefined });
      if (method === 'GET' && url.startsWith('/api/legacy/api/super-admin/users?')) {
        return jsonResponse(200, {
          data: [
            client('anna@example.com', { credit: 12.5 }),
            client('gone@example.com', { deletedAt: '2026-11-20T10:00:00.000Z', isActive: false }),
          ],
          total: 2,
          counter: { total: 12, active: 9, inactive: 2, deleted: 1 },
        });
      }
      if (method === 'GET' && url === '/api/plans') return jsonResponse(200, []);
      if (method === 'POST' && url === '/api/legacy/api/super-admin/users') {
        return jsonResponse(201, { user: client('new@example.com'), password: 'Xy7abcdeQ' });
      }
      if (method === 'DELETE' && url.endsWith('/hard-delete')) return jsonResponse(200, { success: true });
      if (method === 'PATCH') return jsonResponse(200, client('anna@example.com'));
      return jsonResponse(404, { statusCode: 404, code: 'NOT_FOUND', message: 'no' });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());
configure({ asyncUtilTimeout: 5000 });

const me = makeUser({ _id: 'me', role: 'admin' });

describe('clients screen', { timeout: 30_000 }, () => {
  it('shows the counters and filters by a counter', async () => {
    renderPage(<ClientsPage />, { locale: 'uk', path: '/admin/super/clients', user: me });
    expect(await screen.findByText('anna@example.com')).toBeTruthy();
    // A balance is money, with its currency: "$12.50", not a bare "12.5".
    expect(within(screen.getByText('anna@example.com').closest('tr')!).getByText('$12.50')).toBeTruthy();
    expect(within(screen.getByTestId('counter-total')).getByText('12')).toBeTruthy();
    fireEvent.click(screen.getByTestId('counter-deleted'));
    await vi.waitFor(() => expect(calls.some((c) => c.url.includes('status=deleted'))).toBe(true));
  });

  it('creates an account and shows its password once', async () => {
    renderPage(<ClientsPage />, { locale: 'en', path: '/en/admin/super/clients', user: me });
    fireEvent.click(await screen.findByRole('button', { name: /New account/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('E-mail (login)'), { target: { value: 'new@example.com' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Xy7abcdeQ')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      login: 'new@example.com',
      role: 'client',
      lang: 'uk',
    });
  });

  it('changes a balance in whole cents, never below zero, and leaves a cleared one as it was', async () => {
    renderPage(<ClientsPage />, { locale: 'en', path: '/en/admin/super/clients', user: me });
    const edit = async () => {
      fireEvent.click(await screen.findByTestId('actions-anna@example.com'));
      fireEvent.click(await screen.findByRole('menuitem', { name: 'Change' }));
      return screen.findByRole('dialog');
    };
    let dialog = await edit();
    const balance = within(dialog).getByLabelText('Balance');
    fireEvent.change(balance, { target: { value: '-5' } });
    fireEvent.blur(balance);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'PATCH')?.body).toMatchObject({ credit: 0, expDate: null });
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    dialog = await edit();
    fireEvent.change(within(dialog).getByLabelText('Balance'), { target: { value: '' } });
    fireEvent.blur(within(dialog).getByLabelText('Balance'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(2));
    expect(calls.filter((c) => c.method === 'PATCH')[1]?.body).not.toHaveProperty('credit');
  });

  it('deletes for good only once the login is typed', async () => {
    renderPage(<ClientsPage />, { locale: 'en', path: '/en/admin/super/clients', user: me });
    fireEvent.click(await screen.findByTestId('actions-gone@example.com'));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Delete for good' }));
    const dialog = await screen.findByRole('dialog');
    const submit = within(dialog).getByRole('button', { name: 'Delete for good' });
    expect(submit.hasAttribute('disabled')).toBe(true);
    fireEvent.change(within(dialog).getByTestId('hard-delete-confirm'), { target: { value: 'gone@example.com' } });
    expect(submit.hasAttribute('disabled')).toBe(false);
    fireEvent.click(submit);
    await vi.waitFor(() =>
      expect(calls.find((c) => c.method === 'DELETE')).toEqual({
        method: 'DELETE',
        url: '/api/super/users/id-gone%40example.com/hard-delete',
        body: { confirm: 'gone@example.com' },
      }),
    );
  });
});
