import type { Session } from '@leadrelay/shared';
import { configure, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetAuthForTests } from '../../../lib/auth';
import { jsonResponse, renderPage } from '../../../test/render';
import { inOrder, SessionsTable } from './sessions-table';

configure({ asyncUtilTimeout: 5000 });

const session = (id: string, ua: string, overrides: Partial<Session> = {}): Session => ({
  id,
  isRevoked: false,
  isCurrent: false,
  createdAt: '2026-11-20T09:15:00.000Z',
  lastUsedAt: '2026-11-24T18:40:00.000Z',
  userAgent: ua,
  ip: `203.0.113.${id.length}`,
  ...overrides,
});
const SESSIONS = [
  session('s1', 'Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0 Safari/537.36', { isCurrent: true }),
  session('s22', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Version/17.0 Safari/605.1'),
  session('s333', 'Mozilla/5.0 (Windows NT 10.0; rv:121.0) Firefox/121.0', { isRevoked: true }),
];
let deleted: string[];

beforeEach(() => {
  resetAuthForTests();
  deleted = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      if (method === 'GET' && url === '/api/auth/sessions') return jsonResponse(200, { data: SESSIONS, total: 3 });
      if (method === 'DELETE' && url.startsWith('/api/auth/sessions/')) {
        deleted.push(url.slice('/api/auth/sessions/'.length));
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

/** A phone's screen: every "max-width" query (the spec's xs) matches. */
function onPhone() {
  const real = window.matchMedia;
  vi.spyOn(window, 'matchMedia').mockImplementation((query: string) => ({
    ...real(query),
    matches: query.includes('max-width: 767px'),
  }));
}

describe('active sessions', () => {
  it('on a phone shows each session as a card with its device, state, address and times', async () => {
    onPhone();
    renderPage(<SessionsTable />, { locale: 'en', path: '/en/admin/account' });
    const cards = await screen.findAllByTestId('session-card');
    expect(cards).toHaveLength(3);
    expect(screen.queryByRole('table')).toBeNull();
    const iphone = cards[1] as HTMLElement;
    expect(within(iphone).getByText('Safari · iOS')).toBeTruthy();
    expect(within(iphone).getByText('Active')).toBeTruthy();
    expect(within(iphone).getByText('IP address')).toBeTruthy();
    expect(within(iphone).getByText('203.0.113.3')).toBeTruthy();
    expect(within(iphone).getByText('Last active')).toBeTruthy();
    expect(within(iphone).getByText('Signed in')).toBeTruthy();
    expect(within(cards[0] as HTMLElement).getByText('This session')).toBeTruthy();
    // Only a session that is neither this one nor ended can be ended.
    expect(within(cards[0] as HTMLElement).queryByRole('button')).toBeNull();
    expect(within(cards[2] as HTMLElement).queryByRole('button')).toBeNull();
    fireEvent.click(within(iphone).getByRole('button', { name: 'End' }));
    expect(await screen.findByText('Session ended')).toBeTruthy();
    expect(deleted).toEqual(['s22']);
  });

  it('on a wider screen keeps the table', async () => {
    renderPage(<SessionsTable />, { locale: 'en', path: '/en/admin/account' });
    expect(await screen.findByRole('table')).toBeTruthy();
    expect(await screen.findByText('Firefox · Windows')).toBeTruthy();
    expect(screen.queryByTestId('session-card')).toBeNull();
  });
});

describe('the order of sessions', () => {
  it('puts this session first, then the other active ones, and the ended ones last', () => {
    const ended = session('old', 'Firefox/1', { isRevoked: true, lastUsedAt: '2026-11-27T10:00:00.000Z' });
    const recent = session('recent', 'Chrome/1', { lastUsedAt: '2026-11-26T10:00:00.000Z' });
    const older = session('older', 'Chrome/1', { lastUsedAt: '2026-11-25T10:00:00.000Z' });
    const mine = session('mine', 'Chrome/1', { isCurrent: true, lastUsedAt: '2026-11-20T10:00:00.000Z' });
    expect(inOrder([ended, older, mine, recent]).map((s) => s.id)).toEqual(['mine', 'recent', 'older', 'old']);
  });
});
