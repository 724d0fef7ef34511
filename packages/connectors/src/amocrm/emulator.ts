// A stateful fake of one amoCRM account (API v4 and OAuth 2.0), for our tests, the end-to-end suite
// and the demo: a consent page that redirects straight back, single-use refresh tokens, expiring
// access tokens, leads/complex with its 50-per-call limit, contact search answering 204, pipelines,
// users, custom fields, notes, webhooks (status_lead posted to subscribers when a lead moves),
// amoCRM's validation-errors, a 7 requests/s limiter, fault and latency
// switches, a request log, and a control API under /__emulator.
// This entry holds the state and wires the parts: emulator-gate (log, faults, limiter, bearer),
// emulator-oauth, emulator-account (read-only account data), emulator-contacts, emulator-leads.
import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import { createEmulatorKit, listenEmulator, registerControlRoutes, slidingWindow } from '../kit/emulator-kit';
import { registerAccountRoutes } from './emulator-account';
import { registerContactRoutes } from './emulator-contacts';
import { registerGate } from './emulator-gate';
import { registerLeadRoutes } from './emulator-leads';
import { mint, registerOAuthRoutes } from './emulator-oauth';
import type {
  AmoFault,
  AmoFieldDef,
  AmoRequest,
  AmoRuntime,
  AmoTokenSet,
  EmulatedAmoContact,
  EmulatedAmoLead,
  EmulatedAmoNote,
  EmulatedAmoWebhook,
  SentAmoWebhook,
} from './emulator-state';
import { AMO_SEED as SEED } from './emulator-state';
import { AMO_WEBHOOK_TIMEOUT_MS, registerWebhookRoutes } from './emulator-webhooks';

export type {
  AmoFault,
  AmoFieldDef,
  AmoFieldValues,
  AmoRequest,
  AmoTokenSet,
  AmoValue,
  EmulatedAmoContact,
  EmulatedAmoLead,
  EmulatedAmoNote,
  EmulatedAmoWebhook,
  SentAmoWebhook,
} from './emulator-state';
export { AMO_SEED } from './emulator-state';

export interface AmoEmulatorOptions {
  port?: number;
  host?: string;
  clientId?: string;
  clientSecret?: string;
  /** Where the consent page sends the browser (our /api/amocrm/callback); settable later. */
  redirectUri?: string;
  /** Access token lifetime, default 86 400 s as amoCRM. */
  accessTokenTtlSeconds?: number;
  /** Requests per second before 429; default 7. */
  rateLimit?: number;
  /** The limiter's "second", default 1000 ms: a test shortens it with the client's waits (setAmoWaitsForTests). */
  rateWindowMs?: number;
  /** How long a status_lead webhook waits for its subscriber, default amoCRM's 2 s. */
  webhookTimeoutMs?: number;
}

export interface AmoEmulator {
  /** Origin, e.g. http://127.0.0.1:41234 (the account's "host"). */
  url: string;
  /** host:port, what the OAuth return's referer names. */
  host: string;
  port: number;
  /** The consent page, `${url}/oauth` (AMOCRM_OAUTH_URL). */
  oauthUrl: string;
  clientId: string;
  clientSecret: string;
  requests: AmoRequest[];
  leads: EmulatedAmoLead[];
  contacts: EmulatedAmoContact[];
  notes: EmulatedAmoNote[];
  /** Webhook subscriptions (POST /api/v4/webhooks). */
  webhooks: EmulatedAmoWebhook[];
  /** status_lead webhooks posted to subscribers and their answers, once settled. */
  sent: SentAmoWebhook[];
  /** The lead custom fields: the seeded ones, then those made through the API. */
  leadFields: AmoFieldDef[];
  /** Users after the seeded ones (GET /api/v4/users is paged): push to make a bigger account. */
  extraUsers: { id: number; name: string; email: string }[];
  /** Successful refresh_token grants. */
  refreshes(): number;
  /** 429 answers sent by the limiter. */
  rateLimited(): number;
  /** A valid token pair without the consent round trip. */
  issueTokens(): AmoTokenSet;
  /** Every access token issued so far expires now (refresh tokens stay valid). */
  expireTokens(): void;
  /** Every access and refresh token stops working (a revoked integration). */
  revokeTokens(): void;
  setRedirectUri(uri: string): void;
  setRateLimit(perSecond: number | null): void;
  setLatency(ms: number): void;
  setFault(fault: AmoFault | null): void;
  reset(): void;
  close(): Promise<void>;
}

export async function startAmoEmulator(options: AmoEmulatorOptions = {}): Promise<AmoEmulator> {
  const app = Fastify({ logger: false, forceCloseConnections: true, bodyLimit: 5 * 1024 * 1024 });
  const rt: AmoRuntime = {
    clientId: options.clientId ?? 'amo-client-id',
    clientSecret: options.clientSecret ?? `amo-secret-${randomBytes(8).toString('hex')}`,
    ttlMs: (options.accessTokenTtlSeconds ?? 86_400) * 1000,
    redirectUri: options.redirectUri ?? '',
    limit: options.rateLimit ?? 7,
    kit: createEmulatorKit<AmoFault, AmoRequest>({ maxLog: 10_000 }),
    limiter: slidingWindow(options.rateWindowMs ?? 1000),
    webhookTimeoutMs: options.webhookTimeoutMs ?? AMO_WEBHOOK_TIMEOUT_MS,
    refreshCount: 0,
    limited: 0,
    nextId: 1,
    leads: [],
    contacts: [],
    notes: [],
    webhooks: [],
    sent: [],
    leadFields: [...SEED.leadFields],
    extraUsers: [],
    tags: new Map(),
    codes: new Map(),
    accessTokens: new Map(),
    refreshTokens: new Set(),
    origin: () => emulator.url,
    host: () => emulator.host,
  };
  const { kit, limiter } = rt;

  const emulator: AmoEmulator = {
    url: '',
    host: '',
    port: 0,
    oauthUrl: '',
    clientId: rt.clientId,
    clientSecret: rt.clientSecret,
    requests: kit.requests,
    leads: rt.leads,
    contacts: rt.contacts,
    notes: rt.notes,
    webhooks: rt.webhooks,
    sent: rt.sent,
    leadFields: rt.leadFields,
    extraUsers: rt.extraUsers,
    refreshes: () => rt.refreshCount,
    rateLimited: () => rt.limited,
    issueTokens: () => mint(rt),
    expireTokens() {
      for (const k of rt.accessTokens.keys()) rt.accessTokens.set(k, 0);
    },
    revokeTokens() {
      rt.accessTokens.clear();
      rt.refreshTokens.clear();
    },
    setRedirectUri(uri) {
      rt.redirectUri = uri;
    },
    setRateLimit(perSecond) {
      rt.limit = perSecond;
      limiter.clear();
    },
    setLatency: kit.setLatency,
    setFault: kit.setFault,
    reset() {
      kit.resetSwitches();
      rt.leads.length = 0;
      rt.contacts.length = 0;
      rt.notes.length = 0;
      rt.webhooks.length = 0;
      rt.sent.length = 0;
      rt.leadFields.splice(0, rt.leadFields.length, ...SEED.leadFields);
      rt.extraUsers.length = 0;
      rt.tags.clear();
      rt.codes.clear();
      rt.accessTokens.clear();
      rt.refreshTokens.clear();
      limiter.clear();
      rt.limit = options.rateLimit ?? 7;
      rt.refreshCount = 0;
      rt.limited = 0;
    },
    async close() {
      kit.clearTimers();
      await app.close();
    },
  };

  // ---- Control API ----
  app.get('/__emulator/state', async () => ({
    leads: rt.leads,
    contacts: rt.contacts,
    notes: rt.notes,
    webhooks: rt.webhooks,
    sent: rt.sent,
    requests: kit.requests,
    refreshes: rt.refreshCount,
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
  app.post('/__emulator/tokens', async () => mint(rt));
  app.post('/__emulator/redirect-uri', async (req) => {
    emulator.setRedirectUri(String((req.body as { uri?: string } | null)?.uri ?? ''));
    return { ok: true };
  });

  // The gate's hooks and error handler first, then the routes they guard.
  registerGate(app, rt);
  registerOAuthRoutes(app, rt);
  registerAccountRoutes(app, rt);
  registerContactRoutes(app, rt);
  registerLeadRoutes(app, rt);
  registerWebhookRoutes(app, rt);

  const listening = await listenEmulator(app, options);
  emulator.port = listening.port;
  emulator.host = listening.hostPort;
  emulator.url = listening.url;
  emulator.oauthUrl = `${emulator.url}/oauth`;
  return emulator;
}
