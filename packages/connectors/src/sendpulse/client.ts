// The only file of the SendPulse connector that does HTTP (always through ctx.fetch). Auth is OAuth
// client credentials: one token per app, cached in memory until shortly before it expires, because
// SendPulse asks clients not to request a token per call; a 401 gets one new token and one retry.
import { createHash } from 'node:crypto';
import { fetchWithTrace } from '../kit/client-kit';
import { PermanentError } from '../kit/errors';
import { classifyResponse, destinationMessage, redact, redactUrl } from '../kit/http-errors';
import type { AttemptTrace, ConnectorContext } from '../kit/types';
import type { SendpulseAuth, SendpulseChannel, SendpulseSettings } from './schema';

export type SendpulseContext = ConnectorContext<SendpulseAuth, SendpulseSettings>;

export const SENDPULSE_API_URL = 'https://api.sendpulse.com';
/** A token is renewed this long before SendPulse says it expires. */
export const TOKEN_MARGIN_MS = 60_000;

// Path prefix of each chatbot channel's API (external-apis 8.2: Viber lives under viber/chatbots, live chat under live-chat).
const CHANNEL_PATH: Record<SendpulseChannel, string> = {
  telegram: 'telegram',
  whatsapp: 'whatsapp',
  instagram: 'instagram',
  messenger: 'messenger',
  viber: 'viber/chatbots',
  livechat: 'live-chat',
};

interface CachedToken {
  token: string;
  expiresAt: number;
}
const tokens = new Map<string, CachedToken>();
/** Credentials kept per process; past it the oldest token goes (it only costs a new token request). */
const MAX_TOKENS = 1_000;
const pending = new Map<string, Promise<CachedToken>>();

/** Drops every cached token (tests; a process never needs it). */
export function clearTokenCache(): void {
  tokens.clear();
  pending.clear();
}

const baseOf = (ctx: SendpulseContext) => (ctx.baseUrl ?? SENDPULSE_API_URL).replace(/\/+$/, '');
// The secret is part of the key (hashed), so new credentials for the same client id never reuse an old token.
const cacheKey = (ctx: SendpulseContext) =>
  createHash('sha256')
    .update(`${baseOf(ctx)}\n${ctx.auth.clientId}\n${ctx.auth.clientSecret}`)
    .digest('base64url');

/** Calls ctx.fetch, turning network failures into classified errors that carry our (redacted) request. */
const send = (ctx: SendpulseContext, url: string, init: RequestInit, trace: AttemptTrace) =>
  fetchWithTrace(ctx.fetch, url, { ...init, signal: ctx.signal }, trace);

async function requestToken(ctx: SendpulseContext): Promise<CachedToken> {
  const url = `${baseOf(ctx)}/oauth/access_token`;
  const trace: AttemptTrace = {
    request: {
      method: 'POST',
      url: redactUrl(url),
      body: { grant_type: 'client_credentials', client_id: ctx.auth.clientId, client_secret: '[redacted]' },
    },
  };
  const res = await send(
    ctx,
    url,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({
        grant_type: 'client_credentials',
        client_id: ctx.auth.clientId,
        client_secret: ctx.auth.clientSecret,
      }),
    },
    trace,
  );
  const { body } = await classifyResponse(res, trace);
  const { access_token: token, expires_in: expiresIn } = (body ?? {}) as {
    access_token?: unknown;
    expires_in?: unknown;
  };
  if (typeof token !== 'string' || !token) {
    throw new PermanentError('SendPulse answered the token request without a token', { code: 'AUTH', ...trace });
  }
  const ttlMs = (typeof expiresIn === 'number' && expiresIn > 0 ? expiresIn : 3600) * 1000;
  return { token, expiresAt: Date.now() + Math.max(ttlMs - TOKEN_MARGIN_MS, ttlMs / 2) };
}

/** The cached token, or a new one; concurrent callers share one token request. */
async function tokenFor(ctx: SendpulseContext, stale?: string): Promise<string> {
  const key = cacheKey(ctx);
  const cached = tokens.get(key);
  if (cached && cached.token !== stale && cached.expiresAt > Date.now()) return cached.token;
  if (cached) tokens.delete(key);
  let inFlight = pending.get(key);
  if (!inFlight) {
    inFlight = requestToken(ctx).finally(() => pending.delete(key));
    pending.set(key, inFlight);
  }
  const fresh = await inFlight;
  tokens.delete(key);
  tokens.set(key, fresh);
  // A Map keeps insertion order: the first key is the oldest.
  for (const old of tokens.keys()) {
    if (tokens.size <= MAX_TOKENS) break;
    tokens.delete(old);
  }
  return fresh.token;
}

export interface CallOptions {
  query?: Record<string, string | number | undefined>;
  body?: unknown;
}

export interface CallResult<T> {
  data: T;
  trace: AttemptTrace;
}

/**
 * One authorised call: Bearer token, one new token and retry on 401 (then PermanentError AUTH),
 * 429/5xx retryable, and `success: false` inside an HTTP 200 (the chatbot API's way) a failure.
 */
export async function call<T = unknown>(
  ctx: SendpulseContext,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  options: CallOptions = {},
): Promise<CallResult<T>> {
  const url = new URL(`${baseOf(ctx)}${path}`);
  for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);

  let token = await tokenFor(ctx);
  for (let attempt = 0; ; attempt++) {
    const sent = { ...headers, authorization: `Bearer ${token}` };
    const trace: AttemptTrace = {
      request: { method, url: redactUrl(url), headers: redact(sent), body: options.body },
    };
    const res = await send(ctx, url.toString(), { method, headers: sent, body: payload }, trace);
    if (res.status === 401 && attempt === 0) {
      await res.body?.cancel();
      token = await tokenFor(ctx, token);
      continue;
    }
    const classified = await classifyResponse(res, trace);
    const body = classified.body as { success?: unknown; data?: unknown } | undefined;
    if (body && typeof body === 'object' && body.success === false) {
      throw new PermanentError(`SendPulse refused: ${destinationMessage(body) || 'success: false'}`, {
        code: 'REJECTED',
        httpStatus: classified.status,
        ...classified.trace,
      });
    }
    return { data: body as T, trace: classified.trace };
  }
}

// ---- Chatbots ----

export interface ChatbotContact {
  id: string;
  bot_id?: string;
  status?: number;
  channel_data?: { username?: string; first_name?: string; last_name?: string; name?: string; phone?: string | number };
  variables?: Record<string, unknown>;
  last_activity_at?: string;
  created_at?: string;
}

export interface ChatbotBot {
  id: string;
  name?: string;
  channel?: string;
  channel_data?: { name?: string; username?: string };
}

const channelPath = (channel: SendpulseChannel) => `/${CHANNEL_PATH[channel]}`;
const listOf = <T>(data: unknown): T[] => {
  const d = (data as { data?: unknown })?.data;
  if (Array.isArray(d)) return d as T[];
  if (d && typeof d === 'object' && Array.isArray((d as { list?: unknown }).list)) return (d as { list: T[] }).list;
  return [];
};

export async function listBots(ctx: SendpulseContext): Promise<ChatbotBot[]> {
  const { data } = await call(ctx, 'GET', '/chatbots/bots');
  return listOf<ChatbotBot>(data);
}

export async function findContactsByVariable(
  ctx: SendpulseContext,
  channel: SendpulseChannel,
  botId: string,
  name: string,
  value: string,
): Promise<ChatbotContact[]> {
  const { data } = await call(ctx, 'GET', `${channelPath(channel)}/contacts/getByVariable`, {
    query: { bot_id: botId, variable_name: name, variable_value: value },
  });
  return listOf<ChatbotContact>(data);
}

export async function getContact(
  ctx: SendpulseContext,
  channel: SendpulseChannel,
  id: string,
): Promise<ChatbotContact | undefined> {
  const { data } = await call(ctx, 'GET', `${channelPath(channel)}/contacts/get`, { query: { id } });
  const contact = (data as { data?: unknown })?.data;
  return contact && typeof contact === 'object' ? (contact as ChatbotContact) : undefined;
}

export async function sendText(ctx: SendpulseContext, channel: SendpulseChannel, contactId: string, text: string) {
  await call(ctx, 'POST', `${channelPath(channel)}/contacts/sendText`, { body: { contact_id: contactId, text } });
}

// ---- CRM ----

export interface CrmContact {
  id: number;
  firstName?: string;
  lastName?: string;
  externalContactId?: string | null;
  phones?: { id?: number; phone: string; isMain?: boolean }[];
  emails?: { id?: number; email: string; isMain?: boolean }[];
}

const itemOf = <T>(data: unknown): T | undefined => {
  const d = (data as { data?: unknown })?.data;
  return d && typeof d === 'object' && !Array.isArray(d) ? (d as T) : undefined;
};

export async function findCrmContacts(
  ctx: SendpulseContext,
  filter: { phone?: string; email?: string },
): Promise<CrmContact[]> {
  const { data } = await call(ctx, 'POST', '/crm/v1/contacts/get-list', { body: { limit: 10, offset: 0, ...filter } });
  return listOf<CrmContact>(data);
}

/** Our own earlier attempt's contact (externalContactId = the delivery's idempotency key), if any. */
export async function findCrmContactByExternalId(ctx: SendpulseContext, externalId: string) {
  try {
    const { data } = await call(ctx, 'GET', `/crm/v1/contacts/external/${encodeURIComponent(externalId)}`);
    return itemOf<CrmContact>(data);
  } catch (err) {
    if (err instanceof PermanentError && err.httpStatus === 404) return undefined;
    throw err;
  }
}

export async function createCrmContact(
  ctx: SendpulseContext,
  input: { firstName?: string; lastName?: string; externalContactId?: string },
): Promise<CallResult<CrmContact>> {
  const { data, trace } = await call(ctx, 'POST', '/crm/v1/contacts/create', { body: input });
  const contact = itemOf<CrmContact>(data);
  if (!contact || contact.id === undefined) {
    throw new PermanentError('SendPulse created no contact', { code: 'HTTP_UNEXPECTED', ...trace });
  }
  return { data: contact, trace };
}

export async function addCrmPhone(ctx: SendpulseContext, contactId: number, phone: string) {
  await call(ctx, 'POST', `/crm/v1/contacts/${contactId}/phones`, { body: { phone, isMain: true } });
}

export async function addCrmEmail(ctx: SendpulseContext, contactId: number, email: string) {
  await call(ctx, 'POST', `/crm/v1/contacts/${contactId}/emails`, { body: { email, isMain: true } });
}

export async function createDeal(
  ctx: SendpulseContext,
  input: { pipelineId: number; stepId: number; name: string; contact: number[] },
): Promise<CallResult<{ id: number }>> {
  const { data, trace } = await call(ctx, 'POST', '/crm/v1/deals', { body: input });
  const deal = itemOf<{ id: number }>(data);
  if (!deal || deal.id === undefined)
    throw new PermanentError('SendPulse created no deal', { code: 'HTTP_UNEXPECTED', ...trace });
  return { data: deal, trace };
}

export interface CrmPipeline {
  id: number;
  name: string;
  steps: { id: number; name: string }[];
}

export async function listPipelines(ctx: SendpulseContext): Promise<CrmPipeline[]> {
  const { data } = await call(ctx, 'GET', '/crm/v1/pipelines');
  return listOf<{ id: number; name: string; steps?: { id: number; name: string }[] }>(data).map((p) => ({
    id: p.id,
    name: p.name,
    steps: (p.steps ?? []).map((s) => ({ id: s.id, name: s.name })),
  }));
}

export async function userInfo(ctx: SendpulseContext): Promise<unknown> {
  return (await call(ctx, 'GET', '/user/info')).data;
}
