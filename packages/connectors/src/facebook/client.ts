// The only file of the Meta lead-forms source that calls the Graph API (external-apis 1). Hand-written
// on fetch (the SDK covers neither Login nor webhooks and is awkward to point at an emulator). Tokens go
// in the Authorization header and secrets in POST bodies, never in URLs; `paging.next` (which carries
// the token) is never followed, only its `after` cursor. Every failure is a GraphError whose message
// has the app secret and the tokens of the call replaced.
import { createHmac } from 'node:crypto';
import { PermanentError } from '../kit/errors';
import type { MetaLead } from './lead';

export interface GraphConfig {
  /** https://graph.facebook.com/{GRAPH_API_VERSION} (or the emulator's graphUrl); versions.ts. */
  graphUrl: string;
  /** https://www.facebook.com/{GRAPH_API_VERSION}/dialog/oauth */
  dialogUrl: string;
  appId: string;
  appSecret: string;
  /** The server passes its SSRF-safe fetch. */
  fetch: typeof fetch;
  signal?: AbortSignal;
  /** Per-call timeout; default 15 s. */
  timeoutMs?: number;
  /** Rows asked per page of a list; default 100. */
  pageLimit?: number;
}

/** What lead retrieval needs (external-apis 1.2), plus the profile's e-mail for sign-in. */
export const FB_SCOPES: string[] = [
  'leads_retrieval',
  'pages_show_list',
  'pages_manage_metadata',
  'pages_read_engagement',
  'pages_manage_ads',
  'ads_management',
  'business_management',
  'email',
  'public_profile',
];

/** The fields of a lead we ask for (GET /{leadgen-id} without `fields` gives only the id). */
export const LEAD_FIELDS = [
  'id',
  'created_time',
  'ad_id',
  'ad_name',
  'adset_id',
  'adset_name',
  'campaign_id',
  'campaign_name',
  'form_id',
  'field_data',
  'is_organic',
  'platform',
] as const;

const TOKEN_SUBCODES = new Set([458, 459, 460, 463, 464, 467, 492]);
const THROTTLE_CODES = new Set([4, 17, 32, 341, 613]);
const DEFAULT_TIMEOUT_MS = 15_000;
const PAGE_LIMIT = 100;
/** A guard against a cursor that never ends (100 × 100 rows is far more than a page has). */
const MAX_PAGES = 100;
const REDACTED = '[redacted]';

export interface GraphErrorInit {
  code: number;
  subcode?: number;
  httpStatus: number;
  fbtraceId?: string;
  type?: string;
  /** Usage headers (X-App-Usage, X-Business-Use-Case-Usage, Retry-After) when Meta sent them: how long to back off. */
  usage?: Record<string, string>;
  /** Overrides the transient verdict (a network failure the safe fetch refused for good). */
  transient?: boolean;
}

/** A Graph API error ({error:{message,type,code,error_subcode,fbtrace_id}}), an HTTP failure or a network failure (httpStatus 0). */
export class GraphError extends Error {
  readonly code: number;
  readonly subcode?: number;
  readonly httpStatus: number;
  readonly fbtraceId?: string;
  readonly type?: string;
  readonly usage?: Record<string, string>;
  readonly #transient?: boolean;

  constructor(message: string, init: GraphErrorInit) {
    super(message);
    this.name = 'GraphError';
    this.code = init.code;
    this.subcode = init.subcode;
    this.httpStatus = init.httpStatus;
    this.fbtraceId = init.fbtraceId;
    this.type = init.type;
    this.usage = init.usage;
    this.#transient = init.transient;
  }

  /** The token is expired or invalid: the user must sign in again. */
  get isTokenError(): boolean {
    return this.code === 190 || this.code === 102 || (this.subcode !== undefined && TOKEN_SUBCODES.has(this.subcode));
  }

  /** A permission is missing or was revoked: the user must grant it again. */
  get isPermissionError(): boolean {
    return this.code === 10 || (this.code >= 200 && this.code <= 299);
  }

  /** Rate limited (app, user, page, BUC): back off and try later. */
  get isThrottled(): boolean {
    return THROTTLE_CODES.has(this.code) || (this.code >= 80001 && this.code <= 80009) || this.httpStatus === 429;
  }

  /** Worth trying again: Meta's "unknown"/"service down" codes, 5xx, network failures and timeouts. */
  get isTransient(): boolean {
    if (this.#transient !== undefined) return this.#transient;
    return this.code === 1 || this.code === 2 || this.httpStatus >= 500 || this.httpStatus === 0;
  }
}

/** A lead as the Graph API answers it (the type lives in lead.ts with its payload builder). */
export type GraphLead = MetaLead;

export interface GraphPage {
  id: string;
  name: string;
  accessToken: string;
  category?: string;
  tasks?: string[];
}

export interface GraphQuestion {
  key: string;
  label?: string;
  type: string;
  /** Choices of a multiple-choice question. */
  options?: { key: string; value: string }[];
}

export interface GraphForm {
  id: string;
  name: string;
  status: string;
  locale?: string;
  questions: GraphQuestion[];
}

export interface GraphToken {
  accessToken: string;
  /** Seconds. */
  expiresIn?: number;
}

/** What GET /debug_token tells about a user token. */
export interface GraphTokenInfo {
  isValid: boolean;
  appId: string | null;
  userId: string | null;
  scopes: string[];
  /** Unix seconds; absent when the token does not expire. */
  expiresAt?: number;
}

/** A dataset (Meta pixel) an ad account can use (GET /act_{id}/adspixels). */
export interface GraphDataset {
  id: string;
  name: string;
}

/** Meta's answer to POST /{dataset}/events. */
export interface GraphEventsAnswer {
  eventsReceived: number;
  messages: string[];
  fbtraceId?: string;
}

export interface GraphAppSubscription {
  object: string;
  callbackUrl: string;
  active: boolean;
  fields: string[];
}

interface Paged<T> {
  data?: T[];
  paging?: { cursors?: { after?: string }; next?: string };
}

type Query = Record<string, string | number | undefined>;

interface CallOptions {
  method?: 'GET' | 'POST' | 'DELETE';
  token?: string;
  /** Send appsecret_proof with the token (default); off for a token of another of our apps, whose secret we lack. */
  proof?: boolean;
  query?: Query;
  form?: Record<string, string>;
}

export type GraphClient = ReturnType<typeof graphClient>;

export function graphClient(cfg: GraphConfig) {
  const base = cfg.graphUrl.replace(/\/+$/, '');
  let appTokenCache: string | undefined;

  const scrub = (text: string, secrets: (string | undefined)[]): string => {
    let out = text;
    for (const s of [cfg.appSecret, appTokenCache, ...secrets]) {
      if (s && s.length >= 4) out = out.split(s).join(REDACTED);
    }
    return out;
  };

  // appsecret_proof: Meta accepts it always and requires it when the app enables "Require App Secret".
  const proofOf = (token: string) => createHmac('sha256', cfg.appSecret).update(token).digest('hex');

  async function call<T>(path: string, opts: CallOptions = {}): Promise<T> {
    const method = opts.method ?? 'GET';
    const url = new URL(`${base}${path}`);
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    if (opts.token && opts.proof !== false) url.searchParams.set('appsecret_proof', proofOf(opts.token));
    const headers: Record<string, string> = { accept: 'application/json' };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: string | undefined;
    if (opts.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(opts.form).toString();
    }
    const secrets = [
      opts.token,
      opts.form?.code,
      opts.form?.fb_exchange_token,
      opts.form?.client_secret,
      opts.query?.input_token === undefined ? undefined : String(opts.query.input_token),
    ];
    const timeout = AbortSignal.timeout(cfg.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const signal = cfg.signal ? AbortSignal.any([cfg.signal, timeout]) : timeout;
    let res: Response;
    let text: string;
    try {
      res = await cfg.fetch(url.toString(), { method, headers, body, signal });
      text = await res.text();
    } catch (err) {
      const reason = timeout.aborted
        ? 'timed out'
        : cfg.signal?.aborted
          ? 'was cancelled'
          : `failed: ${scrub((err as Error).message ?? String(err), secrets)}`;
      // The safe fetch classifies its own refusals (a blocked host is not worth retrying).
      const permanent = err instanceof PermanentError;
      throw new GraphError(`Graph API ${method} ${path} ${reason}`, { code: 0, httpStatus: 0, transient: !permanent });
    }
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    const envelope = (json as { error?: Record<string, unknown> } | undefined)?.error;
    if (envelope && typeof envelope === 'object') {
      const code = Number(envelope.code ?? 0);
      const subcode = envelope.error_subcode === undefined ? undefined : Number(envelope.error_subcode);
      const message = typeof envelope.message === 'string' ? envelope.message : 'Graph API error';
      throw new GraphError(scrub(message, secrets), {
        code: Number.isFinite(code) ? code : 0,
        subcode: subcode !== undefined && Number.isFinite(subcode) ? subcode : undefined,
        httpStatus: res.status,
        fbtraceId: typeof envelope.fbtrace_id === 'string' ? envelope.fbtrace_id : undefined,
        type: typeof envelope.type === 'string' ? envelope.type : undefined,
        usage: usageOf(res.headers),
      });
    }
    if (!res.ok || json === undefined) {
      throw new GraphError(`Graph API ${method} ${path} answered HTTP ${res.status}`, {
        code: 0,
        httpStatus: res.ok ? 502 : res.status,
        usage: usageOf(res.headers),
      });
    }
    return json as T;
  }

  /** Every row of a cursor-paged edge. */
  async function all<T>(path: string, token: string, query: Query): Promise<T[]> {
    const rows: T[] = [];
    let after: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const answer = await call<Paged<T>>(path, {
        token,
        query: { ...query, limit: cfg.pageLimit ?? PAGE_LIMIT, after },
      });
      rows.push(...(answer.data ?? []));
      const next = answer.paging?.cursors?.after;
      if (!answer.paging?.next || !next || next === after || !answer.data?.length) break;
      after = next;
    }
    return rows;
  }

  const confirm = (answer: { success?: boolean }, what: string) => {
    if (answer.success !== true) {
      throw new GraphError(`Graph API did not confirm ${what}`, { code: 0, httpStatus: 200 });
    }
  };

  const tokenAnswer = (a: { access_token?: string; expires_in?: number }): GraphToken => {
    if (!a.access_token)
      throw new GraphError('Graph API answered without an access token', { code: 0, httpStatus: 200 });
    return { accessToken: a.access_token, expiresIn: typeof a.expires_in === 'number' ? a.expires_in : undefined };
  };

  const client = {
    loginUrl(redirectUri: string, state: string, scopes: string[] = FB_SCOPES): string {
      const url = new URL(cfg.dialogUrl);
      url.searchParams.set('client_id', cfg.appId);
      url.searchParams.set('redirect_uri', redirectUri);
      url.searchParams.set('state', state);
      url.searchParams.set('scope', scopes.join(','));
      url.searchParams.set('response_type', 'code');
      return url.toString();
    },

    async exchangeCode(code: string, redirectUri: string): Promise<GraphToken> {
      const answer = await call<{ access_token?: string; expires_in?: number }>('/oauth/access_token', {
        method: 'POST',
        form: { client_id: cfg.appId, client_secret: cfg.appSecret, redirect_uri: redirectUri, code },
      });
      return tokenAnswer(answer);
    },

    async longLivedToken(shortLived: string): Promise<GraphToken> {
      const answer = await call<{ access_token?: string; expires_in?: number }>('/oauth/access_token', {
        method: 'POST',
        form: {
          grant_type: 'fb_exchange_token',
          client_id: cfg.appId,
          client_secret: cfg.appSecret,
          fb_exchange_token: shortLived,
        },
      });
      return tokenAnswer(answer);
    },

    async appToken(): Promise<string> {
      if (appTokenCache) return appTokenCache;
      const answer = await call<{ access_token?: string }>('/oauth/access_token', {
        method: 'POST',
        form: { grant_type: 'client_credentials', client_id: cfg.appId, client_secret: cfg.appSecret },
      });
      appTokenCache = tokenAnswer(answer).accessToken;
      return appTokenCache;
    },

    async me(userToken: string, opts: { proof?: boolean } = {}): Promise<{ id: string; name: string; email?: string }> {
      const me = await call<{ id: string; name?: string; email?: string }>('/me', {
        token: userToken,
        proof: opts.proof,
        query: { fields: 'id,name,email' },
      });
      return { id: String(me.id), name: me.name ?? '', ...(me.email ? { email: me.email } : {}) };
    },

    /** Which app a user token belongs to and whether it is valid (GET /debug_token with the app token). */
    async debugToken(inputToken: string): Promise<GraphTokenInfo> {
      const answer = await call<{
        data?: { app_id?: string; user_id?: string; is_valid?: boolean; expires_at?: number; scopes?: string[] };
      }>('/debug_token', { token: await client.appToken(), query: { input_token: inputToken } });
      const d = answer.data ?? {};
      return {
        isValid: d.is_valid === true,
        appId: d.app_id === undefined ? null : String(d.app_id),
        userId: d.user_id === undefined ? null : String(d.user_id),
        scopes: d.scopes ?? [],
        ...(typeof d.expires_at === 'number' && d.expires_at > 0 ? { expiresAt: d.expires_at } : {}),
      };
    },

    async picture(objectId: string, token: string): Promise<string | null> {
      const answer = await call<{ data?: { url?: string; is_silhouette?: boolean } }>(
        `/${encodeURIComponent(objectId)}/picture`,
        { token, query: { redirect: 'false', type: 'normal' } },
      );
      return answer.data?.url ?? null;
    },

    async pages(userToken: string): Promise<GraphPage[]> {
      const rows = await all<{ id: string; name?: string; access_token?: string; category?: string; tasks?: string[] }>(
        '/me/accounts',
        userToken,
        { fields: 'id,name,access_token,category,tasks' },
      );
      return rows.map((p) => ({
        id: String(p.id),
        name: p.name ?? '',
        accessToken: p.access_token ?? '',
        ...(p.category ? { category: p.category } : {}),
        ...(p.tasks ? { tasks: p.tasks } : {}),
      }));
    },

    async adAccounts(userToken: string): Promise<{ id: string; name: string }[]> {
      const rows = await all<{ id: string; name?: string }>('/me/adaccounts', userToken, { fields: 'id,name' });
      return rows.map((a) => ({ id: String(a.id), name: a.name ?? '' }));
    },

    /** The datasets (pixels) of an ad account (`act_<digits>`), Conversions API (capi.ts). */
    async adsPixels(userToken: string, adAccountId: string): Promise<GraphDataset[]> {
      const rows = await all<{ id: string; name?: string }>(
        `/${encodeURIComponent(adAccountId)}/adspixels`,
        userToken,
        {
          fields: 'id,name',
        },
      );
      return rows.map((p) => ({ id: String(p.id), name: p.name ?? '' }));
    },

    /**
     * Server events to a dataset (POST /{dataset}/events, Conversions API): `data` is the events'
     * JSON text as Meta's form field takes it (capi.ts builds it).
     */
    async postEvents(
      datasetId: string,
      token: string,
      data: string,
      testEventCode?: string,
    ): Promise<GraphEventsAnswer> {
      const answer = await call<{ events_received?: unknown; messages?: unknown; fbtrace_id?: unknown }>(
        `/${encodeURIComponent(datasetId)}/events`,
        { method: 'POST', token, form: { data, ...(testEventCode ? { test_event_code: testEventCode } : {}) } },
      );
      if (typeof answer.events_received !== 'number') {
        throw new GraphError('Graph API answered without events_received', { code: 0, httpStatus: 200 });
      }
      return {
        eventsReceived: answer.events_received,
        messages: Array.isArray(answer.messages) ? answer.messages.map(String) : [],
        ...(typeof answer.fbtrace_id === 'string' ? { fbtraceId: answer.fbtrace_id } : {}),
      };
    },

    async subscribePage(pageId: string, pageToken: string): Promise<void> {
      const answer = await call<{ success?: boolean }>(`/${encodeURIComponent(pageId)}/subscribed_apps`, {
        method: 'POST',
        token: pageToken,
        form: { subscribed_fields: 'leadgen' },
      });
      confirm(answer, 'the page subscription');
    },

    async unsubscribePage(pageId: string, pageToken: string): Promise<void> {
      const answer = await call<{ success?: boolean }>(`/${encodeURIComponent(pageId)}/subscribed_apps`, {
        method: 'DELETE',
        token: pageToken,
      });
      confirm(answer, 'the page unsubscription');
    },

    async isPageSubscribed(pageId: string, pageToken: string): Promise<boolean> {
      const answer = await call<{ data?: { id?: string; subscribed_fields?: string[] }[] }>(
        `/${encodeURIComponent(pageId)}/subscribed_apps`,
        { token: pageToken },
      );
      // subscribed_fields is not always listed (external-apis 1.3 [U]); our app being installed then counts.
      return (answer.data ?? []).some(
        (app) => String(app.id) === cfg.appId && (!app.subscribed_fields || app.subscribed_fields.includes('leadgen')),
      );
    },

    async leadForms(pageId: string, pageToken: string): Promise<GraphForm[]> {
      const rows = await all<{
        id: string;
        name?: string;
        status?: string;
        locale?: string;
        questions?: { key?: string; label?: string; type?: string; options?: { key?: string; value?: string }[] }[];
      }>(`/${encodeURIComponent(pageId)}/leadgen_forms`, pageToken, { fields: 'id,name,status,locale,questions' });
      return rows.map((f) => ({
        id: String(f.id),
        name: f.name ?? '',
        status: f.status ?? 'ACTIVE',
        ...(f.locale ? { locale: f.locale } : {}),
        questions: (f.questions ?? [])
          .filter((q) => q.key)
          .map((q) => ({
            key: String(q.key),
            ...(q.label ? { label: q.label } : {}),
            type: q.type ?? 'CUSTOM',
            ...(q.options?.length
              ? { options: q.options.map((o) => ({ key: String(o.key ?? ''), value: String(o.value ?? '') })) }
              : {}),
          })),
      }));
    },

    async lead(leadgenId: string, pageToken: string): Promise<GraphLead> {
      const lead = await call<GraphLead>(`/${encodeURIComponent(leadgenId)}`, {
        token: pageToken,
        query: { fields: LEAD_FIELDS.join(',') },
      });
      return { ...lead, id: String(lead.id), field_data: lead.field_data ?? [] };
    },

    async formLeads(formId: string, pageToken: string, sinceUnix: number): Promise<GraphLead[]> {
      const filtering = JSON.stringify([
        { field: 'time_created', operator: 'GREATER_THAN', value: Math.floor(sinceUnix) },
      ]);
      const rows = await all<GraphLead>(`/${encodeURIComponent(formId)}/leads`, pageToken, {
        fields: LEAD_FIELDS.join(','),
        filtering,
      });
      return rows.map((l) => ({ ...l, id: String(l.id), field_data: l.field_data ?? [] }));
    },

    async subscribeApp(callbackUrl: string, verifyToken: string): Promise<void> {
      const answer = await call<{ success?: boolean }>(`/${encodeURIComponent(cfg.appId)}/subscriptions`, {
        method: 'POST',
        token: await client.appToken(),
        form: {
          object: 'page',
          callback_url: callbackUrl,
          fields: 'leadgen',
          verify_token: verifyToken,
          include_values: 'true',
        },
      });
      confirm(answer, 'the app subscription');
    },

    /** The app's webhook subscriptions (GET /{app-id}/subscriptions). */
    async appSubscriptions(): Promise<GraphAppSubscription[]> {
      const answer = await call<{
        data?: { object?: string; callback_url?: string; active?: boolean; fields?: ({ name?: string } | string)[] }[];
      }>(`/${encodeURIComponent(cfg.appId)}/subscriptions`, { token: await client.appToken() });
      return (answer.data ?? []).map((s) => ({
        object: s.object ?? '',
        callbackUrl: s.callback_url ?? '',
        active: s.active !== false,
        fields: (s.fields ?? []).map((f) => (typeof f === 'string' ? f : (f.name ?? ''))).filter(Boolean),
      }));
    },

    /** Removes the app's page webhook (DELETE /{app-id}/subscriptions object=page). */
    async unsubscribeApp(): Promise<void> {
      const answer = await call<{ success?: boolean }>(`/${encodeURIComponent(cfg.appId)}/subscriptions`, {
        method: 'DELETE',
        token: await client.appToken(),
        form: { object: 'page' },
      });
      confirm(answer, 'the app unsubscription');
    },

    async testLead(
      formId: string,
      pageToken: string,
      fieldData?: { name: string; values: string[] }[],
    ): Promise<string> {
      const answer = await call<{ id?: string }>(`/${encodeURIComponent(formId)}/test_leads`, {
        method: 'POST',
        token: pageToken,
        form: fieldData ? { field_data: JSON.stringify(fieldData) } : {},
      });
      if (!answer.id) throw new GraphError('Graph API answered without a lead id', { code: 0, httpStatus: 200 });
      return String(answer.id);
    },

    /** Deletes a lead (Meta allows it for test leads: one test lead per form at a time). */
    async deleteLead(leadId: string, pageToken: string): Promise<void> {
      const answer = await call<{ success?: boolean }>(`/${encodeURIComponent(leadId)}`, {
        method: 'DELETE',
        token: pageToken,
      });
      confirm(answer, 'the lead deletion');
    },
  };
  return client;
}

function usageOf(headers: Headers): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const name of ['x-app-usage', 'x-business-use-case-usage', 'x-page-usage', 'retry-after']) {
    const value = headers.get(name);
    if (value) out[name] = value; // own-keys: the four header names above
  }
  return Object.keys(out).length ? out : undefined;
}
