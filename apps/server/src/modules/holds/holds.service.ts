// Held leads over time (docs/adr/008-held-leads.md): releasing the accounts that are no longer held
// (paid, plan changed, the month rolled over), telling an account by mail that its leads are held,
// and the retention: a week's notice by mail, then held leads past it are given up (marked failed
// with the reason HELD_EXPIRED, never deleted). Ingest decides what is held; delivery/ owns the
// deliveries' state.
import { HELD_DROP_NOTICE_DAYS, HELD_RETENTION_DAYS, type HoldReason, type Locale } from '@leadrelay/shared';
import { and, eq, isNotNull, isNull, lt, lte, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type Executor, rowsOf } from '../../db/client';
import { accountHolds, leadUsage, users } from '../../db/schema';
import { holdsToCheck } from '../../delivery/holds';
import { checkHold, dropHeld } from '../../delivery/queue';
import type { Mailer } from '../../lib/mail/mailer';
import { heldLeadsDropMail, leadsHeldMail } from '../../lib/mail/templates';
import { screenUrl } from '../../lib/oauth-state';

const DAY_MS = 86_400_000;

export interface HoldsDeps {
  mailer: Mailer;
  publicUrl: string;
  log: FastifyBaseLogger;
}

/** Hooks whose state a run changed, per account: told after its commit. */
export type ChangedHooks = { accountId: string; hookIds: string[] }[];

const planLink = (deps: HoldsDeps, lang: Locale) => screenUrl(deps.publicUrl, lang, '/admin/plan');

/** The accounts still waiting for their first-hold mail, with their address and language. */
async function unnotified(tx: Executor) {
  return tx
    .select({ accountId: accountHolds.accountId, reason: accountHolds.reason, login: users.login, lang: users.lang })
    .from(accountHolds)
    .innerJoin(users, eq(users.id, accountHolds.accountId))
    .where(and(isNull(accountHolds.notifiedAt), isNull(users.deletedAt)));
}

/**
 * Every 30 s: each held account that is no longer held is released (its leads go out in arrival
 * order), the others keep their reason current; then each new hold is told by mail, once. A mail
 * that cannot be sent now is tried again next run (the hold stays unmarked).
 */
export async function sweepHolds(deps: HoldsDeps, tx: Executor, now: Date): Promise<ChangedHooks> {
  const released: ChangedHooks = [];
  for (const hold of await holdsToCheck(tx, now)) {
    if (hold.reason === hold.heldFor) continue;
    // Checked again under the hold's row lock: a payment may be releasing it right now.
    const { hookIds } = await checkHold(tx, hold.accountId, now);
    if (hookIds.length) released.push({ accountId: hold.accountId, hookIds });
  }
  for (const account of await unnotified(tx)) {
    const ctx = { lang: account.lang, publicUrl: deps.publicUrl };
    const mail = await leadsHeldMail(ctx, account.reason, planLink(deps, account.lang));
    try {
      await deps.mailer.send({ to: account.login, ...mail });
    } catch (error) {
      deps.log.warn({ err: error, accountId: account.accountId }, 'held leads mail not sent; tried again next run');
      continue;
    }
    await tx.update(accountHolds).set({ notifiedAt: now }).where(eq(accountHolds.accountId, account.accountId));
  }
  return released;
}

/** Held accounts whose leads held up to `coversUntil` are not yet announced for a drop, with how many. */
async function dueForNotice(tx: Executor, coversUntil: Date) {
  const result = await tx.execute(sql`
    select h.account_id as "accountId", h.reason, u.login, u.lang, c.n::int as count
    from account_holds h
    join users u on u.id = h.account_id and u.deleted_at is null
    cross join lateral (
      select count(distinct d.hook_id) as n from deliveries d
      where d.account_id = h.account_id and d.status = 'held'
        and d.next_attempt_at <= ${coversUntil.toISOString()}::timestamptz
    ) c
    where h.drop_at is null and c.n > 0`);
  return rowsOf<{ accountId: string; reason: HoldReason; login: string; lang: Locale; count: number }>(result);
}

/**
 * Hourly. First the drops announced a week ago: the leads they covered that are still held are
 * given up. Then the notices: an account with held leads older than the retention less the notice
 * period, and no notice running, is told by mail how many will be given up and on which day
 * (HELD_DROP_NOTICE_DAYS from now, when each is at least HELD_RETENTION_DAYS old); only a mail
 * that went out schedules a drop, so no held lead is given up unannounced. Last, usage shards of
 * months before the previous one are removed.
 */
export async function applyRetention(deps: HoldsDeps, tx: Executor, now: Date): Promise<ChangedHooks> {
  const dropped: ChangedHooks = [];
  const due = await tx
    .select({ accountId: accountHolds.accountId, coversUntil: accountHolds.dropCoversUntil })
    .from(accountHolds)
    .where(and(isNotNull(accountHolds.dropAt), lte(accountHolds.dropAt, now)));
  for (const { accountId, coversUntil } of due) {
    const { hookIds } = await dropHeld(tx, accountId, coversUntil ?? now, now);
    await tx
      .update(accountHolds)
      .set({ dropAt: null, dropCoversUntil: null })
      .where(eq(accountHolds.accountId, accountId));
    if (hookIds.length) dropped.push({ accountId, hookIds });
    deps.log.info({ accountId, leads: hookIds.length }, 'held leads past their retention given up');
  }

  const coversUntil = new Date(now.getTime() - (HELD_RETENTION_DAYS - HELD_DROP_NOTICE_DAYS) * DAY_MS);
  const dropAt = new Date(now.getTime() + HELD_DROP_NOTICE_DAYS * DAY_MS);
  for (const account of await dueForNotice(tx, coversUntil)) {
    const mail = await heldLeadsDropMail(
      { lang: account.lang, publicUrl: deps.publicUrl },
      {
        reason: account.reason,
        count: account.count,
        dropAt,
        link: planLink(deps, account.lang),
      },
    );
    try {
      await deps.mailer.send({ to: account.login, ...mail });
    } catch (error) {
      deps.log.warn(
        { err: error, accountId: account.accountId },
        'held leads drop notice not sent; tried again next run',
      );
      continue;
    }
    await tx
      .update(accountHolds)
      .set({ dropCoversUntil: coversUntil, dropAt })
      .where(eq(accountHolds.accountId, account.accountId));
  }

  // This month's usage decides holds; last month's is kept for a while for anyone looking.
  const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 10);
  await tx.delete(leadUsage).where(lt(leadUsage.month, lastMonth));
  return dropped;
}
