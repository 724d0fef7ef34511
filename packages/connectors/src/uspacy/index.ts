// Uspacy (a Ukrainian CRM) as a destination: a lead or a deal in the chosen funnel and stage, with
// the contact found by phone, then e-mail, or created; the responsible user from distribution;
// mapped custom fields; and a comment with everything the lead brought.
//
// Connecting is its own (connect.ts, run by the server's generic credentials connect): signing in with
// the account's e-mail and password (the password is used once; the JWT and its refresh token are
// stored sealed and refreshed here), or the incoming webhook URL an administrator made in Uspacy.
// PUT .../connect takes settings only.
//
// Repeats: Uspacy has no idempotency key and no external-id field. Our record carries a mark
// derived from the delivery's idempotency key at the end of its `comments`; under the person's lock
// a delivery that finds the contact first looks through the contact's related leads (or deals) for
// that mark and answers the record it finds instead of making another. A lead with neither phone
// nor e-mail has no contact to look under: a retry of it after a timeout can make a second record.

import { cacheOf } from '../kit/cache';
import { defineConnector } from '../kit/define-connector';
import { PermanentError } from '../kit/errors';
import { createKeyedLock, type LockKeys, lockAll, personLockKeys, sortedKeys } from '../kit/keyed-lock';
import type { AttemptTrace, DeliveryInput, FieldOption } from '../kit/types';
import { type UspacyAuth, type UspacyClient, type UspacyContext, uspacyClient, ZUspacyAuth } from './client';
import { codes } from './codes';
import { uspacyAccount, uspacyAliases, uspacyConnect } from './connect';
import {
  type ContactRecord,
  contactBody,
  ENTITY_PATH,
  hasMarker,
  mapFields,
  mappableFields,
  markerOf,
  matchContact,
  noteText,
  ownerOf,
  phoneQuery,
  primaryEmail,
  type RawField,
  type RawFunnel,
  recordBody,
  titleOf,
  toFunnels,
  userName,
} from './mapping';
import type { UspacyEntity, UspacyField, UspacyFields, UspacySettings, UspacyUser } from './schema';
import { ZUspacySettings } from './schema';

type Ctx = UspacyContext<UspacySettings>;

// Without ctx.withLock (contexts that never race) the lock is still held for this connection within
// this process (the lock lives in the connection's cache).
const lockOf = (ctx: Ctx) =>
  ctx.withLock ??
  (<T>(keys: LockKeys, fn: () => Promise<T>) =>
    lockAll(
      cacheOf(ctx).get('lock', createKeyedLock),
      sortedKeys(keys).map((key) => `uspacy|${key}`),
      fn,
    ));

// ---- Reading the portal ----

/** Field metadata per connection, briefly: a burst of leads should not read it for each one. */
const FIELD_TTL_MS = 60_000;
const fieldCacheOf = (ctx: Ctx) =>
  cacheOf(ctx).get('fields', () => new Map<UspacyEntity, { at: number; fields: UspacyField[] }>());

async function fieldsOf(client: UspacyClient, ctx: Ctx, entity: UspacyEntity, wanted: string[] = []) {
  const cache = fieldCacheOf(ctx);
  const hit = cache.get(entity);
  // A mapped code the cached list lacks is a field added since: read the list again.
  if (hit && Date.now() - hit.at < FIELD_TTL_MS && wanted.every((c) => hit.fields.some((f) => f.code === c))) {
    return hit.fields;
  }
  const answer = await client.get<{ data?: RawField[] } | RawField[] | undefined>(
    `/crm/v1/entities/${ENTITY_PATH[entity]}/fields`,
  );
  const fields = mappableFields(Array.isArray(answer) ? answer : (answer?.data ?? []));
  cache.set(entity, { at: Date.now(), fields });
  return fields;
}

export async function uspacyFields(ctx: Ctx): Promise<UspacyFields> {
  const client = uspacyClient(ctx);
  return {
    lead: await fieldsOf(client, ctx, 'lead'),
    deal: await fieldsOf(client, ctx, 'deal'),
    contact: await fieldsOf(client, ctx, 'contact'),
  };
}

/** GET …/{leads|deals}/funnel: active funnels with their stages (read per funnel when not listed with it). */
export async function uspacyFunnels(ctx: Ctx, target: 'lead' | 'deal') {
  const client = uspacyClient(ctx);
  const path = `/crm/v1/entities/${ENTITY_PATH[target]}`;
  const answer = await client.get<RawFunnel[] | { data?: RawFunnel[] } | undefined>(`${path}/funnel`);
  const raw = Array.isArray(answer) ? answer : (answer?.data ?? []);
  const stages = new Map<number, unknown[]>();
  for (const f of raw) {
    if (typeof f.id === 'number' && !Array.isArray(f.stages) && f.active !== false) {
      const listed = await client.get<{ data?: unknown[] } | undefined>(`${path}/kanban/stage`, { funnel_id: f.id });
      stages.set(f.id, listed?.data ?? []);
    }
  }
  return toFunnels(raw, (id) => (stages.get(id) ?? []) as never[]);
}

interface RawUser {
  id: number;
  firstName?: unknown;
  lastName?: unknown;
  email?: unknown;
  active?: unknown;
}

export async function uspacyUsers(ctx: Ctx): Promise<UspacyUser[]> {
  const users = await uspacyClient(ctx).list<RawUser>('/company/v1/users');
  return users
    .filter((u) => typeof u.id === 'number' && u.active !== false)
    .map((u) => {
      const email = primaryEmail(u.email);
      return { id: u.id, name: userName(u), ...(email ? { email } : {}) };
    });
}

const toFieldOptions = (fields: UspacyFields): FieldOption[] =>
  (['lead', 'deal', 'contact'] as const).flatMap((entity) =>
    fields[entity].map((f) => ({
      key: `${entity}.${f.code}`,
      label: f.name,
      type: f.type,
      ...(f.values ? { options: f.values.map((v) => ({ value: v.value, label: v.title })) } : {}),
    })),
  );

// ---- Delivery ----

async function mapped(client: UspacyClient, ctx: Ctx, input: DeliveryInput, entity: UspacyEntity) {
  const mappings = ctx.settings.fields?.filter((m) => m.entity === entity) ?? [];
  if (mappings.length === 0) return {};
  const fields = await fieldsOf(
    client,
    ctx,
    entity,
    mappings.map((m) => m.code),
  );
  return mapFields(input.lead, mappings, entity, fields);
}

async function searchContacts(client: UspacyClient, query: Record<string, string>): Promise<ContactRecord[]> {
  const answer = await client.get<{ data?: ContactRecord[] } | ContactRecord[] | undefined>(
    '/crm/v1/entities/contacts',
    { ...query, page: 1, list: 50 },
  );
  return Array.isArray(answer) ? answer : (answer?.data ?? []);
}

/** The existing contact with this phone, else with this e-mail. */
export async function findContact(client: UspacyClient, lead: { phone?: string; email?: string }) {
  if (lead.phone && phoneQuery(lead.phone)) {
    const hit = matchContact(await searchContacts(client, { phone: phoneQuery(lead.phone) }), { phone: lead.phone });
    if (hit) return hit;
  }
  if (lead.email) {
    const hit = matchContact(await searchContacts(client, { email: lead.email.trim() }), { email: lead.email });
    if (hit) return hit;
  }
  return undefined;
}

/** A lead or deal of this contact that carries our mark: made by an earlier attempt of this delivery. */
async function markedRecord(client: UspacyClient, target: 'lead' | 'deal', contactId: number, marker: string) {
  const related = await client.list<{ id: number; comments?: unknown }>(
    `/crm/v1/entities/contacts/${contactId}/related/${ENTITY_PATH[target]}`,
    {},
    1,
  );
  return related.find((r) => hasMarker(r, marker))?.id;
}

interface Made {
  id: number;
  isNew: boolean;
  trace: AttemptTrace;
}

async function deliverLocked(client: UspacyClient, ctx: Ctx, input: DeliveryInput, marker: string): Promise<Made> {
  const { lead } = input;
  const { settings } = ctx;
  const owner = ownerOf(input.assignee?.id, settings);
  let contactId: number | undefined;
  if (lead.phone || lead.email) {
    const found = await findContact(client, lead);
    if (found) {
      contactId = found.id;
      const existing = await markedRecord(client, settings.target, found.id, marker);
      if (existing) return { id: existing, isNew: false, trace: client.lastTrace };
    } else {
      const fields = await mapped(client, ctx, input, 'contact');
      contactId = (await client.create('/crm/v1/entities/contacts', contactBody(lead, { owner, fields }))).id;
    }
  }
  const body = recordBody(settings.target, lead, settings, {
    title: titleOf(lead, settings.title),
    owner,
    contactId,
    marker,
    fields: await mapped(client, ctx, input, settings.target),
  });
  const { id } = await client.create(`/crm/v1/entities/${ENTITY_PATH[settings.target]}`, body);
  return { id, isNew: true, trace: client.lastTrace };
}

/** The comment's author: the signed-in user, else the responsible user, else whoever the webhook acts as. */
async function authorOf(client: UspacyClient, owner: number | undefined): Promise<number | undefined> {
  if (client.userId) return client.userId;
  if (owner) return owner;
  const me = await client.get<{ id?: unknown } | undefined>('/company/v1/users/me');
  return typeof me?.id === 'number' ? me.id : undefined;
}

/**
 * The comment with the raw lead and its UTM. A record found again (a retry) gets it only if it has
 * none with our mark yet. A failure is logged, never thrown: the record exists, and retrying the
 * delivery for its comment would only find the record again.
 */
async function addNote(client: UspacyClient, ctx: Ctx, input: DeliveryInput, made: Made, marker: string) {
  const entityType = ctx.settings.target;
  try {
    if (!made.isNew) {
      const listed = await client.get<{ data?: { message?: unknown }[] } | undefined>('/comments/v1/list_comments', {
        entityType,
        entityId: made.id,
        list: 50,
      });
      if ((listed?.data ?? []).some((c) => typeof c.message === 'string' && c.message.includes(marker))) return;
    }
    const authorId = await authorOf(client, ownerOf(input.assignee?.id, ctx.settings));
    await client.post('/comments/v1/comments', {
      entityType,
      entityId: made.id,
      ...(authorId ? { authorId } : {}),
      message: noteText(input.lead, input.raw, marker),
    });
  } catch (error) {
    ctx.logger.warn({ externalId: made.id, reason: (error as Error).message }, 'Uspacy comment not added');
  }
}

export const uspacy = defineConnector<UspacyAuth, UspacySettings>({
  slug: 'uspacy',
  kind: 'destination',
  codes,
  // EMULATORS=true (demo installs, end-to-end tests): its emulator, loaded only then.
  demo: () => import('./demo').then((m) => m.startDemo()),
  // A lead with no phone, e-mail or name would be an empty contact: refused (LEAD_NO_CONTACT).
  requiresContact: true,
  // Credentials come only from its connect (connect.ts): it checks the portal's host before the
  // password goes there, and trades the password for tokens.
  connectAuth: 'own',
  connect: uspacyConnect,
  account: uspacyAccount,
  aliases: uspacyAliases,
  auth: ZUspacyAuth,
  settings: ZUspacySettings,
  config: {
    /** Hosts a portal address or incoming webhook URL may name. */
    USPACY_HOSTS: { type: 'hosts', default: '*.uspacy.ua' },
  },
  // Uspacy refusing a list request itself answers CRM_REQUEST_FAILED with its reason on the generic lists route.
  loaderRefusal: 'CRM_REQUEST_FAILED',
  loaders: {
    users: async (ctx) => (await uspacyUsers(ctx)).map((u) => ({ id: String(u.id), name: u.name })),
    fields: async (ctx) => toFieldOptions(await uspacyFields(ctx)),
    uspacyUsers: (ctx) => uspacyUsers(ctx),
    uspacyFields: (ctx) => uspacyFields(ctx),
    leadFunnels: (ctx) => uspacyFunnels(ctx, 'lead'),
    dealFunnels: (ctx) => uspacyFunnels(ctx, 'deal'),
  },
  // The credentials work, and the funnel and stage chosen still exist in the portal.
  async testConnection(ctx) {
    const funnels = await uspacyFunnels(ctx, ctx.settings.target);
    const { funnelId, stageId } = ctx.settings;
    if (funnelId === undefined) return;
    const funnel = funnels.find((f) => f.id === funnelId);
    if (!funnel) throw new PermanentError('USPACY_FUNNEL_NOT_FOUND', { code: 'USPACY_FUNNEL_NOT_FOUND' });
    if (stageId !== undefined && !funnel.stages.some((s) => s.id === stageId)) {
      throw new PermanentError('USPACY_STAGE_NOT_FOUND', { code: 'USPACY_STAGE_NOT_FOUND' });
    }
  },
  // One person per phone and e-mail at a time, in every worker: the contact's search, its creation,
  // the look for our mark and the record run under that lock.
  async deliver(ctx, input) {
    const client = uspacyClient(ctx);
    const marker = markerOf(input.idempotencyKey);
    const keys = personLockKeys(input.lead, `lead:${input.idempotencyKey}`);
    const made = await lockOf(ctx)(keys, () => deliverLocked(client, ctx, input, marker));
    if (ctx.settings.note !== false) await addNote(client, ctx, input, made, marker);
    return { ...made.trace, externalId: String(made.id) };
  },
});

export {
  redactWebhookUrl,
  refreshTokens as uspacyRefreshTokens,
  signIn as uspacySignIn,
  type UspacyAuth,
  UspacyClient,
  type UspacyContext,
  uspacyClient,
  uspacyMessage,
  ZUspacyAuth,
} from './client';
export * from './mapping';
