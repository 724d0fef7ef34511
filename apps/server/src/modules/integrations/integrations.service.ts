// An account's integrations: sources (owning destination ids) and destinations. Every query is
// scoped to the actor's account; another account's id answers 404 (or 400 when it is a reference
// in a body), never data.
import { randomBytes } from 'node:crypto';
import { getConnector } from '@leadrelay/connectors';
import {
  type ConnectionCheck,
  type CreateIntegrationBody,
  INTEGRATION_OPTIONS_MAX_BYTES,
  type Integration,
  type IntegrationList,
  type IntegrationListQuery,
  type UpdateIntegrationBody,
  ZSourceOptions,
} from '@leadrelay/shared';
import { and, count, desc, eq, ilike, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Deps } from '../../config';
import type { Executor } from '../../db/client';
import {
  collections,
  hooks,
  type IntegrationRow,
  type IntegrationSettingRow,
  integrationCategories,
  integrations,
  type UserRow,
} from '../../db/schema';
import { isUuid } from '../../lib/ids';
import { AppError } from '../../plugins/errors';
import { findSettingBySlug, isTypeAvailable, settingsBySlug } from '../catalogue/catalogue.service';
import { existingConnectionIds, validFacebookSettings } from '../facebook/facebook-settings';
import { connectorContext, reasonOf } from './connector-context';
import { sealAuth } from './stored-auth';

type Actor = Pick<UserRow, 'id'>;

// ---- Reading ----

async function ownRow(db: Executor, actor: Actor, id: string, lock = false): Promise<IntegrationRow> {
  if (!isUuid(id)) throw new AppError('INTEGRATION_NOT_FOUND');
  const query = db
    .select()
    .from(integrations)
    .where(and(eq(integrations.id, id), eq(integrations.accountId, actor.id)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new AppError('INTEGRATION_NOT_FOUND');
  return row;
}

/** The actor's own integration of `type`; another account's id, or another type's, answers INTEGRATION_NOT_FOUND. */
export async function ownIntegrationOfType(
  db: Executor,
  actor: Actor,
  id: string,
  type: string,
  lock = false,
): Promise<IntegrationRow> {
  const row = await ownRow(db, actor, id, lock);
  if (row.type !== type) throw new AppError('INTEGRATION_NOT_FOUND');
  return row;
}

/** The API shape of rows, with destination names and catalogue category resolved in a few queries. */
async function toApi(db: Executor, actor: Actor, rows: IntegrationRow[]): Promise<Integration[]> {
  if (rows.length === 0) return [];
  const destinationIds = [...new Set(rows.flatMap((r) => r.destinationIds))];
  const destinations = destinationIds.length
    ? await db
        .select({ id: integrations.id, name: integrations.name, type: integrations.type })
        .from(integrations)
        .where(and(eq(integrations.accountId, actor.id), inArray(integrations.id, destinationIds)))
    : [];
  const destinationById = new Map(destinations.map((d) => [d.id, d]));
  const settings = await settingsBySlug(db, [...new Set(rows.map((r) => r.type))]);
  const categoryIds = [...new Set([...settings.values()].map((s) => s.categoryId).filter((c) => c !== null))];
  const categories = categoryIds.length
    ? await db.select().from(integrationCategories).where(inArray(integrationCategories.id, categoryIds))
    : [];
  const categoryById = new Map(categories.map((c) => [c.id, c]));
  // A facebook integration is connected while the Facebook connection its settings name exists.
  const fbConnected = await existingConnectionIds(
    db,
    actor.id,
    rows.filter((r) => r.type === 'facebook').map((r) => r.settings.fbConnectionId),
  );

  return rows.map((row) => {
    const setting = settings.get(row.type);
    const category = setting?.categoryId ? categoryById.get(setting.categoryId) : undefined;
    return {
      _id: row.id,
      name: row.name,
      type: row.type,
      kind: setting?.kind ?? null,
      active: row.active,
      options: row.options,
      settings: row.settings,
      destination: row.destinationIds.flatMap((id) => {
        const d = destinationById.get(id);
        return d ? [{ _id: d.id, name: d.name, type: d.type }] : [];
      }),
      distributionId: row.distributionId,
      category: category ? { _id: category.id, name: category.name } : null,
      isConnected:
        row.type === 'facebook'
          ? fbConnected.has(String(row.settings.fbConnectionId))
          : row.auth !== null && Object.keys(row.auth).length > 0,
      status: row.status,
      statusReason: row.statusReason,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    };
  });
}

const one = async (db: Executor, actor: Actor, row: IntegrationRow) => (await toApi(db, actor, [row]))[0]!;

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function listIntegrations(
  db: Executor,
  actor: Actor,
  query: IntegrationListQuery,
): Promise<IntegrationList> {
  const active = query.active === undefined ? undefined : query.active === 'true';
  const search = query.search || undefined;
  const where = and(
    eq(integrations.accountId, actor.id),
    query.type ? eq(integrations.type, query.type) : undefined,
    active === undefined ? undefined : eq(integrations.active, active),
    search ? ilike(integrations.name, `%${escapeLike(search)}%`) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(integrations)
      .where(where)
      .orderBy(desc(integrations.createdAt), desc(integrations.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db.select({ n: count() }).from(integrations).where(where),
  ]);
  return {
    data: await toApi(db, actor, rows),
    total: Number(total?.n ?? 0),
    filter: {
      page: query.page,
      limit: query.limit,
      ...(query.type ? { type: query.type } : {}),
      ...(active === undefined ? {} : { active }),
      ...(search ? { search } : {}),
    },
  };
}

export async function getIntegration(db: Executor, actor: Actor, id: string): Promise<Integration> {
  return one(db, actor, await ownRow(db, actor, id));
}

/** The source's destinations as full integration objects, in the source's order. */
export async function listDestinations(db: Executor, actor: Actor, id: string): Promise<Integration[]> {
  const row = await ownRow(db, actor, id);
  if (row.destinationIds.length === 0) return [];
  const rows = await db
    .select()
    .from(integrations)
    .where(and(eq(integrations.accountId, actor.id), inArray(integrations.id, row.destinationIds)));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return toApi(
    db,
    actor,
    row.destinationIds.flatMap((d) => byId.get(d) ?? []),
  );
}

// ---- Validation of what a body refers to ----

type FieldErrors = { field: string; code: 'VALIDATION_ERROR' }[];

function zodFieldErrors(prefix: string, error: z.ZodError): FieldErrors {
  return error.issues.map((i) => ({ field: [prefix, ...i.path.map(String)].join('.'), code: 'VALIDATION_ERROR' }));
}

function checkSize(value: Record<string, unknown>): void {
  if (Buffer.byteLength(JSON.stringify(value)) > INTEGRATION_OPTIONS_MAX_BYTES) throw new AppError('OPTIONS_TOO_LARGE');
}

/** Options of a source are what ingest reads (mapping, filters, dedupe): checked here, on write. */
function validOptions(kind: IntegrationSettingRow['kind'] | undefined, options: Record<string, unknown>) {
  checkSize(options);
  if (kind !== 'source') return options;
  const parsed = ZSourceOptions.safeParse(options);
  if (!parsed.success) {
    throw new AppError('VALIDATION_ERROR', { errors: zodFieldErrors('options', parsed.error) });
  }
  return parsed.data as Record<string, unknown>;
}

function validSettings(type: string, settings: Record<string, unknown>): Record<string, unknown> {
  checkSize(settings);
  const connector = getConnector(type);
  if (!connector) return settings;
  const parsed = connector.settings.safeParse(settings);
  if (!parsed.success) {
    throw new AppError('VALIDATION_ERROR', { errors: zodFieldErrors('settings', parsed.error) });
  }
  return parsed.data as Record<string, unknown>;
}

type CheckedSettings = { settings: Record<string, unknown>; status?: 'ok' | 'broken'; statusReason?: string | null };

/** Settings that name the account's own rows (facebook: connection and page) are checked against the database. */
async function checkedSettings(
  db: Executor,
  actor: Actor,
  type: string,
  raw: Record<string, unknown> | undefined,
): Promise<CheckedSettings> {
  if (type === 'facebook') return validFacebookSettings(db, actor, raw ?? {});
  return { settings: raw ? validSettings(type, raw) : {} };
}

const notAllowed = () =>
  new AppError('DESTINATION_NOT_ALLOWED', { errors: [{ field: 'destination', code: 'DESTINATION_NOT_ALLOWED' }] });

/** Destinations must be the actor's own integrations of a destination type the source's catalogue entry allows. */
async function validDestinations(
  db: Executor,
  actor: Actor,
  source: IntegrationSettingRow | undefined,
  ids: string[],
  selfId?: string,
): Promise<string[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  if (source?.kind !== 'source' || (selfId && unique.includes(selfId))) throw notAllowed();
  const rows = await db
    .select({ id: integrations.id, type: integrations.type })
    .from(integrations)
    .where(and(eq(integrations.accountId, actor.id), inArray(integrations.id, unique)));
  if (rows.length !== unique.length) throw notAllowed();
  const kinds = await settingsBySlug(db, [...new Set(rows.map((r) => r.type))]);
  for (const row of rows) {
    if (kinds.get(row.type)?.kind !== 'destination' || !source.destinations.includes(row.type)) throw notAllowed();
  }
  return unique;
}

async function validDistribution(db: Executor, actor: Actor, id: string | null | undefined): Promise<void> {
  if (!id) return;
  const [row] = await db
    .select({ id: collections.id })
    .from(collections)
    .where(and(eq(collections.id, id), eq(collections.accountId, actor.id)));
  if (!row) {
    throw new AppError('DISTRIBUTION_NOT_FOUND', {
      errors: [{ field: 'distributionId', code: 'DISTRIBUTION_NOT_FOUND' }],
    });
  }
}

// ---- Writing ----

export async function createIntegration(db: Executor, actor: Actor, body: CreateIntegrationBody): Promise<Integration> {
  const setting = await findSettingBySlug(db, body.type);
  // Hidden types (by an operator, or without a connector yet) are not offered, so they cannot be created.
  if (!setting || setting.hidden || !isTypeAvailable(body.type)) {
    throw new AppError('INTEGRATION_TYPE_UNKNOWN', { errors: [{ field: 'type', code: 'INTEGRATION_TYPE_UNKNOWN' }] });
  }
  const options = validOptions(setting.kind, body.options ?? {});
  const { settings, ...health } = await checkedSettings(db, actor, body.type, body.settings);
  const destinationIds = await validDestinations(db, actor, setting, body.destination ?? []);
  await validDistribution(db, actor, body.distributionId);
  const [row] = await db
    .insert(integrations)
    .values({
      accountId: actor.id,
      type: body.type,
      name: body.name.trim(),
      options,
      settings,
      destinationIds,
      distributionId: body.distributionId ?? null,
      ...health,
    })
    .returning();
  return one(db, actor, row!);
}

export async function updateIntegration(
  db: Executor,
  actor: Actor,
  id: string,
  body: UpdateIntegrationBody,
): Promise<Integration> {
  return db.transaction(async (tx) => {
    const row = await ownRow(tx, actor, id, true);
    const setting = await findSettingBySlug(tx, row.type);
    const values: Partial<typeof integrations.$inferInsert> = { updatedAt: new Date() };
    if (body.name !== undefined) values.name = body.name.trim();
    if (body.active !== undefined) values.active = body.active;
    if (body.options !== undefined) values.options = validOptions(setting?.kind, body.options);
    if (body.settings !== undefined) Object.assign(values, await checkedSettings(tx, actor, row.type, body.settings));
    if (body.destination !== undefined) {
      values.destinationIds = await validDestinations(tx, actor, setting, body.destination, row.id);
    }
    if (body.distributionId !== undefined) {
      await validDistribution(tx, actor, body.distributionId);
      values.distributionId = body.distributionId;
    }
    const [updated] = await tx.update(integrations).set(values).where(eq(integrations.id, row.id)).returning();
    return one(tx, actor, updated!);
  });
}

export const updateOptions = (db: Executor, actor: Actor, id: string, options: Record<string, unknown>) =>
  updateIntegration(db, actor, id, { options });

export async function addDestination(db: Executor, actor: Actor, id: string, destinationId: string) {
  return db.transaction(async (tx) => {
    const row = await ownRow(tx, actor, id, true);
    if (row.destinationIds.includes(destinationId)) return one(tx, actor, row);
    const setting = await findSettingBySlug(tx, row.type);
    await validDestinations(tx, actor, setting, [destinationId], row.id);
    const [updated] = await tx
      .update(integrations)
      .set({ destinationIds: [...row.destinationIds, destinationId], updatedAt: new Date() })
      .where(eq(integrations.id, row.id))
      .returning();
    return one(tx, actor, updated!);
  });
}

/** Removing an id that is not in the list is not an error: the answer is the integration as it is. */
export async function removeDestination(db: Executor, actor: Actor, id: string, destinationId: string) {
  return db.transaction(async (tx) => {
    const row = await ownRow(tx, actor, id, true);
    if (!row.destinationIds.includes(destinationId)) return one(tx, actor, row);
    const [updated] = await tx
      .update(integrations)
      .set({ destinationIds: row.destinationIds.filter((d) => d !== destinationId), updatedAt: new Date() })
      .where(eq(integrations.id, row.id))
      .returning();
    return one(tx, actor, updated!);
  });
}

/** Deletes the integration (its leads, hooks and deliveries cascade) and drops it from sources' destination lists. */
export async function deleteIntegration(db: Executor, actor: Actor, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await ownRow(tx, actor, id, true);
    await tx
      .update(integrations)
      .set({ destinationIds: sql`${integrations.destinationIds} - ${row.id}::text` })
      .where(
        and(
          eq(integrations.accountId, actor.id),
          sql`${integrations.destinationIds} @> jsonb_build_array(${row.id}::text)`,
        ),
      );
    await tx.delete(integrations).where(eq(integrations.id, row.id));
  });
}

// ---- Source webhook URL ----

export async function generateHook(deps: Deps, actor: Actor, id: string): Promise<{ url: string; token: string }> {
  const row = await ownRow(deps.db, actor, id);
  const setting = await findSettingBySlug(deps.db, row.type);
  if (setting?.kind !== 'source') throw new AppError('OPERATION_NOT_SUPPORTED');
  // coalesce: two calls at once still end with one token, and every later call answers it.
  const [updated] = await deps.db
    .update(integrations)
    .set({ hookToken: sql`coalesce(${integrations.hookToken}, ${randomBytes(32).toString('base64url')})` })
    .where(and(eq(integrations.id, row.id), eq(integrations.accountId, actor.id)))
    .returning({ token: integrations.hookToken });
  const token = updated!.token!;
  return { url: `${deps.config.publicUrl}/api/hooks/in/${token}`, token };
}

// ---- Connector calls ----

function connectorOf(row: IntegrationRow) {
  const connector = getConnector(row.type);
  if (!connector) throw new AppError('OPERATION_NOT_SUPPORTED');
  return connector;
}

/** `{type}/users` and `{type}/fields`: the type in the path must be the integration's own. */
export async function loadList(
  deps: Deps,
  actor: Actor,
  id: string,
  type: string,
  list: 'users' | 'fields',
): Promise<unknown[]> {
  const row = await ownIntegrationOfType(deps.db, actor, id, type);
  const loader = connectorOf(row).loaders?.[list];
  if (!loader) throw new AppError('OPERATION_NOT_SUPPORTED');
  const ctx = connectorContext(deps, connectorOf(row), row);
  try {
    return await loader(ctx);
  } catch (error) {
    throw new AppError('CONNECTION_FAILED', { message: reasonOf(error) });
  }
}

/** Registers a webhook at the destination (connectors with `webhooks`); others answer 400. */
export async function registerWebhooks(
  deps: Deps,
  actor: Actor,
  id: string,
  type: string,
  body: { url?: string; event?: string; name?: string } = {},
): Promise<{ success: true }> {
  const row = await ownIntegrationOfType(deps.db, actor, id, type);
  const connector = connectorOf(row);
  if (!connector.webhooks) throw new AppError('OPERATION_NOT_SUPPORTED');
  if (!body.url) throw new AppError('VALIDATION_ERROR', { errors: [{ field: 'url', code: 'VALIDATION_ERROR' }] });
  const ctx = connectorContext(deps, connector, row);
  try {
    await connector.webhooks.create(ctx, { url: body.url, event: body.event ?? '*.*', name: body.name });
  } catch (error) {
    throw new AppError('CONNECTION_FAILED', { message: reasonOf(error) });
  }
  return { success: true };
}

async function setStatus(db: Executor, row: IntegrationRow, check: ConnectionCheck): Promise<void> {
  await db
    .update(integrations)
    .set({ status: check.status, statusReason: check.ok ? null : (check.reason ?? null), updatedAt: new Date() })
    .where(eq(integrations.id, row.id));
}

async function runCheck(deps: Deps, row: IntegrationRow): Promise<ConnectionCheck> {
  const connector = connectorOf(row);
  if (!connector.testConnection) return { ok: true, status: row.status };
  let check: ConnectionCheck;
  try {
    await connector.testConnection(connectorContext(deps, connector, row));
    check = { ok: true, status: 'ok' };
  } catch (error) {
    const reason = error instanceof AppError ? error.code : reasonOf(error);
    check = { ok: false, reason, status: 'broken' };
  }
  await setStatus(deps.db, row, check);
  return check;
}

/** A failed check is an answer (200 {ok: false, reason}), not an error: the integration is marked broken. */
export async function checkConnection(deps: Deps, actor: Actor, id: string): Promise<ConnectionCheck> {
  const row = await ownRow(deps.db, actor, id);
  const connector = connectorOf(row);
  if (!connector.testConnection) throw new AppError('OPERATION_NOT_SUPPORTED');
  return runCheck(deps, row);
}

/** Stores credentials and settings checked by the connector's schemas, then checks the connection. */
export async function connect(
  deps: Deps,
  actor: Actor,
  id: string,
  body: { auth?: Record<string, unknown>; settings?: Record<string, unknown> },
): Promise<ConnectionCheck & { integration: Integration }> {
  const row = await ownRow(deps.db, actor, id);
  const connector = connectorOf(row);
  const values: Partial<typeof integrations.$inferInsert> = { updatedAt: new Date() };
  if (body.auth !== undefined) {
    if (connector.connectAuth === 'oauth') throw new AppError('OPERATION_NOT_SUPPORTED');
    checkSize(body.auth);
    const parsed = connector.auth.safeParse(body.auth);
    if (!parsed.success) throw new AppError('VALIDATION_ERROR', { errors: zodFieldErrors('auth', parsed.error) });
    // Sealed at rest; the API never answers it (toApi has no auth field).
    values.auth = sealAuth(deps.secrets, row.id, parsed.data as Record<string, unknown>);
  }
  if (body.settings !== undefined) values.settings = validSettings(row.type, body.settings);
  const [updated] = await deps.db
    .update(integrations)
    .set(values)
    .where(and(eq(integrations.id, row.id), eq(integrations.accountId, actor.id)))
    .returning();
  const check = await runCheck(deps, updated!);
  return { ...check, integration: await getIntegration(deps.db, actor, row.id) };
}

// ---- Hooks of one integration (legacy GET /{id}/webhooks) ----

export async function listIntegrationHooks(
  db: Executor,
  actor: Actor,
  id: string,
  page: { page: number; limit: number },
) {
  const row = await ownRow(db, actor, id);
  const where = and(eq(hooks.accountId, actor.id), eq(hooks.integrationId, row.id));
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(hooks)
      .where(where)
      .orderBy(desc(hooks.createdAt))
      .limit(page.limit)
      .offset((page.page - 1) * page.limit),
    db.select({ n: count() }).from(hooks).where(where),
  ]);
  return {
    data: rows.map((h) => ({
      _id: h.id,
      status: h.status,
      reason: h.reason,
      leadId: h.leadId,
      createdAt: h.createdAt.toISOString(),
    })),
    total: Number(total?.n ?? 0),
  };
}
