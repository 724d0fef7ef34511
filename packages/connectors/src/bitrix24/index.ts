// Bitrix24 as a destination: a lead (crm.lead.add), or a deal in the chosen pipeline and stage
// (crm.deal.add), with the contact found by phone, then e-mail (crm.duplicate.findbycomm), or made
// (crm.contact.add, deals only: a Bitrix24 lead carries the person itself and makes the contact
// when a manager converts it); UTM, source and comment; the responsible user from distribution when
// the portal has that user.
//
// Connecting is its own (connect.ts, run by the server's generic credentials connect): the portal's
// inbound webhook address. PUT .../connect takes settings only.
//
// Repeats: every record we make carries ORIGINATOR_ID "leadrelay" and ORIGIN_ID, a mark derived
// from the delivery's idempotency key. When an earlier attempt may have made the record
// (outcomeUnknown), the delivery looks it up by that mark first and answers it instead of making
// another; the person's lock keeps two leads of one person from making two contacts.
//
// Speed to lead: a deal or lead we made, moved to another stage, is the lead's first reaction; the
// portal's outgoing webhook (made by hand with our address and its token pasted back) tells us (stage-watch.ts).

import { cacheOf } from '../kit/cache';
import { defineConnector } from '../kit/define-connector';
import { PermanentError } from '../kit/errors';
import { createKeyedLock, type LockKeys, lockAll, personLockKeys, sortedKeys } from '../kit/keyed-lock';
import { cachedStageName } from '../kit/stage-names';
import type { DeliveryInput } from '../kit/types';
import { type Bitrix24Auth, type Bitrix24Client, type Bitrix24Context, bitrix24Client, ZBitrix24Auth } from './client';
import { codes } from './codes';
import { bitrix24Account, bitrix24Aliases, bitrix24Connect } from './connect';
import {
  contactFields,
  firstContact,
  ORIGINATOR,
  originIdOf,
  recordFields,
  responsibleOf,
  stageDirectory,
  titleOf,
  toPipelines,
  toStages,
  toUsers,
} from './mapping';
import { type Bitrix24Pipeline, type Bitrix24Settings, type Bitrix24User, ZBitrix24Settings } from './schema';
import { bitrix24StageWatch } from './stage-watch';

type Ctx = Bitrix24Context<Bitrix24Settings>;

// Without ctx.withLock (contexts that never race) the lock is still held for this connection within
// this process (the lock lives in the connection's cache).
const lockOf = (ctx: Ctx) =>
  ctx.withLock ??
  (<T>(keys: LockKeys, fn: () => Promise<T>) =>
    lockAll(
      cacheOf(ctx).get('lock', createKeyedLock),
      sortedKeys(keys).map((key) => `bitrix24|${key}`),
      fn,
    ));

// ---- Reading the portal ----

export async function bitrix24Stages(client: Bitrix24Client, categoryId: number) {
  const raw = await client.list<Record<string, unknown>>('crm.status.list', {
    order: { SORT: 'ASC' },
    filter: { ENTITY_ID: stageDirectory(categoryId) },
  });
  return toStages(raw);
}

/** Deal pipelines (crm.category.list, entityTypeId 2) with their stages (crm.status.list). */
export async function bitrix24Pipelines(ctx: Bitrix24Context): Promise<Bitrix24Pipeline[]> {
  const client = bitrix24Client(ctx);
  const raw = await client.list<Record<string, unknown>>(
    'crm.category.list',
    { entityTypeId: 2 },
    (r) => (r as { categories?: unknown } | null)?.categories,
  );
  const stages = new Map<number, Awaited<ReturnType<typeof bitrix24Stages>>>();
  for (const c of raw) {
    const id = Number(c.id);
    if (Number.isSafeInteger(id) && id >= 0 && !stages.has(id)) stages.set(id, await bitrix24Stages(client, id));
  }
  return toPipelines(raw, (id) => stages.get(id) ?? []);
}

/** The portal's active employees (user.get). */
export async function bitrix24Users(ctx: Bitrix24Context): Promise<Bitrix24User[]> {
  const raw = await bitrix24Client(ctx).list<Record<string, unknown>>('user.get', {
    FILTER: { ACTIVE: true, USER_TYPE: 'employee' },
  });
  return toUsers(raw);
}

/** Whether the portal has this active user, remembered for a few minutes per connection. */
const USER_TTL_MS = 5 * 60_000;
async function portalUser(client: Bitrix24Client, ctx: Ctx, id: string | undefined): Promise<Bitrix24User[]> {
  const wanted = id?.trim();
  if (!wanted || !/^\d{1,10}$/.test(wanted)) return [];
  const known = cacheOf(ctx).get('users', () => new Map<string, { at: number; users: Bitrix24User[] }>());
  const hit = known.get(wanted);
  if (hit && Date.now() - hit.at < USER_TTL_MS) return hit.users;
  let users: Bitrix24User[];
  try {
    users = toUsers(
      (await client.result<Record<string, unknown>[]>('user.get', { FILTER: { ID: wanted, ACTIVE: true } })) ?? [],
    );
  } catch (error) {
    // A webhook without the Users scope cannot tell: the lead still goes, to the chosen responsible user.
    if (!(error instanceof PermanentError) || !error.message.startsWith('BITRIX24_NO_USER_SCOPE')) throw error;
    ctx.logger.warn({ reason: 'BITRIX24_NO_USER_SCOPE' }, 'Bitrix24 users unreadable: assignee not checked');
    users = [];
  }
  known.set(wanted, { at: Date.now(), users });
  return users;
}

/** The chosen stage's STATUS_ID ("NEW", "C1:NEW"); a stage the pipeline no longer has is refused. */
async function stageStatusOf(client: Bitrix24Client, settings: Bitrix24Settings): Promise<string | undefined> {
  if (settings.stageId === undefined) return undefined;
  const stages = await bitrix24Stages(client, settings.categoryId ?? 0);
  const stage = stages.find((s) => s.id === settings.stageId);
  if (!stage) throw new PermanentError('BITRIX24_STAGE_NOT_FOUND', { code: 'BITRIX24_STAGE_NOT_FOUND' });
  return stage.statusId;
}

// ---- Delivery ----

const METHOD = { lead: 'crm.lead', deal: 'crm.deal' } as const;

/** The record an earlier attempt of this delivery made (ORIGINATOR_ID + ORIGIN_ID), if any. */
async function madeBefore(
  client: Bitrix24Client,
  target: 'lead' | 'deal',
  originId: string,
): Promise<number | undefined> {
  const found = await client.result<{ ID?: unknown; ORIGIN_ID?: unknown; ORIGINATOR_ID?: unknown }[]>(
    `${METHOD[target]}.list`,
    {
      filter: { ORIGINATOR_ID: ORIGINATOR, ORIGIN_ID: originId },
      select: ['ID', 'ORIGINATOR_ID', 'ORIGIN_ID'],
      order: { ID: 'ASC' },
    },
  );
  // Confirmed here, never trusted to the filter: a portal ignoring it must not hand us another record.
  const ours = Array.isArray(found)
    ? found.find((r) => r.ORIGIN_ID === originId && r.ORIGINATOR_ID === ORIGINATOR)
    : undefined;
  const id = Number(ours?.ID);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

/** The existing contact with this phone, else with this e-mail. */
export async function findContact(client: Bitrix24Client, lead: { phone?: string; email?: string }) {
  for (const [type, value] of [
    ['PHONE', lead.phone?.trim()],
    ['EMAIL', lead.email?.trim()],
  ] as const) {
    if (!value) continue;
    const id = firstContact(
      await client.result('crm.duplicate.findbycomm', { entity_type: 'CONTACT', type, values: [value] }),
    );
    if (id) return id;
  }
  return undefined;
}

async function deliverLocked(client: Bitrix24Client, ctx: Ctx, input: DeliveryInput, originId: string) {
  const { lead } = input;
  const { settings } = ctx;
  if (input.outcomeUnknown) {
    const existing = await madeBefore(client, settings.target, originId);
    if (existing) return existing;
  }
  const stageStatusId = settings.target === 'deal' ? await stageStatusOf(client, settings) : undefined;
  const owner = responsibleOf(input.assignee, await portalUser(client, ctx, input.assignee?.id), settings);
  let contactId = lead.phone || lead.email ? await findContact(client, lead) : undefined;
  if (!contactId && settings.target === 'deal') {
    contactId = Number(await client.result('crm.contact.add', { fields: contactFields(lead, owner) }));
    if (!Number.isSafeInteger(contactId) || contactId <= 0) {
      throw new PermanentError('HTTP_UNEXPECTED: Bitrix24 answered without the contact', {
        ...client.lastTrace,
        code: 'HTTP_UNEXPECTED',
      });
    }
  }
  const fields = recordFields(settings.target, lead, {
    title: titleOf(lead, settings.title),
    owner,
    contactId,
    originId,
    ...(settings.target === 'deal' ? { categoryId: settings.categoryId, stageStatusId } : {}),
  });
  const id = Number(
    await client.result(`${METHOD[settings.target]}.add`, { fields, params: { REGISTER_SONET_EVENT: 'Y' } }),
  );
  if (!Number.isSafeInteger(id) || id <= 0) {
    throw new PermanentError('HTTP_UNEXPECTED: Bitrix24 answered without the record', {
      ...client.lastTrace,
      code: 'HTTP_UNEXPECTED',
    });
  }
  return id;
}

export const bitrix24 = defineConnector<Bitrix24Auth, Bitrix24Settings>({
  slug: 'bitrix24',
  kind: 'destination',
  codes,
  // EMULATORS=true (demo installs, end-to-end tests): its emulator, loaded only then.
  demo: () => import('./demo').then((m) => m.startDemo()),
  // A lead with no phone, e-mail or name would be an empty contact: refused (LEAD_NO_CONTACT).
  requiresContact: true,
  // Credentials come only from its connect (connect.ts): it checks the portal's host before anything goes there.
  connectAuth: 'own',
  connect: bitrix24Connect,
  account: bitrix24Account,
  aliases: bitrix24Aliases,
  auth: ZBitrix24Auth,
  settings: ZBitrix24Settings,
  config: {
    /** Hosts an inbound webhook address may name: Bitrix24's cloud domains; add an on-premise portal's host. */
    BITRIX24_HOSTS: {
      type: 'hosts',
      default:
        '*.bitrix24.ua,*.bitrix24.com,*.bitrix24.eu,*.bitrix24.de,*.bitrix24.pl,*.bitrix24.kz,*.bitrix24.ru,*.bitrix24.by',
    },
  },
  // Stage changes as the lead's first reaction, through an outgoing webhook the person makes by hand (stage-watch.ts).
  // A deal stage's name (issue 33) from the pipelines list, kept a while per connection.
  pastedStageWatch: {
    ...bitrix24StageWatch,
    stageName: (ctx, stage) =>
      cachedStageName(
        ctx,
        async () =>
          (await bitrix24Pipelines(ctx)).flatMap((p) =>
            p.stages.map((s) => ({ id: s.statusId, name: s.name, pipelineId: String(p.id) })),
          ),
        stage,
      ),
  },
  // Bitrix24 refusing a list request itself answers CRM_REQUEST_FAILED with its reason on the generic lists route.
  loaderRefusal: 'CRM_REQUEST_FAILED',
  loaders: {
    users: async (ctx) => (await bitrix24Users(ctx)).map((u) => ({ id: String(u.id), name: u.name })),
    bitrix24Users: (ctx) => bitrix24Users(ctx),
    dealPipelines: (ctx) => bitrix24Pipelines(ctx),
  },
  // The webhook works and may use the CRM, and the pipeline and stage chosen still exist.
  async testConnection(ctx) {
    const client = bitrix24Client(ctx);
    await client.result('profile');
    const pipelines = await bitrix24Pipelines(ctx);
    const { target, categoryId, stageId } = ctx.settings;
    if (target !== 'deal' || (categoryId === undefined && stageId === undefined)) return;
    const pipeline = pipelines.find((p) => p.id === (categoryId ?? 0));
    if (!pipeline) throw new PermanentError('BITRIX24_PIPELINE_NOT_FOUND', { code: 'BITRIX24_PIPELINE_NOT_FOUND' });
    if (stageId !== undefined && !pipeline.stages.some((s) => s.id === stageId)) {
      throw new PermanentError('BITRIX24_STAGE_NOT_FOUND', { code: 'BITRIX24_STAGE_NOT_FOUND' });
    }
  },
  // One person per phone and e-mail at a time, in every worker: the look for an earlier record, the
  // contact's search and creation and the record run under that lock.
  async deliver(ctx, input) {
    const client = bitrix24Client(ctx);
    const originId = originIdOf(input.idempotencyKey);
    const keys = personLockKeys(input.lead, `lead:${input.idempotencyKey}`);
    const id = await lockOf(ctx)(keys, () => deliverLocked(client, ctx, input, originId));
    return { ...client.lastTrace, externalId: String(id) };
  },
});

export { type Bitrix24Auth, Bitrix24Client, bitrix24Client, redactWebhookUrl, ZBitrix24Auth } from './client';
export * from './mapping';
