// A stateful fake of the Graph API (the versions Meta still serves, versions.ts) for Meta lead forms (external-apis 1.8), for our tests, the
// end-to-end suite and the demo: Facebook Login, tokens, pages, forms, leads, subscriptions and the
// signed leadgen webhook, delivered with Meta's at-least-once habits (retries on a compressed
// schedule, a duplicates switch, batched entries, a drop switch for backfill tests). Faults: expired
// tokens (190/463), a revoked permission (200), throttling (4/17/32/80005 with usage headers), 5xx,
// latency. The Conversions API's datasets and events (emulator-capi.ts). Driven in process or over
// HTTP under /__emulator.
import { randomInt, randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { createEmulatorKit, listenEmulator, parseJson } from '../kit/emulator-kit';
import { registerCapiControl } from './emulator-capi';
import { GRAPH_VERSION, type GraphRuntime, handleGraph, leadNode, sampleFieldData, tokenOf } from './emulator-graph';
import { issueUserToken, type UserTokenOptions } from './emulator-signin';
import {
  type EmulatedAppSubscription,
  type EmulatedDataset,
  type EmulatedForm,
  type EmulatedLead,
  type EmulatedPage,
  type EmulatedUser,
  type GraphState,
  newToken,
  type ReceivedCapiEvent,
  seedState,
} from './emulator-state';
import { metaJson, SIGNATURE_256_HEADER, SIGNATURE_SHA1_HEADER, signBody, signBodySha1 } from './webhook';

export type { UserTokenOptions } from './emulator-signin';
export type {
  EmulatedDataset,
  EmulatedForm,
  EmulatedLead,
  EmulatedPage,
  EmulatedUser,
  ReceivedCapiEvent,
} from './emulator-state';
export { CAPI_SEED_DATASETS, GRAPH_SEED } from './emulator-state';

export const DEFAULT_APP_ID = '100000000000001';
export const DEFAULT_APP_SECRET = 'emulator-app-secret-0123456789abcdef';
/** Meta retries for 36 hours; the emulator compresses that into a few seconds. */
export const DEFAULT_RETRY_SCHEDULE_MS = [100, 300, 1_000, 3_000];
const LEAD_SCOPES = [
  'leads_retrieval',
  'pages_manage_metadata',
  'pages_manage_ads',
  'pages_show_list',
  'ads_management',
];

export interface GraphEmulatorOptions {
  appId?: string;
  appSecret?: string;
  port?: number;
  host?: string;
  /** Waits between webhook tries (the first try is immediate); default 100 ms, 300 ms, 1 s, 3 s. */
  retrySchedule?: number[];
  /** How long a webhook try may take; default 5 s. */
  webhookTimeoutMs?: number;
  /** Request log cap; default 5 000. */
  maxLog?: number;
  /**
   * How the emulator reaches the callback (verification GET and webhook POSTs); default the global
   * fetch. Server tests can pass one that goes through app.inject.
   */
  fetch?: typeof fetch;
}

export interface GraphEmulatedRequest {
  method: string;
  /** Path and query, with tokens, secrets and codes replaced by "***". */
  path: string;
  tokenKind?: 'user' | 'page' | 'app' | 'unknown';
  status: number;
  at: string;
}

export type DeliveryOutcome = 'ok' | 'failed' | 'dropped' | 'not_subscribed';

/** One webhook try (or a notification that was never sent: dropped, not subscribed). */
export interface WebhookDelivery {
  /** The notification (one POST body); its retries and duplicates share the body. */
  notificationId: string;
  /** 1..n when setDuplicates(n) sends the notification n times. */
  copy: number;
  /** 1 = first try; 0 = never sent. */
  attempt: number;
  leadgenIds: string[];
  /** HTTP status of the callback's answer; 0 = no answer (network error, timeout) or never sent. */
  status: number;
  outcome: DeliveryOutcome;
  error?: string;
  rawBody: string;
  signature256: string;
  signatureSha1: string;
  at: string;
}

export interface SubmitLeadInput {
  formId: string;
  fieldData?: { name: string; values: string[] }[];
  /** No ad, adset or campaign (the lead came from the page itself). */
  organic?: boolean;
  /** Unix seconds; default now. */
  createdTime?: number;
}

export type ThrottleCode = 4 | 17 | 32 | 80005;

export interface GraphEmulator {
  url: string;
  /** `${url}/${GRAPH_API_VERSION}` */
  graphUrl: string;
  /** `${url}/${GRAPH_API_VERSION}/dialog/oauth` */
  dialogUrl: string;
  port: number;
  appId: string;
  appSecret: string;
  user: EmulatedUser;
  pages: EmulatedPage[];
  forms: EmulatedForm[];
  adAccounts: { id: string; name: string }[];
  /** Conversions API datasets (pixels); CAPI_SEED_DATASETS at start. */
  datasets: EmulatedDataset[];
  /** Every Conversions API event received (duplicates flagged), of one dataset or all. */
  capiEvents(datasetId?: string): ReceivedCapiEvent[];
  /** The dataset is deleted: sending to it answers Meta's "object does not exist" (100/33). */
  removeDataset(datasetId: string): void;
  requests: GraphEmulatedRequest[];
  deliveries: WebhookDelivery[];
  /** The current token of a page (what /me/accounts gives). */
  pageToken(pageId: string): string;
  /** A user token as the JS SDK's FB.login gives it (sign-in with Facebook); of another app with `appId`. */
  userToken(opts?: UserTokenOptions): string;
  lead(leadgenId: string): EmulatedLead | undefined;
  appSubscription(): EmulatedAppSubscription | null;
  isPageSubscribed(pageId: string): boolean;
  /** Stores a lead and sends its webhook when the app and the page are subscribed; returns its id. */
  submitLead(input: SubmitLeadInput): string;
  setWebhookDelivery(mode: 'on' | 'drop'): void;
  /** Send every notification n times (Meta's at-least-once delivery). */
  setDuplicates(n: number): void;
  /** Put n leads in one POST (entries grouped by page); 1 = one POST per lead. */
  batch(n: number): void;
  /** Sends the leads a batch is still collecting. */
  flush(): void;
  setRetrySchedule(ms: number[]): void;
  /** Resolves when no webhook try is running or waiting. */
  idle(): Promise<void>;
  expireUserTokens(): void;
  expirePageTokens(): void;
  /** Takes back permissions (default: every lead-flow scope); calls needing them answer code 200. */
  revokePermission(scopes?: string[]): void;
  /** Gives taken-back permissions back (default: every lead-flow scope). */
  grantPermission(scopes?: string[]): void;
  setThrottle(code: ThrottleCode | null): void;
  setFault(fault: { status: number; times?: number } | null): void;
  setLatency(ms: number): void;
  /** The login dialog redirects with error=access_denied. */
  denyLogin(isDenied: boolean): void;
  reset(): void;
  close(): Promise<void>;
}

const SECRET_PARAMS = /([?&](?:access_token|client_secret|code|fb_exchange_token|appsecret_proof|input_token)=)[^&]*/g;

export async function startGraphEmulator(options: GraphEmulatorOptions = {}): Promise<GraphEmulator> {
  const appId = options.appId ?? DEFAULT_APP_ID;
  const appSecret = options.appSecret ?? DEFAULT_APP_SECRET;
  const webhookTimeoutMs = options.webhookTimeoutMs ?? 5_000;
  const callbackFetch = options.fetch ?? fetch;
  const app = Fastify({ logger: false, forceCloseConnections: true, bodyLimit: 1024 * 1024 });
  // The kit's fault switch is unused here: Graph faults live in the runtime beside the throttle.
  const kit = createEmulatorKit<never, GraphEmulatedRequest>({ maxLog: options.maxLog ?? 5_000 });
  const deliveries: WebhookDelivery[] = [];
  const inflight = new Set<Promise<void>>();
  const closing = new AbortController();
  let retrySchedule = [...(options.retrySchedule ?? DEFAULT_RETRY_SCHEDULE_MS)];
  let mode: 'on' | 'drop' = 'on';
  let duplicates = 1;
  let batchSize = 1;
  let pending: EmulatedLead[] = [];
  let origin = '';

  const registerPageTokens = (state: GraphState) => {
    for (const p of state.pages) state.tokens.set(p.token, { kind: 'page', pageId: p.id });
  };

  const rt: GraphRuntime = {
    appId,
    appSecret,
    origin: () => origin,
    state: seedState(),
    throttle: null,
    fault: null,
    isLoginDenied: false,
    callCount: 0,
    addLead: (lead) => store(lead),
    verifyCallback,
  };
  registerPageTokens(rt.state);

  const track = (work: Promise<void>) => {
    inflight.add(work);
    void work.finally(() => inflight.delete(work));
  };

  async function verifyCallback(callbackUrl: string, verifyToken: string): Promise<boolean> {
    const challenge = String(randomInt(1_000_000_000, 2_000_000_000));
    try {
      const url = new URL(callbackUrl);
      url.searchParams.set('hub.mode', 'subscribe');
      url.searchParams.set('hub.challenge', challenge);
      url.searchParams.set('hub.verify_token', verifyToken);
      const res = await callbackFetch(url, {
        signal: AbortSignal.any([closing.signal, AbortSignal.timeout(webhookTimeoutMs)]),
      });
      return res.status === 200 && (await res.text()) === challenge;
    } catch {
      return false;
    }
  }

  const isPageSubscribed = (pageId: string) => rt.state.pageSubscriptions.get(pageId)?.has('leadgen') === true;
  const appSubscribed = () => rt.state.appSubscription?.fields.includes('leadgen') === true;

  function store(lead: EmulatedLead): void {
    rt.state.leads.set(lead.id, lead);
    pending.push(lead);
    if (pending.length >= batchSize) emulator.flush();
  }

  function send(leads: EmulatedLead[]): void {
    const byPage = new Map<string, EmulatedLead[]>();
    for (const l of leads) byPage.set(l.pageId, [...(byPage.get(l.pageId) ?? []), l]);
    const now = Math.floor(Date.now() / 1000);
    const body = {
      object: 'page',
      entry: [...byPage].map(([pageId, list]) => ({
        id: pageId,
        time: now,
        changes: list.map((l) => ({
          field: 'leadgen',
          value: {
            leadgen_id: l.id,
            page_id: l.pageId,
            form_id: l.formId,
            ...(l.adId ? { ad_id: l.adId, adgroup_id: l.adId } : {}),
            created_time: l.createdTime,
          },
        })),
      })),
    };
    const rawBody = metaJson(body);
    const base = {
      notificationId: randomUUID(),
      leadgenIds: leads.map((l) => l.id),
      rawBody,
      signature256: signBody(rawBody, appSecret),
      signatureSha1: signBodySha1(rawBody, appSecret),
    };
    const neverSent = (outcome: DeliveryOutcome) =>
      deliveries.push({ ...base, copy: 1, attempt: 0, status: 0, outcome, at: new Date().toISOString() });
    if (mode === 'drop') return void neverSent('dropped');
    if (!appSubscribed() || leads.some((l) => !isPageSubscribed(l.pageId))) return void neverSent('not_subscribed');
    for (let copy = 1; copy <= duplicates; copy++) track(deliver(base, copy));
  }

  async function deliver(
    base: Omit<WebhookDelivery, 'copy' | 'attempt' | 'status' | 'outcome' | 'at' | 'error'>,
    copy: number,
  ): Promise<void> {
    const schedule = [...retrySchedule];
    for (let attempt = 1; attempt <= schedule.length + 1; attempt++) {
      const callback = rt.state.appSubscription?.callbackUrl;
      if (!callback || closing.signal.aborted) return;
      const entry: WebhookDelivery = {
        ...base,
        copy,
        attempt,
        status: 0,
        outcome: 'failed',
        at: new Date().toISOString(),
      };
      deliveries.push(entry);
      try {
        const res = await callbackFetch(callback, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'user-agent': 'facebookexternalua',
            [SIGNATURE_256_HEADER]: base.signature256,
            [SIGNATURE_SHA1_HEADER]: base.signatureSha1,
          },
          body: base.rawBody,
          signal: AbortSignal.any([closing.signal, AbortSignal.timeout(webhookTimeoutMs)]),
        });
        await res.arrayBuffer().catch(() => undefined);
        entry.status = res.status;
        if (res.ok) {
          entry.outcome = 'ok';
          return;
        }
      } catch (err) {
        entry.error = (err as Error).name === 'TimeoutError' ? 'timeout' : (err as Error).message;
      }
      const wait = schedule[attempt - 1];
      if (wait === undefined) return;
      await kit.sleep(wait);
    }
  }

  function seedLead(input: SubmitLeadInput): EmulatedLead {
    const form = rt.state.forms.find((f) => f.id === input.formId);
    if (!form) throw new Error(`Unknown form ${input.formId}`);
    const n = rt.state.nextId++;
    const id = `${8_000_000_000_000 + n}`;
    const campaign = n % 2 === 0 ? 'Spring promo' : 'Brand awareness';
    return {
      id,
      formId: form.id,
      pageId: form.pageId,
      createdTime: input.createdTime ?? Math.floor(Date.now() / 1000),
      fieldData: input.fieldData ?? sampleFieldData(form, n),
      isOrganic: input.organic === true,
      isTest: false,
      platform: n % 3 === 0 ? 'ig' : 'fb',
      ...(input.organic
        ? {}
        : {
            adId: '50000000000001',
            adName: 'Lead ad A',
            adsetId: '60000000000001',
            adsetName: 'Kyiv 25-45',
            campaignId: '70000000000001',
            campaignName: campaign,
          }),
    };
  }

  const emulator: GraphEmulator = {
    url: '',
    graphUrl: '',
    dialogUrl: '',
    port: 0,
    appId,
    appSecret,
    get user() {
      return rt.state.user;
    },
    get pages() {
      return rt.state.pages;
    },
    get forms() {
      return rt.state.forms;
    },
    get adAccounts() {
      return rt.state.adAccounts;
    },
    get datasets() {
      return rt.state.datasets;
    },
    capiEvents: (datasetId) => rt.state.capiEvents.filter((e) => datasetId === undefined || e.datasetId === datasetId),
    removeDataset(datasetId) {
      rt.state.datasets = rt.state.datasets.filter((d) => d.id !== datasetId);
    },
    requests: kit.requests,
    deliveries,
    pageToken(pageId) {
      const page = rt.state.pages.find((p) => p.id === pageId);
      if (!page) throw new Error(`Unknown page ${pageId}`);
      return page.token;
    },
    userToken: (opts) => issueUserToken(rt, opts),
    lead: (id) => rt.state.leads.get(id),
    appSubscription: () => rt.state.appSubscription,
    isPageSubscribed,
    submitLead(input) {
      const lead = seedLead(input);
      store(lead);
      return lead.id;
    },
    setWebhookDelivery(next) {
      mode = next;
    },
    setDuplicates(n) {
      duplicates = Math.max(1, Math.floor(n));
    },
    batch(n) {
      batchSize = Math.max(1, Math.floor(n));
      if (pending.length >= batchSize) emulator.flush();
    },
    flush() {
      const leads = pending;
      pending = [];
      if (leads.length) send(leads);
    },
    setRetrySchedule(ms) {
      retrySchedule = ms.map((m) => Math.max(0, m));
    },
    async idle() {
      while (inflight.size) await Promise.allSettled([...inflight]);
    },
    expireUserTokens() {
      for (const t of rt.state.tokens.values()) if (t.kind === 'user') t.expired = true;
    },
    expirePageTokens() {
      for (const t of rt.state.tokens.values()) if (t.kind === 'page') t.expired = true;
      for (const p of rt.state.pages) p.token = newToken('EAAP');
      registerPageTokens(rt.state);
    },
    revokePermission(scopes = LEAD_SCOPES) {
      for (const s of scopes) rt.state.revokedScopes.add(s);
    },
    grantPermission(scopes = LEAD_SCOPES) {
      for (const s of scopes) rt.state.revokedScopes.delete(s);
    },
    setThrottle(code) {
      rt.throttle = code;
    },
    setFault(fault) {
      rt.fault = fault ? { ...fault } : null;
    },
    setLatency: kit.setLatency,
    denyLogin(isDenied) {
      rt.isLoginDenied = isDenied;
    },
    reset() {
      kit.clearTimers();
      kit.resetSwitches();
      rt.state = seedState();
      registerPageTokens(rt.state);
      rt.throttle = null;
      rt.fault = null;
      rt.isLoginDenied = false;
      rt.callCount = 0;
      deliveries.length = 0;
      pending = [];
      mode = 'on';
      duplicates = 1;
      batchSize = 1;
      retrySchedule = [...(options.retrySchedule ?? DEFAULT_RETRY_SCHEDULE_MS)];
    },
    async close() {
      closing.abort();
      kit.clearTimers();
      await app.close();
    },
  };

  // Keep raw bodies: form-encoded and JSON parameters are parsed by the Graph handler itself.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));

  const logged = new WeakMap<object, GraphEmulatedRequest>();
  app.addHook('onRequest', async (req) => {
    if (req.url.startsWith('/__emulator')) return;
    const token = tokenOf(req, (req.query ?? {}) as Record<string, string>);
    const kind = token ? (rt.state.tokens.get(token)?.kind ?? 'unknown') : undefined;
    const entry = kit.log({
      method: req.method,
      path: req.url.replace(SECRET_PARAMS, '$1***'),
      ...(kind ? { tokenKind: kind } : {}),
      status: 0,
      at: new Date().toISOString(),
    });
    logged.set(req, entry);
  });
  app.addHook('onResponse', async (req, reply) => {
    const entry = logged.get(req);
    if (entry) entry.status = reply.statusCode;
  });

  app.get('/__emulator/state', async () => ({
    appId,
    graphUrl: emulator.graphUrl,
    user: rt.state.user,
    pages: rt.state.pages.map((p) => ({ ...p, isSubscribed: isPageSubscribed(p.id) })),
    forms: rt.state.forms,
    adAccounts: rt.state.adAccounts,
    datasets: rt.state.datasets,
    leads: [...rt.state.leads.values()].map(leadNode),
    appSubscription: rt.state.appSubscription,
    switches: {
      webhookDelivery: mode,
      duplicates,
      batch: batchSize,
      retrySchedule,
      throttle: rt.throttle,
      fault: rt.fault,
      latencyMs: kit.latencyMs,
      isLoginDenied: rt.isLoginDenied,
      revokedScopes: [...rt.state.revokedScopes],
    },
    deliveries,
    requests: kit.requests,
  }));
  app.post('/__emulator/submit-lead', async (req, reply) => {
    const input = parseJson(req.body) as SubmitLeadInput | undefined;
    if (!input?.formId || !rt.state.forms.some((f) => f.id === input.formId)) {
      return reply.code(404).send({ error: 'unknown form' });
    }
    return { leadgenId: emulator.submitLead(input) };
  });
  app.post('/__emulator/user-token', async (req) => {
    const opts = (parseJson(req.body) ?? {}) as UserTokenOptions;
    return { accessToken: emulator.userToken(opts) };
  });
  app.post('/__emulator/flush', async () => {
    emulator.flush();
    return { ok: true };
  });
  app.post('/__emulator/faults', async (req) => {
    const f = (parseJson(req.body) ?? {}) as Record<string, unknown>;
    if (f.expireUserTokens) emulator.expireUserTokens();
    if (f.expirePageTokens) emulator.expirePageTokens();
    if (f.revokePermission)
      emulator.revokePermission(Array.isArray(f.revokePermission) ? f.revokePermission : undefined);
    if ('throttle' in f) emulator.setThrottle((f.throttle as ThrottleCode | null) ?? null);
    if ('fault' in f) emulator.setFault((f.fault as { status: number; times?: number } | null) ?? null);
    if (typeof f.latencyMs === 'number') emulator.setLatency(f.latencyMs);
    if (f.webhookDelivery === 'on' || f.webhookDelivery === 'drop') emulator.setWebhookDelivery(f.webhookDelivery);
    if (typeof f.duplicates === 'number') emulator.setDuplicates(f.duplicates);
    if (typeof f.batch === 'number') emulator.batch(f.batch);
    if (Array.isArray(f.retrySchedule)) emulator.setRetrySchedule(f.retrySchedule.map(Number));
    if (typeof f.denyLogin === 'boolean') emulator.denyLogin(f.denyLogin);
    return { ok: true };
  });
  registerCapiControl(
    app,
    () => rt,
    (scopes) => emulator.revokePermission(scopes),
  );
  app.post('/__emulator/reset', async () => {
    emulator.reset();
    return { ok: true };
  });
  app.get('/__emulator/picture/:file', async (req, reply) => {
    const id = String((req.params as { file: string }).file).replace(/\.svg$/, '');
    const hue = [...id].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 360, 0);
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><rect width="100" height="100" fill="hsl(${hue},60%,55%)"/><circle cx="50" cy="40" r="18" fill="#fff"/><rect x="22" y="64" width="56" height="26" rx="13" fill="#fff"/></svg>`;
    return reply.type('image/svg+xml').header('cache-control', 'max-age=3600').send(svg);
  });

  app.all('/*', async (req, reply) => {
    await kit.delay();
    return handleGraph(req, reply, rt);
  });

  const { port, url } = await listenEmulator(app, options);
  origin = url;
  emulator.port = port;
  emulator.url = origin;
  emulator.graphUrl = `${origin}/${GRAPH_VERSION}`;
  emulator.dialogUrl = `${origin}/${GRAPH_VERSION}/dialog/oauth`;
  return emulator;
}

export { GRAPH_VERSION };
