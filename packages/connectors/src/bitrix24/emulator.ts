// A stateful fake of one Bitrix24 portal's REST API for tests and the local demo: inbound webhooks
// (POST /rest/{user}/{code}/{method}[.json], JSON or form bodies) acting as their user with their
// scopes, the answer envelope ({result, total, next, time} or {error, error_description} with the
// documented statuses), the leaky bucket's QUERY_LIMIT_EXCEEDED when switched on, the methods the
// connector uses (profile, user.current, user.get, crm.category.list, crm.status.list,
// crm.duplicate.findbycomm, crm.contact.add, crm.lead.add/list/get, crm.deal.add/list/get), fault
// switches, latency, a request log, and a control API under /__emulator.
// Outgoing webhooks (speed to lead): made by hand in a real portal, here by POST
// /__emulator/outgoing-webhooks {url, events?}, which answers the token Bitrix24 would show; a deal or
// lead changed by POST /__emulator/{deals|leads}/{id}/update {stage?, title?, userId?} is posted to
// each as Bitrix24 posts ONCRMDEALUPDATE / ONCRMLEADUPDATE (form fields, stage-watch.ts).

import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import { createEmulatorKit, listenEmulator, registerControlRoutes } from '../kit/emulator-kit';
import {
  BITRIX24_SEED,
  type Bitrix24Fault,
  type Bitrix24Store,
  clearStore,
  type EmulatedCall,
  emptyStore,
  type StoredRecord,
} from './emulator-state';
import { BITRIX24_WATCH_EVENTS, bitrix24EventForm } from './stage-watch';

export type { Bitrix24Fault, EmulatedCall as Bitrix24EmulatedCall } from './emulator-state';
export { BITRIX24_SEED } from './emulator-state';

/** The demo portal's inbound webhook: user 1, this code. */
export const BITRIX24_DEMO_WEBHOOK_CODE = 'demob24webhook0code7k2q';

const DEFAULT_ERROR: Record<number, [string, string]> = {
  400: ['INVALID_REQUEST', 'Bad request'],
  401: ['NO_AUTH_FOUND', 'Wrong authorization data'],
  403: ['INVALID_CREDENTIALS', 'Invalid request credentials'],
  404: ['ERROR_METHOD_NOT_FOUND', 'Method not found!'],
  // A proxy's 429 (Bitrix24 itself answers 503 QUERY_LIMIT_EXCEEDED, a fault with that `error`).
  429: ['TOO_MANY_REQUESTS', 'Too many requests'],
  500: ['INTERNAL_SERVER_ERROR', 'Internal server error'],
  503: ['INTERNAL_SERVER_ERROR', 'Service unavailable'],
};

class RestError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
  ) {
    super(description);
  }
}

export interface Bitrix24EmulatorOptions {
  port?: number;
  host?: string;
  /** The inbound webhook's code (default a fixed test one). */
  webhookCode?: string;
}

export interface Bitrix24OutgoingWebhook {
  id: string;
  url: string;
  events: string[];
  token: string;
}

/** A Bitrix24 datetime, to the second as the portal keeps it ("2024-08-30T14:29:00+00:00"). */
const stamp = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, '+00:00');

export interface Bitrix24Emulator {
  /** Origin: the portal's address. */
  url: string;
  port: number;
  /** host:port, for the allowed hosts. */
  host: string;
  /** The inbound webhook's address, as Bitrix24 shows it (user 1). */
  webhookUrl: string;
  webhookCode: string;
  leads: StoredRecord[];
  deals: StoredRecord[];
  contacts: StoredRecord[];
  requests: EmulatedCall[];
  /** Outgoing webhooks made in the portal. */
  outgoing: Bitrix24OutgoingWebhook[];
  /** Events posted to outgoing webhooks, with the handler's answer (0: no answer). */
  sent: { url: string; event: string; id: string; status: number }[];
  /** An outgoing webhook as the portal's administrator makes it; its token is Bitrix24's to make. */
  addOutgoingWebhook(input: { url: string; events?: string[] }): Bitrix24OutgoingWebhook;
  /**
   * A manager changes a deal or lead in the portal: another stage (a deal's STAGE_ID, a lead's
   * STATUS_ID) stamps MOVED_TIME and MOVED_BY_ID; the update event goes to every outgoing webhook that has it.
   */
  updateRecord(
    kind: 'deal' | 'lead',
    id: string,
    change: { stage?: string; title?: string; userId?: number },
  ): Promise<Bitrix24Emulator['sent']>;
  /** REST calls whose method contains `match`. */
  calls(match?: string): EmulatedCall[];
  /** The webhook was deleted in Bitrix24: NO_AUTH_FOUND. */
  revokeWebhook(): void;
  /** The webhook's scopes (default crm, user): without crm, CRM methods answer insufficient_scope. */
  setScopes(scopes: string[]): void;
  /** The leaky bucket: more than `burst` calls without the bucket draining at 2 a second answer QUERY_LIMIT_EXCEEDED. */
  setRateLimit(burst: number | null): void;
  /** crm.lead.list / crm.deal.list answer every record, whatever the filter. */
  setListFilterIgnored(isIgnored: boolean): void;
  setLatency(ms: number): void;
  setFault(fault: Bitrix24Fault | null): void;
  /** Records, log, faults, latency, scopes and limit back to the seed; the webhook valid again. */
  reset(): void;
  close(): Promise<void>;
}

const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);
const digits = (s: string) => s.replace(/\D/g, '');
const samePhone = (a: string, b: string) => {
  const x = digits(a);
  const y = digits(b);
  return x.length >= 9 && y.length >= 9 ? x.slice(-9) === y.slice(-9) : x !== '' && x === y;
};

function multiValues(v: unknown): string[] {
  if (!Array.isArray(v)) return [];
  return v.map((e) => str((e as { VALUE?: unknown } | null)?.VALUE)).filter((s): s is string => !!s);
}

/** A record's fields as stored: multifields get their ID and TYPE_ID, as crm.*.get gives them. */
function storedFields(store: Bitrix24Store, fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null);
  for (const [k, v] of Object.entries(fields)) {
    if (!/^[A-Z][A-Z0-9_]*$/.test(k)) throw new RestError(400, '', `Unknown field ${k.slice(0, 40)}`);
    if (k === 'PHONE' || k === 'EMAIL') {
      out[k] = multiValues(v).map((VALUE) => ({ ID: String(store.nextId++), VALUE_TYPE: 'WORK', VALUE, TYPE_ID: k }));
    } else out[k] = v;
  }
  return out;
}

export async function startBitrix24Emulator(options: Bitrix24EmulatorOptions = {}): Promise<Bitrix24Emulator> {
  const kit = createEmulatorKit<Bitrix24Fault, EmulatedCall>({ maxLog: 5_000 });
  const store = emptyStore();
  const code = options.webhookCode ?? 'testb24webhook0code9x';
  let isRevoked = false;
  let scopes = new Set(['crm', 'user']);
  let burst: number | null = null;
  let isFilterIgnored = false;
  let bucket = 0;
  let drainedAt = Date.now();

  const app = Fastify({ logger: false, forceCloseConnections: true });
  // Bitrix24 takes form bodies as well as JSON; the connector sends JSON.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  const now = () => {
    const t = Date.now() / 1000;
    return {
      start: t,
      finish: t,
      duration: 0,
      processing: 0,
      date_start: new Date().toISOString(),
      date_finish: new Date().toISOString(),
      operating: 0,
    };
  };
  const find = (list: StoredRecord[], filter: Record<string, unknown>) =>
    list.filter((r) => Object.entries(filter).every(([k, v]) => Object.hasOwn(r, k) && String(r[k]) === String(v)));
  const add = (list: StoredRecord[], params: Record<string, unknown>, need?: string) => {
    const fields = params.fields ?? params.FIELDS;
    if (!fields || typeof fields !== 'object' || Array.isArray(fields)) {
      throw new RestError(400, '', "Parameter 'fields' must be array.");
    }
    const f = storedFields(store, fields as Record<string, unknown>);
    if (need === 'CATEGORY') {
      // No CATEGORY_ID: the general pipeline (0).
      const cat = Number(f.CATEGORY_ID ?? 0);
      if (!BITRIX24_SEED.categories.some((c) => c.id === cat)) throw new RestError(400, '', 'Category not found');
      const dir = cat === 0 ? 'DEAL_STAGE' : `DEAL_STAGE_${cat}`;
      if (
        f.STAGE_ID !== undefined &&
        !BITRIX24_SEED.statuses.some((s) => s.ENTITY_ID === dir && s.STATUS_ID === f.STAGE_ID)
      ) {
        throw new RestError(400, '', 'Stage not found in the category');
      }
      if (f.STAGE_ID === undefined) f.STAGE_ID = BITRIX24_SEED.statuses.find((s) => s.ENTITY_ID === dir)!.STATUS_ID;
    }
    if (f.ASSIGNED_BY_ID !== undefined && !BITRIX24_SEED.users.some((u) => u.ID === String(f.ASSIGNED_BY_ID))) {
      throw new RestError(400, '', 'Responsible user not found');
    }
    // A lead without STATUS_ID starts in the first status, as the portal does.
    if (list === store.leads && f.STATUS_ID === undefined) f.STATUS_ID = 'NEW';
    const at = stamp(Date.now());
    const record = {
      ...f,
      ID: String(store.nextId++),
      ASSIGNED_BY_ID: f.ASSIGNED_BY_ID ?? 1,
      CREATED_BY_ID: '1',
      MODIFY_BY_ID: '1',
      DATE_CREATE: at,
      DATE_MODIFY: at,
      // Made in its first stage: "the last stage change" is the creation.
      ...(list === store.contacts ? {} : { MOVED_BY_ID: '1', MOVED_TIME: at }),
    } as StoredRecord;
    list.push(record);
    return Number(record.ID);
  };
  const page = <T>(items: T[], params: Record<string, unknown>) => {
    const start = Math.max(0, Number(params.start) || 0);
    const slice = items.slice(start, start + 50);
    return { result: slice, total: items.length, ...(start + 50 < items.length ? { next: start + 50 } : {}) };
  };

  const selected = (r: StoredRecord, p: Record<string, unknown>) => {
    const select = Array.isArray(p.select) ? p.select.map(String) : ['*'];
    if (select.includes('*')) return r;
    return Object.fromEntries(select.filter((k) => Object.hasOwn(r, k)).map((k) => [k, r[k]]));
  };
  const crm = (method: string) => method.startsWith('crm.');
  const getOne = (list: StoredRecord[], p: Record<string, unknown>) => {
    const id = str(p.id ?? p.ID);
    if (!id || !/^\d+$/.test(id)) throw new RestError(400, '', 'ID is not defined or invalid.');
    const found = list.find((r) => r.ID === id);
    if (!found) throw new RestError(400, '', 'Not found');
    return { result: found };
  };
  const methods: Record<string, (p: Record<string, unknown>) => Record<string, unknown>> = {
    profile: () => ({
      result: { ID: '1', ADMIN: true, NAME: 'Анна', LAST_NAME: 'Коваль', PERSONAL_GENDER: '', TIME_ZONE: '' },
    }),
    'user.current': () => ({ result: BITRIX24_SEED.users[0] }),
    'user.get': (p) => {
      const filter = (p.FILTER ?? p.filter ?? {}) as Record<string, unknown>;
      const users = BITRIX24_SEED.users.filter(
        (u) =>
          (filter.ID === undefined || String(filter.ID) === u.ID) &&
          (filter.ACTIVE === undefined || String(filter.ACTIVE) !== 'true' || u.ACTIVE),
      );
      return page(users, p);
    },
    'crm.category.list': (p) => {
      if (Number(p.entityTypeId) !== 2) throw new RestError(400, 'NOT_FOUND', 'Smart process not found');
      return { result: { categories: BITRIX24_SEED.categories }, total: BITRIX24_SEED.categories.length };
    },
    'crm.status.list': (p) => {
      const filter = (p.filter ?? {}) as Record<string, unknown>;
      const items = BITRIX24_SEED.statuses.filter(
        (s) => filter.ENTITY_ID === undefined || s.ENTITY_ID === filter.ENTITY_ID,
      );
      return page(items, p);
    },
    'crm.duplicate.findbycomm': (p) => {
      const type = str(p.type);
      if (!type) throw new RestError(400, '', 'Communication type is not defined');
      if (type !== 'PHONE' && type !== 'EMAIL')
        throw new RestError(400, '', `Communication type '${type.slice(0, 20)}' is not supported in current context`);
      if (!Array.isArray(p.values) || p.values.length === 0)
        throw new RestError(400, '', 'Communication values is not defined');
      const values = p.values.map(String).slice(0, 20);
      const hit = (r: StoredRecord) =>
        multiValues(r[type]).some((v) =>
          values.some((w) => (type === 'PHONE' ? samePhone(v, w) : v.toLowerCase() === w.toLowerCase())),
        );
      const entity = str(p.entity_type);
      const result = new Map<string, number[]>();
      const of = (name: string, list: StoredRecord[]) => {
        if (entity && entity !== name) return;
        const ids = list.filter(hit).map((r) => Number(r.ID));
        if (ids.length) result.set(name, ids);
      };
      of('LEAD', store.leads);
      of('CONTACT', store.contacts);
      // An empty answer is an empty array, as PHP's empty array in JSON.
      return { result: result.size ? Object.fromEntries(result) : [] };
    },
    'crm.contact.add': (p) => ({ result: add(store.contacts, p) }),
    'crm.lead.add': (p) => ({ result: add(store.leads, p) }),
    'crm.deal.add': (p) => ({ result: add(store.deals, p, 'CATEGORY') }),
    'crm.lead.get': (p) => getOne(store.leads, p),
    'crm.deal.get': (p) => getOne(store.deals, p),
    'crm.lead.list': (p) =>
      page(
        find(store.leads, isFilterIgnored ? {} : ((p.filter ?? {}) as Record<string, unknown>)).map((r) =>
          selected(r, p),
        ),
        p,
      ),
    'crm.deal.list': (p) =>
      page(
        find(store.deals, isFilterIgnored ? {} : ((p.filter ?? {}) as Record<string, unknown>)).map((r) =>
          selected(r, p),
        ),
        p,
      ),
  };

  app.post<{ Params: { user: string; code: string; method: string } }>(
    '/rest/:user/:code/:method',
    async (req, reply) => {
      const method = req.params.method.replace(/\.json$/, '');
      const params = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>;
      const entry = kit.log({ method, params, status: 200 });
      const answer = (status: number, body: unknown) => {
        entry.status = status;
        return reply.code(status).send(body);
      };
      const fail = (status: number, error: string, description: string) =>
        answer(status, { error, error_description: description });
      await kit.delay();
      const f = kit.takeFault((fault) => !fault.method || fault.method === method);
      if (f && !f.isAnswerLost) {
        const status = f.status ?? 500;
        if (f.retryAfter !== undefined) reply.header('retry-after', String(f.retryAfter));
        const [error, description] = f.error
          ? [f.error, f.error]
          : (DEFAULT_ERROR[status] ?? ['INTERNAL_SERVER_ERROR', 'Error']);
        return fail(status, error, description);
      }
      if (isRevoked || req.params.user !== '1' || req.params.code !== code) {
        return fail(401, 'NO_AUTH_FOUND', 'Wrong authorization data');
      }
      if (burst !== null) {
        const t = Date.now();
        bucket = Math.max(0, bucket - ((t - drainedAt) / 1000) * 2);
        drainedAt = t;
        if (bucket + 1 > burst) return fail(503, 'QUERY_LIMIT_EXCEEDED', 'Too many requests');
        bucket += 1;
      }
      if (crm(method) && !scopes.has('crm')) {
        return fail(
          403,
          'insufficient_scope',
          'The request requires higher privileges than provided by the webhook token',
        );
      }
      if (method.startsWith('user.') && !scopes.has('user')) {
        return fail(
          403,
          'insufficient_scope',
          'The request requires higher privileges than provided by the webhook token',
        );
      }
      const run = Object.hasOwn(methods, method) ? methods[method] : undefined;
      if (!run) return fail(404, 'ERROR_METHOD_NOT_FOUND', 'Method not found!');
      try {
        const body = { ...run(params), time: now() };
        if (f?.isAnswerLost) {
          // The work is done; the answer never arrives.
          reply.hijack();
          req.raw.socket?.destroy();
          return;
        }
        return answer(200, body);
      } catch (err) {
        if (err instanceof RestError) return fail(err.status, err.error, err.description);
        throw err;
      }
    },
  );

  const outgoing: Bitrix24OutgoingWebhook[] = [];
  const sent: Bitrix24Emulator['sent'] = [];
  const EVENT_OF = { deal: 'ONCRMDEALUPDATE', lead: 'ONCRMLEADUPDATE' } as const;
  const MEMBER_ID = randomBytes(16).toString('hex');

  async function updateRecord(
    kind: 'deal' | 'lead',
    id: string,
    change: { stage?: string; title?: string; userId?: number },
  ): Promise<Bitrix24Emulator['sent']> {
    const record = (kind === 'deal' ? store.deals : store.leads).find((r) => r.ID === id);
    if (!record) throw new RestError(400, '', 'Not found');
    const user = String(change.userId ?? 1);
    if (!BITRIX24_SEED.users.some((u) => u.ID === user)) throw new RestError(400, '', 'User not found');
    const field = kind === 'deal' ? 'STAGE_ID' : 'STATUS_ID';
    if (change.stage !== undefined && change.stage !== record[field]) {
      const dir =
        kind === 'lead'
          ? 'STATUS'
          : Number(record.CATEGORY_ID ?? 0)
            ? `DEAL_STAGE_${record.CATEGORY_ID}`
            : 'DEAL_STAGE';
      if (!BITRIX24_SEED.statuses.some((st) => st.ENTITY_ID === dir && st.STATUS_ID === change.stage)) {
        throw new RestError(400, '', 'Stage not found');
      }
      record[field] = change.stage;
      // To the second, as the portal keeps it; a person moves a card a second after it was made at the earliest.
      const made = Date.parse(String(record.DATE_CREATE));
      record.MOVED_TIME = stamp(Math.max(Date.now(), (Number.isNaN(made) ? 0 : made) + 1000));
      record.MOVED_BY_ID = user;
    }
    if (change.title !== undefined) record.TITLE = change.title;
    record.DATE_MODIFY = stamp(Date.now());
    record.MODIFY_BY_ID = user;
    const event = EVENT_OF[kind];
    const out: Bitrix24Emulator['sent'] = [];
    for (const hook of outgoing.filter((h) => h.events.includes(event))) {
      let status = 0;
      try {
        const res = await fetch(hook.url, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: bitrix24EventForm({
            event,
            id,
            token: hook.token,
            domain: emulator.host,
            memberId: MEMBER_ID,
            handlerId: hook.id,
          }),
          signal: AbortSignal.timeout(10_000),
        });
        status = res.status;
        await res.body?.cancel();
      } catch {
        status = 0;
      }
      out.push({ url: hook.url, event, id, status });
    }
    sent.push(...out);
    return out;
  }

  const emulator: Bitrix24Emulator = {
    url: '',
    port: 0,
    host: '',
    webhookUrl: '',
    webhookCode: code,
    get leads() {
      return store.leads;
    },
    get deals() {
      return store.deals;
    },
    get contacts() {
      return store.contacts;
    },
    requests: kit.requests,
    outgoing,
    sent,
    addOutgoingWebhook(input) {
      const events = (input.events ?? Object.keys(BITRIX24_WATCH_EVENTS)).map(String);
      const hook = { id: String(outgoing.length + 1), url: input.url, events, token: randomBytes(16).toString('hex') };
      outgoing.push(hook);
      return hook;
    },
    updateRecord,
    calls: (match) => kit.requests.filter((r) => !match || r.method.includes(match)),
    revokeWebhook() {
      isRevoked = true;
    },
    setScopes(list) {
      scopes = new Set(list);
    },
    setRateLimit(limit) {
      burst = limit;
      bucket = 0;
      drainedAt = Date.now();
    },
    setListFilterIgnored(isIgnored) {
      isFilterIgnored = isIgnored;
    },
    setLatency: kit.setLatency,
    setFault: kit.setFault,
    reset() {
      isFilterIgnored = false;
      kit.resetSwitches();
      clearStore(store);
      isRevoked = false;
      scopes = new Set(['crm', 'user']);
      burst = null;
      bucket = 0;
      outgoing.length = 0;
      sent.length = 0;
    },
    async close() {
      kit.clearTimers();
      await app.close();
    },
  };

  app.get('/__emulator/state', async () => ({ leads: store.leads, deals: store.deals, contacts: store.contacts }));
  app.get('/__emulator/log', async () => ({ requests: kit.requests, latencyMs: kit.latencyMs, fault: kit.fault }));
  registerControlRoutes(app, kit, { reset: () => emulator.reset() });
  app.post('/__emulator/revoke-webhook', async () => {
    emulator.revokeWebhook();
    return { ok: true };
  });
  app.post('/__emulator/scopes', async (req) => {
    const list = (req.body as { scopes?: unknown } | null)?.scopes;
    emulator.setScopes(Array.isArray(list) ? list.map(String) : []);
    return { ok: true };
  });

  app.post('/__emulator/outgoing-webhooks', async (req, reply) => {
    const body = (req.body ?? {}) as { url?: unknown; events?: unknown };
    if (typeof body.url !== 'string' || !/^https?:\/\//.test(body.url)) {
      return reply.code(400).send({ error: 'url is required' });
    }
    const events = Array.isArray(body.events) ? body.events.map(String) : undefined;
    return emulator.addOutgoingWebhook({ url: body.url, events });
  });
  app.get('/__emulator/outgoing-webhooks', async () => ({ webhooks: outgoing, sent }));
  for (const kind of ['deal', 'lead'] as const) {
    app.post<{ Params: { id: string } }>(`/__emulator/${kind}s/:id/update`, async (req, reply) => {
      const body = (req.body ?? {}) as { stage?: unknown; title?: unknown; userId?: unknown };
      try {
        const out = await updateRecord(kind, req.params.id, {
          ...(typeof body.stage === 'string' ? { stage: body.stage } : {}),
          ...(typeof body.title === 'string' ? { title: body.title } : {}),
          ...(body.userId !== undefined ? { userId: Number(body.userId) } : {}),
        });
        return { ok: true, sent: out };
      } catch (err) {
        if (err instanceof RestError) return reply.code(err.status).send({ error: err.description });
        throw err;
      }
    });
  }

  const listening = await listenEmulator(app, options);
  emulator.port = listening.port;
  emulator.url = listening.url;
  emulator.host = listening.hostPort;
  emulator.webhookUrl = `${listening.url}/rest/1/${code}/`;
  return emulator;
}
