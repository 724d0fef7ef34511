// TikTok lead forms as an account connection (kit/connection.ts): a TikTok for Business login (the
// advertiser authorises our app on TikTok's portal/auth page; the auth_code becomes a long-term
// access token) reaching the ad accounts that authorised us. Turning leads on for an ad account makes
// a LEAD subscription (Subscription API) whose callback is our receiver; TikTok then POSTs each
// Instant Form lead, signed with our app secret, with the answers in it. The receiver stores each lead
// as an event carrying its payload (TikTok documents no read of one lead by id), and the worker
// ingests it into the integrations of that ad account and form. The server keeps the rows and runs the
// flows; what TikTok is lives here. docs/connectors/tiktok.md says what is confirmed and what assumed.
import { ZAuthUrl, ZIntegration, ZSuccessResponse } from '@leadrelay/shared';
import { z } from 'zod';
import type {
  AssetView,
  ConnectionAlias,
  ConnectionCall,
  ConnectionView,
  ConnectorConnections,
  InboundEventInput,
} from '../kit/connection';
import { InboundRefusal, IntegrationNotConnected } from '../kit/connection';
import type { ConnectorConfig } from '../kit/types';
import { TiktokError, type TiktokForm, tiktokClient } from './client';
import { tiktokLeadPayload } from './lead';
import {
  ZTtAdvertiser,
  ZTtAdvertiserState,
  ZTtConnection,
  ZTtForm,
  ZTtItem,
  ZTtMigrateBody,
  ZTtPicture,
  ZTtPictureQuery,
  ZTtRefreshQuery,
  ZTtStartBody,
  ZTtTestLead,
  ZTtTestLeadBody,
} from './schema';
import { parseLeadWebhook, parseTiktokJson, SIGNATURE_HEADER, verifySignature } from './webhook';
import mailEn from './words/mail/connection/en.json';
import mailUk from './words/mail/connection/uk.json';

export const DEFAULT_API_URL = 'https://business-api.tiktok.com/open_api/v1.3';
export const DEFAULT_AUTH_URL = 'https://business-api.tiktok.com/portal/auth';

/** The configuration keys (the server's only reader of env reads them). */
export const TIKTOK_CONFIG = {
  TIKTOK_APP_ID: {},
  TIKTOK_APP_SECRET: {},
  TIKTOK_API_URL: { type: 'url', default: DEFAULT_API_URL },
  TIKTOK_AUTH_URL: { type: 'url', default: DEFAULT_AUTH_URL },
} as const;

/** TikTok retries for 24 hours (at least once delivery); a lead id counts as seen for 7 days. */
export const TIKTOK_DEDUPE_WINDOW_HOURS = 7 * 24;
/** Up to 1000 leads per POST; 2 MB holds them. */
export const TIKTOK_WEBHOOK_BODY_LIMIT_BYTES = 2 * 1024 * 1024;
const MAX_REASON = 300;
const RECEIVER_PATH = '/api/tiktok/webhook';

const text = (cfg: ConnectorConfig, key: keyof typeof TIKTOK_CONFIG) => {
  const v = cfg[key];
  return typeof v === 'string' && v ? v : undefined;
};

const isConfigured = (cfg: ConnectorConfig) => !!text(cfg, 'TIKTOK_APP_ID') && !!text(cfg, 'TIKTOK_APP_SECRET');

function api(call: ConnectionCall) {
  const { config } = call;
  return tiktokClient({
    apiUrl: text(config, 'TIKTOK_API_URL') ?? DEFAULT_API_URL,
    authUrl: text(config, 'TIKTOK_AUTH_URL') ?? DEFAULT_AUTH_URL,
    appId: text(config, 'TIKTOK_APP_ID') ?? '',
    appSecret: text(config, 'TIKTOK_APP_SECRET') ?? '',
    fetch: call.fetch,
    timeoutMs: call.timeoutMs,
  });
}

/** TikTok's message and code (the client removes secrets), short: "<message> (TikTok code 40105)". */
export function tiktokReason(error: unknown): string {
  if (error instanceof TiktokError) {
    const code = error.code ? ` (TikTok code ${error.code})` : '';
    return `${error.message}${code}`.slice(0, MAX_REASON);
  }
  return (error instanceof Error ? error.message : String(error)).slice(0, MAX_REASON) || 'TikTok call failed';
}

const toForm = (f: TiktokForm) => ({
  id: f.id,
  name: f.title,
  status: f.status,
  questions: (f.fields ?? []).map((name) => ({ key: name, label: name, type: name.toUpperCase() })),
});

const toAdvertiser = (a: AssetView) => ({ id: a.externalId, name: a.name, isSubscribed: a.subscribed });

type WithAssets = { connection: ConnectionView; assets: AssetView[] };
type AssetResult = { asset: AssetView; state: { forms: unknown[]; subscribed: boolean } };

const toConnection = ({ connection: c, assets }: WithAssets) => ({
  _id: c.id,
  ttUserId: c.externalId,
  name: c.name,
  ...(c.email ? { email: c.email } : {}),
  status: c.status,
  statusReason: c.statusReason,
  expiresAt: c.expiresAt?.toISOString() ?? null,
  createdAt: c.createdAt.toISOString(),
  advertisers: assets.map(toAdvertiser),
});

const ZConnectionParams = z.object({ cid: z.string() });
const ZAdvertiserParams = z.object({ cid: z.string(), aid: z.string() });
const ZIdParams = z.object({ id: z.string() });
const str = (v: unknown) => (typeof v === 'string' ? v : '');
const field = (from: unknown, key: string) => str((from as Record<string, unknown> | null | undefined)?.[key]);
const connectionOf = ({ params }: { params: unknown }) => ({ connectionId: field(params, 'cid') });
const advertiserOf = ({ params }: { params: unknown }) => ({
  connectionId: field(params, 'cid'),
  assetId: field(params, 'aid'),
});

const base = '/api/tiktok/connection/:cid';
const advertiser = `${base}/advertiser/:aid`;

/** TikTok's paths (the screens' calls, manifest.ts). */
const aliases: ConnectionAlias[] = [
  { method: 'POST', path: '/api/tiktok/start', connection: 'start', body: ZTtStartBody.nullish(), response: ZAuthUrl },
  { method: 'GET', path: '/api/tiktok/callback', connection: 'callback' },
  {
    method: 'GET',
    path: '/api/tiktok/connections',
    connection: 'list',
    response: z.array(ZTtConnection),
    answer: (r) => (r as WithAssets[]).map(toConnection),
  },
  {
    method: 'GET',
    path: '/api/tiktok/picture',
    connection: 'picture',
    query: ZTtPictureQuery,
    response: ZTtPicture,
    read: ({ query }) => ({ objectId: field(query, 'id') }),
  },
  {
    method: 'GET',
    path: `${base}/advertisers`,
    connection: 'assets',
    params: ZConnectionParams,
    query: ZTtRefreshQuery,
    response: z.array(ZTtAdvertiser),
    read: ({ params, query }) => ({
      connectionId: field(params, 'cid'),
      refresh: field(query, 'refresh') === '1' || field(query, 'refresh') === 'true',
    }),
    answer: (r) => (r as WithAssets).assets.map(toAdvertiser),
  },
  {
    method: 'GET',
    path: advertiser,
    connection: 'asset',
    params: ZAdvertiserParams,
    response: ZTtAdvertiserState,
    read: advertiserOf,
    answer: (r) => {
      const { asset, state } = r as AssetResult;
      return { id: asset.externalId, name: asset.name, isSubscribed: state.subscribed, forms: state.forms };
    },
  },
  {
    method: 'GET',
    path: `${advertiser}/forms`,
    connection: 'asset',
    params: ZAdvertiserParams,
    response: z.array(ZTtForm),
    read: advertiserOf,
    answer: (r) => (r as AssetResult).state.forms,
  },
  {
    method: 'POST',
    path: `${advertiser}/subscribe`,
    connection: 'subscribe',
    params: ZAdvertiserParams,
    response: ZSuccessResponse,
    read: advertiserOf,
  },
  {
    method: 'DELETE',
    path: `${advertiser}/subscribe`,
    connection: 'unsubscribe',
    params: ZAdvertiserParams,
    response: ZSuccessResponse,
    read: advertiserOf,
  },
  {
    method: 'DELETE',
    path: base,
    connection: 'remove',
    params: ZConnectionParams,
    response: ZSuccessResponse,
    read: connectionOf,
  },
  {
    method: 'GET',
    path: '/api/tiktok/advertisers',
    connection: 'assetItems',
    response: z.array(ZTtItem),
    answer: (r) =>
      (r as { connection: ConnectionView; asset: AssetView }[]).map(({ connection, asset }) => ({
        connectionId: connection.id,
        connectionName: connection.name,
        advertiserId: asset.externalId,
        advertiserName: asset.name,
        isSubscribed: asset.subscribed,
      })),
  },
  {
    method: 'POST',
    path: '/api/tiktok/integration/:id/test-lead',
    connection: 'action',
    action: 'testLead',
    params: ZIdParams,
    body: ZTtTestLeadBody.nullish(),
    response: ZTtTestLead,
    read: ({ params }) => ({ integrationId: field(params, 'id') }),
  },
  {
    method: 'POST',
    path: '/api/tiktok/integration/:id/migrate',
    connection: 'migrate',
    params: ZIdParams,
    body: ZTtMigrateBody,
    response: ZIntegration,
    read: ({ params, body }) => ({ integrationId: field(params, 'id'), connectionId: field(body, 'ttConnectionId') }),
  },
];

/** TikTok keeps one test lead per form: the one this app made last is deleted first; the oldest forms are forgotten past this. */
const MAX_TEST_FORMS = 1_000;

/**
 * Makes one LEAD subscription of the ad account to `url` with `token`, then removes the older ones to
 * the same callback: a subscription lives on the token it was made with (a revoked one silently
 * ends it), so the newest token wins, and the moment both exist a lead comes twice, which the
 * receiver's dedupe by lead id absorbs.
 */
async function resubscribe(call: ConnectionCall, advertiserId: string, token: string, url: string, old: string[]) {
  const a = api(call);
  await a.subscribe(advertiserId, token, url);
  for (const id of old) await a.unsubscribe(id);
}

/**
 * At a new login: our app's subscriptions of the ad accounts it reaches (made with an older token,
 * perhaps revoked) are made again with the new one, so reconnecting is enough for leads to come
 * again. A failure is logged: the login stands, and turning leads on again does the same.
 */
async function renewSubscriptions(
  call: ConnectionCall,
  advertiserIds: string[],
  token: string,
  log: (msg: string, reason: string) => void,
) {
  try {
    const wanted = new Set(advertiserIds);
    const groups = new Map<string, { advertiserId: string; url: string; ids: string[] }>();
    for (const s of await api(call).subscriptions()) {
      if (!wanted.has(s.advertiserId) || !s.callbackUrl.endsWith(RECEIVER_PATH)) continue;
      const key = `${s.advertiserId} ${s.callbackUrl}`;
      const group = groups.get(key) ?? { advertiserId: s.advertiserId, url: s.callbackUrl, ids: [] };
      group.ids.push(s.id);
      groups.set(key, group);
    }
    for (const g of groups.values()) await resubscribe(call, g.advertiserId, token, g.url, g.ids);
  } catch (error) {
    log('tiktok subscriptions not renewed with the new token', tiktokReason(error));
  }
}

/** Our LEAD subscriptions of one ad account that deliver to `url`. */
async function ourSubscriptions(call: ConnectionCall, advertiserId: string, url: string) {
  const all = await api(call).subscriptions();
  return all.filter((s) => s.advertiserId === advertiserId && s.callbackUrl === url);
}

export const tiktokConnections: ConnectorConnections = {
  brand: 'TikTok',
  configured: isConfigured,
  login: {
    /**
     * The cookie holds a hash of the state in the browser that started the login (httpOnly, path
     * /api/tiktok/callback): a login link sent to someone else is refused.
     */
    callback: { path: '/api/tiktok/callback', cookie: 'lr_tt_oauth' },
    screen: '/admin/integrations/tiktok',
    url: (call, redirectUri, state) => api(call).loginUrl(redirectUri, state),
    // TikTok's portal comes back with the code as both `auth_code` and `code` (docs: ASSUMED); the generic callback reads `code`.
    trade: async (call, code) => ({ accessToken: await api(call).exchangeCode(code) }),
    profile: async (call, token, log) => {
      const a = api(call);
      const [user, advertisers] = await Promise.all([a.user(token), a.advertisers(token)]);
      await renewSubscriptions(
        call,
        advertisers.map((ad) => ad.id),
        token,
        log,
      );
      return {
        externalId: user.id,
        name: user.name,
        ...(user.email ? { email: user.email } : {}),
        // The ad accounts have no token of their own: the login's opens them.
        assets: { advertiser: advertisers.map((ad) => ({ externalId: ad.id, name: ad.name, accessToken: token })) },
      };
    },
  },
  asset: {
    kind: 'advertiser',
    list: async (call, token) =>
      (await api(call).advertisers(token)).map((ad) => ({ externalId: ad.id, name: ad.name, accessToken: token })),
    // Whether any LEAD subscription of this ad account still names our app's receiver.
    state: async (call, advertiserId, token) => {
      const a = api(call);
      const [forms, subscriptions] = await Promise.all([a.forms(advertiserId, token, true), a.subscriptions()]);
      const subscribed = subscriptions.some(
        (s) => s.advertiserId === advertiserId && s.callbackUrl.includes(RECEIVER_PATH),
      );
      return { forms: forms.map(toForm), subscribed };
    },
    // One subscription per ad account and callback (TikTok delivers once per subscription, so a second
    // would double every lead), made again with this token: turning leads on mends one a revoked token ended.
    subscribe: async (call, advertiserId, token, receiver) => {
      const old = (await ourSubscriptions(call, advertiserId, receiver.url)).map((s) => s.id);
      await resubscribe(call, advertiserId, token, receiver.url, old);
    },
    unsubscribe: async (call, advertiserId, _token, receiver) => {
      for (const s of await ourSubscriptions(call, advertiserId, receiver.url)) await api(call).unsubscribe(s.id);
    },
  },
  // TikTok's user/info gives an avatar, but not for an ad account: the screens draw the brand's initials instead.
  picture: async () => null,
  settings: { connection: 'ttConnectionId', asset: 'ttAdvertiserId', form: 'ttFormId' },
  notFound: { connection: 'TIKTOK_CONNECTION_NOT_FOUND', asset: 'TIKTOK_ADVERTISER_NOT_FOUND' },
  mail: { uk: mailUk, en: mailEn },
  errors: {
    reason: tiktokReason,
    refused: (error) => error instanceof TiktokError && (error.isTokenError || error.isPermissionError),
    // The webhook carries the lead: nothing TikTok says later makes a stored lead unreadable.
    gone: () => false,
  },
  // TikTok verifies no callback with a challenge: the GET answers 403.
  verifyToken: () => undefined,
  inbound: {
    receiver: {
      path: RECEIVER_PATH,
      summary: {
        verify: 'Not used by TikTok (403)',
        receive:
          'TikTok LEAD webhook (X-Open-Signature, HMAC-SHA256 with the app secret): each lead stored with its answers, acknowledged, then ingested by the worker',
      },
      bodyLimit: TIKTOK_WEBHOOK_BODY_LIMIT_BYTES,
      verify: () => null,
      // The signature is checked over the exact bytes received; nothing is parsed before.
      receive: (config, raw, headers) => {
        const appSecret = text(config, 'TIKTOK_APP_SECRET');
        const header = headers[SIGNATURE_HEADER];
        if (!appSecret || !verifySignature(raw, typeof header === 'string' ? header : undefined, appSecret)) {
          throw new InboundRefusal('UNAUTHORIZED');
        }
        let body: unknown;
        try {
          body = parseTiktokJson(raw);
        } catch {
          throw new InboundRefusal('INVALID_JSON');
        }
        return parseLeadWebhook(body).map(
          (entry): InboundEventInput => ({
            externalId: entry.id,
            assetId: entry.advertiserId,
            data: tiktokLeadPayload(entry),
          }),
        );
      },
    },
    // TikTok's subscription is per ad account (asset.subscribe): nothing to make once per app.
    ensure: async () => undefined,
    // The lead came with the webhook: its payload is the stored event's.
    fetch: async (_call, event) => ({ form: event.data.tiktok_form_id ?? null, payload: { ...event.data } }),
    headers: (event) => ({
      'x-leadrelay-source': 'tiktok',
      'x-tiktok-advertiser-id': event.assetId,
      'x-tiktok-lead-id': event.externalId,
    }),
    dedupeWindowHours: TIKTOK_DEDUPE_WINDOW_HOURS,
  },
  // TikTok documents no read of a form's leads since a time (only a CSV download task of every lead
  // the form kept, whose columns we could not confirm): no backfill, so no calls. TikTok itself
  // retries a webhook for 24 hours.
  backfill: {
    task: 'tiktok-backfill',
    everyMs: 60 * 60_000,
    forms: async () => [],
    since: async () => [],
  },
  actions: {
    // "Send a test lead": TikTok's own test lead on the integration's form (page/lead/mock/create/).
    testLead: {
      body: ZTtTestLeadBody.nullish(),
      response: ZTtTestLead,
      run: async (call, { token, settings, memory }) => {
        const formId = settings.ttFormId;
        const advertiserId = settings.ttAdvertiserId;
        if (typeof formId !== 'string' || typeof advertiserId !== 'string') throw new IntegrationNotConnected();
        const a = api(call);
        const previous = memory.get(formId);
        if (previous) {
          // Already gone (deleted in TikTok, or never made) is fine: the new one is what matters.
          await a.deleteTestLead(advertiserId, formId, previous, token).catch(() => undefined);
          memory.delete(formId);
        }
        const leadId = await a.createTestLead(advertiserId, formId, token);
        if (leadId) memory.set(formId, leadId);
        for (const old of memory.keys()) {
          if (memory.size <= MAX_TEST_FORMS) break;
          memory.delete(old);
        }
        return { leadId };
      },
    },
  },
  aliases,
};
