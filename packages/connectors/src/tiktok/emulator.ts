// A stateful fake of TikTok's API for Business (Marketing API v1.3) for TikTok lead forms, for our
// tests, the end-to-end suite and the demo: the advertiser's consent page (portal/auth), the token
// exchange, user/info, the authorised ad accounts, Instant Forms and their fields, LEAD subscriptions,
// test leads, and the signed LEAD webhook, delivered with TikTok's habits (19-digit ids as JSON
// numbers, X-Open-Signature over the \u-escaped payload, retries, at-least-once duplicates). Every
// answer is TikTok's envelope {code, message, request_id, data} with HTTP 200. Faults: a revoked token
// (40105), throttling (40100), a 5xx, latency. Driven in process or over HTTP under /__emulator.
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { createEmulatorKit, listenEmulator, registerControlRoutes } from '../kit/emulator-kit';
import {
  type EmulatedLead,
  type EmulatedSubscription,
  newId,
  newToken,
  seedState,
  type TiktokState,
} from './emulator-state';
import { SIGNATURE_HEADER, signBody } from './webhook';

export type { EmulatedForm, EmulatedLead } from './emulator-state';
export { TIKTOK_SEED } from './emulator-state';
/** How TikTok signs a webhook (for tests that post one themselves). */
export { signBody } from './webhook';

export const DEFAULT_APP_ID = '7300000000000000001';
export const DEFAULT_APP_SECRET = 'emulator-tiktok-app-secret-0123456789';
/** TikTok retries for 24 hours; the emulator compresses that into a few seconds. */
export const DEFAULT_RETRY_SCHEDULE_MS = [100, 500, 2_000];
const API = '/open_api/v1.3';

export interface TiktokEmulatorOptions {
  appId?: string;
  appSecret?: string;
  port?: number;
  host?: string;
  retrySchedule?: number[];
  webhookTimeoutMs?: number;
  /** How the emulator reaches callbacks; default the global fetch. */
  fetch?: typeof fetch;
}

export interface TiktokEmulatedRequest {
  method: string;
  /** Path without the query (secrets and tokens stay out of the log). */
  path: string;
  status: number;
  code: number;
  at: string;
}

export interface TiktokWebhookDelivery {
  leadIds: string[];
  callbackUrl: string;
  attempt: number;
  /** HTTP status of the callback's answer; 0 = no answer. */
  status: number;
  rawBody: string;
  signature: string;
}

export interface SubmitLeadInput {
  /** The Instant Form (page_id). */
  formId: string;
  /** Answers by field name; default: samples for the form's fields. */
  answers?: Record<string, string>;
  /** Send the notification this many times (TikTok's at-least-once delivery); default 1. */
  copies?: number;
}

export interface TiktokFault {
  /** 40105 revoked token, 40100 throttled, or an HTTP status (500) answered with code 50000. */
  code?: number;
  status?: number;
  times?: number;
}

const SAMPLES = new Map<string, string>(
  Object.entries({
    name: 'Олена Коваленко',
    phone_number: '+380671234567',
    email: 'olena.kovalenko@ukr.net',
    preferred_clinic: 'Київ, Поділ',
  }),
);

export async function startTiktokEmulator(options: TiktokEmulatorOptions = {}) {
  const appId = options.appId ?? DEFAULT_APP_ID;
  const appSecret = options.appSecret ?? DEFAULT_APP_SECRET;
  const callbackFetch = options.fetch ?? fetch;
  const webhookTimeoutMs = options.webhookTimeoutMs ?? 5_000;
  let retrySchedule = [...(options.retrySchedule ?? DEFAULT_RETRY_SCHEDULE_MS)];
  const kit = createEmulatorKit<TiktokFault, TiktokEmulatedRequest>({ maxLog: 5_000 });
  const deliveries: TiktokWebhookDelivery[] = [];
  const inflight = new Set<Promise<void>>();
  const closing = new AbortController();
  let state: TiktokState = seedState();
  const app = Fastify({ logger: false, forceCloseConnections: true, bodyLimit: 1024 * 1024 });
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body));

  const bodyOf = (req: FastifyRequest): Record<string, unknown> => {
    if (typeof req.body !== 'string' || !req.body) return {};
    try {
      const v = JSON.parse(req.body) as unknown;
      return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  };
  const queryOf = (req: FastifyRequest) => (req.query ?? {}) as Record<string, string | undefined>;
  const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

  function answer(req: FastifyRequest, reply: FastifyReply, code: number, data: unknown, message = 'OK') {
    const status = code >= 50000 ? 500 : 200;
    kit.log({ method: req.method, path: req.url.split('?')[0] ?? '', status, code, at: new Date().toISOString() });
    return reply
      .code(status)
      .send({ code, message, request_id: randomUUID().replace(/-/g, ''), ...(code === 0 ? { data } : { data: {} }) });
  }

  const isApp = (id: unknown, secret: unknown) => str(id) === appId && str(secret) === appSecret;
  const tokenOf = (req: FastifyRequest) => {
    const header = req.headers['access-token'];
    return typeof header === 'string' ? header : '';
  };
  /** 0 when the token is live; TikTok's code otherwise. */
  const tokenCode = (token: string) => {
    if (!token) return 40104;
    const t = state.tokens.get(token);
    return !t || t.revoked ? 40105 : 0;
  };
  const advertiser = (id: string) => state.advertisers.find((a) => a.id === id);

  // Every API call: latency, then the fault switch (a revoked token, throttling, a 5xx).
  app.addHook('preHandler', async (req, reply) => {
    if (!req.url.startsWith(API)) return;
    await kit.delay();
    const fault = kit.takeFault();
    if (!fault) return;
    const code = fault.code ?? (fault.status && fault.status >= 500 ? 50000 : 40100);
    if (fault.status && fault.status >= 500) {
      kit.log({
        method: req.method,
        path: req.url.split('?')[0] ?? '',
        status: fault.status,
        code,
        at: new Date().toISOString(),
      });
      return reply
        .code(fault.status)
        .send({ code, message: 'Internal service error', request_id: randomUUID(), data: {} });
    }
    return answer(
      req,
      reply,
      code,
      {},
      code === 40105 ? 'Access token is invalid or has been revoked.' : 'Too many requests.',
    );
  });

  // The advertiser's consent (TikTok's portal/auth): granted at once, back to redirect_uri with the code.
  app.get('/portal/auth', async (req, reply) => {
    const q = queryOf(req);
    if (q.app_id !== appId || !q.redirect_uri)
      return reply.code(400).type('text/plain').send('Invalid app_id or redirect_uri');
    const code = newToken();
    state.codes.set(code, false);
    const back = new URL(q.redirect_uri);
    back.searchParams.set('auth_code', code);
    back.searchParams.set('code', code);
    if (q.state) back.searchParams.set('state', q.state);
    return reply.redirect(back.toString(), 302);
  });

  app.post(`${API}/oauth2/access_token/`, async (req, reply) => {
    const b = bodyOf(req);
    if (!isApp(b.app_id, b.secret)) return answer(req, reply, 40101, {}, 'Invalid app_id or secret.');
    const code = str(b.auth_code);
    if (!state.codes.has(code) || state.codes.get(code)) return answer(req, reply, 40110, {}, 'Invalid auth_code.');
    state.codes.set(code, true);
    const token = newToken();
    state.tokens.set(token, { revoked: false });
    return answer(req, reply, 0, {
      access_token: token,
      advertiser_ids: state.advertisers.map((a) => a.id),
      scope: [1, 4, 19],
    });
  });

  app.get(`${API}/user/info/`, async (req, reply) => {
    const code = tokenCode(tokenOf(req));
    if (code) return answer(req, reply, code, {}, 'Access token is invalid or has been revoked.');
    const u = state.user;
    return answer(req, reply, 0, { core_user_id: u.id, display_name: u.name, email: u.email, create_time: 1700000000 });
  });

  app.get(`${API}/oauth2/advertiser/get/`, async (req, reply) => {
    const q = queryOf(req);
    if (!isApp(q.app_id, q.secret)) return answer(req, reply, 40101, {}, 'Invalid app_id or secret.');
    const code = tokenCode(tokenOf(req));
    if (code) return answer(req, reply, code, {}, 'Access token is invalid or has been revoked.');
    return answer(req, reply, 0, {
      list: state.advertisers.map((a) => ({ advertiser_id: a.id, advertiser_name: a.name })),
    });
  });

  app.get(`${API}/page/get/`, async (req, reply) => {
    const q = queryOf(req);
    const code = tokenCode(tokenOf(req));
    if (code) return answer(req, reply, code, {}, 'Access token is invalid or has been revoked.');
    if (!q.advertiser_id || !advertiser(q.advertiser_id))
      return answer(req, reply, 40001, {}, 'No permission to operate advertiser.');
    const size = Math.min(100, Math.max(1, Number(q.page_size ?? 10) || 10));
    const page = Math.max(1, Number(q.page ?? 1) || 1);
    const all = state.forms.filter((f) => f.advertiserId === q.advertiser_id);
    const list = all.slice((page - 1) * size, page * size).map((f) => ({
      page_id: f.id,
      title: f.title,
      status: f.status,
      create_time: '2026-01-10 09:00:00',
      update_time: '2026-01-10 09:00:00',
    }));
    return answer(req, reply, 0, {
      list,
      page_info: {
        page,
        page_size: size,
        total_number: all.length,
        total_page: Math.max(1, Math.ceil(all.length / size)),
      },
    });
  });

  app.get(`${API}/page/field/get/`, async (req, reply) => {
    const q = queryOf(req);
    const code = tokenCode(tokenOf(req));
    if (code) return answer(req, reply, code, {}, 'Access token is invalid or has been revoked.');
    const form = state.forms.find((f) => f.id === q.page_id && f.advertiserId === q.advertiser_id);
    if (!form) return answer(req, reply, 40002, {}, 'page_id not found.');
    return answer(req, reply, 0, { fields: form.fields, meta: { page_id: form.id, page_name: form.title } });
  });

  const subscriptionView = (s: EmulatedSubscription) => ({
    app_id: appId,
    subscription_id: s.id,
    subscribe_entity: 'LEAD',
    callback_url: s.callbackUrl,
    subscription_detail: { advertiser_id: s.advertiserId, lead_source: 'INSTANT_FORM' },
  });

  app.get(`${API}/subscription/get/`, async (req, reply) => {
    const q = queryOf(req);
    if (!isApp(q.app_id, q.secret)) return answer(req, reply, 40101, {}, 'Invalid app_id or secret.');
    const all = [...state.subscriptions.values()].map(subscriptionView);
    return answer(req, reply, 0, {
      subscriptions: all,
      page_info: { page: 1, page_size: all.length, total_number: all.length, total_page: 1 },
    });
  });

  app.post(`${API}/subscription/subscribe/`, async (req, reply) => {
    const b = bodyOf(req);
    if (!isApp(b.app_id, b.secret)) return answer(req, reply, 40101, {}, 'Invalid app_id or secret.');
    const detail = (b.subscription_detail ?? {}) as Record<string, unknown>;
    const token = str(detail.access_token);
    const code = tokenCode(token);
    if (code) return answer(req, reply, code, {}, 'Access token is invalid or has been revoked.');
    const advertiserId = str(detail.advertiser_id);
    const callbackUrl = str(b.callback_url);
    if (b.subscribe_entity !== 'LEAD' || !advertiser(advertiserId) || !URL.canParse(callbackUrl)) {
      return answer(req, reply, 40002, {}, 'Invalid subscription parameters.');
    }
    const id = newId();
    state.subscriptions.set(id, { id, callbackUrl, advertiserId, token });
    return answer(req, reply, 0, { subscription_id: id });
  });

  app.post(`${API}/subscription/unsubscribe/`, async (req, reply) => {
    const b = bodyOf(req);
    if (!isApp(b.app_id, b.secret)) return answer(req, reply, 40101, {}, 'Invalid app_id or secret.');
    if (!state.subscriptions.delete(str(b.subscription_id)))
      return answer(req, reply, 40002, {}, 'Subscription not found.');
    return answer(req, reply, 0, { subscription_id: str(b.subscription_id) });
  });

  app.post(`${API}/page/lead/mock/create/`, async (req, reply) => {
    const b = bodyOf(req);
    const code = tokenCode(tokenOf(req));
    if (code) return answer(req, reply, code, {}, 'Access token is invalid or has been revoked.');
    const form = state.forms.find((f) => f.id === str(b.page_id) && f.advertiserId === str(b.advertiser_id));
    if (!form) return answer(req, reply, 40002, {}, 'page_id not found.');
    if ([...state.leads.values()].some((l) => l.isTest && l.pageId === form.id)) {
      return answer(req, reply, 40002, {}, 'A test lead already exists for this form. Delete it first.');
    }
    const lead = addLead({ formId: form.id }, true);
    return answer(req, reply, 0, {
      lead_data: Object.fromEntries(lead.changes.map((c) => [c.field, c.value])),
      meta_data: { lead_id: lead.id, page_id: form.id, create_time: '2026-01-10 09:00:00' },
    });
  });

  app.post(`${API}/page/lead/mock/delete/`, async (req, reply) => {
    const b = bodyOf(req);
    const code = tokenCode(tokenOf(req));
    if (code) return answer(req, reply, code, {}, 'Access token is invalid or has been revoked.');
    const lead = state.leads.get(str(b.lead_id));
    if (!lead?.isTest) return answer(req, reply, 40002, {}, 'Test lead not found.');
    state.leads.delete(lead.id);
    return answer(req, reply, 0, {});
  });

  // ---- The LEAD webhook ----

  const track = (work: Promise<void>) => {
    inflight.add(work);
    void work.finally(() => inflight.delete(work));
  };

  /** TikTok's body: ids as bare JSON numbers (19 digits), names as sent (UTF-8). */
  function webhookBody(leads: EmulatedLead[]): string {
    const entry = leads.map((l) => {
      const adv = advertiser(l.advertiserId);
      const form = state.forms.find((f) => f.id === l.pageId);
      return {
        id: l.id,
        page_id: l.pageId,
        page_name: form?.title ?? '',
        campaign_id: '1780000000000000001',
        campaign_name: 'Spring promo',
        adgroup_id: '1780000000000000002',
        adgroup_name: 'Kyiv 25-45',
        ad_id: '1780000000000000003',
        ad_name: 'Spring promo video',
        create_time: l.createTime,
        changes: l.changes,
        advertiser_id: l.advertiserId,
        advertiser_name: adv?.name ?? '',
        library_id: 0,
        lead_source: 'INSTANT_FORM',
      };
    });
    const text = JSON.stringify({ object: 1, entry, time: Math.floor(Date.now() / 1000) });
    return text.replace(/"(id|page_id|campaign_id|adgroup_id|ad_id|advertiser_id)":"(\d+)"/g, '"$1":$2');
  }

  async function deliver(sub: EmulatedSubscription, leads: EmulatedLead[]): Promise<void> {
    const rawBody = webhookBody(leads);
    const signature = signBody(rawBody, appSecret);
    const schedule = [0, ...retrySchedule];
    for (let attempt = 1; attempt <= schedule.length; attempt++) {
      if (closing.signal.aborted) return;
      if (attempt > 1) await kit.sleep(schedule[attempt - 1] ?? 0);
      // TikTok stops delivering once the subscription's token is revoked.
      if (!state.subscriptions.has(sub.id) || tokenCode(sub.token)) return;
      let status = 0;
      try {
        const res = await callbackFetch(sub.callbackUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signature },
          body: rawBody,
          signal: AbortSignal.any([closing.signal, AbortSignal.timeout(webhookTimeoutMs)]),
        });
        status = res.status;
        await res.text().catch(() => undefined);
      } catch {
        status = 0;
      }
      deliveries.push({
        leadIds: leads.map((l) => l.id),
        callbackUrl: sub.callbackUrl,
        attempt,
        status,
        rawBody,
        signature,
      });
      if (status >= 200 && status < 300) return;
    }
  }

  function addLead(input: SubmitLeadInput, isTest = false): EmulatedLead {
    const form = state.forms.find((f) => f.id === input.formId);
    if (!form) throw new Error(`no form ${input.formId}`);
    const answers = input.answers ?? Object.fromEntries(form.fields.map((f) => [f, SAMPLES.get(f) ?? 'Так']));
    const lead: EmulatedLead = {
      id: newId(),
      advertiserId: form.advertiserId,
      pageId: form.id,
      createTime: Math.floor(Date.now() / 1000),
      changes: Object.entries(answers).map(([field, value]) => ({ field, value: String(value) })),
      isTest,
    };
    state.leads.set(lead.id, lead);
    const copies = Math.max(1, Math.min(5, input.copies ?? 1));
    for (const sub of state.subscriptions.values()) {
      if (sub.advertiserId !== lead.advertiserId) continue;
      for (let i = 0; i < copies; i++) track(deliver(sub, [lead]));
    }
    return lead;
  }

  // ---- Control ----

  registerControlRoutes(app, kit, {
    body: (req) => bodyOf(req),
    reset: () => {
      kit.resetSwitches();
      state = seedState();
      deliveries.length = 0;
    },
  });
  app.post('/__emulator/submit-lead', async (req, reply) => {
    const b = bodyOf(req);
    const formId = str(b.formId);
    if (!state.forms.some((f) => f.id === formId)) return reply.code(404).send({ error: 'unknown form' });
    const answers =
      b.answers && typeof b.answers === 'object' && !Array.isArray(b.answers)
        ? Object.fromEntries(Object.entries(b.answers as Record<string, unknown>).map(([k, v]) => [k, str(v)]))
        : undefined;
    const lead = addLead({ formId, answers, copies: Number(b.copies) || 1 });
    return { leadId: lead.id };
  });
  app.post('/__emulator/revoke', async () => {
    emulator.revokeTokens();
    return { ok: true };
  });

  const listening = await listenEmulator(app, { port: options.port, host: options.host });

  const emulator = {
    url: listening.url,
    port: listening.port,
    apiUrl: `${listening.url}${API}`,
    authUrl: `${listening.url}/portal/auth`,
    appId,
    appSecret,
    get requests() {
      return kit.requests;
    },
    deliveries,
    get state() {
      return state;
    },
    subscriptions: () => [...state.subscriptions.values()],
    /** Stores a lead on the form and POSTs it to every subscription of its ad account; the lead. */
    submitLead: (input: SubmitLeadInput) => addLead(input),
    /** Every token TikTok issued stops working (the advertiser cancelled the authorisation). */
    revokeTokens(): void {
      for (const t of state.tokens.values()) t.revoked = true;
    },
    setFault: (fault: TiktokFault | null) => kit.setFault(fault),
    setLatency: (ms: number) => kit.setLatency(ms),
    setRetrySchedule(ms: number[]): void {
      retrySchedule = [...ms];
    },
    /** Resolves when no webhook try is running or waiting. */
    async idle(): Promise<void> {
      while (inflight.size) await Promise.allSettled([...inflight]);
    },
    reset(): void {
      kit.resetSwitches();
      state = seedState();
      deliveries.length = 0;
    },
    async close(): Promise<void> {
      closing.abort();
      kit.clearTimers();
      await app.close();
    },
  };
  return emulator;
}

export type TiktokEmulator = Awaited<ReturnType<typeof startTiktokEmulator>>;
