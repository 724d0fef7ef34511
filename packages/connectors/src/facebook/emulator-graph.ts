// The Graph API entry of the emulator (external-apis 1.8): version check, faults, the login
// dialog, the three token exchanges, token checks (param or Bearer, appsecret_proof), throttling with
// usage headers, and the routing of nodes and edges (emulator-edges.ts). Meta's error envelope, HTTP 400.

import { createHmac } from 'node:crypto';
import { setOwn } from '@leadrelay/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { adsPixels, postCapiEvents } from './emulator-capi';
import {
  appSubscriptions,
  type Call,
  FORM_FIELDS,
  fail,
  filterLeads,
  formNode,
  GraphFault,
  type GraphRuntime,
  LEAD_NODE_FIELDS,
  leadNode,
  PAGE_FIELDS,
  type Params,
  paged,
  pageNode,
  requirePageToken,
  requireScope,
  select,
  subscribedApps,
  testLead,
  unsupported,
} from './emulator-edges';
import { debugToken, isForeignToken, userNode } from './emulator-signin';
import { type EmulatedPage, type EmulatedToken, newToken } from './emulator-state';
import { GRAPH_API_VERSION, graphVersionStatus } from './versions';

export { GRAPH_VERSION, type GraphRuntime, leadNode, sampleFieldData } from './emulator-edges';

const SHORT_LIVED_S = 5_400;
const LONG_LIVED_S = 5_183_944;
const DEFAULT_SCOPES = ['public_profile'];

/** Query and form (urlencoded or JSON) parameters, merged. */
export function paramsOf(req: FastifyRequest): Params {
  const out: Params = {};
  for (const [k, v] of Object.entries((req.query ?? {}) as Record<string, unknown>)) {
    if (typeof v === 'string') setOwn(out, k, v);
  }
  const raw = typeof req.body === 'string' ? req.body : '';
  if (!raw) return out;
  const type = String(req.headers['content-type'] ?? '');
  if (type.includes('json')) {
    try {
      for (const [k, v] of Object.entries(JSON.parse(raw) as Record<string, unknown>)) {
        setOwn(out, k, typeof v === 'string' ? v : JSON.stringify(v));
      }
    } catch {
      // An unreadable body adds nothing; the call fails on what it misses.
    }
  } else {
    for (const [k, v] of new URLSearchParams(raw)) setOwn(out, k, v);
  }
  return out;
}

export function tokenOf(req: FastifyRequest, params: Params): string | undefined {
  const header = req.headers.authorization;
  if (typeof header === 'string' && /^(Bearer|OAuth)\s+/i.test(header)) return header.replace(/^\S+\s+/, '').trim();
  return params.access_token || undefined;
}

/** Handles a request under /{version}/...; answers Meta's error envelope for every failure. */
export async function handleGraph(req: FastifyRequest, reply: FastifyReply, rt: GraphRuntime): Promise<unknown> {
  const url = new URL(req.url, 'http://emulator');
  const segments = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const [version, ...rest] = segments;
  const call: Call = {
    req,
    reply,
    rt,
    params: paramsOf(req),
    method: req.method,
    version: version ?? '',
    path: rest.join('/'),
  };
  try {
    refuseVersion(version ?? '', rest);
    if (call.path === 'dialog/oauth') return dialog(call);
    if (rt.fault) {
      const f = rt.fault;
      if (f.times !== undefined && --f.times <= 0) rt.fault = null;
      const code = f.status === 503 ? 2 : 1;
      throw new GraphFault(
        code,
        code === 2 ? 'Service temporarily unavailable' : 'An unknown error has occurred.',
        undefined,
        f.status,
      );
    }
    if (call.path === 'oauth/access_token') return accessToken(call);
    const token = authenticate(call);
    rt.callCount += 1;
    if (rt.throttle !== null) throttled(rt, token.token);
    reply.header('x-app-usage', JSON.stringify({ call_count: 1, total_cputime: 1, total_time: 1 }));
    return await route(call, token.value);
  } catch (err) {
    if (!(err instanceof GraphFault)) throw err;
    for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
    if (err.code === 190 || err.code === 104) {
      reply.header('www-authenticate', `OAuth "Facebook Platform" "invalid_token" "${err.message.replace(/"/g, "'")}"`);
    }
    return reply.code(err.status).send({
      error: {
        message: err.message,
        type: err.code === 1 || err.code === 2 ? 'FacebookApiException' : 'OAuthException',
        code: err.code,
        ...(err.subcode !== undefined ? { error_subcode: err.subcode } : {}),
        ...(err.code === 1 || err.code === 2 ? { is_transient: true } : {}),
        fbtrace_id: `A${Math.random().toString(36).slice(2, 12)}`,
      },
    });
  }
}

/**
 * Only the versions Meta still serves (versions.ts). A retired one gets the Marketing API's answer
 * (#2635, Meta's wording), where the real Graph API would quietly serve the oldest live version
 * instead: the emulator is stricter so that a test notices. A version Meta never released (or one
 * newer than the table) gets Meta's answer to a path it does not know (#2500).
 */
function refuseVersion(version: string, rest: string[]): void {
  const status = graphVersionStatus(version);
  if (status === 'retired') {
    fail(
      2635,
      `(#2635) You are calling a deprecated version of the Ads API. Please update to the latest version: ${GRAPH_API_VERSION}.`,
    );
  }
  if (status === 'unknown') fail(2500, `Unknown path components: /${[version, ...rest].join('/')}`);
}

function dialog({ params, reply, rt }: Call): unknown {
  const redirectUri = params.redirect_uri;
  if (params.client_id !== rt.appId) fail(101, 'Error validating application. Invalid application ID.');
  const target = URL.canParse(redirectUri ?? '') ? new URL(redirectUri ?? '') : undefined;
  if (!redirectUri || !target || !/^https?:$/.test(target.protocol)) return fail(100, 'Invalid redirect_uri');
  if (params.state) target.searchParams.set('state', params.state);
  if (rt.isLoginDenied) {
    target.searchParams.set('error', 'access_denied');
    target.searchParams.set('error_code', '200');
    target.searchParams.set('error_description', 'Permissions error');
    target.searchParams.set('error_reason', 'user_denied');
    return reply.redirect(target.toString(), 302);
  }
  const scopes = (params.scope ?? '').split(/[\s,]+/).filter(Boolean);
  const code = newToken('AQ');
  rt.state.codes.set(code, {
    redirectUri,
    scopes: scopes.length ? scopes : DEFAULT_SCOPES,
    used: false,
    expiresAt: Date.now() + 10 * 60_000,
  });
  // A fresh grant brings back what the user had revoked.
  for (const s of scopes) rt.state.revokedScopes.delete(s);
  target.searchParams.set('code', code);
  return reply.redirect(target.toString(), 302);
}

function accessToken({ params, rt }: Call): unknown {
  if (params.client_id !== rt.appId) fail(101, 'Error validating application. Invalid application ID.');
  if (params.client_secret !== rt.appSecret) fail(1, 'Error validating client secret.');
  const { tokens, codes } = rt.state;
  if (params.grant_type === 'client_credentials') {
    const token = `${rt.appId}|${newToken('')}`;
    tokens.set(token, { kind: 'app' });
    return { access_token: token, token_type: 'bearer' };
  }
  if (params.grant_type === 'fb_exchange_token') {
    const short = tokens.get(params.fb_exchange_token ?? '');
    if (short?.kind !== 'user') fail(190, 'Invalid OAuth access token - Cannot parse access token');
    if (isExpired(short)) fail(190, 'Error validating access token: Session has expired.', 463);
    const token = newToken();
    tokens.set(token, { kind: 'user', expiresAt: Date.now() + LONG_LIVED_S * 1000, isLongLived: true });
    return { access_token: token, token_type: 'bearer', expires_in: LONG_LIVED_S };
  }
  if (!params.code) fail(100, 'Missing authorization code');
  const grant = codes.get(params.code);
  if (!grant || grant.expiresAt < Date.now()) fail(100, 'Invalid verification code format.');
  if (grant.used) fail(100, 'This authorization code has been used.', 36009);
  if (grant.redirectUri !== params.redirect_uri) {
    fail(100, 'Error validating verification code. Please make sure your redirect_uri is identical.', 36008);
  }
  grant.used = true;
  const token = newToken();
  tokens.set(token, { kind: 'user', expiresAt: Date.now() + SHORT_LIVED_S * 1000 });
  return { access_token: token, token_type: 'bearer', expires_in: SHORT_LIVED_S };
}

const isExpired = (t: EmulatedToken) => t.expired === true || (t.expiresAt !== undefined && t.expiresAt < Date.now());

function authenticate({ req, params, rt }: Call): { token: string; value: EmulatedToken } {
  const token = tokenOf(req, params);
  if (!token) fail(104, 'An access token is required to request this resource.');
  let value = rt.state.tokens.get(token);
  if (!value && token === `${rt.appId}|${rt.appSecret}`) value = { kind: 'app' };
  if (!value) fail(190, 'Invalid OAuth access token - Cannot parse access token');
  if (isExpired(value)) {
    fail(190, 'Error validating access token: Session has expired on Tuesday, 4-Jun-24 10:00:00 PDT.', 463);
  }
  const proof = params.appsecret_proof;
  // Meta checks the proof with the secret of the token's own app.
  if (
    proof &&
    (isForeignToken(rt, value) || proof !== createHmac('sha256', rt.appSecret).update(token).digest('hex'))
  ) {
    fail(100, 'Invalid appsecret_proof provided in the API argument');
  }
  return { token, value };
}

const THROTTLE_MESSAGES: Record<number, string> = {
  4: 'Application request limit reached',
  17: 'User request limit reached',
  32: 'Page request limit reached',
  80005: 'There have been too many leadgen api calls to this Page. Wait a bit and try again.',
};

function throttled(rt: GraphRuntime, token: string): never {
  const code = rt.throttle as number;
  const value = rt.state.tokens.get(token);
  const headers: Record<string, string> = {
    'x-app-usage': JSON.stringify({ call_count: 100, total_cputime: 100, total_time: 100 }),
  };
  if (value?.kind === 'page' && value.pageId) {
    headers['x-business-use-case-usage'] = JSON.stringify({
      [value.pageId]: [
        {
          type: code === 80005 ? 'leadgen' : 'pages',
          call_count: 100,
          total_cputime: 100,
          total_time: 100,
          estimated_time_to_regain_access: 5,
        },
      ],
    });
  }
  throw new GraphFault(
    code,
    THROTTLE_MESSAGES[code] ?? 'Calls to this api have exceeded the rate limit.',
    undefined,
    400,
    headers,
  );
}

function route(call: Call, token: EmulatedToken): unknown {
  const { rt, params, method } = call;
  const { state } = rt;
  const [nodeId = '', edge, ...extra] = call.path.split('/');
  if (extra.length) fail(2500, `Unknown path components: /${extra.join('/')}`);
  const userId = nodeId === 'me' ? (token.kind === 'user' ? state.user.id : '') : nodeId;
  if (nodeId === 'me' && token.kind !== 'user') {
    fail(2500, 'An active access token must be used to query information about the current user.');
  }

  if (userId === state.user.id) {
    if (token.kind !== 'user') unsupported(userId);
    if (!edge) return select(userNode(state.user, token), params.fields, 'id,name', ['id', 'name', 'email'], 'User');
    if (edge === 'accounts') {
      requireScope(rt, 'pages_show_list');
      return paged(
        call,
        state.pages.map((p) => pageNode(p, true)),
        PAGE_FIELDS,
        'id,name,access_token',
        'Page',
      );
    }
    if (edge === 'adaccounts') {
      requireScope(rt, 'ads_management');
      const rows = state.adAccounts.map((a) => ({ ...a, account_id: a.id.replace(/^act_/, '') }));
      return paged(call, rows, ['id', 'name', 'account_id'], 'id', 'AdAccount');
    }
  }
  if (edge === 'picture' && method === 'GET') {
    const url = `${rt.origin()}/__emulator/picture/${encodeURIComponent(nodeId)}.svg`;
    if (params.redirect === 'false' || params.redirect === '0') {
      return { data: { height: 100, width: 100, is_silhouette: false, url } };
    }
    return call.reply.redirect(url, 302);
  }
  if (nodeId === rt.appId && edge === 'subscriptions') return appSubscriptions(call, token);
  // Conversions API (emulator-capi.ts): an ad account's datasets, a dataset's events.
  if (/^act_\d+$/.test(nodeId) && edge === 'adspixels' && method === 'GET') return adsPixels(call, token, nodeId);
  if (edge === 'events' && method === 'POST' && /^\d+$/.test(nodeId)) return postCapiEvents(call, token, nodeId);
  if (nodeId === 'debug_token' && !edge) return debugToken(call, token);

  const page = state.pages.find((p) => p.id === nodeId);
  if (page) {
    if (!edge) {
      if (token.kind === 'page') requirePageToken(token, page);
      else if (token.kind !== 'user') unsupported(page.id);
      return select(pageNode(page, token.kind === 'user'), params.fields, 'id,name', PAGE_FIELDS, 'Page');
    }
    if (edge === 'subscribed_apps') return subscribedApps(call, token, page);
    if (edge === 'leadgen_forms' && method === 'GET') {
      requirePageToken(token, page);
      requireScope(rt, 'pages_manage_ads');
      const rows = state.forms.filter((f) => f.pageId === page.id).map((f) => formNode(state, f));
      return paged(call, rows, FORM_FIELDS, 'id,name,status,locale', 'LeadgenForm');
    }
  }

  const form = state.forms.find((f) => f.id === nodeId);
  if (form) {
    const owner = state.pages.find((p) => p.id === form.pageId) as EmulatedPage;
    if (!edge && method === 'GET') {
      if (token.kind === 'page') requirePageToken(token, owner);
      else if (token.kind !== 'user') unsupported(form.id);
      return select(formNode(state, form), params.fields, 'id,name,status,locale', FORM_FIELDS, 'LeadgenForm');
    }
    if (edge === 'leads' && method === 'GET') {
      requirePageToken(token, owner);
      requireScope(rt, 'leads_retrieval');
      const rows = filterLeads(
        [...state.leads.values()].filter((l) => l.formId === form.id),
        params.filtering,
      )
        .sort((a, b) => b.createdTime - a.createdTime || b.id.localeCompare(a.id))
        .map(leadNode);
      return paged(call, rows, LEAD_NODE_FIELDS, 'id,created_time,field_data', 'Lead');
    }
    if (edge === 'test_leads' && method === 'POST') return testLead(call, token, form, owner);
  }

  const lead = state.leads.get(nodeId);
  if (lead && !edge) {
    const owner = state.pages.find((p) => p.id === lead.pageId) as EmulatedPage;
    if (token.kind === 'page') requirePageToken(token, owner);
    else if (token.kind !== 'user') unsupported(lead.id);
    requireScope(rt, 'leads_retrieval');
    if (method === 'DELETE') {
      if (!lead.isTest) fail(100, '(#100) Only test leads can be deleted');
      state.leads.delete(lead.id);
      return { success: true };
    }
    if (method === 'GET') return select(leadNode(lead), params.fields, 'id', LEAD_NODE_FIELDS, 'Lead');
  }
  return unsupported(nodeId);
}
