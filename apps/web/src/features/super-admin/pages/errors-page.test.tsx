import type { DeliveryErrorRecord } from '@leadrelay/shared';
import { configure, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetAuthForTests } from '../../../lib/auth';
import { jsonResponse, makeUser, renderPage } from '../../../test/render';
import { ErrorsPage } from './errors-page';

const ACCOUNT = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const record = (id: string, login: string, restartedAt: string | null = null): DeliveryErrorRecord => ({
  _id: id,
  accountId: ACCOUNT,
  account: { _id: ACCOUNT, login },
  integration: { _id: 'src', name: 'Site form', type: 'webhook' },
  destination: { _id: 'dst', name: 'Backup hook', type: 'http' },
  hookId: 'h1',
  deliveryId: 'd1',
  status: 'failed',
  message: 'connect ECONNREFUSED 127.0.0.1:9',
  createdAt: '2026-11-22T10:00:00.000Z',
  restartedAt,
  children: [
    {
      _id: `${id}-2`,
      number: 2,
      outcome: 'permanent',
      httpStatus: 401,
      error: 'HTTP 401',
      request: null,
      response: { status: 401 },
      durationMs: 12,
      startedAt: '2026-11-22T10:00:05.000Z',
    },
    {
      _id: `${id}-1`,
      number: 1,
      outcome: 'retryable',
      httpStatus: 503,
      error: 'HTTP 503',
      request: null,
      response: { status: 503 },
      durationMs: 30,
      startedAt: '2026-11-22T09:59:00.000Z',
    },
  ],
});

type Call = { method: string; url: string };
let calls: Call[];
let restartAnswer: () => Promise<Response>;

beforeEach(() => {
  resetAuthForTests();
  calls = [];
  restartAnswer = async () => jsonResponse(200, { ok: true, restarted: true, restartedAt: '2026-11-22T11:00:00.000Z' });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      calls.push({ method, url });
      if (method === 'GET' && url.startsWith('/api/legacy/api/super-admin/errors')) {
        const data = [record('e1', 'anna@example.com'), record('e2', 'bohdan@example.com')];
        return jsonResponse(200, { data, total: 2 });
      }
      if (method === 'POST' && url.startsWith('/api/legacy/api/super-admin/errors/')) return restartAnswer();
      return jsonResponse(404, { statusCode: 404, code: 'NOT_FOUND', message: 'no' });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());
// The machine running the tests may be busy.
const WAIT = { timeout: 5000 };
configure({ asyncUtilTimeout: 5000 });

/** Enter, released: the input ignores a second Enter until the key is up again. */
function pressEnter(el: HTMLElement) {
  fireEvent.keyDown(el, { key: 'Enter', code: 'Enter', keyCode: 13 });
  fireEvent.keyUp(el, { key: 'Enter', code: 'Enter', keyCode: 13 });
}

const owner = makeUser({ role: 'owner' });
const rowOf = async (login: string) => (await screen.findByText(login)).closest('tr') as HTMLElement;

describe('super-admin errors tab', { timeout: 30_000 }, () => {
  it('restarts one record, disables its button while running and shows the toast', async () => {
    let release: () => void = () => {};
    restartAnswer = () =>
      new Promise((resolve) => {
        release = () =>
          resolve(jsonResponse(200, { ok: true, restarted: true, restartedAt: '2026-11-22T11:00:00.000Z' }));
      });
    renderPage(<ErrorsPage />, { locale: 'uk', path: '/admin/super', user: owner });
    const row = await rowOf('bohdan@example.com');
    expect(within(row).getByText('connect ECONNREFUSED 127.0.0.1:9')).toBeTruthy();
    expect(within(row).getByText('Backup hook')).toBeTruthy();
    expect(within(row).getByText('Помилка')).toBeTruthy();
    const button = within(row).getByRole('button', { name: /Перезапустити/ });
    fireEvent.click(button);
    await vi.waitFor(() => expect(button.hasAttribute('disabled')).toBe(true), WAIT);
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual([
      '/api/legacy/api/super-admin/errors/e2',
    ]);
    // The other record stays available.
    const other = within(await rowOf('anna@example.com')).getByRole('button', { name: /Перезапустити/ });
    expect(other.hasAttribute('disabled')).toBe(false);
    release();
    expect(await screen.findByText('Доставку перезапущено')).toBeTruthy();
    await vi.waitFor(() => expect(button.hasAttribute('disabled')).toBe(false), WAIT);
    // The list is read again after the restart.
    await vi.waitFor(() => expect(calls.filter((c) => c.method === 'GET').length).toBeGreaterThan(1), WAIT);
  });

  it('shows the translated error when the restart fails', async () => {
    restartAnswer = async () =>
      jsonResponse(404, { statusCode: 404, code: 'ERROR_RECORD_NOT_FOUND', message: 'Error record not found' });
    renderPage(<ErrorsPage />, { locale: 'en', path: '/en/admin/super', user: owner });
    fireEvent.click(within(await rowOf('anna@example.com')).getByRole('button', { name: /Restart/ }));
    expect(await screen.findByText(/not found/i)).toBeTruthy();
    expect(screen.queryByText('Delivery restarted')).toBeNull();
  });

  it('expands a record into its attempts, oldest first', async () => {
    renderPage(<ErrorsPage />, { locale: 'en', path: '/en/admin/super', user: owner });
    const row = await rowOf('anna@example.com');
    fireEvent.click(within(row).getByRole('button', { name: /expand/i }));
    const attempts = await screen.findAllByTestId('attempt');
    expect(attempts.map((a) => within(a).getByTestId('attempt-http').textContent)).toEqual(['HTTP 503', 'HTTP 401']);
    expect(within(attempts[1]!).getByText('Failed for good')).toBeTruthy();
  });

  it('filters by account id, refusing what is not an id', async () => {
    renderPage(<ErrorsPage />, { locale: 'en', path: '/en/admin/super', user: owner });
    await rowOf('anna@example.com');
    expect(calls[0]!.url).toBe('/api/legacy/api/super-admin/errors?page=1&limit=10');
    const input = screen.getByRole('searchbox', { name: 'Account ID' });
    fireEvent.change(input, { target: { value: 'anna' } });
    pressEnter(input);
    expect(await screen.findByText('Enter an account ID (UUID)')).toBeTruthy();
    expect(calls.some((c) => c.url.includes('accountId'))).toBe(false);
    fireEvent.change(input, { target: { value: ` ${ACCOUNT} ` } });
    pressEnter(input);
    await vi.waitFor(
      () => expect(calls.at(-1)!.url).toBe(`/api/legacy/api/super-admin/errors?page=1&limit=10&accountId=${ACCOUNT}`),
      WAIT,
    );
    expect(screen.queryByText('Enter an account ID (UUID)')).toBeNull();
  });
});
