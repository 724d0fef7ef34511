// The Pipedrive destination: finds or creates the person (by e-mail, then phone), optionally an
// organization, then a lead (v1) or a deal (v2), with an optional activity and note.

import { z } from 'zod';
import { cacheOf } from '../kit/cache';
import { defineConnector } from '../kit/define-connector';
import { PermanentError } from '../kit/errors';
import { createKeyedLock, type LockKeys, lockAll, personLockKeys, sortedKeys } from '../kit/keyed-lock';
import { cachedStageName } from '../kit/stage-names';
import type { DeliveryInput, FieldOption, RemoteWebhook } from '../kit/types';
import { pipedriveAliases, pipedriveTokenConnect } from './aliases';
import {
  authorizeUrl,
  exchangeCode,
  type PipedriveAuth,
  type PipedriveClient,
  type PipedriveContext,
  pipedriveClient,
  resetRateLimitState,
} from './client';
import {
  activityBody,
  dealBody,
  dealMarker,
  type Entity,
  type FieldMeta,
  hasDealMarker,
  leadBody,
  mapFields,
  noteHtml,
  organizationBody,
  organizationName,
  ownerOf,
  type PipedriveSettings,
  personBody,
  personName,
  titleOf,
  webhookEvent,
} from './mapping';
import { ZPipedriveSettings, ZPipedriveWebhookBody } from './schema';
import { pipedriveStageWatch } from './stage-watch';

export {
  authorizeUrl,
  exchangeCode,
  type PipedriveAuth,
  PipedriveClient,
  pipedriveClient,
  requestToken,
} from './client';
export { isReaction, type PipedriveEvent, parsePipedriveWebhook, STAGE_WATCH_NAME } from './stage-watch';

const ZDomain = z
  .string()
  .url()
  .refine((u) => /^https?:\/\//i.test(u), 'http or https only');

export const ZPipedriveAuth = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('oauth'),
    accessToken: z.string().min(1),
    refreshToken: z.string().min(1),
    expiresAt: z.number(),
    apiDomain: ZDomain,
  }),
  z.object({ kind: z.literal('token'), apiToken: z.string().min(1), apiDomain: ZDomain }),
]);

// Without ctx.withLock (contexts that should not race) the lock is still held for this connection
// within this process (its lock lives in the connection's cache).
const lockOf = (ctx: PipedriveContext) =>
  ctx.withLock ??
  (<T>(keys: LockKeys, fn: () => Promise<T>) =>
    lockAll(
      cacheOf(ctx).get('lock', createKeyedLock),
      sortedKeys(keys).map((key) => `${ctx.auth.apiDomain}|${key}`),
      fn,
    ));

interface SearchItem {
  item: { id: number; name: string; emails?: string[]; phones?: string[] };
}
interface V1Field extends FieldMeta {
  id: number;
  name: string;
}
type FieldList = 'dealFields' | 'personFields' | 'organizationFields';

// Field metadata per connection (and company: keys carry the api_domain), briefly: a burst of
// leads should not re-read it for each one.
const FIELD_TTL_MS = 60_000;
const fieldCacheOf = (ctx: PipedriveContext) =>
  cacheOf(ctx).get('fields', () => new Map<string, { at: number; fields: V1Field[] }>());

async function fieldsOf(
  client: PipedriveClient,
  ctx: PipedriveContext,
  list: FieldList,
  wanted: string[] = [],
): Promise<V1Field[]> {
  const key = `${ctx.auth.apiDomain}|${list}`;
  const fieldCache = fieldCacheOf(ctx);
  const hit = fieldCache.get(key);
  // A mapped key the cached list lacks is a field added since: read the list again.
  const fresh = hit && Date.now() - hit.at < FIELD_TTL_MS && wanted.every((k) => hit.fields.some((f) => f.key === k));
  if (hit && fresh) return hit.fields;
  const fields = await client.listV1<V1Field>(`/v1/${list}`);
  fieldCache.set(key, { at: Date.now(), fields });
  return fields;
}

const FIELD_LIST: Record<Entity, FieldList> = {
  deal: 'dealFields',
  person: 'personFields',
  organization: 'organizationFields',
};

async function mapped(client: PipedriveClient, ctx: PipedriveContext, input: DeliveryInput, entity: Entity) {
  const mappings = ctx.settings.fields?.filter((m) => m.entity === entity) ?? [];
  const wanted = mappings.map((m) => m.key);
  const fields = mappings.length ? await fieldsOf(client, ctx, FIELD_LIST[entity], wanted) : [];
  return mapFields(input.lead, mappings, entity, fields, ctx.settings.target);
}

// Persons this process made lately for the connection, by company and e-mail/phone. Pipedrive's
// search index lags behind writes: the next lead for the same phone, right after, may not find the
// person by search.
const RECENT_TTL_MS = 10 * 60_000;
const RECENT_MAX = 5_000;
const recentPersonsOf = (ctx: PipedriveContext) =>
  cacheOf(ctx).get('recentPersons', () => new Map<string, { id: number; at: number }>());

function rememberPerson(ctx: PipedriveContext, keys: string[], id: number): void {
  const recentPersons = recentPersonsOf(ctx);
  for (const k of keys) {
    recentPersons.delete(`${ctx.auth.apiDomain}|${k}`);
    recentPersons.set(`${ctx.auth.apiDomain}|${k}`, { id, at: Date.now() });
  }
  // Oldest first (insertion order): drop what is over the cap.
  for (const k of recentPersons.keys()) {
    if (recentPersons.size <= RECENT_MAX) break;
    recentPersons.delete(k);
  }
}

/** A person this process made lately for these keys, if it still exists (it may have been merged away). */
async function recentPerson(client: PipedriveClient, ctx: PipedriveContext, keys: string[]) {
  const recentPersons = recentPersonsOf(ctx);
  const hit = keys
    .map((k) => recentPersons.get(`${ctx.auth.apiDomain}|${k}`))
    .find((h) => h && Date.now() - h.at < RECENT_TTL_MS);
  if (!hit) return undefined;
  try {
    const p = await client.data<{ id: number; is_deleted?: boolean }>('GET', `/api/v2/persons/${hit.id}`);
    return p.is_deleted ? undefined : p.id;
  } catch (error) {
    if (error instanceof PermanentError && (error.httpStatus === 404 || error.httpStatus === 410)) return undefined;
    throw error;
  }
}

/**
 * Tests: forget the rate-limit waits of every company (client.ts: a company's budget is shared by
 * all its connections). Field lists and recent persons live in each connection's ctx.cache.
 */
export function resetPipedriveState(): void {
  resetRateLimitState();
}

async function searchPerson(client: PipedriveClient, term: string, field: 'email' | 'phone') {
  const data = await client.data<{ items?: SearchItem[] } | null>('GET', '/api/v2/persons/search', {
    query: { term, fields: field, exact_match: true, limit: 1 },
  });
  return data?.items?.[0]?.item;
}

async function findOrCreateOrganization(
  client: PipedriveClient,
  ctx: PipedriveContext,
  input: DeliveryInput,
  ownerId: number | undefined,
): Promise<number | undefined> {
  const name = organizationName(input.lead, ctx.settings.fields);
  if (!name) return undefined;
  return lockOf(ctx)(`org:${name.toLowerCase()}`, async () => {
    const found = await client.data<{ items?: { item: { id: number } }[] } | null>(
      'GET',
      '/api/v2/organizations/search',
      { query: { term: name, fields: 'name', exact_match: true, limit: 1 } },
    );
    const id = found?.items?.[0]?.item.id;
    if (id) return id;
    const fields = await mapped(client, ctx, input, 'organization');
    const org = await client.data<{ id: number }>('POST', '/api/v2/organizations', {
      body: organizationBody(name, { ownerId, fields }),
    });
    return org.id;
  });
}

/**
 * A lead or deal this delivery already made for the person: a retry after a crash. A lead carries
 * the key as `origin_id` (POST /v1/leads takes it); a deal carries its mark at the end of its title
 * (POST /api/v2/deals takes no origin_id: mapping.ts dealMarker).
 */
async function existingRecord(
  client: PipedriveClient,
  target: PipedriveSettings['target'],
  personId: number,
  key: string,
): Promise<string | undefined> {
  if (target === 'deal') {
    const marker = dealMarker(key);
    const deals = await client.listV2<{ id: number; title?: string }>('/api/v2/deals', { person_id: personId });
    const hit = deals.find((d) => hasDealMarker(d, marker));
    return hit ? String(hit.id) : undefined;
  }
  const leads = await client.listV1<{ id: string; origin_id?: string | null }>('/v1/leads', { person_id: personId });
  return leads.find((l) => l.origin_id === key)?.id;
}

/** How many persons of one name a repeat without phone or e-mail looks through. */
const MAX_NAMESAKES = 5;

/**
 * A repeat whose earlier outcome is unknown, for a lead with no phone or e-mail to find its person
 * by: that attempt made a person of this name; the lead or deal carrying the key (existingRecord) is
 * looked for among the persons of exactly that name (newest first, at most MAX_NAMESAKES).
 */
async function existingByName(client: PipedriveClient, target: PipedriveSettings['target'], name: string, key: string) {
  const found = await client.data<{ items?: SearchItem[] } | null>('GET', '/api/v2/persons/search', {
    query: { term: name, fields: 'name', exact_match: true, limit: 50 },
  });
  const ids = [...new Set((found?.items ?? []).map((i) => i.item.id))].sort((a, b) => b - a).slice(0, MAX_NAMESAKES);
  for (const id of ids) {
    const existing = await existingRecord(client, target, id, key);
    if (existing) return existing;
  }
  return undefined;
}

async function deliverLocked(ctx: PipedriveContext, input: DeliveryInput) {
  const client = pipedriveClient(ctx);
  const { lead } = input;
  const settings = ctx.settings;
  const ownerId = ownerOf(input.assignee?.id, settings);

  const personKeys = [
    ...(lead.email ? [`email:${lead.email.trim().toLowerCase()}`] : []),
    ...(lead.phone ? [`phone:${lead.phone.trim()}`] : []),
  ];
  let person = lead.email ? await searchPerson(client, lead.email, 'email') : undefined;
  if (!person && lead.phone) person = await searchPerson(client, lead.phone, 'phone');
  let personId = person?.id ?? (await recentPerson(client, ctx, personKeys));
  if (personId) {
    const existing = await existingRecord(client, settings.target, personId, input.idempotencyKey);
    if (existing) return { externalId: existing };
  } else if (input.outcomeUnknown && !personKeys.length) {
    // Nothing to find the person by but its name; only when an earlier attempt may have made it.
    const existing = await existingByName(client, settings.target, personName(lead), input.idempotencyKey);
    if (existing) return { externalId: existing };
  }

  const orgId = settings.organization ? await findOrCreateOrganization(client, ctx, input, ownerId) : undefined;
  if (!personId) {
    const fields = await mapped(client, ctx, input, 'person');
    const created = await client.data<{ id: number }>('POST', '/api/v2/persons', {
      body: personBody(lead, { ownerId, orgId, custom: fields.custom }),
    });
    personId = created.id;
    rememberPerson(ctx, personKeys, personId);
  }

  const title = titleOf(lead, settings.title);
  const refs = {
    title,
    personId,
    orgId,
    ownerId,
    originId: input.idempotencyKey,
    fields: await mapped(client, ctx, input, 'deal'),
  };
  let dealId: number | undefined;
  let leadId: string | undefined;
  if (settings.target === 'deal') {
    dealId = (await client.data<{ id: number }>('POST', '/api/v2/deals', { body: dealBody(refs, settings) })).id;
  } else {
    leadId = (await client.data<{ id: string }>('POST', '/v1/leads', { body: leadBody(refs) })).id;
  }
  // The attempt record shows the lead or deal call (the later activity and note are extras).
  const trace = client.lastTrace;

  // The lead or deal exists now: a failing activity or note must not fail the delivery (a retry would
  // find the record by its origin_id or mark and stop there anyway), so it is logged, not thrown.
  const extra = async (what: string, fn: () => Promise<unknown>) => {
    try {
      await fn();
    } catch (error) {
      ctx.logger.warn({ reason: (error as Error).message, externalId: dealId ?? leadId }, `pipedrive ${what} failed`);
    }
  };
  const { activity } = settings;
  if (activity) {
    await extra('activity', () =>
      client.data('POST', '/api/v2/activities', {
        body: activityBody(activity, { title, personId, ownerId, dealId, leadId }),
      }),
    );
  }
  if (settings.note) {
    await extra('note', () =>
      client.data('POST', '/v1/notes', {
        body: { content: noteHtml(lead, input.raw), ...(dealId ? { deal_id: dealId } : { lead_id: leadId }) },
      }),
    );
  }
  return { ...trace, externalId: String(dealId ?? leadId) };
}

const toFieldOption = (prefix: string, f: V1Field): FieldOption => ({
  key: `${prefix}.${f.key}`,
  label: f.name,
  type: f.field_type,
  ...(f.options?.length ? { options: f.options.map((o) => ({ value: String(o.id), label: o.label })) } : {}),
});

const toPipedriveField = (f: V1Field) => ({
  id: f.id,
  key: f.key,
  name: f.name,
  field_type: f.field_type,
  options: f.options ?? null,
});

interface V1Webhook {
  id: number | string;
  subscription_url: string;
  event_action: string;
  event_object: string;
  is_active?: number | boolean;
}
const toRemoteWebhook = (w: V1Webhook): RemoteWebhook => ({
  id: String(w.id),
  url: w.subscription_url,
  event: `${w.event_action}.${w.event_object}`,
  active: w.is_active === undefined ? true : Boolean(w.is_active),
});

export const pipedrive = defineConnector<PipedriveAuth, PipedriveSettings>({
  slug: 'pipedrive',
  kind: 'destination',
  // EMULATORS=true (demo installs, end-to-end tests): its emulator, loaded only then.
  demo: () => import('./demo').then((m) => m.startDemo()),
  // A lead with no phone, e-mail or name would be an empty contact: refused (LEAD_NO_CONTACT).
  requiresContact: true,
  connectAuth: 'oauth',
  auth: ZPipedriveAuth,
  settings: ZPipedriveSettings,
  config: {
    PIPEDRIVE_CLIENT_ID: {},
    PIPEDRIVE_CLIENT_SECRET: {},
    PIPEDRIVE_OAUTH_URL: { type: 'url', default: 'https://oauth.pipedrive.com' },
    PIPEDRIVE_API_URL: { type: 'url', default: 'https://api.pipedrive.com' },
    PIPEDRIVE_HOSTS: { type: 'hosts', default: '*.pipedrive.com,api.pipedrive.com' },
  },
  // API-token connections (and anything not yet on an api_domain) talk to the configured API host.
  baseUrl: (cfg) => cfg.PIPEDRIVE_API_URL as string | undefined,
  // The company's api_domain comes back with the tokens: checked against PIPEDRIVE_HOSTS before it is stored.
  oauth: {
    clientId: 'PIPEDRIVE_CLIENT_ID',
    clientSecret: 'PIPEDRIVE_CLIENT_SECRET',
    authorizeUrl: (cfg) => `${cfg.PIPEDRIVE_OAUTH_URL}/oauth/authorize`,
    tokenUrl: (cfg) => `${cfg.PIPEDRIVE_OAUTH_URL}/oauth/token`,
    scopes: [],
    // The callback hands the code to the web's connect screen, which posts it back signed in.
    callback: { base: 'authHost', path: '/pipedrive/callback', lands: 'connectScreen' },
    accountHost: { from: 'token', field: 'apiDomain', allowed: 'PIPEDRIVE_HOSTS' },
    // A refresh token may be reused and dies after about 60 days unused (reference/external-apis.md).
    refreshTokenLifetimeDays: 60,
    consentUrl: (client, state) => authorizeUrl(client, state),
    exchangeCode: async (call, code) => {
      const tokens = await exchangeCode(call.fetch, call.oauth, code, call.signal);
      return {
        kind: 'oauth',
        accessToken: tokens.accessToken,
        refreshToken: tokens.refreshToken,
        expiresAt: tokens.expiresAt,
        apiDomain: tokens.apiDomain,
      };
    },
  },
  // Pipedrive refusing a list request itself answers CRM_REQUEST_FAILED with its reason on the generic lists route.
  loaderRefusal: 'CRM_REQUEST_FAILED',
  loaders: {
    users: async (ctx) =>
      (await pipedriveClient(ctx).listV1<{ id: number; name: string; active_flag?: boolean }>('/v1/users'))
        .filter((u) => u.active_flag !== false)
        .map((u) => ({ id: String(u.id), name: u.name })),
    fields: async (ctx) => {
      const client = pipedriveClient(ctx);
      const [deal, person] = await Promise.all([
        fieldsOf(client, ctx, 'dealFields'),
        fieldsOf(client, ctx, 'personFields'),
      ]);
      return [...deal.map((f) => toFieldOption('deal', f)), ...person.map((f) => toFieldOption('person', f))];
    },
    dealFields: async (ctx) => (await pipedriveClient(ctx).listV1<V1Field>('/v1/dealFields')).map(toPipedriveField),
    personFields: async (ctx) => (await pipedriveClient(ctx).listV1<V1Field>('/v1/personFields')).map(toPipedriveField),
    organizationFields: async (ctx) =>
      (await pipedriveClient(ctx).listV1<V1Field>('/v1/organizationFields')).map(toPipedriveField),
    stages: async (ctx) => {
      const client = pipedriveClient(ctx);
      const [pipelines, stages] = await Promise.all([
        client.listV2<{ id: number; name: string; is_deleted?: boolean }>('/api/v2/pipelines'),
        client.listV2<{ id: number; name: string; order_nr: number; pipeline_id: number; is_deleted?: boolean }>(
          '/api/v2/stages',
        ),
      ]);
      return pipelines
        .filter((p) => !p.is_deleted)
        .map((p) => ({
          id: p.id,
          name: p.name,
          stages: stages
            .filter((s) => s.pipeline_id === p.id && !s.is_deleted)
            .sort((a, b) => a.order_nr - b.order_nr)
            .map((s) => ({ id: s.id, name: s.name, order_nr: s.order_nr })),
        }));
    },
    activityTypes: async (ctx) =>
      (
        await pipedriveClient(ctx).data<
          { id: number; key_string: string; name: string; active_flag?: boolean }[] | null
        >('GET', '/v1/activityTypes')
      )
        ?.filter((t) => t.active_flag !== false)
        .map((t) => ({ id: t.id, key: t.key_string, name: t.name })) ?? [],
  },
  webhooks: {
    // Events as "<action>.<object>", v1 or 2.0 names (added.deal, *.person).
    body: ZPipedriveWebhookBody,
    list: async (ctx) =>
      ((await pipedriveClient(ctx).data<V1Webhook[] | null>('GET', '/v1/webhooks')) ?? []).map(toRemoteWebhook),
    create: async (ctx, input) =>
      toRemoteWebhook(
        await pipedriveClient(ctx).data<V1Webhook>('POST', '/v1/webhooks', {
          body: {
            subscription_url: input.url,
            ...webhookEvent(input.event),
            name: (input.name ?? 'LeadRelay').slice(0, 100),
            version: '2.0',
          },
        }),
      ),
    remove: async (ctx, id) => {
      await pipedriveClient(ctx).data('DELETE', `/v1/webhooks/${encodeURIComponent(id)}`);
    },
  },
  // A stage's name (issue 33) from the stages list, kept a while per connection.
  stageWatch: {
    ...pipedriveStageWatch,
    stageName: (ctx, stage) =>
      cachedStageName(
        ctx,
        async () => {
          const client = pipedriveClient(ctx);
          const stages = await client.listV2<{ id: number; name: string; pipeline_id: number }>('/api/v2/stages');
          return stages.map((s) => ({ id: String(s.id), name: s.name, pipelineId: String(s.pipeline_id) }));
        },
        stage,
      ),
  },
  // Or an API token (Settings → Personal preferences → API).
  connect: pipedriveTokenConnect,
  aliases: pipedriveAliases,
  testConnection: async (ctx) => {
    await pipedriveClient(ctx).data('GET', '/v1/users/me');
  },
  // One person per phone and e-mail at a time, in every worker: search, create and the record run
  // under that lock, so two leads for one phone arriving together make one person.
  async deliver(ctx, input) {
    const keys = personLockKeys(input.lead, `lead:${input.idempotencyKey}`);
    return lockOf(ctx)(keys, () => deliverLocked(ctx, input));
  },
});
