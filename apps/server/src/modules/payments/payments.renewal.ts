// Renewal by the saved card: RENEW_DAYS_BEFORE days before the paid period ends the card is
// charged for the account's plan and period; a declined charge is tried again on the schedule
// below, each try mailed to the account; a removed card (or a demo account) stops renewals.
import type { BillingPeriod, Locale } from '@leadrelay/shared';
import { and, eq, isNotNull, lte } from 'drizzle-orm';
import type { LockedTx, PeriodicTask } from '../../delivery/periodic';
import { paymentMethods, plans, renewals, users } from '../../db/schema';
import type { Template } from '../../lib/mail/templates';
import { renewalFailedMail, renewalPaidMail } from './payments.mail';
import { applyEvent, chargeSafely, createOrder, creditEvent, type PaymentsDeps } from './payments.service';

/** After the first declined charge: try again after 1 day, then 2, then 3 (the last is past the
 * period's end when the first try was 3 days before it); then renewals stop until the user pays. */
export const RENEWAL_RETRY_DAYS = [1, 2, 3] as const;
/** Renewals charged per run at most: a backlog is worked through run by run. */
const BATCH = 20;

export const RENEWAL_TASK = 'renew-subscriptions';

export const paymentTasks = (deps: PaymentsDeps): PeriodicTask[] => [
  // Hourly is plenty for a charge planned days ahead; the task's lock keeps it to one node.
  { name: RENEWAL_TASK, everyMs: 60 * 60_000, run: (tx, now) => runRenewals(deps, tx, now) },
];

/**
 * Charges the renewals that are due. The task's transaction only holds its lock (one node at a
 * time) and reads the due rows; every write goes through the app's own connection and commits at
 * once: the order before the charge, so the provider's callback, which may arrive before the
 * charge call returns, finds it; the renewal pushed back an hour first, so a crash mid-charge is
 * not charged again at the next run; and paying the order plans the next renewal, which a write
 * held open in the task's transaction would block.
 */
export async function runRenewals(deps: PaymentsDeps, tx: LockedTx, now: Date): Promise<number> {
  const due = await tx
    .select({ renewal: renewals, account: users, plan: plans, card: paymentMethods })
    .from(renewals)
    .innerJoin(users, eq(users.id, renewals.accountId))
    .innerJoin(plans, eq(plans.id, users.planId))
    .leftJoin(paymentMethods, eq(paymentMethods.accountId, renewals.accountId))
    .where(and(isNotNull(renewals.dueAt), lte(renewals.dueAt, now)))
    .orderBy(renewals.dueAt)
    .limit(BATCH);
  let charged = 0;
  for (const { renewal, account, plan, card } of due) {
    if (!card || account.deletedAt || !deps.provider) {
      // Nothing to charge with: renewals stop; the user pays from the plan page.
      await deps.db.update(renewals).set({ dueAt: null, updatedAt: now }).where(eq(renewals.accountId, account.id));
      continue;
    }
    await deps.db
      .update(renewals)
      .set({ dueAt: new Date(now.getTime() + 60 * 60_000), updatedAt: now })
      .where(eq(renewals.accountId, account.id));
    const order = await createOrder(deps.db, account, plan, renewal.period as BillingPeriod, 'renewal', deps.provider.name);
    const description =
      account.lang === 'en'
        ? `LeadRelay, plan "${plan.title.en}" renewal`
        : `LeadRelay, продовження тарифу «${plan.title.uk}»`;
    const event =
      order.kind === 'credit'
        ? creditEvent(order)
        : await chargeSafely(deps, deps.provider, order, description, String(deps.secrets.open(card.token, card.id).token));
    const settled = await applyEvent(deps, event, { source: order.kind === 'credit' ? 'credit' : 'charge' });
    const title = plan.title[account.lang === 'en' ? 'en' : 'uk'];
    const lang = account.lang as Locale;
    if (settled?.status === 'paid') {
      charged++; // payOrder planned the next renewal.
      const [after] = await deps.db.select({ expDate: users.expDate }).from(users).where(eq(users.id, account.id));
      await mail(deps, account.login, renewalPaidMail(lang, title, after?.expDate ?? '', `${deps.publicUrl}/admin/billing`));
      continue;
    }
    // Declined (or still pending at the provider: treated as a try that did not pay).
    const failures = renewal.failures + 1;
    const retryDays = RENEWAL_RETRY_DAYS[failures - 1];
    const nextTry = retryDays === undefined ? null : new Date(now.getTime() + retryDays * 86_400_000);
    await deps.db
      .update(renewals)
      .set({
        failures,
        lastErrorCode: settled?.errorCode ?? 'declined',
        dueAt: nextTry,
        updatedAt: now,
      })
      .where(eq(renewals.accountId, account.id));
    const next = nextTry?.toISOString().slice(0, 10) ?? null;
    await mail(deps, account.login, renewalFailedMail(lang, title, account.expDate, next, `${deps.publicUrl}/admin/plan`));
  }
  return charged;
}

/** A mail that cannot be sent is logged; the renewal itself stands. */
async function mail(deps: PaymentsDeps, to: string, template: Template): Promise<void> {
  await deps.mailer.send({ to, ...template }).catch((error: unknown) => {
    deps.log.warn({ err: error }, 'renewal mail not sent');
  });
}
