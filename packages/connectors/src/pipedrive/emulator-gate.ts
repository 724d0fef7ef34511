// The gate in front of the Pipedrive emulator's data API: every /v1, /api/v1 and /api/v2 call is
// logged, delayed by the latency switch, failed by the fault switch, checked for a live bearer token or
// the API token, and counted against a rolling 2-second burst limit per credential (x-ratelimit-*).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiFailure, SchemaFailure } from './emulator-api';
import type { EmulatedCall, PipedriveRuntime } from './emulator-state';

const API = /^\/(v1|api\/v1|api\/v2)\//;

/** Pipedrive's failure envelope. */
export const failBody = (status: number, error: string) => ({
  success: false,
  error,
  error_info: 'Please check developers.pipedrive.com',
  data: null,
  additional_data: null,
  ...(status === 401 ? { errorCode: 401 } : {}),
});

/** Errors thrown by routes (ApiFailure or Fastify's own) answer in Pipedrive's failure envelope. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err, _req, reply) => {
    if (err instanceof SchemaFailure) {
      return reply.code(err.status).send({ success: false, error: err.message, code: err.code });
    }
    if (err instanceof ApiFailure) return reply.code(err.status).send(failBody(err.status, err.message));
    const status = (err as { statusCode?: number }).statusCode ?? 500;
    return reply.code(status).send(failBody(status, (err as Error).message));
  });
}

export function registerGate(app: FastifyInstance, rt: PipedriveRuntime): void {
  const { kit } = rt;
  const logOf = new WeakMap<FastifyRequest, EmulatedCall>();
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
      if (f.status === 429)
        reply.header('x-ratelimit-limit', String(rt.burstLimit)).header('x-ratelimit-remaining', '0');
      const text =
        f.error ??
        (f.status === 401 ? 'unauthorized access' : f.status === 429 ? 'Request over limit' : 'emulated fault');
      return reply.code(f.status).send(failBody(f.status, text));
    }

    let credential: string | undefined;
    if (bearer) {
      const expiresAt = rt.accessTokens.get(bearer);
      if (expiresAt !== undefined && expiresAt > Date.now()) credential = bearer;
    } else if (token === rt.apiToken) credential = `token:${rt.apiToken}`;
    if (!credential) return reply.code(401).send(failBody(401, 'unauthorized access'));

    const now = Date.now();
    const { isAdmitted, hits } = rt.limiter.hit(credential, rt.burstLimit, now);
    const reset = Math.max(1, Math.ceil((hits[0]! + 2_000 - now) / 1000));
    reply.header('x-ratelimit-limit', String(rt.burstLimit));
    reply
      .header('x-ratelimit-remaining', String(rt.burstLimit - hits.length))
      .header('x-ratelimit-reset', String(reset));
    if (!isAdmitted) return reply.code(429).send(failBody(429, 'Request over limit'));
  });
  app.addHook('onSend', async (req, reply) => {
    const entry = logOf.get(req);
    if (entry) entry.status = reply.statusCode;
  });
}
