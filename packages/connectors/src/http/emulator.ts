// A stateful fake of "any webhook receiver", for our tests, the end-to-end suite, the demo and the
// benchmarks (hundreds of leads per second): it logs every request with its raw body, dedupes records
// by Idempotency-Key (unless `dedupe: false`: a plain receiver that honours no key, as many do), and
// has latency and fault switches (in-process and over HTTP under /__emulator).

import { randomUUID } from 'node:crypto';
import { setOwn } from '@leadrelay/shared';
import Fastify from 'fastify';
import { createEmulatorKit, listenEmulator, parseJson, registerControlRoutes } from '../kit/emulator-kit';

export interface EmulatedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** The exact bytes received, as UTF-8 text (what a receiver verifies the signature over). */
  rawBody: string;
  /** Parsed JSON, or undefined when the body is not JSON. */
  body: unknown;
  /** The X-LeadRelay-Signature header as received (the emulator verifies nothing itself). */
  signature?: string;
  idempotencyKey?: string;
  /** What the emulator answered. */
  status: number;
  receivedAt: string;
}

export interface EmulatedRecord {
  id: string;
  idempotencyKey?: string;
  body: unknown;
  /** How many requests carried this key (1 = no duplicates). */
  hits: number;
  createdAt: string;
}

export interface HttpFault {
  status: number;
  /** Sent as Retry-After (seconds, or an HTTP date string). */
  retryAfter?: number | string;
  /** Fail this many requests, then clear; default: until cleared. */
  times?: number;
  /** Optional JSON body; default {error: 'emulated fault'}. */
  body?: unknown;
}

export interface HttpRedirect {
  /** Location header value. */
  location: string;
  status?: 301 | 302 | 303 | 307 | 308;
  times?: number;
}

export interface HttpEmulator {
  /** Origin, e.g. http://127.0.0.1:41234 (any path answers; /hook is the conventional one). */
  url: string;
  /** `${url}/hook` */
  hookUrl: string;
  port: number;
  /** Every request, in arrival order (capped at maxLog, oldest dropped). */
  requests: EmulatedRequest[];
  /** Records made, one per Idempotency-Key (requests without a key each make one). */
  records: EmulatedRecord[];
  setLatency(ms: number): void;
  setFault(fault: HttpFault | null): void;
  setRedirect(redirect: HttpRedirect | null): void;
  reset(): void;
  close(): Promise<void>;
}

export interface HttpEmulatorOptions {
  port?: number;
  host?: string;
  /** Request log cap (the benchmarks send many thousands); default 10 000. */
  maxLog?: number;
  /** false: every POST makes a record, the key is only logged (the crash benchmark's plain receiver). Default true. */
  dedupe?: boolean;
}

export async function startHttpEmulator(options: HttpEmulatorOptions = {}): Promise<HttpEmulator> {
  const app = Fastify({ logger: false, forceCloseConnections: true, bodyLimit: 5 * 1024 * 1024 });
  const kit = createEmulatorKit<HttpFault, EmulatedRequest>({ maxLog: options.maxLog ?? 10_000 });
  const records: EmulatedRecord[] = [];
  const byKey = new Map<string, EmulatedRecord>();
  let redirect: HttpRedirect | null = null;

  // Keep the exact bytes: signatures are over them, not over re-serialised JSON.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));

  const emulator: HttpEmulator = {
    url: '',
    hookUrl: '',
    port: 0,
    requests: kit.requests,
    records,
    setLatency: kit.setLatency,
    setFault: kit.setFault,
    setRedirect(r) {
      redirect = r ? { ...r } : null;
    },
    reset() {
      kit.resetSwitches();
      records.length = 0;
      byKey.clear();
      redirect = null;
    },
    async close() {
      kit.clearTimers();
      await app.close();
    },
  };

  app.get('/__log', async () => ({
    requests: kit.requests,
    records,
    latencyMs: kit.latencyMs,
    fault: kit.fault,
    redirect,
  }));
  registerControlRoutes(app, kit, { reset: () => emulator.reset(), body: (req) => parseJson(req.body) });
  app.post('/__emulator/redirect', async (req) => {
    emulator.setRedirect(parseJson(req.body) as HttpRedirect | null);
    return { ok: true, redirect };
  });

  app.all('/*', async (req, reply) => {
    const rawBody = typeof req.body === 'string' ? req.body : '';
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) {
      if (v !== undefined) setOwn(headers, k, Array.isArray(v) ? v.join(', ') : v);
    }
    const idempotencyKey = headers['idempotency-key'];
    const entry = kit.log({
      method: req.method,
      path: req.url,
      headers,
      rawBody,
      body: parseJson(rawBody),
      signature: headers['x-leadrelay-signature'],
      idempotencyKey,
      status: 200,
      receivedAt: new Date().toISOString(),
    });
    // Logged on arrival, answered after the latency: a client that gives up still leaves a record, as in life.
    await kit.delay();

    if (redirect) {
      const r = redirect;
      if (r.times !== undefined && --r.times <= 0) redirect = null;
      entry.status = r.status ?? 307;
      return reply.code(entry.status).header('location', r.location).send();
    }
    const f = kit.takeFault();
    if (f) {
      entry.status = f.status;
      if (f.retryAfter !== undefined) reply.header('retry-after', String(f.retryAfter));
      return reply.code(f.status).send(f.body ?? { error: 'emulated fault', status: f.status });
    }
    if (req.method === 'HEAD' || req.method === 'GET') return { ok: true };

    const existing = idempotencyKey && options.dedupe !== false ? byKey.get(idempotencyKey) : undefined;
    if (existing) {
      existing.hits += 1;
      return { id: existing.id, duplicate: true };
    }
    const record: EmulatedRecord = {
      id: randomUUID(),
      idempotencyKey,
      body: entry.body ?? rawBody,
      hits: 1,
      createdAt: entry.receivedAt,
    };
    records.push(record);
    if (idempotencyKey) byKey.set(idempotencyKey, record);
    return { id: record.id };
  });

  const { port, url } = await listenEmulator(app, options);
  emulator.port = port;
  emulator.url = url;
  emulator.hookUrl = `${emulator.url}/hook`;
  return emulator;
}
