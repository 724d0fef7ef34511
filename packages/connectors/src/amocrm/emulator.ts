// A stateful fake of one amoCRM account (API v4 and OAuth 2.0), for our tests, the end-to-end suite
// and the demo: a consent page that redirects straight back, single-use refresh tokens, expiring
// access tokens, leads/complex with its 50-per-call limit, contact search answering 204, pipelines,
// users, custom fields, notes, amoCRM's validation-errors, a 7 requests/s limiter, fault and latency
// switches, a request log, and a control API under /__emulator.
import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { createEmulatorKit, listenEmulator, registerControlRoutes, slidingWindow } from '../kit/emulator-kit';

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
}

export interface AmoRequest {
  method: string;
  path: string;
  body: unknown;
  status: number;
  receivedAt: string;
}

export interface AmoFault {
  status: number;
  retryAfter?: number | string;
  /** Fail this many API calls, then clear; default until cleared. */
  times?: number;
  body?: unknown;
  /** Only paths starting with this (default: every /api/v4 call). */
  path?: string;
}

export interface AmoValue {
  value?: unknown;
  enum_id?: number;
  enum_code?: string;
}
export interface AmoFieldValues {
  field_id: number;
  field_name: string;
  field_code: string | null;
  field_type: string;
  values: AmoValue[];
}
export interface EmulatedAmoLead {
  id: number;
  name: string;
  price: number;
  pipeline_id: number;
  status_id: number;
  responsible_user_id: number;
  custom_fields_values: AmoFieldValues[] | null;
  tags: { id: number; name: string }[];
  contactIds: number[];
  created_at: number;
}
export interface EmulatedAmoContact {
  id: number;
  name: string;
  first_name: string;
  last_name: string;
  responsible_user_id: number;
  custom_fields_values: AmoFieldValues[] | null;
  leadIds: number[];
  created_at: number;
}
export interface EmulatedAmoNote {
  id: number;
  entity_id: number;
  note_type: string;
  params: Record<string, unknown>;
}
export interface AmoTokenSet {
  accessToken: string;
  refreshToken: string;
  /** Epoch ms. */
  expiresAt: number;
  baseUrl: string;
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

// ---- The seeded account ----

export const AMO_SEED = {
  account: { id: 30_000_001, name: 'Acme', subdomain: 'acme', currency: 'UAH', country: 'UA' },
  users: [
    { id: 5_000_001, name: 'Anna Manager', email: 'anna@acme.test' },
    { id: 5_000_002, name: 'Bohdan Sales', email: 'bohdan@acme.test' },
  ],
  pipelines: [
    {
      id: 7_000_001,
      name: 'Sales',
      is_main: true,
      statuses: [
        { id: 70_000_010, name: 'Incoming leads', type: 1, color: '#c1c1c1' },
        { id: 70_000_011, name: 'First contact', type: 0, color: '#99ccff' },
        { id: 70_000_012, name: 'Negotiation', type: 0, color: '#ffcc66' },
        { id: 142, name: 'Closed - won', type: 0, color: '#CCFF66' },
        { id: 143, name: 'Closed - lost', type: 0, color: '#D5D8DB' },
      ],
    },
    {
      id: 7_000_002,
      name: 'Wholesale',
      is_main: false,
      statuses: [
        { id: 70_000_020, name: 'Incoming leads', type: 1, color: '#c1c1c1' },
        { id: 70_000_021, name: 'New order', type: 0, color: '#99ccff' },
        { id: 142, name: 'Closed - won', type: 0, color: '#CCFF66' },
        { id: 143, name: 'Closed - lost', type: 0, color: '#D5D8DB' },
      ],
    },
  ],
  leadFields: [
    { id: 800_001, name: 'Budget note', type: 'text', code: null, enums: null },
    { id: 800_002, name: 'Quantity', type: 'numeric', code: null, enums: null },
    {
      id: 800_003,
      name: 'Product',
      type: 'select',
      code: null,
      enums: [
        { id: 900_001, value: 'Basic', sort: 1 },
        { id: 900_002, value: 'Pro', sort: 2 },
        { id: 900_003, value: 'Enterprise', sort: 3 },
      ],
    },
    {
      id: 800_004,
      name: 'Channels',
      type: 'multiselect',
      code: null,
      enums: [
        { id: 900_011, value: 'Phone', sort: 1 },
        { id: 900_012, value: 'Email', sort: 2 },
        { id: 900_013, value: 'Telegram', sort: 3 },
      ],
    },
  ],
  contactFields: [
    {
      id: 810_001,
      name: 'Phone',
      type: 'multitext',
      code: 'PHONE',
      enums: ['WORK', 'WORKDD', 'MOB', 'FAX', 'HOME', 'OTHER'].map((value, i) => ({ id: 910_001 + i, value, sort: i })),
    },
    {
      id: 810_002,
      name: 'Email',
      type: 'multitext',
      code: 'EMAIL',
      enums: ['WORK', 'PRIV', 'OTHER'].map((value, i) => ({ id: 910_101 + i, value, sort: i })),
    },
    { id: 810_003, name: 'Position', type: 'text', code: 'POSITION', enums: null },
  ],
} as const;

type SeedField = (typeof AMO_SEED.leadFields | typeof AMO_SEED.contactFields)[number];

const MAX_COMPLEX = 50;
const MAX_VALUES = 40;
const CODE_TTL_MS = 20 * 60_000;
const OAUTH_PROBLEM = 'https://developers.amocrm.ru/v3/errors/OAuthProblemJson';

interface ValidationError {
  code: string;
  path: string;
  detail: string;
}

class Invalid extends Error {
  constructor(
    readonly requestId: string,
    readonly errors: ValidationError[],
  ) {
    super('Request validation failed');
  }
}

const problem = (status: number, title: string, detail: string, extra: Record<string, unknown> = {}) => ({
  title,
  type: `https://httpstatus.es/${status}`,
  status,
  detail,
  ...extra,
});

export async function startAmoEmulator(options: AmoEmulatorOptions = {}): Promise<AmoEmulator> {
  const app = Fastify({ logger: false, forceCloseConnections: true, bodyLimit: 5 * 1024 * 1024 });
  const clientId = options.clientId ?? 'amo-client-id';
  const clientSecret = options.clientSecret ?? `amo-secret-${randomBytes(8).toString('hex')}`;
  const ttlMs = (options.accessTokenTtlSeconds ?? 86_400) * 1000;
  let redirectUri = options.redirectUri ?? '';
  let limit: number | null = options.rateLimit ?? 7;
  const kit = createEmulatorKit<AmoFault, AmoRequest>({ maxLog: 10_000 });
  const limiter = slidingWindow(1000);
  let refreshCount = 0;
  let limited = 0;
  let nextId = 1;
  const leads: EmulatedAmoLead[] = [];
  const contacts: EmulatedAmoContact[] = [];
  const notes: EmulatedAmoNote[] = [];
  const tags = new Map<string, number>();
  const codes = new Map<string, number>();
  const accessTokens = new Map<string, number>();
  const refreshTokens = new Set<string>();

  const token = (prefix: string) => `${prefix}_${randomBytes(18).toString('base64url')}`;

  const mint = (): AmoTokenSet => {
    const accessToken = token('at');
    const refreshToken = token('rt');
    const expiresAt = Date.now() + ttlMs;
    accessTokens.set(accessToken, expiresAt);
    refreshTokens.add(refreshToken);
    return { accessToken, refreshToken, expiresAt, baseUrl: emulator.url };
  };

  const emulator: AmoEmulator = {
    url: '',
    host: '',
    port: 0,
    oauthUrl: '',
    clientId,
    clientSecret,
    requests: kit.requests,
    leads,
    contacts,
    notes,
    refreshes: () => refreshCount,
    rateLimited: () => limited,
    issueTokens: mint,
    expireTokens() {
      for (const k of accessTokens.keys()) accessTokens.set(k, 0);
    },
    revokeTokens() {
      accessTokens.clear();
      refreshTokens.clear();
    },
    setRedirectUri(uri) {
      redirectUri = uri;
    },
    setRateLimit(perSecond) {
      limit = perSecond;
      limiter.clear();
    },
    setLatency: kit.setLatency,
    setFault: kit.setFault,
    reset() {
      kit.resetSwitches();
      leads.length = 0;
      contacts.length = 0;
      notes.length = 0;
      tags.clear();
      codes.clear();
      accessTokens.clear();
      refreshTokens.clear();
      limiter.clear();
      limit = options.rateLimit ?? 7;
      refreshCount = 0;
      limited = 0;
    },
    async close() {
      kit.clearTimers();
      await app.close();
    },
  };

  // ---- Control API ----
  app.get('/__emulator/state', async () => ({
    leads,
    contacts,
    notes,
    requests: kit.requests,
    refreshes: refreshCount,
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
  app.post('/__emulator/tokens', async () => mint());
  app.post('/__emulator/redirect-uri', async (req) => {
    emulator.setRedirectUri(String((req.body as { uri?: string } | null)?.uri ?? ''));
    return { ok: true };
  });

  // ---- Log, latency, faults, limiter, bearer (every non-control path) ----
  app.addHook('preHandler', async (req: FastifyRequest, reply: FastifyReply) => {
    if (req.url.startsWith('/__emulator')) return;
    const entry = kit.log({
      method: req.method,
      path: req.url,
      body: req.body,
      status: 200,
      receivedAt: new Date().toISOString(),
    });
    (req as FastifyRequest & { logEntry?: AmoRequest }).logEntry = entry;
    await kit.delay();
    if (!req.url.startsWith('/api/v4/')) return;
    const f = kit.takeFault((fault) => req.url.startsWith(fault.path ?? '/api/v4/'));
    if (f) {
      if (f.retryAfter !== undefined) reply.header('retry-after', String(f.retryAfter));
      return reply
        .code(f.status)
        .type('application/problem+json')
        .send(f.body ?? problem(f.status, 'Emulated fault', `emulated ${f.status}`));
    }
    if (limit !== null && !limiter.hit('', limit).isAdmitted) {
      limited += 1;
      return reply
        .code(429)
        .type('application/problem+json')
        .send(problem(429, 'Too Many Requests', 'Too Many Requests'));
    }
    const auth = req.headers.authorization ?? '';
    const bearer = auth.startsWith('Bearer ') ? auth.slice(7) : '';
    const expires = accessTokens.get(bearer);
    if (expires === undefined || expires <= Date.now()) {
      return reply
        .code(401)
        .type('application/problem+json')
        .send(problem(401, 'Unauthorized', 'Unauthorized'));
    }
  });
  app.addHook('onResponse', async (req, reply) => {
    const entry = (req as FastifyRequest & { logEntry?: AmoRequest }).logEntry;
    if (entry) entry.status = reply.statusCode;
  });
  app.setErrorHandler((error, _req, reply) => {
    if (error instanceof Invalid) {
      return reply
        .code(400)
        .type('application/problem+json')
        .send(
          problem(400, 'Bad Request', 'Request validation failed', {
            'validation-errors': [{ request_id: error.requestId, errors: error.errors }],
          }),
        );
    }
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    return reply
      .code(status)
      .type('application/problem+json')
      .send(problem(status, 'Error', (error as Error).message));
  });

  // ---- OAuth ----
  app.get('/oauth', async (req, reply) => {
    const q = req.query as Record<string, string | undefined>;
    if (q.client_id !== clientId) return reply.code(400).send({ error: 'unknown client_id' });
    if (!redirectUri) return reply.code(400).send({ error: 'the integration has no redirect_uri' });
    const code = token('code');
    codes.set(code, Date.now() + CODE_TTL_MS);
    const target = new URL(redirectUri);
    target.searchParams.set('code', code);
    if (q.state !== undefined) target.searchParams.set('state', q.state);
    target.searchParams.set('referer', emulator.host);
    target.searchParams.set('platform', '1');
    target.searchParams.set('client_id', clientId);
    return reply.redirect(target.toString(), 302);
  });

  app.post('/oauth2/access_token', async (req, reply) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    const oauthProblem = (status: number, hint: string) => {
      const body = { hint, title: 'Authorization failed', type: OAUTH_PROBLEM, status, detail: hint };
      return reply.code(status).type('application/problem+json').send(body);
    };
    if (b.client_id !== clientId || b.client_secret !== clientSecret)
      return oauthProblem(401, 'Client authentication failed');
    if (redirectUri && b.redirect_uri !== redirectUri) return oauthProblem(400, 'Redirect URI mismatch');
    if (b.grant_type === 'authorization_code') {
      const until = codes.get(String(b.code));
      codes.delete(String(b.code));
      if (!until || until < Date.now()) return oauthProblem(400, 'Authorization code has expired');
    } else if (b.grant_type === 'refresh_token') {
      const rt = String(b.refresh_token);
      if (!refreshTokens.has(rt)) return oauthProblem(400, 'Token has been revoked');
      // Single use: the old refresh token (and its access token's future) is spent.
      refreshTokens.delete(rt);
      refreshCount += 1;
    } else {
      return oauthProblem(400, 'Unsupported grant type');
    }
    const t = mint();
    return {
      token_type: 'Bearer',
      expires_in: Math.round(ttlMs / 1000),
      access_token: t.accessToken,
      refresh_token: t.refreshToken,
    };
  });

  // ---- Account data ----
  const hal = (key: string, items: unknown[], path: string) => ({
    _page: 1,
    _links: { self: { href: `${emulator.url}${path}` } },
    _embedded: { [key]: items },
  });

  app.get('/api/v4/account', async () => ({
    ...AMO_SEED.account,
    _links: { self: { href: `${emulator.url}/api/v4/account` } },
  }));
  app.get('/api/v4/users', async () =>
    hal(
      'users',
      AMO_SEED.users.map((u) => ({ ...u, lang: 'uk', rights: {} })),
      '/api/v4/users',
    ),
  );
  app.get('/api/v4/leads/pipelines', async () => ({
    _total_items: AMO_SEED.pipelines.length,
    ...hal(
      'pipelines',
      AMO_SEED.pipelines.map((p, i) => ({
        id: p.id,
        name: p.name,
        sort: i + 1,
        is_main: p.is_main,
        is_unsorted_on: true,
        is_archive: false,
        account_id: AMO_SEED.account.id,
        _embedded: {
          statuses: p.statuses.map((s, j) => ({
            ...s,
            sort: (j + 1) * 10,
            is_editable: s.type === 0 && s.id !== 142 && s.id !== 143,
            pipeline_id: p.id,
            account_id: AMO_SEED.account.id,
          })),
        },
      })),
      '/api/v4/leads/pipelines',
    ),
  }));
  const fieldsOf = (entity: 'leads' | 'contacts', list: readonly SeedField[]) =>
    hal(
      'custom_fields',
      list.map((f, i) => ({
        ...f,
        sort: i + 1,
        is_api_only: false,
        entity_type: entity,
        account_id: AMO_SEED.account.id,
      })),
      `/api/v4/${entity}/custom_fields`,
    );
  app.get('/api/v4/leads/custom_fields', async () => fieldsOf('leads', AMO_SEED.leadFields));
  app.get('/api/v4/contacts/custom_fields', async () => fieldsOf('contacts', AMO_SEED.contactFields));

  // ---- Validation ----
  const userIds: Set<number> = new Set(AMO_SEED.users.map((u) => u.id));
  const isPositiveInt = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v > 0;

  function fieldValues(
    raw: unknown,
    fields: readonly SeedField[],
    path: string,
    errors: ValidationError[],
  ): AmoFieldValues[] | null {
    if (raw === undefined || raw === null) return null;
    if (!Array.isArray(raw)) {
      errors.push({ code: 'InvalidType', path, detail: 'This value should be of type array.' });
      return null;
    }
    if (raw.length > MAX_VALUES) errors.push({ code: 'TooMany', path, detail: 'Too many custom field values.' });
    const out: AmoFieldValues[] = [];
    raw.forEach((item: { field_id?: unknown; field_code?: unknown; values?: unknown }, i) => {
      const at = `${path}.${i}`;
      const field = fields.find((f) =>
        item.field_id !== undefined ? f.id === item.field_id : f.code !== null && f.code === item.field_code,
      );
      if (!field) {
        errors.push({
          code: 'NotSupportedChoice',
          path: `${at}.${item.field_id !== undefined ? 'field_id' : 'field_code'}`,
          detail: 'The value you selected is not a valid choice.',
        });
        return;
      }
      const values = Array.isArray(item.values) ? (item.values as AmoValue[]) : [];
      if (values.length === 0) {
        errors.push({ code: 'NotBlank', path: `${at}.values`, detail: 'This value should not be blank.' });
        return;
      }
      const kept: AmoValue[] = [];
      values.forEach((v, j) => {
        const vp = `${at}.values.${j}`;
        if (field.type === 'select' || field.type === 'multiselect') {
          const e = field.enums?.find((x) => x.id === v.enum_id || (v.enum_id === undefined && x.value === v.value));
          if (!e) {
            errors.push({
              code: 'NotSupportedChoice',
              path: `${vp}.enum_id`,
              detail: 'The value you selected is not a valid choice.',
            });
            return;
          }
          kept.push({ value: e.value, enum_id: e.id });
        } else if (field.type === 'multitext') {
          const e = field.enums?.find((x) => x.value === (v.enum_code ?? 'WORK') || x.id === v.enum_id);
          if (!e) {
            errors.push({
              code: 'NotSupportedChoice',
              path: `${vp}.enum_code`,
              detail: 'The value you selected is not a valid choice.',
            });
            return;
          }
          kept.push({ value: String(v.value ?? ''), enum_id: e.id, enum_code: e.value });
        } else if (field.type === 'numeric') {
          if (v.value === '' || v.value === null || Number.isNaN(Number(v.value))) {
            errors.push({ code: 'InvalidType', path: `${vp}.value`, detail: 'This value should be numeric.' });
            return;
          }
          kept.push({ value: String(v.value) });
        } else {
          if (typeof v.value !== 'string' && typeof v.value !== 'number') {
            errors.push({ code: 'InvalidType', path: `${vp}.value`, detail: 'This value should be of type string.' });
            return;
          }
          kept.push({ value: String(v.value) });
        }
      });
      if (field.type === 'select' && kept.length > 1) {
        errors.push({ code: 'TooMany', path: `${at}.values`, detail: 'A select field takes one value.' });
      }
      out.push({
        field_id: field.id,
        field_name: field.name,
        field_code: field.code,
        field_type: field.type,
        values: kept,
      });
    });
    return out.length ? out : null;
  }

  function placement(item: { pipeline_id?: unknown; status_id?: unknown }, errors: ValidationError[]) {
    let pipeline: (typeof AMO_SEED.pipelines)[number] | undefined;
    if (item.pipeline_id !== undefined) {
      pipeline = AMO_SEED.pipelines.find((p) => p.id === item.pipeline_id);
      if (!pipeline) {
        errors.push({
          code: 'NotSupportedChoice',
          path: 'pipeline_id',
          detail: 'The value you selected is not a valid choice.',
        });
        return undefined;
      }
    }
    if (item.status_id !== undefined) {
      const holder = pipeline ?? AMO_SEED.pipelines.find((p) => p.statuses.some((s) => s.id === item.status_id));
      if (!holder?.statuses.some((s) => s.id === item.status_id)) {
        errors.push({
          code: 'NotSupportedChoice',
          path: 'status_id',
          detail: 'The value you selected is not a valid choice.',
        });
        return undefined;
      }
      return { pipeline_id: holder.id, status_id: item.status_id as number };
    }
    const p = pipeline ?? AMO_SEED.pipelines.find((x) => x.is_main)!;
    return { pipeline_id: p.id, status_id: p.statuses.find((s) => s.type === 0)!.id };
  }

  function checkUser(v: unknown, path: string, errors: ValidationError[]): number | undefined {
    if (v === undefined) return undefined;
    if (!isPositiveInt(v) || !userIds.has(v as number)) {
      errors.push({ code: 'NotSupportedChoice', path, detail: 'The value you selected is not a valid choice.' });
      return undefined;
    }
    return v as number;
  }

  function newContact(raw: Record<string, unknown>, owner: number, prefix: string, errors: ValidationError[]) {
    const first = typeof raw.first_name === 'string' ? raw.first_name : '';
    const last = typeof raw.last_name === 'string' ? raw.last_name : '';
    const name = typeof raw.name === 'string' && raw.name ? raw.name : `${first} ${last}`.trim();
    const cf = fieldValues(raw.custom_fields_values, AMO_SEED.contactFields, `${prefix}custom_fields_values`, errors);
    const responsible = checkUser(raw.responsible_user_id, `${prefix}responsible_user_id`, errors) ?? owner;
    return (): EmulatedAmoContact => {
      const c: EmulatedAmoContact = {
        id: 20_000_000 + nextId++,
        name,
        first_name: first,
        last_name: last,
        responsible_user_id: responsible,
        custom_fields_values: cf,
        leadIds: [],
        created_at: Math.floor(Date.now() / 1000),
      };
      contacts.push(c);
      return c;
    };
  }

  const tagOf = (name: string) => {
    const key = name.trim();
    let id = tags.get(key);
    if (id === undefined) {
      id = 40_000 + nextId++;
      tags.set(key, id);
    }
    return { id, name: key };
  };

  const requestIdOf = (item: { request_id?: unknown }, i: number) =>
    typeof item.request_id === 'string' ? item.request_id : String(i);

  // ---- Contacts ----
  app.get('/api/v4/contacts', async (req, reply) => {
    const q = req.query as { query?: string; limit?: string };
    const needle = String(q.query ?? '')
      .trim()
      .toLowerCase();
    const max = Math.min(250, Number(q.limit ?? 50) || 50);
    const found = contacts
      .filter((c) => {
        if (!needle) return true;
        const haystack = [
          c.name,
          ...(c.custom_fields_values ?? []).flatMap((f) => f.values.map((v) => String(v.value ?? ''))),
        ];
        return haystack.some((h) => h.toLowerCase().includes(needle));
      })
      .slice(0, max);
    if (found.length === 0) return reply.code(204).send();
    return hal(
      'contacts',
      found.map((c) => ({ ...c, leadIds: undefined, _embedded: { leads: c.leadIds.map((id) => ({ id })) } })),
      '/api/v4/contacts',
    );
  });

  app.post('/api/v4/contacts', async (req) => {
    const items = Array.isArray(req.body) ? (req.body as Record<string, unknown>[]) : [];
    const makers = items.map((item, i) => {
      const errors: ValidationError[] = [];
      const make = newContact(item, AMO_SEED.users[0].id, '', errors);
      if (errors.length) throw new Invalid(requestIdOf(item, i), errors);
      return { make, requestId: requestIdOf(item, i) };
    });
    const made = makers.map(({ make, requestId }) => ({ id: make().id, request_id: requestId }));
    return hal('contacts', made, '/api/v4/contacts');
  });

  // ---- Leads ----
  app.post('/api/v4/leads/complex', async (req, reply) => {
    if (!Array.isArray(req.body) || req.body.length === 0) {
      throw new Invalid('0', [{ code: 'InvalidType', path: '', detail: 'This value should be a non-empty array.' }]);
    }
    if (req.body.length > MAX_COMPLEX) {
      return reply
        .code(400)
        .type('application/problem+json')
        .send(problem(400, 'Bad Request', `No more than ${MAX_COMPLEX} leads per request`));
    }
    // Validate everything first: a refused batch writes nothing.
    const plans = (req.body as Record<string, unknown>[]).map((item, i) => {
      const requestId = requestIdOf(item, i);
      const errors: ValidationError[] = [];
      const at = placement(item, errors);
      const owner = checkUser(item.responsible_user_id, 'responsible_user_id', errors) ?? AMO_SEED.users[0].id;
      const cf = fieldValues(item.custom_fields_values, AMO_SEED.leadFields, 'custom_fields_values', errors);
      const embedded = (item._embedded ?? {}) as {
        tags?: { name?: string; id?: number }[];
        contacts?: Record<string, unknown>[];
      };
      const contactList = embedded.contacts ?? [];
      if (contactList.length > 1) {
        errors.push({ code: 'TooMany', path: '_embedded.contacts', detail: 'Only one contact per lead.' });
      }
      let contact: (() => EmulatedAmoContact) | undefined;
      const given = contactList[0];
      if (given && given.id !== undefined) {
        const existing = contacts.find((c) => c.id === given.id);
        if (!existing) {
          errors.push({ code: 'NotFound', path: '_embedded.contacts.0.id', detail: 'Contact not found.' });
        } else contact = () => existing;
      } else if (given) {
        contact = newContact(given, owner, '_embedded.contacts.0.', errors);
      }
      if (errors.length || !at) throw new Invalid(requestId, errors);
      const tagList = (embedded.tags ?? []).filter((t) => typeof t.name === 'string' && t.name.trim());
      return { item, requestId, at, owner, cf, contact, tagList };
    });
    return plans.map(({ item, requestId, at, owner, cf, contact, tagList }) => {
      const lead: EmulatedAmoLead = {
        id: 10_000_000 + nextId++,
        name: typeof item.name === 'string' ? item.name : '',
        price: typeof item.price === 'number' ? item.price : 0,
        ...at,
        responsible_user_id: owner,
        custom_fields_values: cf,
        tags: tagList.map((t) => tagOf(t.name!)),
        contactIds: [],
        created_at: Math.floor(Date.now() / 1000),
      };
      const c = contact?.();
      if (c) {
        lead.contactIds.push(c.id);
        c.leadIds.push(lead.id);
      }
      leads.push(lead);
      return { id: lead.id, contact_id: c?.id ?? null, company_id: null, request_id: [requestId], merged: false };
    });
  });

  app.get('/api/v4/leads/:id', async (req, reply) => {
    const lead = leads.find((l) => l.id === Number((req.params as { id: string }).id));
    if (!lead) return reply.code(204).send();
    return { ...lead, _embedded: { tags: lead.tags, contacts: lead.contactIds.map((id) => ({ id })) } };
  });

  app.post('/api/v4/leads/:id/notes', async (req, reply) => {
    const id = Number((req.params as { id: string }).id);
    if (!leads.some((l) => l.id === id)) {
      return reply
        .code(404)
        .type('application/problem+json')
        .send(problem(404, 'Not Found', 'Lead not found'));
    }
    const items = Array.isArray(req.body) ? (req.body as Record<string, unknown>[]) : [];
    const made = items.map((item, i) => {
      if (typeof item.note_type !== 'string') {
        throw new Invalid(requestIdOf(item, i), [
          { code: 'NotBlank', path: 'note_type', detail: 'This value should not be blank.' },
        ]);
      }
      const note: EmulatedAmoNote = {
        id: 60_000_000 + nextId++,
        entity_id: id,
        note_type: item.note_type,
        params: (item.params ?? {}) as Record<string, unknown>,
      };
      notes.push(note);
      return { id: note.id, entity_id: id, request_id: requestIdOf(item, i) };
    });
    return hal('notes', made, `/api/v4/leads/${id}/notes`);
  });

  const listening = await listenEmulator(app, options);
  emulator.port = listening.port;
  emulator.host = listening.hostPort;
  emulator.url = listening.url;
  emulator.oauthUrl = `${emulator.url}/oauth`;
  return emulator;
}
