// Renewal by the saved card: RENEW_DAYS_BEFORE days before the paid period ends the card is
// charged for the account's plan and period; a declined charge is tried again on the schedule
// below, each try mailed to the account; a removed card (or a demo account) stops renewals.
import type { BillingPeriod, Locale } from '@leadrelay/shared';
import { and, desc, eq, isNotNull, lte, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import {
  type OrderRow,
  orders,
  type PaymentMethodRow,
  type PlanRow,
  paymentMethods,
  plans,
  renewals,
  type UserRow,
  users,
} from '../../db/schema';
import type { LockedTx, PeriodicTask } from '../../delivery/periodic';
import { renewalFailedMail, renewalPaidMail, type Template } from '../../lib/mail/templates';
import { screenUrl } from '../../lib/oauth-state';
import { resealRows } from '../../lib/reseal';
import {
  applyEvent,
  chargeSaved,
  createOrder,
  creditEvent,
  expireCheckouts,
  type PaymentsDeps,
} from './payments.service';
import { type PaymentProvider, PaymentProviderError } from './providers/provider';

/** After the first declined charge: try again after 1 day, then 2, then 3 (the last is past the
 * period's end when the first try was 3 days before it); then renewals stop until the user pays. */
export const RENEWAL_RETRY_DAYS = [1, 2, 3] as const;
/** Renewals charged per run at most: a backlog is worked through run by run. */
const BATCH = 20;

export const RENEWAL_TASK = 'renew-subscriptions';
export const EXPIRE_CHECKOUTS_TASK = 'expire-checkouts';

export const paymentTasks = (deps: PaymentsDeps): PeriodicTask[] => [
  // Hourly is plenty for a charge planned days ahead; the task's lock keeps it to one node.
  { name: RENEWAL_TASK, everyMs: 60 * 60_000, run: (tx, now) => runRenewals(deps, tx, now) },
  // Abandoned checkouts say so within minutes of their lifetime (the billing list expires its own too).
  {
    name: EXPIRE_CHECKOUTS_TASK,
    everyMs: 5 * 60_000,
    run: (tx, now) => expireCheckouts(tx, now, deps.checkoutLifetimeMs),
  },
  // Saved cards' tokens sealed with ENCRYPTION_KEY_PREVIOUS: sealed again with the current key.
  { name: 'reseal-payment-tokens', everyMs: 60 * 60_000, run: (tx) => resealCardTokens(tx, deps) },
];

export async function resealCardTokens(db: Executor, deps: Pick<PaymentsDeps, 'secrets' | 'log'>) {
  const rows = await db
    .select({ id: paymentMethods.id, token: paymentMethods.token })
    .from(paymentMethods)
    .where(sql`coalesce(${paymentMethods.token}->>'kid', '') <> ${deps.secrets.kid}`);
  const result = await resealRows(deps.secrets, rows, async (row, token) => {
    const done = await db
      .update(paymentMethods)
      .set({ token })
      .where(and(eq(paymentMethods.id, row.id), sql`${paymentMethods.token} = ${JSON.stringify(row.token)}::jsonb`))
      .returning({ id: paymentMethods.id });
    return done.length;
  });
  if (result.unreadable) {
    deps.log.warn(
      { count: result.unreadable },
      'saved card tokens no configured key opens: check ENCRYPTION_KEY / ENCRYPTION_KEY_PREVIOUS',
    );
  }
  return result;
}

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
    const settled = await settleRenewal(deps, deps.provider, account, plan, renewal.period as BillingPeriod, card);
    if (!settled || settled.status === 'pending') continue; // Outcome unknown: asked again in an hour.
    const title = plan.title[account.lang === 'en' ? 'en' : 'uk'];
    const lang = account.lang as Locale;
    if (settled?.status === 'paid') {
      charged++; // payOrder planned the next renewal.
      const [after] = await deps.db.select({ expDate: users.expDate }).from(users).where(eq(users.id, account.id));
      await mail(
        deps,
        account.login,
        await renewalPaidMail(
          { lang, publicUrl: deps.publicUrl },
          title,
          after?.expDate ?? '',
          screenUrl(deps.publicUrl, lang, '/admin/billing'),
        ),
      );
      continue;
    }
    // Declined.
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
    await mail(
      deps,
      account.login,
      await renewalFailedMail(
        { lang, publicUrl: deps.publicUrl },
        { plan: title, expDate: account.expDate, nextTry: next, link: screenUrl(deps.publicUrl, lang, '/admin/plan') },
      ),
    );
  }
  return charged;
}

/**
 * The renewal order's outcome. A renewal charge whose outcome was unknown (no answer) is asked
 * about first, and only a charge the provider never saw is made again: a card is never charged
 * twice for one period.
 */
async function settleRenewal(
  deps: PaymentsDeps,
  provider: PaymentProvider,
  account: UserRow,
  plan: PlanRow,
  period: BillingPeriod,
  card: PaymentMethodRow,
): Promise<OrderRow | undefined> {
  const [open] = await deps.db
    .select()
    .from(orders)
    .where(and(eq(orders.accountId, account.id), eq(orders.kind, 'renewal'), eq(orders.status, 'pending')))
    .orderBy(desc(orders.createdAt))
    .limit(1);
  if (open) {
    const known = await provider.status(open.id).catch((error: unknown) => {
      if (error instanceof PaymentProviderError) return undefined;
      throw error;
    });
    if (known === undefined) return open; // Still no answer.
    if (known && known.outcome !== 'pending') return applyEvent(deps, known, { source: 'charge' });
    if (known) return open;
    // The provider never saw it: nothing was charged.
    await deps.db
      .update(orders)
      .set({ status: 'failed', errorCode: 'not_charged', updatedAt: new Date() })
      .where(eq(orders.id, open.id));
  }
  const order = await createOrder(deps.db, account, plan, period, 'renewal', provider.name);
  if (order.kind === 'credit') return applyEvent(deps, creditEvent(order), { source: 'credit' });
  const description =
    account.lang === 'en'
      ? `LeadRelay, plan "${plan.title.en}" renewal`
      : `LeadRelay, продовження тарифу «${plan.title.uk}»`;
  const token = String(deps.secrets.open(card.token, card.id).token);
  const event = await chargeSaved(deps, provider, order, description, token);
  return event ? applyEvent(deps, event, { source: 'charge' }) : order;
}

/** A mail that cannot be sent is logged; the renewal itself stands. */
async function mail(deps: PaymentsDeps, to: string, template: Template): Promise<void> {
  await deps.mailer.send({ to, ...template }).catch((error: unknown) => {
    deps.log.warn({ err: error }, 'renewal mail not sent');
  });
}
