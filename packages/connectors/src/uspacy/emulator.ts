// A stateful fake of one Uspacy portal for tests and the local demo: the auth service (sign-in with
// e-mail and password, refresh with the refresh token as the bearer, JWTs naming the portal's
// domain), a bearer check answering 401 on an expired or unknown token, the incoming webhook's
// prefix (/company/v1/incoming_webhooks/run/{key}/…) in front of the same API, the CRM's fields,
// funnels, kanban stages, leads, deals and contacts, users and comments, fault switches (an expired
// token, 401, 429 with Retry-After, 5xx, a Laravel 422, an error inside a 200), latency, a request
// log, and a control API under /__emulator.

import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import Fastify, { type FastifyRequest } from 'fastify';
import { createEmulatorKit, listenEmulator, registerControlRoutes } from '../kit/emulator-kit';
import { mintTokens, registerAuthRoutes } from './emulator-auth';
import { Invalid, registerCrmRoutes } from './emulator-crm';
import {
  clearStore,
  type EmulatedCall,
  emptyStore,
  type StoredComment,
  type StoredRecord,
  type UspacyFault,
  type UspacyRuntime,
} from './emulator-state';

export type { EmulatedCall as UspacyEmulatedCall, UspacyFault } from './emulator-state';
export { USPACY_SEED } from './emulator-state';

/** The demo portal's account (user 1) and incoming webhook key, unless the options name others. */
export const USPACY_DEMO_ACCOUNT = { email: 'anna@demo.test', password: 'demo-uspacy-password' };
export const USPACY_DEMO_WEBHOOK_KEY = 'demoWebhookKey0123456789abcdef';

const WEBHOOK_PREFIX = /^\/company\/v1\/incoming_webhooks\/run\/([^/?#]+)(\/[^?#]*)?(\?.*)?$/;
const API = /^\/(crm|company|comments)\/v1\//;

export interface UspacyEmulatorOptions {
  port?: number;
  host?: string;
  email?: string;
  password?: string;
  /** The account has two-factor sign-in: this code must come with the password. */
  twoFactorCode?: string;
  /** The incoming webhook's key (default a random one). */
  webhookKey?: string;
  /** JWT lifetime in seconds (default 3600). */
  accessTokenTtl?: number;
  /** The `domain` its JWTs name (default its own host:port). */
  tokenDomain?: string;
}

export interface UspacyEmulator {
  /** Origin; the portal's address (its tokens name this host as their domain). */
  url: string;
  port: number;
  /** host:port, for the allowed hosts. */
  host: string;
  email: string;
  password: string;
  /** The incoming webhook's full URL (its key is the secret). */
  webhookUrl: string;
  webhookKey: string;
  leads: StoredRecord[];
  deals: StoredRecord[];
  contacts: StoredRecord[];
  comments: StoredComment[];
  requests: EmulatedCall[];
  /** Credentials as signing in gives them, without the sign-in call (tests). */
  issueTokens(): Promise<{ jwt: string; refreshToken: string; expiresAt: number }>;
  /** Every JWT issued so far stops working (their refresh tokens still work): the expired-token fault. */
  expireTokens(): void;
  /** JWTs and refresh tokens stop working: the session was ended in Uspacy. */
  revokeTokens(): void;
  /** The incoming webhook was deleted in Uspacy. */
  revokeWebhook(): void;
  refreshes(): number;
  signIns(): number;
  /** API calls (not auth, not control) whose "METHOD /path" contains `match`. */
  calls(match?: string): EmulatedCall[];
  /** Whether GET …/funnel lists the stages with each funnel (default true). */
  setFunnelsWithStages(isListed: boolean): void;
  setLatency(ms: number): void;
  setFault(fault: UspacyFault | null): void;
  /** Records, log, faults and latency back to the seed; issued credentials and the webhook stay valid. */
  reset(): void;
  close(): Promise<void>;
}

export async function startUspacyEmulator(options: UspacyEmulatorOptions = {}): Promise<UspacyEmulator> {
  const kit = createEmulatorKit<UspacyFault, EmulatedCall>({ maxLog: 5_000 });
  const store = emptyStore();
  const webhookKey = options.webhookKey ?? `wh${randomBytes(16).toString('hex')}`;
  let hostPort = '';
  const rt: UspacyRuntime = {
    kit,
    store,
    account: {
      email: options.email ?? USPACY_DEMO_ACCOUNT.email,
      password: options.password ?? USPACY_DEMO_ACCOUNT.password,
      twoFactorCode: options.twoFactorCode,
    },
    accessTokens: new Map(),
    refreshTokens: new Map(),
    webhookKeys: new Map([[webhookKey, 1]]),
    ttlSeconds: options.accessTokenTtl ?? 3600,
    refreshes: 0,
    signIns: 0,
    funnelsWithStages: true,
    domain: () => options.tokenDomain ?? hostPort,
  };

  // The incoming webhook's prefix is cut off before routing: the same handlers answer, acting as the
  // webhook's user. What the prefix carried is kept per raw request (no header can forge it).
  const webhookOf = new WeakMap<IncomingMessage, string>();
  const app = Fastify({
    logger: false,
    forceCloseConnections: true,
    rewriteUrl(req) {
      const url = req.url ?? '/';
      const m = WEBHOOK_PREFIX.exec(url);
      if (!m) return url;
      webhookOf.set(req, decodeURIComponent(m[1]!));
      return `${m[2] ?? '/'}${m[3] ?? ''}`;
    },
  });
  const actors = new WeakMap<IncomingMessage, number>();
  const actorOf = (req: FastifyRequest) => actors.get(req.raw) ?? 1;

  app.setErrorHandler((err, _req, reply) => {
    if (err instanceof Invalid) return reply.code(422).send({ message: err.message, errors: err.errors });
    const status = (err as { statusCode?: number }).statusCode ?? 500;
    return reply.code(status).send({ message: status >= 500 ? 'Server Error' : (err as Error).message });
  });

  // The gate: every API and auth call is logged, delayed, faulted, and (API calls) authenticated.
  const logOf = new WeakMap<IncomingMessage, EmulatedCall>();
  const lost = new WeakSet<IncomingMessage>();
  app.addHook('preHandler', async (req, reply) => {
    const path = req.url.split('?')[0]!;
    if (path.startsWith('/__emulator')) return;
    const webhook = webhookOf.get(req.raw);
    const bearer = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const isApi = API.test(path);
    if (isApi) {
      const entry = kit.log({
        method: req.method,
        path,
        query: { ...(req.query as Record<string, string>) },
        body: req.body,
        auth: webhook !== undefined ? 'webhook' : bearer ? 'bearer' : 'none',
        status: 200,
      });
      logOf.set(req.raw, entry);
    }
    await kit.delay();
    const f = kit.takeFault((fault) => !fault.match || `${req.method} ${path}`.includes(fault.match));
    if (f?.isAnswerLost) {
      lost.add(req.raw);
      return;
    }
    if (f) {
      if (f.retryAfter !== undefined) reply.header('retry-after', String(f.retryAfter));
      if (f.status === 200)
        return reply.code(200).send({ status: false, message: f.message ?? 'Something went wrong' });
      if (f.status === 422) {
        return reply.code(422).send({
          message: f.message ?? 'The given data was invalid.',
          errors: { title: ['The title field is required.'] },
        });
      }
      if (f.status === 401) return reply.code(401).send({ message: 'Unauthenticated.' });
      if (f.status === 429) return reply.code(429).send({ message: f.message ?? 'Too Many Attempts.' });
      return reply.code(f.status ?? 500).send({ message: f.message ?? 'Server Error' });
    }
    if (!isApi) return;
    if (webhook !== undefined) {
      const user = rt.webhookKeys.get(webhook);
      if (user === undefined) return reply.code(401).send({ message: 'Unauthenticated.' });
      actors.set(req.raw, user);
      return;
    }
    const token = bearer ? rt.accessTokens.get(bearer) : undefined;
    if (!token || token.expiresAt <= Date.now()) return reply.code(401).send({ message: 'Unauthenticated.' });
    actors.set(req.raw, token.userId);
  });
  app.addHook('onSend', async (req, reply) => {
    const entry = logOf.get(req.raw);
    if (entry) entry.status = reply.statusCode;
    // The work is done; the answer never arrives.
    if (lost.has(req.raw)) req.raw.socket?.destroy();
  });

  registerAuthRoutes(app, rt);
  registerCrmRoutes(app, rt, actorOf);

  const emulator: UspacyEmulator = {
    url: '',
    port: 0,
    host: '',
    email: rt.account.email,
    password: rt.account.password,
    webhookUrl: '',
    webhookKey,
    get leads() {
      return store.leads;
    },
    get deals() {
      return store.deals;
    },
    get contacts() {
      return store.contacts;
    },
    get comments() {
      return store.comments;
    },
    requests: kit.requests,
    async issueTokens() {
      const t = await mintTokens(rt, 1);
      return { jwt: t.jwt, refreshToken: t.refreshToken, expiresAt: Date.now() + t.expiresInSeconds * 1000 };
    },
    expireTokens() {
      for (const t of rt.accessTokens.values()) t.expiresAt = 0;
    },
    revokeTokens() {
      rt.accessTokens.clear();
      rt.refreshTokens.clear();
    },
    revokeWebhook() {
      rt.webhookKeys.clear();
    },
    refreshes: () => rt.refreshes,
    signIns: () => rt.signIns,
    calls: (match) => kit.requests.filter((r) => !match || `${r.method} ${r.path}`.includes(match)),
    setFunnelsWithStages(isListed) {
      rt.funnelsWithStages = isListed;
    },
    setLatency: kit.setLatency,
    setFault: kit.setFault,
    reset() {
      kit.resetSwitches();
      clearStore(store);
      rt.refreshes = 0;
      rt.signIns = 0;
      rt.funnelsWithStages = true;
      rt.webhookKeys.set(webhookKey, 1);
    },
    async close() {
      kit.clearTimers();
      await app.close();
    },
  };

  app.get('/__emulator/state', async () => ({
    leads: store.leads,
    deals: store.deals,
    contacts: store.contacts,
    comments: store.comments,
  }));
  app.get('/__emulator/log', async () => ({
    requests: kit.requests,
    refreshes: rt.refreshes,
    signIns: rt.signIns,
    latencyMs: kit.latencyMs,
    fault: kit.fault,
  }));
  registerControlRoutes(app, kit, { reset: () => emulator.reset() });
  app.post('/__emulator/expire-tokens', async () => {
    emulator.expireTokens();
    return { ok: true };
  });
  app.post('/__emulator/revoke-tokens', async () => {
    emulator.revokeTokens();
    return { ok: true };
  });
  app.post('/__emulator/revoke-webhook', async () => {
    emulator.revokeWebhook();
    return { ok: true };
  });

  const listening = await listenEmulator(app, options);
  hostPort = listening.hostPort;
  emulator.port = listening.port;
  emulator.url = listening.url;
  emulator.host = listening.hostPort;
  emulator.webhookUrl = `${listening.url}/company/v1/incoming_webhooks/run/${webhookKey}`;
  return emulator;
}
