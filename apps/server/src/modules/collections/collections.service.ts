// An account's collections: named lists (e.g. the responsible users an integration's leads are
// distributed to round-robin). Every query is scoped to the actor's account.
import { randomUUID } from 'node:crypto';
import { COLLECTION_ITEMS_MAX, type Collection, type WorkingHours } from '@leadrelay/shared';
import { and, count, desc, eq, ilike, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { type CollectionItem, type CollectionRow, collections, integrations, type UserRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { isUuid } from '../../lib/ids';

type Actor = Pick<UserRow, 'id'>;
type ItemBody = { id?: string; name: string; value: string; weight?: number; hours?: WorkingHours; away?: boolean };

const toApi = (row: CollectionRow): Collection => ({
  _id: row.id,
  name: row.name,
  items: row.items,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

const toItem = (item: ItemBody): CollectionItem => ({
  // Ids the client sends for existing items are kept (the round-robin cursor refers to them).
  id: item.id?.trim() || randomUUID(),
  name: item.name.trim(),
  value: item.value.trim(),
  ...(item.weight !== undefined ? { weight: item.weight } : {}),
  // No hours: always on duty (collections made before issue 19 behave as they did).
  ...(item.hours !== undefined ? { hours: item.hours } : {}),
  ...(item.away ? { away: true } : {}),
});

function toItems(items: ItemBody[]): CollectionItem[] {
  const seen = new Set<string>();
  return items.map((i) => {
    const item = toItem(i);
    if (seen.has(item.id)) item.id = randomUUID();
    seen.add(item.id);
    return item;
  });
}

/**
 * What only the Telegram bot writes on an item (its linked chat) stays on the item whose id the body
 * keeps: a PUT of the list never links nor unlinks a manager.
 */
function keepBotKeys(items: CollectionItem[], before: CollectionItem[]): CollectionItem[] {
  const linked = new Map(before.filter((i) => i.telegram).map((i) => [i.id, i.telegram]));
  return items.map((item) => {
    const telegram = linked.get(item.id);
    return telegram ? { ...item, telegram } : item;
  });
}

async function ownRow(db: Executor, actor: Actor, id: string): Promise<CollectionRow> {
  if (!isUuid(id)) throw new AppError('COLLECTION_NOT_FOUND');
  const [row] = await db
    .select()
    .from(collections)
    .where(and(eq(collections.id, id), eq(collections.accountId, actor.id)));
  if (!row) throw new AppError('COLLECTION_NOT_FOUND');
  return row;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function listCollections(
  db: Executor,
  actor: Actor,
  query: { page: number; limit: number; search?: string },
): Promise<{ data: Collection[]; total: number }> {
  const where = and(
    eq(collections.accountId, actor.id),
    query.search ? ilike(collections.name, `%${escapeLike(query.search)}%`) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(collections)
      .where(where)
      .orderBy(desc(collections.createdAt), desc(collections.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db.select({ n: count() }).from(collections).where(where),
  ]);
  return { data: rows.map(toApi), total: Number(total?.n ?? 0) };
}

export async function getCollection(db: Executor, actor: Actor, id: string): Promise<Collection> {
  return toApi(await ownRow(db, actor, id));
}

export async function createCollection(
  db: Executor,
  actor: Actor,
  body: { name: string; items?: ItemBody[] },
): Promise<Collection> {
  const [row] = await db
    .insert(collections)
    .values({ accountId: actor.id, name: body.name.trim(), items: toItems(body.items ?? []) })
    .returning();
  return toApi(row!);
}

export async function updateCollection(
  db: Executor,
  actor: Actor,
  id: string,
  body: { name?: string; items?: ItemBody[] },
): Promise<Collection> {
  const existing = await ownRow(db, actor, id);
  const [row] = await db
    .update(collections)
    .set({
      ...(body.name !== undefined ? { name: body.name.trim() } : {}),
      ...(body.items !== undefined ? { items: keepBotKeys(toItems(body.items), existing.items) } : {}),
      updatedAt: new Date(),
    })
    .where(and(eq(collections.id, id), eq(collections.accountId, actor.id)))
    .returning();
  if (!row) throw new AppError('COLLECTION_NOT_FOUND');
  return toApi(row);
}

/** Refused while an integration distributes leads with it: deleting it would silently stop the distribution. */
export async function deleteCollection(db: Executor, actor: Actor, id: string): Promise<void> {
  await ownRow(db, actor, id);
  const [user] = await db
    .select({ id: integrations.id })
    .from(integrations)
    .where(and(eq(integrations.accountId, actor.id), eq(integrations.distributionId, id)))
    .limit(1);
  if (user) throw new AppError('COLLECTION_IN_USE');
  await db.delete(collections).where(and(eq(collections.id, id), eq(collections.accountId, actor.id)));
}

/** Appends one item in a single statement, so two adds at once cannot lose one or pass the limit. */
export async function addItem(db: Executor, actor: Actor, id: string, body: ItemBody): Promise<Collection> {
  const existing = await ownRow(db, actor, id);
  const item = toItem({ ...body, id: undefined });
  const [row] = await db
    .update(collections)
    .set({ items: sql`${collections.items} || ${JSON.stringify([item])}::jsonb`, updatedAt: new Date() })
    .where(
      and(
        eq(collections.id, existing.id),
        eq(collections.accountId, actor.id),
        sql`jsonb_array_length(${collections.items}) < ${COLLECTION_ITEMS_MAX}`,
      ),
    )
    .returning();
  if (!row) throw new AppError('COLLECTION_ITEMS_LIMIT');
  return toApi(row);
}

export async function removeItem(db: Executor, actor: Actor, id: string, itemId: string): Promise<Collection> {
  const existing = await ownRow(db, actor, id);
  if (!existing.items.some((i) => i.id === itemId)) throw new AppError('ITEM_NOT_FOUND');
  const [row] = await db
    .update(collections)
    .set({
      items: sql`coalesce((select jsonb_agg(e) from jsonb_array_elements(${collections.items}) e where e->>'id' <> ${itemId}), '[]'::jsonb)`,
      updatedAt: new Date(),
    })
    .where(and(eq(collections.id, existing.id), eq(collections.accountId, actor.id)))
    .returning();
  if (!row) throw new AppError('COLLECTION_NOT_FOUND');
  return toApi(row);
}

/**
 * The away switch of one item (issue 19), in one statement: the rest of the list is left as it is,
 * so a switch from the web and a list saved at once cannot undo each other's other changes.
 */
export async function setItemAway(
  db: Executor,
  actor: Actor,
  id: string,
  itemId: string,
  away: boolean,
  now = new Date(),
): Promise<Collection> {
  const existing = await ownRow(db, actor, id);
  if (!existing.items.some((i) => i.id === itemId)) throw new AppError('ITEM_NOT_FOUND');
  const patched = away ? sql`e || jsonb_build_object('away', true)` : sql`e - 'away'`;
  const [row] = await db
    .update(collections)
    .set({
      items: sql`(select jsonb_agg(case when e->>'id' = ${itemId} then ${patched} else e end order by n)
        from jsonb_array_elements(${collections.items}) with ordinality as x(e, n))`,
      updatedAt: now,
    })
    .where(
      and(
        eq(collections.id, existing.id),
        eq(collections.accountId, actor.id),
        sql`${collections.items} @> ${JSON.stringify([{ id: itemId }])}::jsonb`,
      ),
    )
    .returning();
  if (!row) throw new AppError('ITEM_NOT_FOUND');
  return toApi(row);
}
