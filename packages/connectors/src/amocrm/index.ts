// amoCRM (and Kommo) as a destination, API v4. Credentials come only from the OAuth connect flow.
//
// Delivery: under ctx.withLock(<phone and e-mail>) (policy attach) the contact is looked up
// by phone, then by e-mail; then ONE POST /api/v4/leads/complex makes the lead and either links the
// found contact by id or embeds a new one. leads/complex for both cases keeps one call per lead (and
// under the 7/s limit); the found contact is linked as it is, never overwritten. Then the note.
//
// Repeats: amoCRM has no idempotency key, so each lead carries a marker derived from the delivery's
// key (`amoMarkerOf`) in a text field of its own, "LeadRelay ID" (made once per account, API-only,
// found by name; its id is kept per connection). When an earlier attempt may have made the lead
// (input.outcomeUnknown: a worker died mid-call, a timeout, a 5xx), the lead list is searched first
// (GET /api/v4/leads?query=<marker>, amoCRM's search over filled fields) and a lead carrying exactly
// that marker is the delivery's record: no second lead. The normal path spends no search. Where the
// field cannot be made (no rights), leads go out without a marker and a repeat may make a second one.
// A failed note does not fail the delivery: retrying would only find the lead again.

import { createHash } from 'node:crypto';
import { z } from 'zod';
import { cacheOf } from '../kit/cache';
import { defineConnector } from '../kit/define-connector';
import { PermanentError } from '../kit/errors';
import { personLockKeys } from '../kit/keyed-lock';
import { cachedStageName } from '../kit/stage-names';
import type { ConnectorContext, ConnectorLogger, FieldOption, OAuthClient } from '../kit/types';
import { amoAliases, backupAction, backupRecords } from './aliases';
import { type AmoAuth, AmoClient, type AmoContext, requestTokens } from './client';
import { type AmoContactRecord, matchContact, noteText, phoneQuery, responsibleUserId, toComplexLead } from './mapping';
import {
  type AmoField,
  type AmoFields,
  type AmoPipeline,
  type AmoSettings,
  type AmoUser,
  ZAmoSettings,
} from './schema';
import { amoStageWatch } from './stage-watch';

export const ZAmoAuth = z.object({
  accessToken: z.string().min(1),
  refreshToken: z.string().min(1),
  /** Epoch ms. */
  expiresAt: z.number(),
  baseUrl: z.string().url(),
});

// ---- OAuth helpers (the server's connect route and callback) ----

/** The consent page: `${oauthUrl}?client_id=…&state=…&mode=post_message`. */
export function amoAuthorizeUrl(oauth: Pick<OAuthClient, 'authorizeUrl' | 'clientId'>, state: string): string {
  const url = new URL(oauth.authorizeUrl);
  url.searchParams.set('client_id', oauth.clientId);
  url.searchParams.set('state', state);
  url.searchParams.set('mode', 'post_message');
  return url.toString();
}

/**
 * The account's origin from the OAuth return's `referer` (a host, maybe with a port). amoCRM hosts
 * are https; plain http only for loopback (our emulator), which the safe fetch refuses anyway unless
 * private destinations are allowed. The caller checks the host against its allow list first.
 */
export function amoAccountOrigin(referer: string): string {
  const host = referer.trim().toLowerCase();
  const loopback = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?$/.test(host);
  return `${loopback ? 'http' : 'https'}://${host}`;
}

/** Exchanges the consent's code at POST https://{referer}/oauth2/access_token. */
export function amoExchangeCode(
  call: { fetch: typeof fetch; oauth: OAuthClient; signal?: AbortSignal },
  referer: string,
  code: string,
): Promise<AmoAuth> {
  return requestTokens(call, amoAccountOrigin(referer), { grant_type: 'authorization_code', code });
}

// ---- Reading the account ----

interface Hal<K extends string, T> {
  _links?: { next?: { href?: string } };
  _embedded?: Partial<Record<K, T[]>>;
}

/** Pages a list is read to at most (250 a page: 12 500 users or fields); past it, a warning. */
const MAX_PAGES = 50;
interface RawField {
  id: number;
  name: string;
  type: string;
  code?: string | null;
  enums?: { id: number; value: string }[] | null;
}

/**
 * Every page of a list (users, custom fields: amocrm-api-php pages them with `page`/`limit` and
 * follows `_links.next.href`): the next page is the href's path and query on the account's own host
 * (never another host the answer names). A 204 (empty) ends it.
 */
async function list<K extends string, T>(
  client: AmoClient,
  path: string,
  key: K,
  logger?: ConnectorLogger,
): Promise<T[]> {
  const all: T[] = [];
  let next: string | undefined = path;
  for (let page = 0; next && page < MAX_PAGES; page++) {
    const answer: { body: Hal<K, T> | undefined } = await client.get<Hal<K, T> | undefined>(next);
    all.push(...(answer.body?._embedded?.[key] ?? []));
    const href: string | undefined = answer.body?._links?.next?.href;
    next = href && URL.canParse(href, 'http://x') ? pathAndQuery(new URL(href, 'http://x')) : undefined;
  }
  if (next) logger?.warn({ path, read: all.length }, 'amoCRM list longer than the pages we read');
  return all;
}

const pathAndQuery = (url: URL) => (url.pathname.startsWith('/api/v4/') ? `${url.pathname}${url.search}` : undefined);

export async function amoUsers(ctx: AmoContext): Promise<AmoUser[]> {
  const users = await list<'users', { id: number; name: string; email?: string }>(
    new AmoClient(ctx),
    '/api/v4/users?limit=250',
    'users',
    ctx.logger,
  );
  return users.map((u) => ({ id: u.id, name: u.name, ...(u.email ? { email: u.email } : {}) }));
}

export async function amoPipelines(ctx: AmoContext): Promise<AmoPipeline[]> {
  type RawPipeline = {
    id: number;
    name: string;
    is_main?: boolean;
    _embedded?: { statuses?: { id: number; name: string; color?: string; type?: number }[] };
  };
  const pipelines = await list<'pipelines', RawPipeline>(new AmoClient(ctx), '/api/v4/leads/pipelines', 'pipelines');
  return pipelines.map((p) => ({
    id: p.id,
    name: p.name,
    isMain: !!p.is_main,
    statuses: (p._embedded?.statuses ?? []).map((s) => ({
      id: s.id,
      name: s.name,
      type: s.type ?? 0,
      ...(s.color ? { color: s.color } : {}),
    })),
  }));
}

function toField(f: RawField): AmoField {
  return {
    id: f.id,
    name: f.name,
    type: f.type,
    ...(f.code ? { code: f.code } : {}),
    ...(f.enums?.length ? { enums: f.enums.map((e) => ({ id: e.id, value: e.value })) } : {}),
  };
}

export async function amoFields(ctx: AmoContext): Promise<AmoFields> {
  const client = new AmoClient(ctx);
  const lead = await list<'custom_fields', RawField>(
    client,
    '/api/v4/leads/custom_fields?limit=250',
    'custom_fields',
    ctx.logger,
  );
  const contact = await list<'custom_fields', RawField>(
    client,
    '/api/v4/contacts/custom_fields?limit=250',
    'custom_fields',
    ctx.logger,
  );
  // Our marker field is ours: it is not offered for mapping.
  return { lead: lead.filter((f) => f.name !== MARKER_FIELD_NAME).map(toField), contact: contact.map(toField) };
}

/** Field options in the generic loader shape: key `lead.<id>` / `contact.<id>`. */
export function toFieldOptions(fields: AmoFields): FieldOption[] {
  const one = (entity: 'lead' | 'contact', f: AmoField): FieldOption => ({
    key: `${entity}.${f.id}`,
    label: entity === 'lead' ? f.name : `${f.name} (contact)`,
    type: f.type,
    ...(f.enums ? { options: f.enums.map((e) => ({ value: String(e.id), label: e.value })) } : {}),
  });
  return [...fields.lead.map((f) => one('lead', f)), ...fields.contact.map((f) => one('contact', f))];
}

/** What a parser or mapping may write: the lead's name, the contact's name, phone, e-mail and custom fields. */
export function toParserTargets(fields: AmoFields) {
  return [
    { key: 'lead.name', label: 'Lead name', entity: 'lead' as const, type: 'text' },
    { key: 'contact.name', label: 'Contact name', entity: 'contact' as const, type: 'text' },
    ...fields.lead.map((f) => ({
      key: `lead.${f.id}`,
      label: f.name,
      entity: 'lead' as const,
      fieldId: f.id,
      type: f.type,
    })),
    ...fields.contact.map((f) => ({
      key: f.code === 'PHONE' || f.code === 'EMAIL' ? `contact.${f.code.toLowerCase()}` : `contact.${f.id}`,
      label: f.name,
      entity: 'contact' as const,
      fieldId: f.id,
      type: f.type,
    })),
  ];
}

// ---- Delivery ----

async function searchContacts(client: AmoClient, query: string): Promise<AmoContactRecord[]> {
  // 204 (nothing found) arrives as an empty body.
  const { body } = await client.get<Hal<'contacts', AmoContactRecord> | undefined>(
    `/api/v4/contacts?query=${encodeURIComponent(query)}&limit=50`,
  );
  return body?._embedded?.contacts ?? [];
}

/** The existing contact with this phone, else with this e-mail. */
export async function findContact(client: AmoClient, lead: { phone?: string; email?: string }) {
  if (lead.phone && phoneQuery(lead.phone)) {
    const hit = matchContact(await searchContacts(client, phoneQuery(lead.phone)), { phone: lead.phone });
    if (hit) return hit;
  }
  if (lead.email) {
    const hit = matchContact(await searchContacts(client, lead.email.trim()), { email: lead.email });
    if (hit) return hit;
  }
  return undefined;
}

type ComplexResult = { id: number; contact_id?: number | null; merged?: boolean }[];

/** The lead field (text, API-only) holding each lead's marker. */
export const MARKER_FIELD_NAME = 'LeadRelay ID';

/** A delivery's marker: one token (letters and digits, so the search finds it whole), the same on every attempt. */
export function amoMarkerOf(idempotencyKey: string): string {
  return `lr${createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 32)}`;
}

/** The marker field's id per connection: undefined until known, null when it cannot be made. */
type MarkerHolder = { id: number | null | undefined };

/**
 * The id of the account's marker field: found by name in the lead fields, or made (text, API-only).
 * One lookup per connection and process; under a lock, so two workers do not make two fields.
 */
async function markerField(client: AmoClient, ctx: ConnectorContext<AmoAuth, AmoSettings>): Promise<number | null> {
  const holder = cacheOf(ctx).get<MarkerHolder>('amocrm:markerField', () => ({ id: undefined }));
  if (holder.id !== undefined) return holder.id;
  const find = async () => {
    const fields = await list<'custom_fields', RawField>(
      client,
      '/api/v4/leads/custom_fields?limit=250',
      'custom_fields',
      ctx.logger,
    );
    const found = fields
      .filter((f) => f.name === MARKER_FIELD_NAME && f.type === 'text')
      .sort((a, b) => a.id - b.id)[0];
    if (found) return found.id;
    try {
      const { body } = await client.post<Hal<'custom_fields', { id: number }>>('/api/v4/leads/custom_fields', [
        { name: MARKER_FIELD_NAME, type: 'text', is_api_only: true },
      ]);
      const id = body?._embedded?.custom_fields?.[0]?.id;
      return typeof id === 'number' ? id : null;
    } catch (error) {
      if (!(error instanceof PermanentError) || error.code === 'AUTH') throw error;
      // No right to add fields (or a refused field): deliver without a marker rather than not at all.
      ctx.logger.warn({ reason: error.message }, 'amoCRM marker field could not be made: repeats cannot be found');
      return null;
    }
  };
  const id = ctx.withLock ? await ctx.withLock(['amocrm:marker-field'], find) : await find();
  holder.id = id;
  return id;
}

type MarkedLead = { id: number; custom_fields_values?: { values?: { value?: unknown }[] }[] | null };

/** The lead carrying exactly this marker (a repeat after an attempt whose outcome is unknown). */
export async function findMarkedLead(client: AmoClient, marker: string) {
  const { body, trace } = await client.get<Hal<'leads', MarkedLead> | undefined>(
    `/api/v4/leads?query=${encodeURIComponent(marker)}&limit=50`,
  );
  // The search matches substrings of any field: only an exact value counts.
  const hit = (body?._embedded?.leads ?? []).find((l) =>
    (l.custom_fields_values ?? []).some((f) => (f.values ?? []).some((v) => v.value === marker)),
  );
  return hit ? { id: hit.id, trace } : undefined;
}

export const amocrm = defineConnector<AmoAuth, AmoSettings>({
  slug: 'amocrm',
  kind: 'destination',
  // EMULATORS=true (demo installs, end-to-end tests): its emulator, loaded only then.
  demo: (app) => import('./demo').then((m) => m.startDemo(app)),
  // A lead with no phone, e-mail or name would be an empty contact: refused (LEAD_NO_CONTACT).
  requiresContact: true,
  connectAuth: 'oauth',
  auth: ZAmoAuth,
  settings: ZAmoSettings,
  config: {
    AMOCRM_CLIENT_ID: {},
    AMOCRM_CLIENT_SECRET: {},
    AMOCRM_OAUTH_URL: { type: 'url', default: 'https://www.amocrm.ru/oauth' },
    AMOCRM_HOSTS: { type: 'hosts', default: '*.amocrm.ru,*.amocrm.com,*.kommo.com' },
  },
  // The consent page is amoCRM's; the token endpoint lives on the account's own host, which the
  // OAuth return names in `referer` (checked against AMOCRM_HOSTS before our secret goes there).
  oauth: {
    clientId: 'AMOCRM_CLIENT_ID',
    clientSecret: 'AMOCRM_CLIENT_SECRET',
    authorizeUrl: (cfg) => String(cfg.AMOCRM_OAUTH_URL),
    tokenUrl: (_cfg, account) => (account ? `${account.origin}/oauth2/access_token` : undefined),
    scopes: [],
    // The callback finishes the connect and sends the browser to the integration's screen.
    callback: { base: 'publicUrl', path: '/api/amocrm/callback', cookie: 'lr_amo_oauth' },
    accountHost: { from: 'referer', allowed: 'AMOCRM_HOSTS' },
    // Single-use refresh tokens that die after about 3 months unused (docs/connectors/amocrm.md).
    refreshTokenLifetimeDays: 90,
    consentUrl: (client, state) => amoAuthorizeUrl(client, state),
    exchangeCode: (call, code, account) => amoExchangeCode(call, account ?? '', code),
  },
  // amoCRM refusing a list request itself answers CRM_REQUEST_FAILED with its reason on the generic lists route.
  loaderRefusal: 'CRM_REQUEST_FAILED',
  loaders: {
    users: async (ctx) => (await amoUsers(ctx)).map((u) => ({ id: String(u.id), name: u.name })),
    fields: async (ctx) => toFieldOptions(await amoFields(ctx)),
    amoUsers: (ctx) => amoUsers(ctx),
    pipelines: (ctx) => amoPipelines(ctx),
    customFields: (ctx) => amoFields(ctx),
    parser: async (ctx) => toParserTargets(await amoFields(ctx)),
  },
  // A status's name (issue 33) from the pipelines list, kept a while per connection.
  stageWatch: {
    ...amoStageWatch,
    stageName: (ctx, stage) =>
      cachedStageName(
        ctx,
        async () =>
          (await amoPipelines(ctx)).flatMap((p) =>
            p.statuses.map((s) => ({ id: String(s.id), name: s.name, pipelineId: String(p.id) })),
          ),
        stage,
      ),
  },
  actions: { backup: backupAction({ pipelines: amoPipelines, users: amoUsers, fields: amoFields }) },
  records: { backups: backupRecords },
  aliases: amoAliases,
  async testConnection(ctx) {
    await new AmoClient(ctx).get('/api/v4/account');
  },
  async deliver(ctx, input) {
    const client = new AmoClient(ctx);
    const { lead } = input;
    const owner = responsibleUserId(input.assignee, ctx.settings);
    const marker = amoMarkerOf(input.idempotencyKey);
    const fieldId = await markerField(client, ctx);
    if (fieldId !== null && input.outcomeUnknown) {
      const existing = await findMarkedLead(client, marker);
      if (existing) return { ...existing.trace, externalId: String(existing.id) };
    }
    const create = async () => {
      const contact = ctx.settings.contactPolicy === 'attach' ? await findContact(client, lead) : undefined;
      const body = toComplexLead({ lead, settings: ctx.settings, responsibleUserId: owner, contactId: contact?.id });
      if (fieldId !== null) {
        // amoCRM takes at most 40 values per entity: the marker is always one of them.
        const mapped = (body.custom_fields_values ?? []).slice(0, 39);
        body.custom_fields_values = [...mapped, { field_id: fieldId, values: [{ value: marker }] }];
      }
      return client.post<ComplexResult>('/api/v4/leads/complex', [body]);
    };
    const keys = personLockKeys(lead, '');
    // The lock spans search and create: two leads for one person at once make one contact.
    const created =
      ctx.settings.contactPolicy === 'attach' && (lead.phone || lead.email) && ctx.withLock
        ? await ctx.withLock(keys, create)
        : await create();
    const id = Array.isArray(created.body) ? created.body[0]?.id : undefined;
    if (typeof id !== 'number') {
      return { ...created.trace };
    }
    if (ctx.settings.note !== false) {
      try {
        await client.post(`/api/v4/leads/${id}/notes`, [
          { note_type: 'common', params: { text: noteText(lead, input.raw) } },
        ]);
      } catch (err) {
        ctx.logger.warn({ leadId: id, reason: (err as Error).message }, 'amoCRM note not added');
      }
    }
    return { ...created.trace, externalId: String(id) };
  },
});

export { AMOCRM_BACKUPS_KEPT } from './aliases';
export { type AmoAuth, AmoClient, type AmoContext, amoMessage, requestTokens } from './client';
export * from './mapping';
export { AMO_STATUS_EVENT, type AmoStatusChange, amoStatusWebhookForm, parseAmoStatusWebhook } from './stage-watch';
