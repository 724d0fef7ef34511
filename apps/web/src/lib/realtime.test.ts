import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeJwt } from '../test/render';
import { clearToken, resetAuthForTests, setToken } from './auth';
import { applyLocale } from './i18n';
import {
  type BrokenIntegration,
  ensureRealtime,
  type IoOptions,
  onPaymentInformer,
  RealtimeClient,
  type RealtimeDeps,
  resetRealtimeForTests,
  type SocketLike,
} from './realtime';

/** Stands in for a socket.io-client socket: records connects and the token each one sent. */
class FakeSocket implements SocketLike {
  active = false;
  connects = 0;
  disconnects = 0;
  sentTokens: (string | null)[] = [];
  private handlers = new Map<string, ((...args: never[]) => void)[]>();
  constructor(readonly options: IoOptions) {}
  on(event: string, listener: (...args: never[]) => void) {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), listener]);
    return this;
  }
  connect() {
    this.connects++;
    this.active = true;
    this.options.auth((data) => this.sentTokens.push(data.token));
    return this;
  }
  disconnect() {
    this.disconnects++;
    this.active = false;
    return this;
  }
  emit(event: string, ...args: unknown[]) {
    for (const h of this.handlers.get(event) ?? []) (h as (...a: unknown[]) => void)(...args);
  }
  /** The server accepted the handshake. */
  accept() {
    this.emit('connect');
  }
  /** The server refused the handshake (socket.io then stops trying by itself). */
  refuse(message: string) {
    this.active = false;
    this.emit('connect_error', new Error(message));
  }
}

const flush = () => new Promise((r) => setTimeout(r, 0));

function setup(overrides: Partial<RealtimeDeps> = {}) {
  const queryClient = new QueryClient();
  const sockets: FakeSocket[] = [];
  let token: string | null = 'token-1';
  const refresh = vi.fn(async () => {
    token = 'token-2';
    return token;
  });
  const onBroken = vi.fn<(info: BrokenIntegration) => void>();
  const deps: RealtimeDeps = {
    queryClient,
    io: (options) => {
      const s = new FakeSocket(options);
      sockets.push(s);
      return s;
    },
    getToken: () => token,
    refresh,
    onBroken,
    loadIntegration: vi.fn(async (id: string) => ({ _id: id, name: 'Loaded CRM', type: 'pipedrive' })),
    ...overrides,
  };
  const client = new RealtimeClient(deps);
  const socket = () => sockets[sockets.length - 1] as FakeSocket;
  return {
    client,
    queryClient,
    sockets,
    socket,
    refresh,
    onBroken,
    deps,
    setTokenValue: (t: string | null) => {
      token = t;
    },
  };
}

const invalidated = (qc: QueryClient, key: unknown[]) => qc.getQueryState(key)?.isInvalidated ?? false;

describe('RealtimeClient', () => {
  it('connects once at /socket.io with the current token and goes live', () => {
    const { client, socket, sockets } = setup();
    client.start();
    client.start();
    expect(sockets).toHaveLength(1);
    expect(socket().options.path).toBe('/socket.io');
    expect(socket().sentTokens).toEqual(['token-1']);
    expect(client.getStatus()).toBe('connecting');
    socket().accept();
    expect(client.getStatus()).toBe('live');
  });

  it('sends the rotated token when socket.io reconnects on its own', () => {
    const { client, socket, setTokenValue } = setup();
    client.start();
    socket().accept();
    setTokenValue('rotated');
    socket().connect(); // what the manager does after a dropped connection
    expect(socket().sentTokens).toEqual(['token-1', 'rotated']);
  });

  it('reconnects with the current token when the server closes the socket at token expiry', () => {
    const { client, socket, setTokenValue } = setup();
    client.start();
    socket().accept();
    setTokenValue('rotated');
    socket().active = false;
    socket().emit('disconnect', 'io server disconnect');
    expect(client.getStatus()).toBe('connecting');
    expect(socket().sentTokens).toEqual(['token-1', 'rotated']);
    socket().accept();
    expect(client.getStatus()).toBe('live');
  });

  it('a dropped network connection waits for socket.io to retry instead of forcing a connect', () => {
    const { client, socket } = setup();
    client.start();
    socket().accept();
    socket().emit('disconnect', 'transport close');
    expect(client.getStatus()).toBe('connecting');
    expect(socket().connects).toBe(1);
  });

  it('at every connect, what was loaded before the channel was up is asked for again', () => {
    const { client, socket, queryClient } = setup();
    queryClient.setQueryData(['hooks', 'list', { page: 1 }], { data: [], total: 0 });
    queryClient.setQueryData(['integrations', 'list', {}], { data: [], total: 0 });
    queryClient.setQueryData(['connector-accounts', 'facebook', 'connections'], []);
    queryClient.setQueryData(['me'], { login: 'a@example.com' });
    client.start();
    expect(invalidated(queryClient, ['hooks', 'list', { page: 1 }])).toBe(false);
    socket().accept();
    expect(invalidated(queryClient, ['hooks', 'list', { page: 1 }])).toBe(true);
    expect(invalidated(queryClient, ['integrations', 'list', {}])).toBe(true);
    expect(invalidated(queryClient, ['connector-accounts', 'facebook', 'connections'])).toBe(true);
    expect(invalidated(queryClient, ['me'])).toBe(false);
  });

  it('HOOK_INFORMER marks every hooks query stale and nothing else', () => {
    const { client, socket, queryClient } = setup();
    queryClient.setQueryData(['hooks', 'list', { page: 1 }], { data: [], total: 0 });
    queryClient.setQueryData(['hooks', 'total'], { total: 1 });
    queryClient.setQueryData(['integrations', 'list'], { data: [], total: 0 });
    client.start();
    socket().emit('HOOK_INFORMER', { hookIds: ['h1'] });
    expect(invalidated(queryClient, ['hooks', 'list', { page: 1 }])).toBe(true);
    expect(invalidated(queryClient, ['hooks', 'total'])).toBe(true);
    expect(invalidated(queryClient, ['integrations', 'list'])).toBe(false);
  });

  it('HOOKS_INFORMER puts the new totals in the cache and refetches the statistic only', () => {
    const { client, socket, queryClient } = setup();
    queryClient.setQueryData(['hooks', 'statistic', { page: 1, limit: 14 }], { data: [] });
    queryClient.setQueryData(['hooks', 'list', { page: 1 }], { data: [], total: 0 });
    client.start();
    const totals = { total: 7, delivered: 5, failed: 1, pending: 1, filtered: 0, duplicate: 0 };
    socket().emit('HOOKS_INFORMER', totals);
    expect(queryClient.getQueryData(['hooks', 'total'])).toEqual(totals);
    expect(invalidated(queryClient, ['hooks', 'statistic', { page: 1, limit: 14 }])).toBe(true);
    expect(invalidated(queryClient, ['hooks', 'list', { page: 1 }])).toBe(false);
  });

  it('UPDATE_INTEGRATION says why from its computed state, in the interface language', async () => {
    applyLocale('uk');
    const { client, socket, queryClient, onBroken } = setup();
    queryClient.setQueryData(['integrations', 'list', {}], {
      data: [{ _id: 'i1', name: 'Sales amoCRM', type: 'amocrm' }],
      total: 1,
    });
    client.start();
    socket().emit('UPDATE_INTEGRATION', {
      integrationId: 'i1',
      status: 'broken',
      statusReason: 'HTTP 401: Unauthorized',
      state: { code: 'broken_auth', reason: { code: 'AUTH', params: { status: 401 } } },
    });
    await flush();
    expect(onBroken).toHaveBeenCalledWith({
      id: 'i1',
      name: 'Sales amoCRM',
      type: 'amocrm',
      reason: 'Сервер відхилив авторизацію (HTTP 401)',
    });
  });

  it('UPDATE_INTEGRATION refreshes integrations and names a broken one from the cache', async () => {
    const { client, socket, queryClient, onBroken, deps } = setup();
    queryClient.setQueryData(['integrations', 'list', {}], {
      data: [{ _id: 'i1', name: 'Sales amoCRM', type: 'amocrm' }],
      total: 1,
    });
    client.start();
    socket().emit('UPDATE_INTEGRATION', { integrationId: 'i1', status: 'broken', statusReason: 'Token revoked' });
    await flush();
    expect(invalidated(queryClient, ['integrations', 'list', {}])).toBe(true);
    // A text that is no code of ours is not read out: the notice says something went wrong.
    expect(onBroken).toHaveBeenCalledWith({
      id: 'i1',
      name: 'Sales amoCRM',
      type: 'amocrm',
      reason: 'Щось пішло не так',
    });
    expect(deps.loadIntegration).not.toHaveBeenCalled();
  });

  it('UPDATE_INTEGRATION refreshes the Facebook connections screen but not its 2-hour pictures', async () => {
    const { client, socket, queryClient } = setup();
    queryClient.setQueryData(['connector-accounts', 'facebook', 'connections'], []);
    queryClient.setQueryData(['facebook-picture', '1001'], { url: 'https://example.com/p.jpg' });
    client.start();
    socket().emit('UPDATE_INTEGRATION', { integrationId: 'i1', status: 'broken', statusReason: 'Token expired' });
    await flush();
    expect(invalidated(queryClient, ['connector-accounts', 'facebook', 'connections'])).toBe(true);
    expect(invalidated(queryClient, ['facebook-picture', '1001'])).toBe(false);
  });

  it('loads a broken integration the cache does not hold; a recovery shows no notice', async () => {
    const { client, socket, onBroken } = setup();
    client.start();
    socket().emit('UPDATE_INTEGRATION', { integrationId: 'i2', status: 'ok', statusReason: null });
    await flush();
    expect(onBroken).not.toHaveBeenCalled();
    socket().emit('UPDATE_INTEGRATION', { integrationId: 'i2', status: 'broken', statusReason: null });
    await flush();
    expect(onBroken).toHaveBeenCalledWith({ id: 'i2', name: 'Loaded CRM', type: 'pipedrive', reason: null });
  });

  it('PAYMENT_INFORMER refetches the account, limits, billing and referrals, and tells who waits for the order', () => {
    const { client, socket, queryClient } = setup();
    queryClient.setQueryData(['me'], { _id: 'u1', planId: null });
    queryClient.setQueryData(['plans', 'limits'], { demo: true });
    queryClient.setQueryData(['plans', 'list'], []);
    queryClient.setQueryData(['billing', 'orders', { page: 1, limit: 10 }], { data: [], total: 0 });
    queryClient.setQueryData(['billing', 'invoices', { page: 1, limit: 10 }], { data: [], total: 0 });
    queryClient.setQueryData(['billing', 'method'], null);
    queryClient.setQueryData(['referrals', { page: 1, limit: 10 }], { data: [], total: 0 });
    queryClient.setQueryData(['hooks', 'total'], { total: 1 });
    const heard = vi.fn();
    const stop = onPaymentInformer(heard);
    client.start();
    socket().emit('PAYMENT_INFORMER', { orderId: 'o1', status: 'paid' });
    expect(invalidated(queryClient, ['me'])).toBe(true);
    expect(invalidated(queryClient, ['plans', 'limits'])).toBe(true);
    expect(invalidated(queryClient, ['billing', 'orders', { page: 1, limit: 10 }])).toBe(true);
    expect(invalidated(queryClient, ['billing', 'invoices', { page: 1, limit: 10 }])).toBe(true);
    expect(invalidated(queryClient, ['billing', 'method'])).toBe(true);
    expect(invalidated(queryClient, ['referrals', { page: 1, limit: 10 }])).toBe(true);
    // The plans themselves and the leads do not change with a payment.
    expect(invalidated(queryClient, ['plans', 'list'])).toBe(false);
    expect(invalidated(queryClient, ['hooks', 'total'])).toBe(false);
    expect(heard).toHaveBeenCalledWith({ orderId: 'o1', status: 'paid' });

    stop();
    socket().emit('PAYMENT_INFORMER', { orderId: 'o2', status: 'failed' });
    expect(heard).toHaveBeenCalledTimes(1);
  });

  it('an UNAUTHORIZED handshake refreshes once and reconnects with the new token', async () => {
    const { client, socket, refresh } = setup();
    client.start();
    socket().refuse('UNAUTHORIZED');
    await flush();
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(socket().sentTokens).toEqual(['token-1', 'token-2']);
    socket().accept();
    expect(client.getStatus()).toBe('live');
  });

  it('a second refusal after the refresh goes offline instead of looping', async () => {
    const { client, socket, refresh } = setup();
    client.start();
    socket().refuse('UNAUTHORIZED');
    await flush();
    socket().refuse('UNAUTHORIZED');
    await flush();
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(socket().connects).toBe(2);
    expect(client.getStatus()).toBe('offline');
  });

  it('a later expiry, after a good connection, gets its own single refresh', async () => {
    const { client, socket, refresh } = setup();
    client.start();
    socket().refuse('UNAUTHORIZED');
    await flush();
    socket().accept();
    socket().refuse('UNAUTHORIZED');
    await flush();
    expect(refresh).toHaveBeenCalledTimes(2);
    expect(socket().connects).toBe(3);
  });

  it('a failed refresh leaves the channel offline without reconnecting', async () => {
    const failing = vi.fn(async () => null);
    const { client, socket } = setup({ refresh: failing });
    client.start();
    socket().refuse('UNAUTHORIZED');
    await flush();
    expect(failing).toHaveBeenCalledTimes(1);
    expect(socket().connects).toBe(1);
    expect(client.getStatus()).toBe('offline');
  });

  it('network errors are left to socket.io retries, without a refresh', async () => {
    const { client, socket, refresh } = setup();
    client.start();
    socket().emit('connect_error', new Error('xhr poll error')); // still active: socket.io retries
    await flush();
    expect(refresh).not.toHaveBeenCalled();
    expect(client.getStatus()).toBe('connecting');
  });
});

describe('ensureRealtime', () => {
  beforeEach(() => {
    resetAuthForTests();
    resetRealtimeForTests();
  });
  afterEach(() => {
    resetRealtimeForTests();
    resetAuthForTests();
  });

  it('one connection per tab; sign-out disconnects; another account reconnects', () => {
    const sockets: FakeSocket[] = [];
    const io = (options: IoOptions) => {
      const s = new FakeSocket(options);
      sockets.push(s);
      return s;
    };
    const queryClient = new QueryClient();
    setToken(fakeJwt({ sub: 'a1', exp: Date.now() / 1000 + 900 }));
    ensureRealtime({ queryClient, io });
    ensureRealtime({ queryClient, io });
    expect(sockets).toHaveLength(1);

    // The same account's rotated token keeps the connection.
    setToken(fakeJwt({ sub: 'a1', exp: Date.now() / 1000 + 1800 }));
    expect(sockets).toHaveLength(1);
    expect(sockets[0]?.disconnects).toBe(0);

    // Entering as another user: the old connection ends, a new one carries the new token.
    const other = fakeJwt({ sub: 'b2', exp: Date.now() / 1000 + 900 });
    setToken(other);
    expect(sockets[0]?.disconnects).toBe(1);
    expect(sockets).toHaveLength(2);
    expect(sockets[1]?.sentTokens).toEqual([other]);

    clearToken();
    expect(sockets[1]?.disconnects).toBe(1);
  });
});
