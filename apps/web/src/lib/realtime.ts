// The real-time channel (spec section 7): one socket.io connection per signed-in tab. Events only
// tell the query cache what changed; screens stay live by using the 'hooks' / 'integrations' key
// prefixes.
import type { HookTotals, Integration, IntegrationState, PaymentInformer } from '@leadrelay/shared';
import type { QueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { getToken, subscribeToken, tokenPayload } from './auth';
import { refetchAfterPayment } from './billing/queries';
import { ACCOUNTS_KEY } from './connectors/account-keys';
import { api, refreshAccessToken } from './http';
import { reasonLabel, reasonText } from './integrations/reasons';

export type RealtimeStatus = 'connecting' | 'live' | 'offline';

export interface IntegrationUpdate {
  integrationId: string;
  status: 'ok' | 'broken';
  statusReason: string | null;
  /** The integration's computed status after the change (as GET /api/integrations/:id answers it). */
  state?: IntegrationState;
}

/** What the "broken integration" notice needs; name and type are null when unknown. */
export interface BrokenIntegration {
  id: string;
  name: string | null;
  type: string | null;
  reason: string | null;
}

/** The part of a socket.io-client socket this module uses (tests pass a fake). */
export interface SocketLike {
  /** False after the server refused the handshake: socket.io will not reconnect by itself. */
  readonly active: boolean;
  on(event: string, listener: (...args: never[]) => void): unknown;
  connect(): unknown;
  disconnect(): unknown;
}

export interface IoOptions {
  path: string;
  auth: (cb: (data: { token: string | null }) => void) => void;
  autoConnect: boolean;
}
export type IoFactory = (options: IoOptions) => SocketLike;

export interface RealtimeDeps {
  queryClient: QueryClient;
  /** socket.io's `io` (lib/realtime-connection loads it after the page shows; tests pass a fake). */
  io: IoFactory;
  getToken?: () => string | null;
  /** The app's silent refresh; resolves to the new token or null. */
  refresh?: () => Promise<string | null>;
  /** Loads an integration the cache does not hold (for the broken notice). */
  loadIntegration?: (id: string) => Promise<Pick<Integration, '_id' | 'name' | 'type'>>;
  onBroken?: (info: BrokenIntegration) => void;
}

/** Finds an integration among cached 'integrations' queries: objects, arrays or `{data: []}` lists. */
function cachedIntegration(qc: QueryClient, id: string): Pick<Integration, 'name' | 'type'> | null {
  for (const [, data] of qc.getQueriesData<unknown>({ queryKey: ['integrations'] })) {
    const candidates: unknown[] = [];
    if (Array.isArray(data)) candidates.push(...data);
    else if (data && typeof data === 'object') {
      candidates.push(data);
      const list = (data as { data?: unknown }).data;
      if (Array.isArray(list)) candidates.push(...list);
    }
    for (const c of candidates) {
      const item = c as Partial<Integration>;
      if (item._id === id && typeof item.name === 'string') return { name: item.name, type: item.type ?? '' };
    }
  }
  return null;
}

/** One connection with its handlers; `start`/`stop` are idempotent. */
export class RealtimeClient {
  private socket: SocketLike | null = null;
  private status: RealtimeStatus = 'offline';
  private readonly listeners = new Set<() => void>();
  /** Set after one refresh for an UNAUTHORIZED handshake; cleared once connected. */
  private refreshedForAuth = false;
  private readonly deps: Required<Omit<RealtimeDeps, 'onBroken'>> & Pick<RealtimeDeps, 'onBroken'>;

  constructor(deps: RealtimeDeps) {
    this.deps = {
      getToken,
      refresh: refreshAccessToken,
      loadIntegration: (id) => api.get<Integration>(`/api/integrations/${encodeURIComponent(id)}`),
      ...deps,
    };
  }

  setOnBroken(fn: ((info: BrokenIntegration) => void) | undefined): void {
    this.deps.onBroken = fn;
  }

  getStatus = (): RealtimeStatus => this.status;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  get isStarted(): boolean {
    return this.socket !== null;
  }

  start(): void {
    if (this.socket) return;
    this.refreshedForAuth = false;
    // The auth callback runs before every (re)connect, so a reconnect after the token rotated
    // sends the fresh token.
    const socket = this.deps.io({
      path: '/socket.io',
      autoConnect: false,
      auth: (cb) => cb({ token: this.deps.getToken() }),
    });
    this.socket = socket;
    socket.on('connect', () => {
      this.refreshedForAuth = false;
      this.setStatus('live');
      // What the page loaded before the channel was up (it connects after the page shows, and
      // again after a drop) may have missed an event sent in between: a delivery that finished,
      // an integration that broke. Those screens ask again.
      void this.deps.queryClient.invalidateQueries({ queryKey: ['hooks'] });
      void this.deps.queryClient.invalidateQueries({ queryKey: ['integrations'] });
      void this.deps.queryClient.invalidateQueries({ queryKey: [ACCOUNTS_KEY] });
    });
    socket.on('disconnect', (reason: string) => {
      // The server closes a socket when its token expires (and on restart): socket.io does not
      // reconnect by itself after that, so reconnect; the auth callback sends the current token
      // and an UNAUTHORIZED answer gets the one silent refresh.
      if (reason === 'io server disconnect' && socket === this.socket) {
        this.setStatus('connecting');
        socket.connect();
        return;
      }
      this.setStatus(socket.active ? 'connecting' : 'offline');
    });
    socket.on('connect_error', (err: Error) => void this.onConnectError(socket, err));
    socket.on('HOOK_INFORMER', () => void this.deps.queryClient.invalidateQueries({ queryKey: ['hooks'] }));
    socket.on('HOOKS_INFORMER', (totals: HookTotals) => {
      this.deps.queryClient.setQueryData(['hooks', 'total'], totals);
      void this.deps.queryClient.invalidateQueries({ queryKey: ['hooks', 'statistic'] });
    });
    socket.on('UPDATE_INTEGRATION', (update: IntegrationUpdate) => void this.onIntegration(update));
    socket.on('PAYMENT_INFORMER', (payment: PaymentInformer) => this.onPayment(payment));
    this.setStatus('connecting');
    socket.connect();
  }

  stop(): void {
    const socket = this.socket;
    this.socket = null;
    socket?.disconnect();
    this.setStatus('offline');
  }

  private setStatus(status: RealtimeStatus): void {
    if (this.status === status) return;
    this.status = status;
    for (const l of this.listeners) l();
  }

  private async onConnectError(socket: SocketLike, err: Error): Promise<void> {
    if (socket !== this.socket) return;
    // A network failure: socket.io keeps retrying with backoff on its own.
    if (socket.active) {
      this.setStatus('connecting');
      return;
    }
    // The server refused the handshake. An expired token gets one silent refresh, then one new
    // attempt; a second refusal leaves the channel offline instead of looping.
    if (err.message !== 'UNAUTHORIZED' || this.refreshedForAuth) {
      this.setStatus('offline');
      return;
    }
    this.refreshedForAuth = true;
    this.setStatus('connecting');
    const token = await this.deps.refresh();
    if (socket !== this.socket) return;
    if (!token) {
      this.setStatus('offline');
      return;
    }
    socket.connect();
  }

  /** An order of the account settled: the account, limits and billing are refetched (spec 4), and
   * a screen waiting for that order (the checkout modal) hears of it. */
  private onPayment(payment: PaymentInformer): void {
    void refetchAfterPayment(this.deps.queryClient);
    for (const l of paymentListeners) l(payment);
  }

  private async onIntegration(update: IntegrationUpdate): Promise<void> {
    const qc = this.deps.queryClient;
    const known = cachedIntegration(qc, update.integrationId);
    void qc.invalidateQueries({ queryKey: ['integrations'] });
    // An account connection's health is shown on its own screen too (a lead-form source's).
    void qc.invalidateQueries({ queryKey: [ACCOUNTS_KEY] });
    if (update.status !== 'broken' || !this.deps.onBroken) return;
    let name = known?.name ?? null;
    let type = known?.type || null;
    if (!known) {
      try {
        const loaded = await this.deps.loadIntegration(update.integrationId);
        name = loaded.name;
        type = loaded.type;
      } catch (err) {
        console.warn('integration lookup failed', err);
      }
    }
    // The reason in the user's language: the server's code with parameters (older servers: the text).
    const reason = update.state?.reason
      ? reasonLabel(update.state.reason)
      : update.statusReason
        ? reasonText(update.statusReason)
        : null;
    this.deps.onBroken({ id: update.integrationId, name, type, reason });
  }
}

// ---- Payment events, for the screen that waits for one ----

const paymentListeners = new Set<(payment: PaymentInformer) => void>();

/** Calls `listener` with every PAYMENT_INFORMER of this tab's connection; returns the unsubscribe. */
export function onPaymentInformer(listener: (payment: PaymentInformer) => void): () => void {
  paymentListeners.add(listener);
  return () => paymentListeners.delete(listener);
}

// ---- The tab's one connection ----

let client: RealtimeClient | null = null;
let unsubscribeToken: (() => void) | null = null;
const statusListeners = new Set<() => void>();
const emitStatus = () => {
  for (const l of statusListeners) l();
};

/**
 * Starts the tab's connection (once) and keeps it in step with the session: sign-out disconnects,
 * a different account (sign-in as another user) reconnects with its own token.
 */
export function ensureRealtime(deps: RealtimeDeps): RealtimeClient {
  if (!client) {
    client = new RealtimeClient(deps);
    client.subscribe(emitStatus);
  }
  const c = client;
  if (!unsubscribeToken) {
    let subject = tokenPayload()?.sub;
    unsubscribeToken = subscribeToken(() => {
      const token = getToken();
      const next = tokenPayload()?.sub;
      if (!token) {
        c.stop();
      } else if (next !== subject) {
        c.stop();
        c.start();
      } else if (!c.isStarted) {
        c.start();
      }
      subject = next;
    });
  }
  if (getToken()) c.start();
  return c;
}

export function currentRealtime(): RealtimeClient | null {
  return client;
}

function subscribeStatus(listener: () => void): () => void {
  statusListeners.add(listener);
  return () => statusListeners.delete(listener);
}
const readStatus = (): RealtimeStatus => client?.getStatus() ?? 'offline';

/** The tab's channel state for the "live" indicator. */
export function useRealtimeStatus(): RealtimeStatus {
  return useSyncExternalStore(subscribeStatus, readStatus, () => 'offline');
}

/** For tests: drop the tab's connection. */
export function resetRealtimeForTests(): void {
  client?.stop();
  client = null;
  emitStatus();
  unsubscribeToken?.();
  unsubscribeToken = null;
}
