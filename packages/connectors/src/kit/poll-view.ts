// What shop-order sources that poll by time share: the cursor {polledUntil}
// (orders created before it were looked for), the poll's part of the page's state and the rows of
// the orders last taken, read from the generic source view (kit/source.ts).
import { z } from 'zod';
import type { SourceSeenItem, SourceView } from './source';

const ZCursor = z.object({ polledUntil: z.iso.datetime() });

/** The time the cursor names; undefined for a cursor this kind of poll did not write. */
export function polledUntilOf(cursor: unknown): Date | undefined {
  const parsed = ZCursor.safeParse(cursor);
  return parsed.success ? new Date(parsed.data.polledUntil) : undefined;
}

/** The cursor that says orders created before `at` were looked for. */
export const cursorAt = (at: Date) => ({ polledUntil: at.toISOString() });

export const isoOrNull = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/** The poll as the page shows it: how far it has looked, when it last ran and its last failure. */
export const pollState = (view: SourceView) => ({
  polledUntil: isoOrNull(polledUntilOf(view.poll.cursor)),
  lastPollAt: isoOrNull(view.poll.lastRunAt),
  lastError: view.poll.lastError,
});

/** An order last taken, with its lead's status, from the summary the source kept of it. */
export const seenOrder = (o: SourceSeenItem) => ({
  orderId: o.id,
  name: o.summary.name ?? null,
  phone: o.summary.phone ?? null,
  total: o.summary.total ?? null,
  currency: o.summary.currency ?? null,
  via: o.via,
  timesSeen: o.timesSeen,
  hookId: o.hookId,
  status: o.status,
  receivedAt: o.firstSeenAt.toISOString(),
  lastSeenAt: o.lastSeenAt.toISOString(),
});
