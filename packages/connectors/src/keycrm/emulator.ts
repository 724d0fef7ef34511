// A stateful fake of KeyCRM's OpenAPI (https://openapi.keycrm.app/v1, docs/connectors/keycrm.md) for
// our tests, the demo and the end-to-end suite: Bearer API keys (401 "Unauthenticated."), pipelines
// and their statuses, users, order sources, buyers (filter[buyer_phone], filter[buyer_email]), pipeline
// cards (create: into the pipeline's first status, the contact an existing buyer's client_id or a new
// buyer made of full_name/phone/email; update: status_id; list: filter[pipeline_id],
// filter[created_between]), 422 in Laravel's shape ({message, errors: {field: [text]}}), and KeyCRM's
// limit of 60 requests a minute per key (429 with Retry-After). Under /__emulator: reset, faults,
// latency, the limit, and what it holds.
// Outgoing webhooks (speed to lead): made by hand in a real account as an automation trigger's
// "Відправити Webhook", here by POST /__emulator/webhooks {url}; a card moved to another status (POST
// /__emulator/cards/{id}/move {status_id}, or the API's PUT) is posted to each as JSON, in the body
// we ASSUME KeyCRM sends ({event, context: the card}: stage-watch.ts keycrmCardEvent).
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { createEmulatorKit, listenEmulator, registerControlRoutes, slidingWindow } from '../kit/emulator-kit';
import { keycrmCardEvent } from './stage-watch';

export interface EmulatedKeycrmRequest {
  method: string;
  path: string;
  body: unknown;
  status: number;
  receivedAt: string;
}

export interface KeycrmFault {
  status: number;
  retryAfter?: number;
  times?: number;
  body?: unknown;
  /** Only requests whose path (after /v1) starts with this; default every API request. */
  path?: string;
  /** Only requests of this method. */
  method?: string;
}

export interface EmulatedPipeline {
  id: number;
  name: string;
  statuses: { id: number; title: string; is_final?: boolean }[];
}

export interface EmulatedBuyer {
  id: number;
  full_name: string;
  phone: string[];
  email: string[];
  created_at: string;
}

export interface EmulatedCard {
  id: number;
  title: string;
  pipeline_id: number;
  status_id: number;
  source_id: number | null;
  manager_id: number | null;
  contact_id: number;
  client_id: number;
  manager_comment: string | null;
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  utm_term: string | null;
  utm_content: string | null;
  created_at: string;
  updated_at: string;
  status_changed_at: string;
}

export interface KeycrmSeed {
  keys: string[];
  pipelines: EmulatedPipeline[];
  users: { id: number; full_name: string; email: string; status: string }[];
  sources: { id: number; name: string; alias: string }[];
  buyers: Omit<EmulatedBuyer, 'created_at'>[];
}

/** The key a demo user (and the tests) types in. */
export const KEYCRM_EMULATOR_KEY = 'kcrm-demo-key-4f9a21c7d3e8';

export function defaultKeycrmSeed(): KeycrmSeed {
  return {
    keys: [KEYCRM_EMULATOR_KEY],
    pipelines: [
      {
        id: 1,
        name: 'Ліди з реклами',
        statuses: [
          { id: 11, title: 'Новий' },
          { id: 12, title: 'Взяти в роботу' },
          { id: 13, title: 'Успішно', is_final: true },
        ],
      },
      {
        id: 2,
        name: 'Оптові клієнти',
        statuses: [
          { id: 21, title: 'Новий' },
          { id: 22, title: 'Переговори' },
        ],
      },
    ],
    users: [
      { id: 5, full_name: 'Оксана Петренко', email: 'oksana@example.com', status: 'active' },
      { id: 6, full_name: 'Андрій Коваль', email: 'andrii@example.com', status: 'active' },
      { id: 7, full_name: 'Колишній менеджер', email: 'former@example.com', status: 'blocked' },
    ],
    sources: [
      { id: 3, name: 'Таргетована реклама', alias: 'ads' },
      { id: 4, name: 'Сайт', alias: 'site' },
    ],
    buyers: [{ id: 900, full_name: 'Тарас Шевчук', phone: ['+380671112233'], email: ['taras@example.com'] }],
  };
}

export interface KeycrmEmulatorOptions {
  port?: number;
  host?: string;
  seed?: KeycrmSeed;
  /** Requests per window per key before 429 (KeyCRM: 60 a minute). */
  rateLimit?: number;
  windowMs?: number;
  maxLog?: number;
}

export interface KeycrmEmulator {
  /** The API's base, …/v1, as KEYCRM_API_URL takes it. */
  url: string;
  port: number;
  requests: EmulatedKeycrmRequest[];
  cards: EmulatedCard[];
  buyers: EmulatedBuyer[];
  pipelines: EmulatedPipeline[];
  /** 429s answered since the last reset. */
  rateLimited(): number;
  setLatency(ms: number): void;
  setFault(fault: KeycrmFault | null): void;
  setRateLimit(limit: number, windowMs?: number): void;
  /** Removes a pipeline (a user deleted it in KeyCRM). */
  removePipeline(id: number): void;
  /** Webhook URLs of automation triggers "card moved to a status", made by hand in the account. */
  webhooks: string[];
  /** What was posted to them, with the answer's status (0: none). */
  sent: { url: string; cardId: number; status: number }[];
  addWebhook(url: string): void;
  /**
   * A manager moves a card to another status of its pipeline: the trigger posts it to every webhook,
   * and this answers what each said; undefined when there is no such card or status.
   */
  moveCard(id: number, statusId: number): Promise<{ url: string; status: number }[] | undefined>;
  reset(): void;
  close(): Promise<void>;
}

const digits = (s: string) => s.replace(/\D+/g, '');
const samePhone = (a: string, b: string) => {
  const x = digits(a);
  const y = digits(b);
  return x.length >= 9 && y.length >= 9 ? x.slice(-9) === y.slice(-9) : x !== '' && x === y;
};
const utc = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');
const invalid = (errors: Record<string, string[]>) => ({ message: 'The given data was invalid.', errors });

export async function startKeycrmEmulator(options: KeycrmEmulatorOptions = {}): Promise<KeycrmEmulator> {
  const seed = () => structuredClone(options.seed ?? defaultKeycrmSeed());
  let state = seed();
  const app = Fastify({ logger: false, forceCloseConnections: true });
  const kit = createEmulatorKit<KeycrmFault, EmulatedKeycrmRequest>({ maxLog: options.maxLog ?? 10_000 });
  const cards: EmulatedCard[] = [];
  const buyers: EmulatedBuyer[] = [];
  const pipelines: EmulatedPipeline[] = [];
  let limit = options.rateLimit ?? 60;
  let windowMs = options.windowMs ?? 60_000;
  let window = slidingWindow(windowMs);
  let limited = 0;
  let nextId = 1000;
  const webhooks: string[] = [];
  const sent: KeycrmEmulator['sent'] = [];

  /** The trigger's action: the card to every webhook, one after another; what each answered. */
  const notify = async (card: EmulatedCard) => {
    const out: { url: string; status: number }[] = [];
    for (const url of [...webhooks]) {
      let status = 0;
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(keycrmCardEvent({ ...card })),
          signal: AbortSignal.timeout(10_000),
        });
        status = res.status;
        await res.body?.cancel();
      } catch {
        status = 0;
      }
      sent.push({ url, cardId: card.id, status });
      out.push({ url, status });
    }
    return out;
  };
  /** Moves a card to a status of its pipeline (false: not one of them); stamps status_changed_at. */
  const setStatus = (c: EmulatedCard, statusId: unknown): boolean => {
    const p = pipelines.find((x) => x.id === c.pipeline_id);
    if (!p?.statuses.some((st) => st.id === statusId)) return false;
    const changed = c.status_id !== statusId;
    c.status_id = statusId as number;
    if (changed) c.status_changed_at = utc(new Date());
    return true;
  };

  const load = () => {
    state = seed();
    buyers.splice(0, buyers.length, ...state.buyers.map((b) => ({ ...b, created_at: utc(new Date()) })));
    pipelines.splice(0, pipelines.length, ...state.pipelines);
    cards.length = 0;
  };
  load();

  const emulator: KeycrmEmulator = {
    url: '',
    port: 0,
    requests: kit.requests,
    cards,
    buyers,
    pipelines,
    rateLimited: () => limited,
    setLatency: kit.setLatency,
    setFault: kit.setFault,
    setRateLimit(n, ms) {
      limit = n;
      if (ms !== undefined && ms !== windowMs) {
        windowMs = ms;
        window = slidingWindow(ms);
      }
    },
    removePipeline(id) {
      const at = pipelines.findIndex((p) => p.id === id);
      if (at >= 0) pipelines.splice(at, 1);
    },
    webhooks,
    sent,
    addWebhook(url) {
      webhooks.push(url);
    },
    async moveCard(id, statusId) {
      const c = cards.find((x) => x.id === id);
      if (!c || !setStatus(c, statusId)) return undefined;
      c.updated_at = utc(new Date());
      return notify(c);
    },
    reset() {
      load();
      webhooks.length = 0;
      sent.length = 0;
      kit.resetSwitches();
      window.clear();
      limited = 0;
      nextId = 1000;
      limit = options.rateLimit ?? 60;
      if (windowMs !== (options.windowMs ?? 60_000)) {
        windowMs = options.windowMs ?? 60_000;
        window = slidingWindow(windowMs);
      }
    },
    async close() {
      kit.clearTimers();
      await app.close();
    },
  };

  // ---- Control API ----
  app.get('/__emulator/log', async () => ({ requests: kit.requests, cards, buyers }));
  registerControlRoutes(app, kit, { reset: () => emulator.reset() });
  app.post('/__emulator/webhooks', async (req, reply) => {
    const url = ((req.body ?? {}) as { url?: unknown }).url;
    if (typeof url !== 'string' || !/^https?:\/\//.test(url)) return reply.code(400).send({ error: 'url is required' });
    emulator.addWebhook(url);
    return { ok: true };
  });
  app.get('/__emulator/webhooks', async () => ({ webhooks, sent }));
  app.post<{ Params: { id: string } }>('/__emulator/cards/:id/move', async (req, reply) => {
    const statusId = Number(((req.body ?? {}) as { status_id?: unknown }).status_id);
    const out = await emulator.moveCard(Number(req.params.id), statusId);
    if (!out) return reply.code(404).send({ error: 'no such card or status' });
    return { ok: true, sent: out };
  });
  app.post('/__emulator/rate-limit', async (req) => {
    const b = (req.body ?? {}) as { limit?: number; windowMs?: number };
    emulator.setRateLimit(Number(b.limit ?? 60), b.windowMs === undefined ? undefined : Number(b.windowMs));
    return { ok: true };
  });

  // ---- Every API request: log, latency, faults, Bearer key, the limit ----
  const entryOf = (req: FastifyRequest) => (req as unknown as { kcEntry?: EmulatedKeycrmRequest }).kcEntry;
  app.addHook('onRequest', async (req) => {
    if (!req.url.startsWith('/v1/')) return;
    (req as unknown as { kcEntry?: EmulatedKeycrmRequest }).kcEntry = kit.log({
      method: req.method,
      path: req.url.slice(3),
      body: undefined,
      status: 200,
      receivedAt: new Date().toISOString(),
    });
  });
  app.addHook('preHandler', async (req, reply) => {
    const entry = entryOf(req);
    if (!entry) return;
    entry.body = req.body;
    await kit.delay();
    const f = kit.takeFault(
      (fault) => (!fault.path || entry.path.startsWith(fault.path)) && (!fault.method || fault.method === req.method),
    );
    if (f) {
      if (f.retryAfter !== undefined) reply.header('retry-after', String(f.retryAfter));
      if (f.status === 401) return reply.code(401).send(f.body ?? { message: 'Unauthenticated.' });
      return reply.code(f.status).send(f.body ?? { message: 'Server Error' });
    }
    const key = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (!key || !state.keys.includes(key)) return reply.code(401).send({ message: 'Unauthenticated.' });
    const hit = window.hit(key, limit);
    reply.header('x-ratelimit-limit', String(limit));
    if (!hit.isAdmitted) {
      limited++;
      const retryAfter = Math.max(1, Math.ceil((hit.hits[0]! + windowMs - Date.now()) / 1000));
      reply.header('retry-after', String(retryAfter));
      reply.header('x-ratelimit-remaining', '0');
      return reply.code(429).send({ message: 'Too Many Attempts.' });
    }
    reply.header('x-ratelimit-remaining', String(Math.max(0, limit - hit.hits.length)));
  });
  app.addHook('onSend', async (req, reply, payload) => {
    const entry = entryOf(req);
    if (entry) entry.status = reply.statusCode;
    return payload;
  });

  /** KeyCRM's paginated answer: limit ≤ 50, page from 1. */
  const page = <T>(req: FastifyRequest, items: T[]) => {
    const q = req.query as Record<string, string | undefined>;
    const per = Math.min(Math.max(Number(q.limit ?? 15) || 15, 1), 50);
    const current = Math.max(Number(q.page ?? 1) || 1, 1);
    const data = items.slice((current - 1) * per, current * per);
    const last = Math.max(1, Math.ceil(items.length / per));
    const base = `${emulator.url}${req.url.slice(3).split('?')[0]}`;
    return {
      total: items.length,
      current_page: current,
      per_page: per,
      data,
      first_page_url: `${base}?page=1`,
      last_page_url: `${base}?page=${last}`,
      next_page_url: current < last ? `${base}?page=${current + 1}` : null,
    };
  };
  /** filter[name] as Fastify's query parser leaves it (the bracketed name is one key). */
  const filter = (req: FastifyRequest, name: string): string | undefined => {
    const q = req.query as Record<string, unknown>;
    const key = `filter[${name}]`;
    const v = Object.hasOwn(q, key) ? q[key] : undefined;
    return typeof v === 'string' && v.trim() ? v.trim() : undefined;
  };
  const fail = (reply: FastifyReply, status: number, body: unknown) => reply.code(status).send(body);

  app.register(
    async (api) => {
      api.get('/pipelines', async (req) =>
        page(
          req,
          pipelines.map(({ id, name }) => ({ id, name })),
        ),
      );
      api.get('/pipelines/:id/statuses', async (req, reply) => {
        const p = pipelines.find((x) => x.id === Number((req.params as { id: string }).id));
        if (!p) return fail(reply, 404, { message: 'Not found' });
        return page(
          req,
          p.statuses.map((s) => ({ id: s.id, pipeline_id: p.id, title: s.title, is_final: s.is_final ?? false })),
        );
      });
      api.get('/users', async (req) => page(req, state.users));
      api.get('/order/source', async (req) => page(req, state.sources));

      api.get('/buyer', async (req) => {
        const phones = filter(req, 'buyer_phone')?.split(',') ?? [];
        const emails = (filter(req, 'buyer_email')?.split(',') ?? []).map((e) => e.trim().toLowerCase());
        const found = buyers.filter(
          (b) =>
            (!phones.length || b.phone.some((p) => phones.some((q) => samePhone(p, q)))) &&
            (!emails.length || b.email.some((e) => emails.includes(e.toLowerCase()))),
        );
        return page(req, found);
      });

      api.get('/pipelines/cards', async (req) => {
        const pipelineId = Number(filter(req, 'pipeline_id') ?? Number.NaN);
        const between = filter(req, 'created_between')
          ?.split(',')
          .map((s) => s.trim());
        const found = cards.filter(
          (c) =>
            (Number.isNaN(pipelineId) || c.pipeline_id === pipelineId) &&
            (!between || (c.created_at >= between[0]! && c.created_at <= (between[1] ?? '9999'))),
        );
        return page(req, found);
      });
      api.get('/pipelines/cards/:id', async (req, reply) => {
        const c = cards.find((x) => x.id === Number((req.params as { id: string }).id));
        if (!c) return fail(reply, 404, { message: 'Not found' });
        const include = String((req.query as { include?: unknown }).include ?? '').split(',');
        // KeyCRM's includes: contact.client, products, manager, status, payments, custom_fields.
        const known = ['contact.client', 'products', 'manager', 'status', 'payments', 'custom_fields', ''];
        const wrong = include.filter((i) => !known.includes(i.trim()));
        if (wrong.length)
          return fail(reply, 400, { message: `Requested include(s) \`${wrong.join(', ')}\` are not allowed.` });
        if (!include.includes('status')) return c;
        const p = pipelines.find((x) => x.id === c.pipeline_id);
        const st = p?.statuses.find((x) => x.id === c.status_id);
        return {
          ...c,
          status: st
            ? { id: st.id, pipeline_id: c.pipeline_id, title: st.title, is_final: st.is_final ?? false }
            : null,
        };
      });

      api.post('/pipelines/cards', async (req, reply) => {
        const b = (req.body ?? {}) as Record<string, unknown>;
        const contact = (b.contact ?? null) as Record<string, unknown> | null;
        const errors: Record<string, string[]> = {};
        const pipeline = b.pipeline_id === undefined ? pipelines[0] : pipelines.find((p) => p.id === b.pipeline_id);
        if (!pipeline) errors.pipeline_id = ['The selected pipeline id is invalid.'];
        if (b.source_id !== undefined && !state.sources.some((s) => s.id === b.source_id)) {
          errors.source_id = ['The selected source id is invalid.'];
        }
        if (b.manager_id !== undefined && !state.users.some((u) => u.id === b.manager_id && u.status === 'active')) {
          errors.manager_id = ['The selected manager id is invalid.'];
        }
        if (typeof b.title === 'string' && b.title.length > 255)
          errors.title = ['The title may not be greater than 255 characters.'];
        let buyer: EmulatedBuyer | undefined;
        if (!contact || typeof contact !== 'object') errors.contact = ['The contact field is required.'];
        else if (contact.client_id !== undefined) {
          buyer = buyers.find((x) => x.id === contact.client_id);
          if (!buyer) errors['contact.client_id'] = ['The selected contact.client id is invalid.'];
        } else {
          const name = typeof contact.full_name === 'string' ? contact.full_name.trim() : '';
          const phone = typeof contact.phone === 'string' ? contact.phone.trim() : '';
          const email = typeof contact.email === 'string' ? contact.email.trim() : '';
          if (email && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email))
            errors['contact.email'] = ['The contact.email must be a valid email address.'];
          if (!name && !phone && !email)
            errors['contact.full_name'] = [
              'The contact.full name field is required when none of contact.phone / contact.email are present.',
            ];
          if (!Object.keys(errors).length) {
            buyer = {
              id: nextId++,
              full_name: name || phone || email,
              phone: phone ? [phone] : [],
              email: email ? [email] : [],
              created_at: utc(new Date()),
            };
            buyers.push(buyer);
          }
        }
        if (Object.keys(errors).length) return fail(reply, 422, invalid(errors));
        const text = (k: string) => (typeof b[k] === 'string' && (b[k] as string).trim() ? (b[k] as string) : null);
        const now = utc(new Date());
        const card: EmulatedCard = {
          id: nextId++,
          title: text('title') ?? '',
          pipeline_id: pipeline!.id,
          // The docs take no status on creation: a new card is in the pipeline's first status.
          status_id: pipeline!.statuses[0]!.id,
          source_id: typeof b.source_id === 'number' ? b.source_id : null,
          manager_id: typeof b.manager_id === 'number' ? b.manager_id : null,
          contact_id: nextId++,
          client_id: buyer!.id,
          manager_comment: text('manager_comment'),
          utm_source: text('utm_source'),
          utm_medium: text('utm_medium'),
          utm_campaign: text('utm_campaign'),
          utm_term: text('utm_term'),
          utm_content: text('utm_content'),
          created_at: now,
          updated_at: now,
          status_changed_at: now,
        };
        if (!card.title) card.title = `#${card.id}`;
        cards.push(card);
        return reply.code(201).send(card);
      });

      api.put('/pipelines/cards/:id', async (req, reply) => {
        const c = cards.find((x) => x.id === Number((req.params as { id: string }).id));
        if (!c) return fail(reply, 404, { message: 'Not found' });
        const b = (req.body ?? {}) as Record<string, unknown>;
        const before = c.status_id;
        if (b.status_id !== undefined && !setStatus(c, b.status_id)) {
          return fail(reply, 422, invalid({ status_id: ['The selected status id is invalid.'] }));
        }
        c.updated_at = utc(new Date());
        // A move through the API fires the trigger too (as we assume KeyCRM does), after the answer.
        if (c.status_id !== before) setTimeout(() => void notify(c), 0);
        return c;
      });
    },
    { prefix: '/v1' },
  );

  const { port, url } = await listenEmulator(app, options);
  emulator.port = port;
  emulator.url = `${url}/v1`;
  return emulator;
}

/** A test that scales KeyCRM's window down paces the connection to match (its cache under PACE_KEY). */
export { PACE_KEY, type Pace } from './pace';
