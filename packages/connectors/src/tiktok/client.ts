// The only file of the TikTok lead-forms source that calls TikTok's API for Business (Marketing API
// v1.3, docs/connectors/tiktok.md). Hand-written on fetch: the official SDK covers neither lead
// subscriptions nor webhooks. Every answer is TikTok's envelope {code, message, request_id, data}
// with HTTP 200 even on failure, so the verdict is `code` (0 = ok). The advertiser's token goes in
// the Access-Token header; the app's secret goes where TikTok asks for it (a POST body, or the query
// of the two GET calls that take it) and never into an error message.
import { idText, quoteBigIntegers } from './json';

export interface TiktokConfig {
  /** https://business-api.tiktok.com/open_api/v1.3 (or the emulator's). */
  apiUrl: string;
  /** https://business-api.tiktok.com/portal/auth (the advertiser's consent page). */
  authUrl: string;
  appId: string;
  appSecret: string;
  /** The server passes its SSRF-safe fetch. */
  fetch: typeof fetch;
  /** Per-call timeout; default 15 s. */
  timeoutMs?: number;
}

/** Codes TikTok answers for an access token it no longer takes (docs/connectors/tiktok.md: ASSUMED list). */
const TOKEN_CODES = new Set([40102, 40104, 40105]);
/** No permission on the ad account or a scope not granted. */
const PERMISSION_CODES = new Set([40001]);
/** Too many requests (app, advertiser, QPS); 5xxxx are TikTok's own failures. */
const THROTTLE_CODES = new Set([40100, 40016, 40133]);
const DEFAULT_TIMEOUT_MS = 15_000;
const PAGE_SIZE = 100;
/** A guard against a page count that never ends. */
const MAX_PAGES = 50;
/** Forms whose questions are read for one advertiser's state (each is one call). */
const MAX_FORMS_WITH_FIELDS = 30;
/** Field reads in flight at once. */
const FIELDS_AT_ONCE = 5;

export interface TiktokErrorInit {
  code: number;
  httpStatus: number;
  requestId?: string;
}

/** A refused or failed call: TikTok's code and message (secrets removed). */
export class TiktokError extends Error {
  readonly code: number;
  readonly httpStatus: number;
  readonly requestId?: string;

  constructor(message: string, init: TiktokErrorInit) {
    super(message);
    this.name = 'TiktokError';
    this.code = init.code;
    this.httpStatus = init.httpStatus;
    this.requestId = init.requestId;
  }

  /** The advertiser's access was revoked or the token is not TikTok's any more: connect again. */
  get isTokenError(): boolean {
    return TOKEN_CODES.has(this.code) || this.httpStatus === 401;
  }

  get isPermissionError(): boolean {
    return PERMISSION_CODES.has(this.code) || this.httpStatus === 403;
  }

  /** Worth trying again later: throttled, TikTok's own failure, no answer. */
  get isTransient(): boolean {
    return THROTTLE_CODES.has(this.code) || this.code >= 50000 || this.httpStatus >= 500 || this.httpStatus === 0;
  }
}

export interface TiktokUser {
  id: string;
  name: string;
  email?: string;
}

export interface TiktokAdvertiser {
  id: string;
  name: string;
}

export interface TiktokForm {
  id: string;
  title: string;
  status: string;
  /** The form's field names (page/field/get); null when not read. */
  fields: string[] | null;
}

export interface TiktokSubscription {
  id: string;
  callbackUrl: string;
  advertiserId: string;
  pageId: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

export function tiktokClient(cfg: TiktokConfig) {
  const secrets = [cfg.appSecret].filter((s) => s.length >= 4);
  const scrub = (text: string, extra: string[] = []) =>
    [...secrets, ...extra.filter((s) => s.length >= 4)].reduce((t, s) => t.split(s).join('***'), text);

  async function request(
    method: 'GET' | 'POST',
    path: string,
    opts: { token?: string; query?: Record<string, string>; body?: Record<string, unknown> } = {},
  ): Promise<unknown> {
    const url = new URL(`${cfg.apiUrl}${path}`);
    for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, v);
    const headers: Record<string, string> = { accept: 'application/json' };
    // Access-Token, not Authorization: Bearer (TikTok's own header).
    if (opts.token) headers['access-token'] = opts.token;
    if (opts.body) headers['content-type'] = 'application/json';
    const hidden = opts.token ? [opts.token] : [];
    let res: Response;
    try {
      res = await cfg.fetch(url, {
        method,
        headers,
        body: opts.body ? JSON.stringify(opts.body) : undefined,
        signal: AbortSignal.timeout(cfg.timeoutMs ?? DEFAULT_TIMEOUT_MS),
        redirect: 'error',
      });
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      throw new TiktokError(scrub(`TikTok did not answer ${path}: ${why}`, hidden), { code: 0, httpStatus: 0 });
    }
    const text = await res.text();
    let parsed: unknown;
    try {
      // Ids past 2^53 stay text (TikTok's are 19 digits).
      parsed = JSON.parse(quoteBigIntegers(text));
    } catch {
      throw new TiktokError(`TikTok answered ${path} with HTTP ${res.status} and no JSON`, {
        code: 0,
        httpStatus: res.status,
      });
    }
    if (!isRecord(parsed)) {
      throw new TiktokError(`TikTok answered ${path} with HTTP ${res.status}, not an object`, {
        code: 0,
        httpStatus: res.status,
      });
    }
    const code = typeof parsed.code === 'number' ? parsed.code : Number(parsed.code ?? Number.NaN);
    const requestId = typeof parsed.request_id === 'string' ? parsed.request_id : undefined;
    if (!res.ok || !Number.isFinite(code) || code !== 0) {
      const message = typeof parsed.message === 'string' && parsed.message ? parsed.message : `HTTP ${res.status}`;
      throw new TiktokError(scrub(message, hidden).slice(0, 300), {
        code: Number.isFinite(code) ? code : 0,
        httpStatus: res.status,
        requestId,
      });
    }
    return parsed.data;
  }

  const app = () => ({ app_id: cfg.appId, secret: cfg.appSecret });

  /** Every page of a paged list (page_info.total_page). */
  async function allPages<T>(
    fetchPage: (page: number) => Promise<unknown>,
    read: (data: Record<string, unknown>) => T[],
  ): Promise<T[]> {
    const out: T[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const data = await fetchPage(page);
      if (!isRecord(data)) break;
      const rows = read(data);
      out.push(...rows);
      const info = isRecord(data.page_info) ? data.page_info : {};
      const total = typeof info.total_page === 'number' ? info.total_page : 1;
      if (page >= total || rows.length === 0) break;
    }
    return out;
  }

  return {
    /** The advertiser's consent page (portal/auth: app_id, state, redirect_uri). */
    loginUrl(redirectUri: string, state: string): string {
      const url = new URL(cfg.authUrl);
      url.searchParams.set('app_id', cfg.appId);
      url.searchParams.set('state', state);
      url.searchParams.set('redirect_uri', redirectUri);
      return url.toString();
    },

    /** auth_code → a long-term access token (POST oauth2/access_token/). */
    async exchangeCode(authCode: string): Promise<string> {
      const data = await request('POST', '/oauth2/access_token/', { body: { ...app(), auth_code: authCode } });
      const token = isRecord(data) && typeof data.access_token === 'string' ? data.access_token : '';
      if (!token) throw new TiktokError('TikTok gave no access token', { code: 0, httpStatus: 200 });
      return token;
    },

    /** Who authorised us (GET user/info/). */
    async user(token: string): Promise<TiktokUser> {
      const data = await request('GET', '/user/info/', { token });
      const d = isRecord(data) ? data : {};
      const id = idText(d.core_user_id);
      if (!id) throw new TiktokError('TikTok gave no user id', { code: 0, httpStatus: 200 });
      const name = typeof d.display_name === 'string' && d.display_name ? d.display_name : id;
      const email = typeof d.email === 'string' && d.email ? d.email : undefined;
      return { id, name, ...(email ? { email } : {}) };
    },

    /** The ad accounts that authorised our app with this token (GET oauth2/advertiser/get/). */
    async advertisers(token: string): Promise<TiktokAdvertiser[]> {
      const data = await request('GET', '/oauth2/advertiser/get/', { token, query: app() });
      const list = isRecord(data) && Array.isArray(data.list) ? data.list : [];
      return list.flatMap((a) => {
        if (!isRecord(a)) return [];
        const id = idText(a.advertiser_id);
        return id
          ? [{ id, name: typeof a.advertiser_name === 'string' && a.advertiser_name ? a.advertiser_name : id }]
          : [];
      });
    },

    /** The advertiser's Instant Forms (GET page/get/, business_type LEAD_GEN), with their fields when `withFields`. */
    async forms(advertiserId: string, token: string, withFields = false): Promise<TiktokForm[]> {
      const forms = await allPages(
        (page) =>
          request('GET', '/page/get/', {
            token,
            query: {
              advertiser_id: advertiserId,
              business_type: 'LEAD_GEN',
              page: String(page),
              page_size: String(PAGE_SIZE),
            },
          }),
        (data) =>
          (Array.isArray(data.list) ? data.list : []).flatMap((p): TiktokForm[] => {
            if (!isRecord(p)) return [];
            const id = idText(p.page_id);
            if (!id) return [];
            const title = typeof p.title === 'string' && p.title ? p.title : id;
            return [{ id, title, status: typeof p.status === 'string' ? p.status : '', fields: null }];
          }),
      );
      if (!withFields) return forms;
      const wanted = forms.slice(0, MAX_FORMS_WITH_FIELDS);
      for (let i = 0; i < wanted.length; i += FIELDS_AT_ONCE) {
        await Promise.all(
          wanted.slice(i, i + FIELDS_AT_ONCE).map(async (form) => {
            // A form whose fields cannot be read still lists (the mapping falls back to the standard fields).
            form.fields = await this.formFields(advertiserId, form.id, token).catch(() => null);
          }),
        );
      }
      return forms;
    },

    /** A form's field names (GET page/field/get/). */
    async formFields(advertiserId: string, pageId: string, token: string): Promise<string[]> {
      const data = await request('GET', '/page/field/get/', {
        token,
        query: { advertiser_id: advertiserId, page_id: pageId },
      });
      const fields = isRecord(data) && Array.isArray(data.fields) ? data.fields : [];
      return fields.filter((f): f is string => typeof f === 'string' && f.length > 0).slice(0, 100);
    },

    /** The app's LEAD subscriptions (GET subscription/get/). */
    async subscriptions(): Promise<TiktokSubscription[]> {
      return allPages(
        (page) =>
          request('GET', '/subscription/get/', {
            query: { ...app(), subscribe_entity: 'LEAD', page: String(page), page_size: String(PAGE_SIZE) },
          }),
        (data) =>
          (Array.isArray(data.subscriptions) ? data.subscriptions : []).flatMap((s): TiktokSubscription[] => {
            if (!isRecord(s)) return [];
            const id = idText(s.subscription_id);
            const detail = isRecord(s.subscription_detail) ? s.subscription_detail : {};
            if (!id) return [];
            return [
              {
                id,
                callbackUrl: typeof s.callback_url === 'string' ? s.callback_url : '',
                advertiserId: idText(detail.advertiser_id),
                pageId: idText(detail.page_id),
              },
            ];
          }),
      );
    },

    /** Our receiver subscribed to the advertiser's Instant Form leads (POST subscription/subscribe/). */
    async subscribe(advertiserId: string, token: string, callbackUrl: string): Promise<string> {
      const data = await request('POST', '/subscription/subscribe/', {
        body: {
          ...app(),
          subscribe_entity: 'LEAD',
          callback_url: callbackUrl,
          subscription_detail: { access_token: token, advertiser_id: advertiserId, lead_source: 'INSTANT_FORM' },
        },
      });
      const id = isRecord(data) ? idText(data.subscription_id) : '';
      if (!id) throw new TiktokError('TikTok gave no subscription id', { code: 0, httpStatus: 200 });
      return id;
    },

    async unsubscribe(subscriptionId: string): Promise<void> {
      await request('POST', '/subscription/unsubscribe/', { body: { ...app(), subscription_id: subscriptionId } });
    },

    /** A test lead on the form (POST page/lead/mock/create/); its lead id. */
    async createTestLead(advertiserId: string, pageId: string, token: string): Promise<string> {
      const data = await request('POST', '/page/lead/mock/create/', {
        token,
        body: { advertiser_id: advertiserId, page_id: pageId },
      });
      const meta = isRecord(data) && isRecord(data.meta_data) ? data.meta_data : {};
      return idText(meta.lead_id);
    },

    /** Removes the form's test lead (TikTok keeps one per form). */
    async deleteTestLead(advertiserId: string, pageId: string, leadId: string, token: string): Promise<void> {
      await request('POST', '/page/lead/mock/delete/', {
        token,
        body: { advertiser_id: advertiserId, page_id: pageId, lead_id: leadId },
      });
    },
  };
}

export type TiktokClient = ReturnType<typeof tiktokClient>;
