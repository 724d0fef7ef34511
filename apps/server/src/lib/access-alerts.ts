// The guardian's `access` alerts (issue 32): a source integration that stopped reading its leads
// because the sender refused our credentials. Written where the refusal and the recovery are found
// (the source poll's integration health, an account connection's health, a reconnect), in the same
// statement or transaction as the status they follow, so an alert is never left behind its
// integration. Below the modules: the integrations and connections modules write them, the
// guardian reads and tells them (its door imports theirs, not the other way round).
import { SOURCE_TYPES } from '@leadrelay/shared';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { guardianAlerts, guardianSettings } from '../db/schema';

const MAX_REASON = 300;
const SOURCES: ReadonlySet<string> = new Set(SOURCE_TYPES);

/** Whether an integration of the type reads leads (a source): only those get an access alert. */
export const isSourceType = (type: string): boolean => SOURCES.has(type);

/**
 * Opens an access alert for each source among the integrations (destinations are left out), unless
 * one is open already (one open alert per integration and kind: the unique index). The ids of the
 * integrations whose alert this call opened.
 */
export async function openAccessAlerts(
  db: Executor,
  rows: readonly { id: string; accountId: string; type: string }[],
  reason: string,
  now: Date,
): Promise<string[]> {
  const sources = rows.filter((r) => isSourceType(r.type));
  if (sources.length === 0) return [];
  const made = await db
    .insert(guardianAlerts)
    .values(
      sources.map((r) => ({
        accountId: r.accountId,
        integrationId: r.id,
        kind: 'access' as const,
        reason: reason.slice(0, MAX_REASON),
        openedAt: now,
      })),
    )
    .onConflictDoNothing({
      target: [guardianAlerts.integrationId, guardianAlerts.kind],
      where: sql`${guardianAlerts.closedAt} is null`,
    })
    .returning({ integrationId: guardianAlerts.integrationId });
  return made.flatMap((m) => (m.integrationId ? [m.integrationId] : []));
}

/** Closes the open access alerts of the integrations (they read their leads again); how many. */
export async function closeAccessAlerts(db: Executor, integrationIds: readonly string[], now: Date): Promise<number> {
  if (integrationIds.length === 0) return 0;
  const closed = await db
    .update(guardianAlerts)
    .set({ closedAt: now })
    .where(
      and(
        inArray(guardianAlerts.integrationId, [...integrationIds]),
        eq(guardianAlerts.kind, 'access'),
        isNull(guardianAlerts.closedAt),
      ),
    )
    .returning({ id: guardianAlerts.id });
  return closed.length;
}

/**
 * The broken-integration mail went out for these integrations: their open access alerts not told yet
 * count as told now, unless the owner linked a Telegram chat, which the guardian's run tells first
 * (and then marks them told).
 */
export async function markAccessMailed(db: Executor, integrationIds: readonly string[], now: Date): Promise<void> {
  if (integrationIds.length === 0) return;
  await db
    .update(guardianAlerts)
    .set({ notifiedAt: now })
    .where(
      and(
        inArray(guardianAlerts.integrationId, [...integrationIds]),
        eq(guardianAlerts.kind, 'access'),
        isNull(guardianAlerts.closedAt),
        isNull(guardianAlerts.notifiedAt),
        sql`not exists (select from ${guardianSettings} s
          where s.account_id = ${guardianAlerts.accountId} and s.telegram is not null)`,
      ),
    );
}
