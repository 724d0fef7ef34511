// Meta lead forms as an account connection (kit/connection.ts): a Facebook profile logged in with
// Facebook Login (a long-lived user token) reaching its pages (page tokens) and ad accounts; the
// leadgen webhook (signed with the app secret) tells us of a lead on a page's form, the lead is read
// with the page token and mapped to ingest's flat fields; the backfill reads each form's recent
// leads. The server keeps the rows and runs the flows; what Facebook is lives here.
import { createHmac, timingSafeEqual } from 'node:crypto';
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
import { FB_SCOPES, GraphError, type GraphForm, graphClient } from './client';
import { graphLeadPayload } from './lead';
import {
  ZFbAccessTokenQuery,
  ZFbAccount,
  ZFbAccountState,
  ZFbAccountsQuery,
  ZFbConnection,
  ZFbConnectionRef,
  ZFbLeadForm,
  ZFbLeadFormBody,
  ZFbMigrateBody,
  ZFbPage,
  ZFbPageItem,
  ZFbPicture,
  ZFbPictureQuery,
  ZFbStartBody,
  ZFbTestLeadBody,
} from './schema';
import { DEFAULT_DIALOG_URL, DEFAULT_GRAPH_URL, GRAPH_API_VERSION, graphVersionStatus, versionOfUrl } from './versions';
import { parseLeadgenWebhook, SIGNATURE_256_HEADER, verifySignature } from './webhook';
import mailEn from './words/mail/connection/en.json';
import mailUk from './words/mail/connection/uk.json';

/** The configuration keys (the server's only reader of env reads them; FACEBOOK_APP_IDS_BY_HOST is sign-in's). */
export const FACEBOOK_CONFIG = {
  FACEBOOK_APP_ID: {},
  FACEBOOK_APP_SECRET: {},
  /** hub.verify_token of the webhook subscription; default: derived from the app secret. */
  FACEBOOK_VERIFY_TOKEN: {},
  FACEBOOK_GRAPH_URL: { type: 'url', default: DEFAULT_GRAPH_URL },
  FACEBOOK_DIALOG_URL: { type: 'url', default: DEFAULT_DIALOG_URL },
} as const;

/**
 * FACEBOOK_GRAPH_URL and FACEBOOK_DIALOG_URL pinned by the operator to a Graph version Meta has
 * retired (or that we do not know): Meta would quietly serve such calls with another version (or
 * refuse lead retrieval), so the server says so at start. Only facebook.com hosts (not an emulator).
 */
export function staleGraphVersions(
  cfg: ConnectorConfig,
  at: Date = new Date(),
): { setting: string; version: string; status: 'retired' | 'unknown'; current: string }[] {
  const out: { setting: string; version: string; status: 'retired' | 'unknown'; current: string }[] = [];
  for (const [setting, url] of [
    ['FACEBOOK_GRAPH_URL', text(cfg, 'FACEBOOK_GRAPH_URL') ?? DEFAULT_GRAPH_URL],
    ['FACEBOOK_DIALOG_URL', text(cfg, 'FACEBOOK_DIALOG_URL') ?? DEFAULT_DIALOG_URL],
  ] as const) {
    const host = URL.canParse(url) ? new URL(url).hostname : '';
    if (host !== 'facebook.com' && !host.endsWith('.facebook.com')) continue;
    const version = versionOfUrl(url) ?? '(none)';
    const status = graphVersionStatus(version, at);
    if (status !== 'live') out.push({ setting, version, status, current: GRAPH_API_VERSION });
  }
  return out;
}

/** The start-up warnings of a pinned version Meta no longer serves as asked (staleGraphVersions). */
export const startupWarnings = (cfg: ConnectorConfig, at?: Date) =>
  staleGraphVersions(cfg, at).map((stale) => ({
    ...stale,
    message: `${stale.setting} names a Graph API version Meta no longer serves as asked: use ${stale.current}`,
  }));

/** Meta retries for 36 h; a lead id counts as seen for at least 7 days (ADR 006). */
export const FB_DEDUPE_WINDOW_HOURS = 7 * 24;
/** Meta batches up to about 1000 updates per POST; 1 MB holds far more. */
export const FB_WEBHOOK_BODY_LIMIT_BYTES = 1024 * 1024;
const MAX_CHALLENGE = 256;
const MAX_REASON = 300;

const text = (cfg: ConnectorConfig, key: keyof typeof FACEBOOK_CONFIG) => {
  const v = cfg[key];
  return typeof v === 'string' && v ? v : undefined;
};

const isConfigured = (cfg: ConnectorConfig) => !!text(cfg, 'FACEBOOK_APP_ID') && !!text(cfg, 'FACEBOOK_APP_SECRET');

function graph(call: ConnectionCall) {
  const { config } = call;
  return graphClient({
    graphUrl: text(config, 'FACEBOOK_GRAPH_URL') ?? DEFAULT_GRAPH_URL,
    dialogUrl: text(config, 'FACEBOOK_DIALOG_URL') ?? DEFAULT_DIALOG_URL,
    appId: text(config, 'FACEBOOK_APP_ID') ?? '',
    appSecret: text(config, 'FACEBOOK_APP_SECRET') ?? '',
    fetch: call.fetch,
    timeoutMs: call.timeoutMs,
  });
}

/**
 * hub.verify_token of the app's subscription: FACEBOOK_VERIFY_TOKEN, else derived from the app
 * secret (stable across restarts and nodes); undefined while Facebook is not configured.
 */
export function facebookVerifyToken(config: ConnectorConfig): string | undefined {
  const verifyToken = text(config, 'FACEBOOK_VERIFY_TOKEN');
  if (verifyToken) return verifyToken;
  const appSecret = text(config, 'FACEBOOK_APP_SECRET');
  if (!appSecret) return undefined;
  return createHmac('sha256', appSecret).update('leadrelay:facebook-webhook-verify-token').digest('hex').slice(0, 40);
}

/** Facebook's message and code (the client removes secrets), short. */
export function graphReason(error: unknown): string {
  if (error instanceof GraphError) {
    const code = error.code ? ` (code ${error.code}${error.subcode ? `/${error.subcode}` : ''})` : '';
    return `${error.message}${code}`.slice(0, MAX_REASON);
  }
  return (error instanceof Error ? error.message : String(error)).slice(0, MAX_REASON) || 'Facebook call failed';
}

const toForm = (f: GraphForm) => ({
  id: f.id,
  name: f.name,
  status: f.status,
  locale: f.locale ?? null,
  questions: f.questions.map((q) => ({ key: q.key, label: q.label ?? q.key, type: q.type })),
});

const toPage = (p: AssetView) => ({
  id: p.externalId,
  name: p.name,
  category: p.details.category ?? null,
  isSubscribed: p.subscribed,
});

type WithAssets = { connection: ConnectionView; assets: AssetView[] };

const toConnection = ({ connection: c, assets }: WithAssets) => ({
  _id: c.id,
  fbUserId: c.externalId,
  name: c.name,
  ...(c.email ? { email: c.email } : {}),
  status: c.status,
  statusReason: c.statusReason,
  expiresAt: c.expiresAt?.toISOString() ?? null,
  createdAt: c.createdAt.toISOString(),
  pages: assets.map(toPage),
});

type AssetResult = { asset: AssetView; state: { forms: unknown[]; subscribed: boolean } };

const legacy = '/api/legacy/api/facebook';
const ZConnectionParams = z.object({ cid: z.string() });
const ZPageParams = z.object({ cid: z.string(), aid: z.string() });
const ZIdParams = z.object({ id: z.string() });
const str = (v: unknown) => (typeof v === 'string' ? v : '');
const field = (from: unknown, key: string) => str((from as Record<string, unknown> | null | undefined)?.[key]);

/** The spec's Facebook paths (every one answers as before the connection became generic). */
const aliases: ConnectionAlias[] = [
  { method: 'POST', path: '/facebook/start', connection: 'start', body: ZFbStartBody.nullish(), response: ZAuthUrl },
  { method: 'GET', path: '/facebook/callback', connection: 'callback' },
  {
    method: 'GET',
    path: '/api/facebook/connections',
    connection: 'list',
    response: z.array(ZFbConnection),
    answer: (r) => (r as WithAssets[]).map(toConnection),
  },
  {
    method: 'GET',
    path: '/api/facebook/accountPicture',
    connection: 'picture',
    query: ZFbPictureQuery,
    response: ZFbPicture,
    read: ({ query }) => ({ objectId: field(query, 'accountId') }),
  },
  {
    method: 'GET',
    path: '/api/facebook/connection/:cid/accounts',
    connection: 'assets',
    params: ZConnectionParams,
    query: ZFbAccountsQuery,
    response: z.array(ZFbAccount),
    read: ({ params, query }) => ({
      connectionId: field(params, 'cid'),
      refresh: field(query, 'refresh') === '1' || field(query, 'refresh') === 'true',
    }),
    answer: (r) => {
      const { connection, assets } = r as WithAssets;
      return [{ id: connection.externalId, name: connection.name, pages: assets.map(toPage) }];
    },
  },
  {
    method: 'GET',
    path: '/api/facebook/connection/:cid/account/:aid',
    connection: 'asset',
    params: ZPageParams,
    response: ZFbAccountState,
    read: ({ params }) => ({ connectionId: field(params, 'cid'), assetId: field(params, 'aid') }),
    answer: (r) => {
      const { asset, state } = r as AssetResult;
      return { id: asset.externalId, name: asset.name, isSubscribed: state.subscribed, leadForms: state.forms };
    },
  },
  {
    method: 'POST',
    path: '/api/facebook/connection/:cid/account/:aid/subscribe',
    connection: 'subscribe',
    params: ZPageParams,
    response: ZSuccessResponse,
    read: ({ params }) => ({ connectionId: field(params, 'cid'), assetId: field(params, 'aid') }),
  },
  {
    method: 'DELETE',
    path: '/api/facebook/connection/:cid/account/:aid/unsubscribe',
    connection: 'unsubscribe',
    params: ZPageParams,
    response: ZSuccessResponse,
    read: ({ params }) => ({ connectionId: field(params, 'cid'), assetId: field(params, 'aid') }),
  },
  // Legacy paths (the JS SDK flow and the old screens).
  {
    method: 'GET',
    path: `${legacy}/accessToken`,
    connection: 'code',
    query: ZFbAccessTokenQuery,
    response: z.object({ connectionId: z.string() }),
    read: ({ query }) => ({ code: field(query, 'code'), redirectUri: field(query, 'redirectUri') }),
  },
  {
    method: 'POST',
    path: `${legacy}/accounts`,
    connection: 'assets',
    body: ZFbConnectionRef,
    response: z.array(ZFbAccount),
    read: ({ body }) => ({ connectionId: field(body, 'connectionId'), refresh: true }),
    answer: (r) => {
      const { connection, assets } = r as WithAssets;
      return [{ id: connection.externalId, name: connection.name, pages: assets.map(toPage) }];
    },
  },
  {
    method: 'DELETE',
    path: `${legacy}/accounts/:id`,
    connection: 'remove',
    params: ZIdParams,
    response: ZSuccessResponse,
    read: ({ params }) => ({ connectionId: field(params, 'id') }),
  },
  {
    method: 'POST',
    path: `${legacy}/pages`,
    connection: 'assetList',
    body: ZFbConnectionRef,
    response: z.array(ZFbPage),
    read: ({ body }) => ({ connectionId: field(body, 'connectionId') }),
    answer: (r) => (r as AssetView[]).map(toPage),
  },
  {
    method: 'POST',
    path: `${legacy}/leadform`,
    connection: 'asset',
    body: ZFbLeadFormBody,
    response: z.array(ZFbLeadForm),
    read: ({ body }) => ({ connectionId: field(body, 'connectionId'), assetId: field(body, 'pageId') }),
    answer: (r) => (r as AssetResult).state.forms,
  },
  {
    method: 'GET',
    path: '/api/legacy/api/admin/integration/fbPageItems',
    connection: 'assetItems',
    response: z.array(ZFbPageItem),
    answer: (r) =>
      (r as { connection: ConnectionView; asset: AssetView }[]).map(({ connection, asset }) => ({
        connectionId: connection.id,
        connectionName: connection.name,
        pageId: asset.externalId,
        pageName: asset.name,
        isSubscribed: asset.subscribed,
      })),
  },
  {
    method: 'POST',
    path: '/api/facebook/integration/:id/test-lead',
    connection: 'action',
    action: 'testLead',
    params: ZIdParams,
    body: ZFbTestLeadBody.nullish(),
    response: z.object({ leadgenId: z.string() }),
    read: ({ params }) => ({ integrationId: field(params, 'id') }),
  },
  {
    method: 'POST',
    path: '/api/integrations/migrate/fb/:id',
    connection: 'migrate',
    params: ZIdParams,
    body: ZFbMigrateBody,
    response: ZIntegration,
    read: ({ params, body }) => ({ integrationId: field(params, 'id'), connectionId: field(body, 'fbConnectionId') }),
  },
];

/** Meta allows one test lead per form at a time: the one this app made last is deleted first; the oldest forms are forgotten past this. */
const MAX_TEST_FORMS = 1_000;

export const facebookConnections: ConnectorConnections = {
  brand: 'Facebook',
  configured: isConfigured,
  login: {
    /**
     * The cookie holds a hash of the state in the browser that started the login (httpOnly, path
     * /facebook/callback): a login link sent to someone else is refused, so nobody can connect their
     * victim's pages to their own account.
     */
    callback: { path: '/facebook/callback', cookie: 'lr_fb_oauth' },
    screen: '/admin/integrations/facebook',
    url: (call, redirectUri, state) => graph(call).loginUrl(redirectUri, state, FB_SCOPES),
    // code → short-lived → long-lived user token.
    trade: async (call, code, redirectUri) => {
      const g = graph(call);
      const short = await g.exchangeCode(code, redirectUri);
      return g.longLivedToken(short.accessToken);
    },
    profile: async (call, token, log) => {
      const g = graph(call);
      const [me, pages] = await Promise.all([g.me(token), g.pages(token)]);
      // Ad accounts are informative: without ads permissions the connection still works for lead forms.
      const adAccounts = await g.adAccounts(token).catch((error: unknown) => {
        log('facebook ad accounts not read', graphReason(error));
        return null;
      });
      return {
        externalId: me.id,
        name: me.name,
        ...(me.email ? { email: me.email } : {}),
        assets: {
          page: pages.map((p) => ({
            externalId: p.id,
            name: p.name,
            details: { category: p.category ?? null },
            accessToken: p.accessToken,
          })),
          adAccount: adAccounts?.map((a) => ({ externalId: a.id, name: a.name })) ?? null,
        },
      };
    },
  },
  asset: {
    kind: 'page',
    list: async (call, token) =>
      (await graph(call).pages(token)).map((p) => ({
        externalId: p.id,
        name: p.name,
        details: { category: p.category ?? null },
        accessToken: p.accessToken,
      })),
    state: async (call, pageId, token) => {
      const g = graph(call);
      const [forms, subscribed] = await Promise.all([g.leadForms(pageId, token), g.isPageSubscribed(pageId, token)]);
      return { forms: forms.map(toForm), subscribed };
    },
    subscribe: (call, pageId, token) => graph(call).subscribePage(pageId, token),
    unsubscribe: (call, pageId, token) => graph(call).unsubscribePage(pageId, token),
  },
  picture: (call, objectId, token) => graph(call).picture(objectId, token),
  settings: { connection: 'fbConnectionId', asset: 'fbPageId', form: 'fbFormId' },
  notFound: { connection: 'FB_CONNECTION_NOT_FOUND', asset: 'FB_PAGE_NOT_FOUND' },
  mail: { uk: mailUk, en: mailEn },
  errors: {
    reason: graphReason,
    refused: (error) => error instanceof GraphError && (error.isTokenError || error.isPermissionError),
    gone: (error) => error instanceof GraphError && error.code === 100,
  },
  verifyToken: facebookVerifyToken,
  inbound: {
    receiver: {
      path: '/api/facebook/webhook',
      summary: {
        verify: 'Meta webhook verification (hub.challenge echo)',
        receive: 'Meta leadgen notifications: stored, acknowledged, then fetched and ingested by the worker',
      },
      bodyLimit: FB_WEBHOOK_BODY_LIMIT_BYTES,
      verify: (config, query) => {
        const expected = facebookVerifyToken(config);
        const token = query['hub.verify_token'];
        const challenge = query['hub.challenge'];
        if (!expected || query['hub.mode'] !== 'subscribe' || typeof token !== 'string') return null;
        if (typeof challenge !== 'string' || !challenge || challenge.length > MAX_CHALLENGE) return null;
        return sameText(token, expected) ? challenge : null;
      },
      // The signature is checked over the exact bytes received; nothing is parsed before.
      receive: (config, raw, headers) => {
        const appSecret = text(config, 'FACEBOOK_APP_SECRET');
        const header = headers[SIGNATURE_256_HEADER];
        if (!appSecret || !verifySignature(raw, typeof header === 'string' ? header : undefined, appSecret)) {
          throw new InboundRefusal('UNAUTHORIZED');
        }
        let body: unknown;
        try {
          body = JSON.parse(raw.toString('utf8'));
        } catch {
          throw new InboundRefusal('INVALID_JSON');
        }
        return parseLeadgenWebhook(body).map(
          (n): InboundEventInput => ({
            externalId: n.leadgenId,
            assetId: n.pageId,
            ...(n.formId ? { data: { formId: n.formId } } : {}),
          }),
        );
      },
    },
    // The app-level subscription (object page, field leadgen, our callback; Facebook verifies it with
    // a GET to the callback during the call), asked of Facebook first, so it is made once per app,
    // and made again if someone removed it in the app's settings.
    ensure: async (call, receiver) => {
      const g = graph(call);
      try {
        const existing = await g.appSubscriptions();
        const done = existing.some(
          (s) => s.object === 'page' && s.active && s.callbackUrl === receiver.url && s.fields.includes('leadgen'),
        );
        if (!done) await g.subscribeApp(receiver.url, receiver.verifyToken);
      } catch (error) {
        throw new Error(`Facebook did not accept the webhook ${receiver.url}: ${graphReason(error)}`);
      }
    },
    fetch: async (call, event, token) => {
      const lead = await graph(call).lead(event.externalId, token);
      return { form: lead.form_id ?? event.data.formId ?? null, payload: graphLeadPayload(lead) };
    },
    headers: (event) => ({ 'x-leadrelay-source': 'facebook', 'x-facebook-page-id': event.assetId }),
    dedupeWindowHours: FB_DEDUPE_WINDOW_HOURS,
  },
  backfill: {
    task: 'facebook-backfill',
    everyMs: 15 * 60_000,
    forms: async (call, pageId, token) => (await graph(call).leadForms(pageId, token)).map((f) => f.id),
    since: async (call, pageId, formId, token, sinceUnix) =>
      (await graph(call).formLeads(formId, token, sinceUnix)).map((l) => ({
        externalId: l.id,
        assetId: pageId,
        data: { formId: l.form_id ?? formId },
      })),
  },
  actions: {
    // "Send a test lead": Graph's own test_leads call on the integration's form (what Meta's Lead Ads
    // testing tool does), so the lead comes back the way a real one does: webhook, fetch, mapping,
    // destinations.
    testLead: {
      body: ZFbTestLeadBody.nullish(),
      response: z.object({ leadgenId: z.string() }),
      run: async (call, { token, settings, body, memory }) => {
        const formId = settings.fbFormId;
        if (typeof formId !== 'string') throw new IntegrationNotConnected();
        const g = graph(call);
        const previous = memory.get(formId);
        if (previous) {
          // Already gone (deleted in Meta's tool, or never made) is fine: the new one is what matters.
          await g.deleteLead(previous, token).catch(() => undefined);
          memory.delete(formId);
        }
        const fieldData = (body as { fieldData?: { name: string; values: string[] }[] } | null | undefined)?.fieldData;
        const leadgenId = await g.testLead(formId, token, fieldData);
        memory.set(formId, leadgenId);
        // A forgotten form's last test lead is not deleted first: Meta then refuses the new one until
        // it is deleted in its tool, which only a person testing over a thousand forms could meet.
        for (const old of memory.keys()) {
          if (memory.size <= MAX_TEST_FORMS) break;
          memory.delete(old);
        }
        return { leadgenId };
      },
    },
  },
  aliases,
};

/** Constant-time comparison of two strings. */
function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
