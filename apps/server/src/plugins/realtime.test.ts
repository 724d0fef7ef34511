import type { AddressInfo } from 'node:net';
import { SignJWT } from 'jose';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app';
import { accountIdOf, createDestination, createSource, fakeClock } from '../test/routing-fixtures';
import { callAs, createTestApp, type SignedInUser, signUp, type TestApp } from '../test/test-app';
import { testDestination } from '../test/test-destination';
import { HOOK_COALESCE_MS, type IntegrationUpdate, MAX_SOCKETS_PER_ACCOUNT } from './realtime';

const JWT_SECRET = 'realtime-test-secret-realtime-test-secret';
const dest = testDestination();
// Ahead of the wall clock, so leads the API stores (at real time) are due for the worker.
const clock = fakeClock(new Date(Date.now() + 10 * 60_000));
let t: TestApp;
let url: string;
const sockets: Socket[] = [];

const delivery = {
  getConnector: dest.getConnector,
  now: clock.now,
  random: () => 0.5,
  breaker: { threshold: 2, basePauseMs: 60_000 },
};

beforeAll(async () => {
  t = await createTestApp({ jwtSecret: JWT_SECRET, delivery });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterEach(() => {
  for (const s of sockets.splice(0)) s.disconnect();
  dest.failAlways(undefined);
});
afterAll(async () => {
  await t?.close();
});

interface Received {
  hook: { hookIds: string[] }[];
  totals: Record<string, number>[];
  integration: IntegrationUpdate[];
}

/** Connects like the web app does; resolves with what the socket receives, rejects with the refusal. */
function connect(base: string, token: unknown): Promise<{ socket: Socket; got: Received }> {
  const socket = connectSocket(base, {
    path: '/socket.io',
    auth: token === undefined ? {} : { token },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
  });
  sockets.push(socket);
  const got: Received = { hook: [], totals: [], integration: [] };
  socket.on('HOOK_INFORMER', (p) => got.hook.push(p));
  socket.on('HOOKS_INFORMER', (p) => got.totals.push(p));
  socket.on('UPDATE_INTEGRATION', (p) => got.integration.push(p));
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve({ socket, got }));
    socket.once('connect_error', (error) => reject(error));
  });
}

const refusal = (base: string, token: unknown) =>
  connect(base, token).then(
    () => 'connected',
    (error: Error) => error.message,
  );

async function ingest(source: { url: string }, body: object): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: source.url, payload: body });
  expect(res.statusCode).toBe(202);
  return res.json().hookId;
}

async function account(): Promise<{ user: SignedInUser; accountId: string }> {
  const user = await signUp(t);
  return { user, accountId: await accountIdOf(t.app.db, user.login) };
}

const settle = () => new Promise((r) => setTimeout(r, HOOK_COALESCE_MS * 2));

describe('real-time channel: sign-in', () => {
  it('refuses a socket without a token, with a forged one, an expired one or one of a closed session', async () => {
    const { user, accountId } = await account();
    expect(await refusal(url, undefined)).toBe('UNAUTHORIZED');
    expect(await refusal(url, 'not-a-jwt')).toBe('UNAUTHORIZED');
    expect(await refusal(url, 42)).toBe('UNAUTHORIZED');
    const claims = {
      login: user.login,
      role: 'client',
      sid: JSON.parse(Buffer.from(user.accessToken.split('.')[1]!, 'base64url').toString()).sid,
    };
    const forged = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(accountId)
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode('another-secret-another-secret-another'));
    expect(await refusal(url, forged)).toBe('UNAUTHORIZED');
    const expired = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(accountId)
      .setIssuedAt(Math.floor(Date.now() / 1000) - 3_600)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(new TextEncoder().encode(JWT_SECRET));
    expect(await refusal(url, expired)).toBe('UNAUTHORIZED');
    // The same claims, signed right and still valid: accepted (so the two above fail for their reason).
    const good = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(accountId)
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode(JWT_SECRET));
    expect(await refusal(url, good)).toBe('connected');
    // A socket lives no longer than its token: at expiry the server closes it (the web app then
    // reconnects with a refreshed token, which a revoked session cannot get).
    const shortLived = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(accountId)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + 2)
      .sign(new TextEncoder().encode(JWT_SECRET));
    const { socket: expiring } = await connect(url, shortLived);
    const closedBy = await new Promise<string>((resolve) => expiring.once('disconnect', resolve));
    expect(closedBy).toBe('io server disconnect');
    // Signed out: the session is gone, the still-unexpired token no longer opens a socket.
    const loggedOut = await callAs(t, 'POST', '/api/auth/logout', user);
    expect(loggedOut.statusCode).toBeLessThan(300);
    expect(await refusal(url, user.accessToken)).toBe('UNAUTHORIZED');
  });
});

describe('real-time channel: bounded per account', () => {
  it('closes an account’s oldest socket past MAX_SOCKETS_PER_ACCOUNT; the newest ones still hear the account', async () => {
    const { user } = await account();
    const first = await connect(url, user.accessToken);
    const closedBy = new Promise<string>((resolve) => first.socket.once('disconnect', resolve));
    const rest = [];
    for (let i = 0; i < MAX_SOCKETS_PER_ACCOUNT; i++) rest.push(await connect(url, user.accessToken));
    expect(await closedBy).toBe('io server disconnect');
    expect(rest.every((r) => r.socket.connected)).toBe(true);
    // Another account is not touched by it.
    const other = await account();
    expect(await refusal(url, other.user.accessToken)).toBe('connected');
  });
});

describe('real-time channel: hooks', () => {
  it('tells the account when a lead arrives and when it is delivered, with the dashboard counters; nobody else hears', async () => {
    const { user, accountId } = await account();
    const other = await account();
    const crm = await createDestination(t.app.db, accountId);
    const source = await createSource(t.app.db, accountId, { destinationIds: [crm] });
    const mine = await connect(url, user.accessToken);
    const theirs = await connect(url, other.user.accessToken);

    const hookId = await ingest(source, { name: 'Olena', phone: '0501234567' });
    // On PostgreSQL the adapter may hand the two events of a batch over in either order.
    await vi.waitFor(() => expect([mine.got.hook.length, mine.got.totals.length]).toEqual([1, 1]));
    expect(mine.got.hook).toEqual([{ hookIds: [hookId] }]);
    const totals = (await callAs(t, 'GET', '/api/hook/total', user)).json();
    expect(mine.got.totals[0]).toEqual(totals);
    expect(totals).toEqual({
      total: 1,
      delivered: 0,
      failed: 0,
      pending: 1,
      filtered: 0,
      duplicate: 0,
      held: 0,
      hold: null,
    });

    expect(await t.app.deliveryWorker.drain()).toBe(1);
    await vi.waitFor(() => expect([mine.got.hook.length, mine.got.totals.length]).toEqual([2, 2]));
    expect(mine.got.hook[1]).toEqual({ hookIds: [hookId] });
    expect(mine.got.totals[1]).toEqual({
      total: 1,
      delivered: 1,
      failed: 0,
      pending: 0,
      filtered: 0,
      duplicate: 0,
      held: 0,
      hold: null,
    });

    await settle();
    expect(theirs.got).toEqual({ hook: [], totals: [], integration: [] });
  });

  it('collects many hook changes of an account into one HOOK_INFORMER with every id, then one HOOKS_INFORMER', async () => {
    const { user, accountId } = await account();
    const source = await createSource(t.app.db, accountId);
    const mine = await connect(url, user.accessToken);
    const ids = await Promise.all(Array.from({ length: 12 }, (_, n) => ingest(source, { name: `Lead ${n}` })));
    // Bursts from the engine arrive faster than any ingest: 200 changes in one tick.
    const burst = Array.from({ length: 200 }, (_, n) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`);
    await settle();
    const before = mine.got.hook.length;
    for (const hookId of burst) t.app.events.emit('hook.changed', { accountId, hookId });
    await vi.waitFor(() => expect(mine.got.hook.length).toBe(before + 1));
    await settle();
    expect(mine.got.hook).toHaveLength(before + 1);
    expect(mine.got.hook.at(-1)!.hookIds.sort()).toEqual([...burst].sort());
    expect(mine.got.totals).toHaveLength(before + 1);
    expect(mine.got.totals.at(-1)).toMatchObject({ total: 12, pending: 0 });
    // The 12 real leads came in fewer events than leads, and every id was told.
    expect(before).toBeLessThan(12);
    expect(new Set(mine.got.hook.slice(0, before).flatMap((e) => e.hookIds))).toEqual(new Set(ids));
  });
});

describe('integration health', () => {
  it('marks a paused destination broken, mails once per outage, and mails once more when it recovers', async () => {
    const { user, accountId } = await account();
    const crm = await createDestination(t.app.db, accountId, { name: 'My CRM' });
    const source = await createSource(t.app.db, accountId, { destinationIds: [crm] });
    const mine = await connect(url, user.accessToken);
    const mails = () => t.outbox.filter((m) => m.to === user.login);
    const mailsBefore = mails().length;
    await ingest(source, { name: 'Olena' });
    dest.failAlways({ kind: 'retryable' });

    // Two failures in a row: the breaker pauses the destination for a minute.
    expect(await t.app.deliveryWorker.runOnce()).toBe(1);
    clock.advance(10_000);
    expect(await t.app.deliveryWorker.runOnce()).toBe(1);
    await vi.waitFor(() => expect(mine.got.integration).toHaveLength(1));
    const pausedUntil = new Date(clock.now().getTime() + 60_000).toISOString().slice(0, 16).replace('T', ' ');
    expect(mine.got.integration[0]).toMatchObject({ integrationId: crm, status: 'broken' });
    expect(mine.got.integration[0]!.statusReason).toContain('HTTP 503');
    expect(mine.got.integration[0]!.statusReason).toContain(pausedUntil);
    const shown = (await callAs(t, 'GET', `/api/integrations/${crm}`, user)).json();
    expect(shown).toMatchObject({ status: 'broken', statusReason: mine.got.integration[0]!.statusReason });
    await vi.waitFor(() => expect(mails()).toHaveLength(mailsBefore + 1));
    expect(mails().at(-1)!.subject).toContain('My CRM');
    expect(mails().at(-1)!.text).toContain('HTTP 503');

    // The probe after the pause fails too: paused again, the reason moves on, no second mail.
    clock.advance(61_000);
    expect(await t.app.deliveryWorker.runOnce()).toBe(1);
    await vi.waitFor(() => expect(mine.got.integration).toHaveLength(2));
    expect(mine.got.integration[1]).toMatchObject({ integrationId: crm, status: 'broken' });
    expect(mine.got.integration[1]!.statusReason).not.toBe(mine.got.integration[0]!.statusReason);
    await settle();
    expect(mails()).toHaveLength(mailsBefore + 1);

    // The destination answers again: ok, reason cleared, one short "works again" mail.
    dest.failAlways(undefined);
    clock.advance(121_000);
    expect(await t.app.deliveryWorker.runOnce()).toBe(1);
    await vi.waitFor(() => expect(mine.got.integration).toHaveLength(3));
    expect(mine.got.integration[2]).toEqual({
      integrationId: crm,
      status: 'ok',
      statusReason: null,
      state: { code: 'working' },
    });
    await vi.waitFor(() => expect(mails()).toHaveLength(mailsBefore + 2));
    expect(mails().at(-1)!.subject).toContain('My CRM');
    expect((await callAs(t, 'GET', `/api/integrations/${crm}`, user)).json()).toMatchObject({
      status: 'ok',
      statusReason: null,
    });
  });

  it('marks a destination broken when it refuses our credentials, and ok after its next success', async () => {
    const { user, accountId } = await account();
    const crm = await createDestination(t.app.db, accountId, { name: 'Revoked CRM' });
    const source = await createSource(t.app.db, accountId, { destinationIds: [crm] });
    const mine = await connect(url, user.accessToken);
    const mails = () => t.outbox.filter((m) => m.to === user.login && m.subject.includes('Revoked CRM'));
    await ingest(source, { name: 'A' });
    dest.failNext({ kind: 'permanent', status: 401, code: 'AUTH' });
    expect(await t.app.deliveryWorker.runOnce()).toBe(1);
    await vi.waitFor(() => expect(mine.got.integration).toHaveLength(1));
    expect(mine.got.integration[0]).toMatchObject({ integrationId: crm, status: 'broken' });
    // Said as a state and a code the web translates ("reconnect" is its words), not as English text.
    expect(mine.got.integration[0]).toMatchObject({ statusReason: 'HTTP 401', state: { code: 'broken_auth' } });
    await vi.waitFor(() => expect(mails()).toHaveLength(1));
    expect(mails()[0]!.text).toContain('HTTP 401');

    // A permanent failure that is not about credentials (a bad field) does not mark it broken.
    await ingest(source, { name: 'B' });
    dest.failNext({ kind: 'permanent', status: 422 });
    expect(await t.app.deliveryWorker.runOnce()).toBe(1);
    await ingest(source, { name: 'C' });
    expect(await t.app.deliveryWorker.runOnce()).toBe(1);
    await vi.waitFor(() => expect(mine.got.integration).toHaveLength(2));
    expect(mine.got.integration[1]).toEqual({
      integrationId: crm,
      status: 'ok',
      statusReason: null,
      state: { code: 'working' },
    });
    await vi.waitFor(() => expect(mails()).toHaveLength(2));
  });
});

describe('several processes on PostgreSQL', () => {
  it('an event emitted in a worker process reaches a socket on an API process; ingest NOTIFY wakes that worker at once', async () => {
    const { user, accountId } = await account();
    const crm = await createDestination(t.app.db, accountId);
    const source = await createSource(t.app.db, accountId, { destinationIds: [crm] });
    // A ROLE=worker process on the same database: no HTTP, its loop polls only once a minute.
    const worker = await buildApp({
      databaseUrl: t.databaseUrl,
      role: 'worker',
      worker: true,
      delivery: { getConnector: delivery.getConnector, pollMs: 60_000 },
    });
    try {
      await worker.ready();
      const mine = await connect(url, user.accessToken);
      // The adapters listen in the background: repeat until the first emit crosses.
      const update = { integrationId: crm, status: 'ok' as const, statusReason: null };
      await vi.waitFor(
        () => {
          if (!mine.got.integration.length) worker.realtime.emitToAccount(accountId, 'UPDATE_INTEGRATION', update);
          expect(mine.got.integration).toEqual([update]);
        },
        { timeout: 5_000, interval: 200 },
      );

      const received = dest.received.length;
      const hookId = await ingest(source, { name: 'Across' });
      // Delivered by the worker process (this one never runs its loop), long before its next poll.
      await vi.waitFor(() => expect(dest.received.length).toBe(received + 1), { timeout: 5_000, interval: 20 });
      await vi.waitFor(() => expect(mine.got.totals.at(-1)).toMatchObject({ total: 1, delivered: 1, pending: 0 }));
      // The hook's own event comes too. It is not awaited with the totals: the two processes' batches
      // reach the socket by different paths (the API's own, the worker's through NOTIFY), and once in
      // CI the worker's totals were in while no HOOK_INFORMER was yet.
      await vi.waitFor(() => expect(mine.got.hook.flatMap((e) => e.hookIds)).toContain(hookId));
    } finally {
      await worker.close();
    }
  });
});
