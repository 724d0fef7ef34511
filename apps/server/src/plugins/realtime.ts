// The real-time channel: socket.io on the API's HTTP server at /socket.io. A socket signs in with
// the access token (checked like an HTTP request) and joins its account's room; the server only
// emits. On PostgreSQL the adapter carries every emit to the sockets of all API processes, so a
// worker process (no browsers of its own) reaches them too. See docs/adr/003-real-time-channel.md.

import type { HookTotals, IntegrationState, PaymentInformer } from '@leadrelay/shared';
import { createAdapter } from '@socket.io/postgres-adapter';
import type { FastifyInstance } from 'fastify';
import { decodeJwt } from 'jose';
import type pg from 'pg';
import { Server } from 'socket.io';
import type { Deps } from '../config';
import type { EngineEventBus } from '../lib/events';
import { adapterPool } from '../lib/pg-bus';
import type { Authenticate } from './auth';

export interface IntegrationUpdate {
  integrationId: string;
  status: 'ok' | 'broken';
  statusReason: string | null;
  /** The integration's one computed status after the change, as GET /api/integrations/:id answers it. */
  state?: IntegrationState;
}

/** The events the browser gets; the web app codes against these names and payloads. */
export interface ServerToClientEvents {
  /** Hooks of the account were created, changed status or were removed. */
  HOOK_INFORMER: (payload: { hookIds: string[] }) => void;
  /** The account's counters, as GET /api/hook/total answers them; right after HOOK_INFORMER. */
  HOOKS_INFORMER: (payload: HookTotals) => void;
  UPDATE_INTEGRATION: (payload: IntegrationUpdate) => void;
  /** An order of the account was paid, declined or refunded: the web refreshes the account (spec 4). */
  PAYMENT_INFORMER: (payload: PaymentInformer) => void;
}

interface SocketData {
  userId: string;
  /** When the access token the socket signed in with expires (ms since the epoch). */
  expiresAt: number;
}

export type RealtimeServer = Server<Record<string, never>, ServerToClientEvents, Record<string, never>, SocketData>;

export const accountRoom = (accountId: string) => `account:${accountId}`;

/**
 * Sockets one account may hold open in one process (a browser tab holds one). Past it the oldest is
 * closed, so a client opening sockets in a loop cannot grow the server's socket maps without bound.
 */
export const MAX_SOCKETS_PER_ACCOUNT = 50;

/** Hook changes of an account are collected this long, then sent as one HOOK_INFORMER. */
export const HOOK_COALESCE_MS = 250;

export interface RealtimeOptions {
  /** The bus pool: events cross processes through @socket.io/postgres-adapter. */
  pool: pg.Pool;
  /** Serve browsers on app.server (api and all); a worker only emits. */
  attach: boolean;
  /** Who a socket's token belongs to (the auth module's answer). */
  authenticate: Authenticate;
  /** An account's dashboard counters, sent with every hook change (the hooks module's answer). */
  totals(accountId: string): Promise<HookTotals>;
  coalesceMs?: number;
}

export interface Realtime {
  io: RealtimeServer;
  /** Sends an event to every socket of the account, in any process. */
  emitToAccount<E extends keyof ServerToClientEvents>(
    accountId: string,
    event: E,
    payload: Parameters<ServerToClientEvents[E]>[0],
  ): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    realtime: Realtime;
  }
}

// Created by the adapter's README recipe; the adapter keeps payloads over 8 kB here.
const ATTACHMENTS_TABLE = `
  create table if not exists socket_io_attachments (
    id bigserial unique,
    created_at timestamptz default now(),
    payload bytea
  )`;

async function createAttachmentsTable(pool: pg.Pool): Promise<void> {
  try {
    await pool.query(ATTACHMENTS_TABLE);
  } catch (error) {
    // Two processes starting at once: the other one created it.
    const code = (error as { code?: string }).code;
    if (code !== '23505' && code !== '42P07') throw error;
  }
}

export async function setupRealtime(
  app: FastifyInstance,
  deps: Deps,
  events: EngineEventBus,
  options: RealtimeOptions,
): Promise<Realtime> {
  await createAttachmentsTable(options.pool);
  const adapterView = adapterPool(options.pool);
  const io: RealtimeServer = new Server({
    path: '/socket.io',
    serveClient: false,
    adapter: createAdapter(adapterView.pool),
  });

  io.use((socket, next) => {
    const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    options.authenticate(typeof token === 'string' ? token : undefined).then(
      (auth) => {
        if (!auth || typeof token !== 'string') return next(new Error('UNAUTHORIZED'));
        socket.data.userId = auth.user.id;
        socket.data.expiresAt = (decodeJwt(token).exp ?? 0) * 1000;
        next();
      },
      (error) => {
        deps.log.error({ err: error }, 'real-time sign-in failed');
        next(new Error('INTERNAL_ERROR'));
      },
    );
  });
  io.on('connection', (socket) => {
    const room = accountRoom(socket.data.userId);
    void socket.join(room);
    const members = io.sockets.adapter.rooms.get(room);
    if (members && members.size > MAX_SOCKETS_PER_ACCOUNT) {
      // A Set keeps insertion order: the first is the account's oldest socket here.
      const oldest = members.values().next().value;
      if (oldest !== undefined) io.sockets.sockets.get(oldest)?.disconnect(true);
    }
    // A socket lives no longer than its token: the client reconnects with a fresh one, so a
    // session signed out or revoked elsewhere stops hearing the account within the token's TTL.
    const expiry = setTimeout(() => socket.disconnect(true), Math.max(0, socket.data.expiresAt - Date.now()));
    expiry.unref();
    socket.once('disconnect', () => clearTimeout(expiry));
  });

  const emitToAccount: Realtime['emitToAccount'] = (accountId, event, payload) => {
    // biome-ignore lint/suspicious/noExplicitAny: socket.io's typed emit cannot take a generic event name.
    (io.to(accountRoom(accountId)) as any).emit(event, payload);
  };

  // Coalescing: the first change of an account starts a window; changes inside it join the batch.
  const batches = new Map<string, { ids: Set<string>; timer: NodeJS.Timeout }>();
  const sending = new Set<Promise<void>>();
  let closing = false;
  const coalesceMs = options.coalesceMs ?? HOOK_COALESCE_MS;

  const flush = (accountId: string) => {
    const batch = batches.get(accountId);
    batches.delete(accountId);
    // Sockets of the account may be on another process: the totals are always sent.
    if (!batch || closing) return;
    const sent = (async () => {
      const totals = await options.totals(accountId);
      emitToAccount(accountId, 'HOOK_INFORMER', { hookIds: [...batch.ids] });
      emitToAccount(accountId, 'HOOKS_INFORMER', totals);
    })()
      .catch((error) => deps.log.warn({ err: error, accountId }, 'real-time hook update failed'))
      .finally(() => sending.delete(sent));
    sending.add(sent);
  };

  const onHookChanged = ({ accountId, hookId }: { accountId: string; hookId: string }) => {
    if (closing) return;
    const batch = batches.get(accountId);
    if (batch) {
      batch.ids.add(hookId);
      return;
    }
    batches.set(accountId, { ids: new Set([hookId]), timer: setTimeout(() => flush(accountId), coalesceMs) });
  };
  events.on('hook.changed', onHookChanged);

  let attached = false;
  if (options.attach) {
    app.addHook('onReady', async () => {
      io.attach(app.server);
      attached = true;
    });
  }

  // preClose runs after the delivery worker's (registered earlier): its last results are sent,
  // then the sockets are closed so the HTTP server is not held open by them.
  app.addHook('preClose', async () => {
    for (const accountId of [...batches.keys()]) {
      clearTimeout(batches.get(accountId)?.timer);
      flush(accountId);
    }
    closing = true;
    events.off('hook.changed', onHookChanged);
    await Promise.allSettled([...sending]);
    io.local.disconnectSockets(true);
  });
  app.addHook('onClose', async () => {
    // Releases the adapter's listening client; the HTTP server is closed by Fastify already.
    if (attached) await io.close();
    else await io.of('/').adapter.close();
    adapterView.close();
  });

  const realtime: Realtime = { io, emitToAccount };
  app.decorate('realtime', realtime);
  return realtime;
}
