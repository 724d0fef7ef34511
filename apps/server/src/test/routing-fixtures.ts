// Rows the routing tests need. Integrations are written directly: their API belongs to the
// integrations module and is tested there; here they are only the ingest's configuration.
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { CollectionItem } from '../db/schema';
import { collections, dedupeKeys, deliveries, hooks, integrations, leads, users } from '../db/schema';

export async function accountIdOf(db: Db, login: string): Promise<string> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.login, login));
  if (!row) throw new Error(`no user ${login}`);
  return row.id;
}

export async function createDestination(
  db: Db,
  accountId: string,
  values: { type?: string; name?: string; active?: boolean; settings?: Record<string, unknown> } = {},
): Promise<string> {
  const [row] = await db
    .insert(integrations)
    .values({
      accountId,
      type: values.type ?? 'test-crm',
      name: values.name ?? 'CRM',
      active: values.active ?? true,
      settings: values.settings ?? {},
      auth: {},
    })
    .returning({ id: integrations.id });
  return row!.id;
}

export async function createSource(
  db: Db,
  accountId: string,
  values: {
    destinationIds?: string[];
    options?: Record<string, unknown>;
    active?: boolean;
    distributionId?: string | null;
  } = {},
): Promise<{ id: string; token: string; url: string }> {
  const token = randomBytes(16).toString('hex');
  const [row] = await db
    .insert(integrations)
    .values({
      accountId,
      type: 'webhook',
      name: 'Site form',
      active: values.active ?? true,
      options: values.options ?? {},
      destinationIds: values.destinationIds ?? [],
      distributionId: values.distributionId ?? null,
      hookToken: token,
    })
    .returning({ id: integrations.id });
  return { id: row!.id, token, url: `/api/hooks/in/${token}` };
}

export async function createCollection(db: Db, accountId: string, items: CollectionItem[]): Promise<string> {
  const [row] = await db
    .insert(collections)
    .values({ accountId, name: 'Managers', items })
    .returning({ id: collections.id });
  return row!.id;
}

/** A clock tests move by hand. */
export function fakeClock(start = new Date('2026-01-05T10:00:00Z')) {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    advance(ms: number) {
      now += ms;
    },
    set(date: Date) {
      now = date.getTime();
    },
  };
}

/** What the engine stored for a source: its leads, hooks, their deliveries and dedupe keys. */
export async function storedRows(db: Db, integrationId: string) {
  const [l, h, d, k] = await Promise.all([
    db.select().from(leads).where(eq(leads.integrationId, integrationId)),
    db.select().from(hooks).where(eq(hooks.integrationId, integrationId)),
    db
      .select()
      .from(deliveries)
      .innerJoin(hooks, eq(hooks.id, deliveries.hookId))
      .where(eq(hooks.integrationId, integrationId)),
    db.select().from(dedupeKeys).where(eq(dedupeKeys.integrationId, integrationId)),
  ]);
  return { leads: l, hooks: h, deliveries: d.map((r) => r.deliveries), keys: k };
}
