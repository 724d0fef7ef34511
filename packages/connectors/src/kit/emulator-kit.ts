// The mechanics every emulator shares: a capped request log, a latency switch, a fault switch that
// clears after `times` answers, timers that close() cancels, a sliding-window rate limiter, the
// /__emulator reset/fault/latency control routes, and listening on a host that may be IPv6.
// What an emulator answers (its fault body, its limiter's headers) stays in the emulator.
import type { FastifyInstance, FastifyRequest } from 'fastify';

export interface EmulatorFault {
  /** Fail this many requests, then clear; default: until cleared. */
  times?: number;
}

export interface EmulatorKit<F extends EmulatorFault, E> {
  /** Every logged request, in arrival order (capped at maxLog, oldest dropped). */
  readonly requests: E[];
  readonly latencyMs: number;
  readonly fault: F | null;
  setLatency(ms: number): void;
  /** A copy is kept, so spending its `times` leaves the caller's object alone. */
  setFault(fault: F | null | undefined): void;
  /** The fault to answer with now (when there is one and `applies` agrees); spends one of its `times`. */
  takeFault(applies?: (fault: F) => boolean): F | null;
  log(entry: E): E;
  /** Waits the latency, if any. */
  delay(): Promise<void>;
  sleep(ms: number): Promise<void>;
  /** Empties the log and clears latency and fault. */
  resetSwitches(): void;
  clearTimers(): void;
}

export function createEmulatorKit<F extends EmulatorFault, E>(options: { maxLog?: number } = {}): EmulatorKit<F, E> {
  const maxLog = options.maxLog ?? Number.POSITIVE_INFINITY;
  const requests: E[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let latencyMs = 0;
  let fault: F | null = null;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        timers.delete(t);
        resolve();
      }, ms);
      timers.add(t);
    });

  return {
    requests,
    get latencyMs() {
      return latencyMs;
    },
    get fault() {
      return fault;
    },
    setLatency(ms) {
      latencyMs = Math.max(0, ms);
    },
    setFault(f) {
      fault = f ? { ...f } : null;
    },
    takeFault(applies) {
      const f = fault;
      if (!f || (applies && !applies(f))) return null;
      if (f.times !== undefined && --f.times <= 0) fault = null;
      return f;
    },
    log(entry) {
      requests.push(entry);
      if (requests.length > maxLog) requests.splice(0, requests.length - maxLog);
      return entry;
    },
    delay: () => (latencyMs > 0 ? sleep(latencyMs) : Promise.resolve()),
    sleep,
    resetSwitches() {
      requests.length = 0;
      latencyMs = 0;
      fault = null;
    },
    clearTimers() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
}

export interface SlidingWindow {
  /**
   * Counts a hit for `key` unless `limit` hits already fall within the window. Returns whether it was
   * admitted and the key's hits in the window, oldest first (including this one when admitted).
   */
  hit(key: string, limit: number, now?: number): { isAdmitted: boolean; hits: number[] };
  clear(): void;
}

export function slidingWindow(windowMs: number): SlidingWindow {
  const windows = new Map<string, number[]>();
  return {
    hit(key, limit, now = Date.now()) {
      const hits = (windows.get(key) ?? []).filter((t) => t > now - windowMs);
      windows.set(key, hits);
      if (hits.length >= limit) return { isAdmitted: false, hits };
      hits.push(now);
      return { isAdmitted: true, hits };
    },
    clear: () => windows.clear(),
  };
}

export interface ControlRouteOptions {
  reset(): void;
  /** The request body as an object (default req.body; emulators that keep raw bodies parse them). */
  body?: (req: FastifyRequest) => unknown;
  /** Answer the fault and latency set, as well as ok (default true). */
  isEchoed?: boolean;
}

/** POST /__emulator/reset, /__emulator/fault ({status, times, …} or null) and /__emulator/latency ({ms}). */
export function registerControlRoutes<F extends EmulatorFault>(
  app: FastifyInstance,
  kit: EmulatorKit<F, unknown>,
  options: ControlRouteOptions,
): void {
  const body = (req: FastifyRequest) => (options.body ? options.body(req) : req.body) ?? null;
  const isEchoed = options.isEchoed ?? true;
  app.post('/__emulator/reset', async () => {
    options.reset();
    return { ok: true };
  });
  app.post('/__emulator/fault', async (req) => {
    kit.setFault(body(req) as F | null);
    return isEchoed ? { ok: true, fault: kit.fault } : { ok: true };
  });
  app.post('/__emulator/latency', async (req) => {
    kit.setLatency(Number((body(req) as { ms?: number } | null)?.ms ?? 0));
    return isEchoed ? { ok: true, latencyMs: kit.latencyMs } : { ok: true };
  });
}

/** Listens on host (default 127.0.0.1) and port (default any free one). */
export async function listenEmulator(
  app: FastifyInstance,
  options: { port?: number; host?: string },
): Promise<{ port: number; hostPort: string; url: string }> {
  const host = options.host ?? '127.0.0.1';
  const address = await app.listen({ port: options.port ?? 0, host });
  const port = Number(new URL(address).port);
  const hostPort = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  return { port, hostPort, url: `http://${hostPort}` };
}

/** JSON text → value; anything else (not a string, empty, malformed) → undefined. */
export function parseJson(text: unknown): unknown {
  if (typeof text !== 'string' || !text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
