import type { Assignee } from '@leadrelay/shared';
import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { type CollectionItem, collections, distributionCursors } from '../../db/schema';

const weightOf = (item: CollectionItem) =>
  Number.isFinite(item.weight) && (item.weight ?? 1) > 0 ? Math.floor(item.weight ?? 1) || 1 : 1;

/**
 * The item at position `counter` (1-based) of a weighted round-robin cycle. A cycle has
 * sum(weights) slots; each item gets its weight's share of every cycle, interleaved so a
 * heavy item does not take its slots in one run (smooth weighted round-robin).
 */
export function pickWeighted(items: readonly CollectionItem[], counter: number): CollectionItem | undefined {
  if (!items.length) return undefined;
  const weights = items.map(weightOf);
  const total = weights.reduce((a, b) => a + b, 0);
  const slot = (((counter - 1) % total) + total) % total;
  // Smooth WRR is deterministic per cycle: replay it up to `slot`.
  const current = weights.map(() => 0);
  let chosen = 0;
  for (let step = 0; step <= slot; step++) {
    let best = 0;
    for (let i = 0; i < weights.length; i++) {
      current[i] = (current[i] ?? 0) + (weights[i] ?? 1);
      if ((current[i] ?? 0) > (current[best] ?? 0)) best = i;
    }
    current[best] = (current[best] ?? 0) - total;
    chosen = best;
  }
  return items[chosen];
}

/**
 * The next responsible user of an integration's distribution collection. The counter is bumped
 * with one atomic upsert inside the ingest transaction, so concurrent ingests (on any number of
 * API processes) each take a different slot and a rolled-back ingest gives its slot back.
 */
export async function nextAssignee(
  tx: Executor,
  accountId: string,
  collectionId: string | null,
): Promise<Assignee | undefined> {
  if (!collectionId) return undefined;
  const [collection] = await tx
    .select({ items: collections.items, accountId: collections.accountId })
    .from(collections)
    .where(eq(collections.id, collectionId));
  if (!collection || collection.accountId !== accountId || !collection.items.length) return undefined;
  const [cursor] = await tx
    .insert(distributionCursors)
    .values({ collectionId, counter: 1 })
    .onConflictDoUpdate({
      target: distributionCursors.collectionId,
      set: { counter: sql`${distributionCursors.counter} + 1` },
    })
    .returning({ counter: distributionCursors.counter });
  const item = pickWeighted(collection.items, cursor?.counter ?? 1);
  return item ? { id: item.value, name: item.name } : undefined;
}
