// A stateful fake of Pipedrive for tests and the local demo: OAuth (authorize, token, refresh, with
// api_domain = this emulator), API-token auth, the v1 and v2 calls the connector makes in Pipedrive's
// {success, data, additional_data} envelope, a rolling 2-second burst limiter answering 429 with
// x-ratelimit-* headers, fault and latency switches, a request log (in-process and under /__emulator).
import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyRequest } from 'fastify';
import { createEmulatorKit, listenEmulator, registerControlRoutes, slidingWindow } from '../kit/emulator-kit';
import { ApiFailure, clearStore, type EmulatorRecords, emptyStore, recordsOf, registerApiRoutes } from './emulator-api';

export { PIPEDRIVE_SEED } from './emulator-api';

export interface PipedriveEmulatorOptions {
  port?: number;
  host?: string;
  clientId?: string;
  clientSecret?: string;
  /** The company's API token (x-api-token header or ?api_token). */
  apiToken?: string;
  /** Access-token lifetime in seconds (default 3599). */
  accessTokenTtl?: number;
  /** Requests per rolling 2 s window per credential (default 400). */
  burstLimit?: number;
}

export interface PipedriveFault {
  status: number;
  /** Seconds, sent as Retry-After and x-ratelimit-reset. */
  retryAfter?: number;
  times?: number;
  /** Pipedrive's `error` text; default "emulated fault" (401: "unauthorized access"). */
  error?: string;
  /** Only requests whose "METHOD /path" contains this string fail (e.g. "POST /v1/leads"). */
  match?: string;
}

export interface EmulatedCall {
  method: string;
  /** Path without the query. */
  path: string;
  query: Record<string, string>;
  body: unknown;
  auth: 'bearer' | 'token' | 'none';
  status: number;
}

/** persons, organizations, deals, leads, notes, activities, webhooks: the emulator's records. */
export interface PipedriveEmulator extends EmulatorRecords {
  /** Origin; also the api_domain its tokens name. */
  url: string;
  port: number;
  clientId: string;
  clientSecret: string;
  apiToken: string;
  requests: EmulatedCall[];
  /** Tokens as the connector stores them, without the OAuth dance (tests). */
  issueTokens(): { accessToken: string; refreshToken: string; expiresAt: number; apiDomain: string };
  /** Every access token issued so far expires now (their refresh tokens still work). */
  expireTokens(): void;
  /** How many refresh_token grants succeeded. */
  refreshCount(): number;
  /** Calls made with the API (not OAuth, not control) whose "METHOD /path" contains `match`. */
  calls(match?: string): EmulatedCall[];
  setBurstLimit(limit: number): void;
  /** Persons made from now on are found by search only this much later (Pipedrive's index lag). */
  setSearchLag(ms: number): void;
  setLatency(ms: number): void;
  setFault(fault: PipedriveFault | null): void;
  /** Data, log, faults, latency and limits back to the seed; issued credentials stay valid. */
  reset(): void;
  close(): Promise<void>;
}

export async function startPipedriveEmulator(options: PipedriveEmulatorOptions = {}): Promise<PipedriveEmulator> {
  const app = Fastify({ logger: false, forceCloseConnections: true });
  const clientId = options.clientId ?? 'emu-client-id';
  const clientSecret = options.clientSecret ?? `emu-secret-${randomBytes(8).toString('hex')}`;
  const apiToken = options.apiToken ?? `emu-api-token-${randomBytes(12).toString('hex')}`;
  const ttl = options.accessTokenTtl ?? 3599;
  const defaultBurst = options.burstLimit ?? 400;

  const accessTokens = new Map<string, number>();
  const refreshTokens = new Set<string>();
  const codes = new Map<string, { redirectUri: string }>();
  let refreshes = 0;
  let burstLimit = defaultBurst;
  const limiter = slidingWindow(2_000);
  const kit = createEmulatorKit<PipedriveFault, EmulatedCall>();
  const requests = kit.requests;
  const logOf = new WeakMap<FastifyRequest, EmulatedCall>();

  const store = emptyStore();
  const emulator: PipedriveEmulator = {
    url: '',
    port: 0,
    clientId,
    clientSecret,
    apiToken,
    requests,
    ...recordsOf(store),
    issueTokens() {
      const t = mint();
      return {
        accessToken: t.access_token,
        refreshToken: t.refresh_token,
        expiresAt: Date.now() + ttl * 1000,
        apiDomain: emulator.url,
      };
    },
    expireTokens() {
      for (const k of accessTokens.keys()) accessTokens.set(k, 0);
    },
    refreshCount: () => refreshes,
    calls: (match) => requests.filter((r) => !match || `${r.method} ${r.path}`.includes(match)),
    setBurstLimit(limit) {
      burstLimit = limit;
      limiter.clear();
    },
    setSearchLag(ms) {
      store.searchLagMs = Math.max(0, ms);
    },
    setLatency: kit.setLatency,
    setFault: kit.setFault,
    reset() {
      kit.resetSwitches();
      clearStore(store);
      refreshes = 0;
      burstLimit = defaultBurst;
      limiter.clear();
    },
    async close() {
      kit.clearTimers();
      await app.close();
    },
  };

  function mint() {
    const access_token = `emu-at-${randomBytes(16).toString('hex')}`;
    const refresh_token = `emu-rt-${randomBytes(16).toString('hex')}`;
    accessTokens.set(access_token, Date.now() + ttl * 1000);
    refreshTokens.add(refresh_token);
    return { access_token, refresh_token };
  }

  const failBody = (status: number, error: string) => ({
    success: false,
    error,
    error_info: 'Please check developers.pipedrive.com',
    data: null,
    additional_data: null,
    ...(status === 401 ? { errorCode: 401 } : {}),
  });

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  app.setErrorHandler((err, _req, reply) => {
    if (err instanceof ApiFailure) return reply.code(err.status).send(failBody(err.status, err.message));
    const status = (err as { statusCode?: number }).statusCode ?? 500;
    return reply.code(status).send(failBody(status, (err as Error).message));
  });

  // ---- OAuth ----

  app.get('/oauth/authorize', async (req, reply) => {
    const q = req.query as Record<string, string>;
    if (q.client_id !== clientId || !q.redirect_uri) return reply.code(400).send({ error: 'invalid_client' });
    const code = `emu-code-${randomBytes(12).toString('hex')}`;
    codes.set(code, { redirectUri: q.redirect_uri });
    const target = new URL(q.redirect_uri);
    target.searchParams.set('code', code);
    if (q.state !== undefined) target.searchParams.set('state', q.state);
    return reply.redirect(target.toString(), 302);
  });

  app.post('/oauth/token', async (req, reply) => {
    const expected = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
    if (req.headers.authorization !== expected) {
      return reply.code(401).send({ error: 'invalid_client', error_description: 'Invalid client credentials' });
    }
    const form = (req.body ?? {}) as Record<string, string>;
    const grant = (error_description: string) => reply.code(400).send({ error: 'invalid_grant', error_description });
    if (form.grant_type === 'authorization_code') {
      const entry = form.code ? codes.get(form.code) : undefined;
      if (!entry) return grant('Invalid authorization code');
      codes.delete(form.code!);
      if (entry.redirectUri !== form.redirect_uri) return grant('redirect_uri mismatch');
    } else if (form.grant_type === 'refresh_token') {
      if (!form.refresh_token || !refreshTokens.has(form.refresh_token)) return grant('Invalid refresh token');
      refreshes += 1;
      // Pipedrive keeps the refresh token usable; a new access token is issued.
      const access_token = `emu-at-${randomBytes(16).toString('hex')}`;
      accessTokens.set(access_token, Date.now() + ttl * 1000);
      return {
        access_token,
        token_type: 'Bearer',
        refresh_token: form.refresh_token,
        scope: 'base,deals:full,contacts:full,leads:full,activities:full',
        expires_in: ttl,
        api_domain: emulator.url,
      };
    } else {
      return reply.code(400).send({ error: 'unsupported_grant_type' });
    }
    return {
      ...mint(),
      token_type: 'Bearer',
      scope: 'base,deals:full,contacts:full',
      expires_in: ttl,
      api_domain: emulator.url,
    };
  });

  // ---- Control ----

  app.get('/__emulator/log', async () => ({
    requests,
    refreshes,
    burstLimit,
    latencyMs: kit.latencyMs,
    fault: kit.fault,
  }));
  app.get('/__emulator/state', async () => recordsOf(store));
  registerControlRoutes(app, kit, { reset: () => emulator.reset(), isEchoed: false });
  app.post('/__emulator/burst-limit', async (req) => {
    emulator.setBurstLimit(Number((req.body as { limit?: number } | null)?.limit ?? defaultBurst));
    return { ok: true };
  });
  app.post('/__emulator/expire-tokens', async () => {
    emulator.expireTokens();
    return { ok: true };
  });

  // ---- The API's gate: log, latency, faults, auth, burst limit ----

  const API = /^\/(v1|api\/v1|api\/v2)\//;
  app.addHook('preHandler', async (req, reply) => {
    const path = req.url.split('?')[0]!;
    if (!API.test(path)) return;
    const query = Object.fromEntries(new URL(req.url, 'http://x').searchParams);
    const bearer = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const token = (req.headers['x-api-token'] as string | undefined) ?? query.api_token;
    delete query.api_token;
    const entry = kit.log({
      method: req.method,
      path,
      query,
      body: req.body,
      auth: bearer ? 'bearer' : token ? 'token' : 'none',
      status: 200,
    });
    logOf.set(req, entry);
    await kit.delay();

    const f = kit.takeFault((fault) => !fault.match || `${req.method} ${path}`.includes(fault.match));
    if (f) {
      if (f.retryAfter !== undefined) {
        reply.header('retry-after', String(f.retryAfter));
        reply.header('x-ratelimit-reset', String(f.retryAfter));
      }
      if (f.status === 429) reply.header('x-ratelimit-limit', String(burstLimit)).header('x-ratelimit-remaining', '0');
      const text =
        f.error ??
        (f.status === 401 ? 'unauthorized access' : f.status === 429 ? 'Request over limit' : 'emulated fault');
      return reply.code(f.status).send(failBody(f.status, text));
    }

    let credential: string | undefined;
    if (bearer) {
      const expiresAt = accessTokens.get(bearer);
      if (expiresAt !== undefined && expiresAt > Date.now()) credential = bearer;
    } else if (token === apiToken) credential = `token:${apiToken}`;
    if (!credential) return reply.code(401).send(failBody(401, 'unauthorized access'));

    const now = Date.now();
    const { isAdmitted, hits } = limiter.hit(credential, burstLimit, now);
    const reset = Math.max(1, Math.ceil((hits[0]! + 2_000 - now) / 1000));
    reply.header('x-ratelimit-limit', String(burstLimit));
    reply.header('x-ratelimit-remaining', String(burstLimit - hits.length)).header('x-ratelimit-reset', String(reset));
    if (!isAdmitted) return reply.code(429).send(failBody(429, 'Request over limit'));
  });
  app.addHook('onSend', async (req, reply) => {
    const entry = logOf.get(req);
    if (entry) entry.status = reply.statusCode;
  });

  registerApiRoutes(app, store);

  const { port, url } = await listenEmulator(app, options);
  emulator.port = port;
  emulator.url = url;
  return emulator;
}
