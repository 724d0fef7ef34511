import { type Assignee, DEFAULT_ROUTING_POLICY, type RoutingPolicy } from '@leadrelay/shared';
import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { type CollectionItem, collections } from '../../db/schema';
import { stretchAt } from '../../lib/working-time';

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

/** An integration's distribution as the ingest statement takes it. */
export interface Distribution {
  collectionId: string;
  /** The assignees `{id, name}`, one per item, and the same as JSON text. */
  assignees: Assignee[];
  assigneesJson: string;
  /** PostgreSQL int[] literal: the 0-based item of each slot of one round-robin cycle. */
  slots: string;
}

const gcd = (a: number, b: number): number => (b ? gcd(b, a % b) : a);

/**
 * One cycle of the smooth weighted round-robin, slot by slot (the same picks as `pickWeighted`).
 * Weights with a common factor repeat a shorter cycle, so the cycle is divided by it.
 */
export function distributionOf(collectionId: string, items: readonly CollectionItem[]): Distribution | undefined {
  if (!items.length) return undefined;
  const weights = items.map(weightOf);
  const common = weights.reduce(gcd);
  const reduced = weights.map((w) => w / common);
  const total = reduced.reduce((a, b) => a + b, 0);
  const current = reduced.map(() => 0);
  const slots: number[] = [];
  for (let step = 0; step < total; step++) {
    let best = 0;
    for (let i = 0; i < reduced.length; i++) {
      current[i] = (current[i] ?? 0) + (reduced[i] ?? 1);
      if ((current[i] ?? 0) > (current[best] ?? 0)) best = i;
    }
    current[best] = (current[best] ?? 0) - total;
    slots.push(best);
  }
  const assignees = items.map((item): Assignee => ({ id: item.value, name: item.name, itemId: item.id }));
  return {
    collectionId,
    assignees,
    assigneesJson: JSON.stringify(assignees),
    slots: `{${slots.join(',')}}`,
  };
}

/** Who of a collection gets leads at `now`, and until when that answer holds. */
export interface OnDuty {
  items: CollectionItem[];
  /** The next shift boundary of any item (ms), when the answer may change; null: it does not. */
  validUntil: number | null;
}

/**
 * The items on duty at `now` (issue 19, ADR 010 point 5): not away, and within their hours (an
 * item without hours is always on). When nobody is, the policy says who: the fallback item, or
 * the item(s) who come on first (the lead waits for them; their escalation clock starts when they
 * come on). Never everyone: when nobody ever comes on and there is no fallback, nobody (the lead
 * has no assignee). Computed when the distribution is built, not per lead.
 */
export function onDutyItems(items: readonly CollectionItem[], policy: RoutingPolicy, now: Date): OnDuty {
  const t = now.getTime();
  let validUntil: number | null = null;
  const soonest = (at: number) => {
    if (at > t && (validUntil === null || at < validUntil)) validUntil = at;
  };
  const on: CollectionItem[] = [];
  const nextStart = new Map<CollectionItem, number>();
  for (const item of items) {
    if (item.away) continue;
    if (!item.hours) {
      on.push(item);
      continue;
    }
    const stretch = stretchAt(item.hours, now);
    if (!stretch) continue;
    if (stretch.start <= t) {
      on.push(item);
      soonest(stretch.end);
    } else {
      nextStart.set(item, stretch.start);
      soonest(stretch.start);
    }
  }
  if (on.length) return { items: on, validUntil };
  const fallback = policy.whenNobody === 'fallback' ? items.find((i) => i.id === policy.fallbackItemId) : undefined;
  if (fallback) return { items: [fallback], validUntil };
  const first = Math.min(...nextStart.values());
  return { items: [...nextStart].filter(([, at]) => at === first).map(([item]) => item), validUntil };
}

/**
 * The distribution of an integration's collection at `now`: only its items on duty (see
 * `onDutyItems`), or none when it is unset, gone, another account's or empty. The counter itself is bumped by the ingest statement (one atomic upsert per
 * accepted lead), so concurrent ingests on any number of API processes each take a different slot
 * and a lead that is not written gives its slot back.
 */
export async function loadDistribution(
  db: Executor,
  accountId: string,
  collectionId: string | null,
  policy: RoutingPolicy = DEFAULT_ROUTING_POLICY,
  now: Date = new Date(),
): Promise<{ distribution?: Distribution; validUntil: number | null }> {
  if (!collectionId) return { validUntil: null };
  const [collection] = await db
    .select({ items: collections.items, accountId: collections.accountId })
    .from(collections)
    .where(eq(collections.id, collectionId));
  if (!collection || collection.accountId !== accountId) return { validUntil: null };
  const duty = onDutyItems(collection.items, policy, now);
  return { distribution: distributionOf(collectionId, duty.items), validUntil: duty.validUntil };
}
