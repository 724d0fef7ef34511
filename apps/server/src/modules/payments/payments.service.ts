// Paying for a plan (docs/payments.md). An order is written and committed before the provider
// hears of it, so its callback always finds it; a provider's answer (callback or charge reply) is
// applied once, under the order's row lock: the first success pays the order, anything after it
// is recorded as a duplicate or stale event and changes nothing.
import {
  type BillingPeriod,
  type Checkout,
  type Locale,
  type Order,
  type OrderKind,
  REFERRAL_REWARD_SHARE,
  RENEW_DAYS_BEFORE,
  toCents,
} from '@leadrelay/shared';
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client';
import {
  invoiceCounters,
  invoices,
  type OrderRow,
  orders,
  type PlanRow,
  paymentEvents,
  paymentMethods,
  plans,
  renewals,
  type UserRow,
  users,
} from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { isUuid } from '../../lib/ids';
import type { Mailer } from '../../lib/mail/mailer';
import type { SecretBox } from '../../lib/secret-box';
import { currentRates } from '../currency';
import { SELLER_TIME_ZONE } from './invoice-pdf';
import { type PaymentEvent, type PaymentProvider, PaymentProviderError } from './providers/provider';

export interface PaymentsDeps {
  db: Db;
  secrets: SecretBox;
  /** Null when the PAYMENT_* settings are missing: paying answers PAYMENT_NOT_CONFIGURED. */
  provider: PaymentProvider | null;
  publicUrl: string;
  /** A checkout unpaid this long is abandoned: its order becomes expired. */
  checkoutLifetimeMs: number;
  mailer: Pick<Mailer, 'send'>;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  /** After an order of the account changed (commit done): PAYMENT_INFORMER, held leads, mail. */
  onOrderSettled(order: OrderRow, account: Pick<UserRow, 'id' | 'login' | 'lang'>): Promise<void> | void;
}

export type PaymentActor = Pick<UserRow, 'id' | 'lang'>;

export const priceCents = (plan: Pick<PlanRow, 'monthlyCents' | 'annualCents'>, period: BillingPeriod) =>
  period === 'year' ? plan.annualCents : plan.monthlyCents;

/** The share of a charged amount credited to the referrer, whole cents rounded down. */
export const referralReward = (chargedCents: number) => Math.floor(chargedCents * REFERRAL_REWARD_SHARE);

/** What the user sees as the order's number: LR-000123. */
export const orderNumber = (seq: number) => `LR-${String(seq).padStart(6, '0')}`;

export const toOrder = (row: OrderRow): Order => ({
  _id: row.id,
  number: orderNumber(row.seq),
  kind: row.kind,
  status: row.status,
  planId: row.planId ?? '',
  planTitle: row.planTitle,
  period: row.period as BillingPeriod,
  amount: row.amountCents / 100,
  creditUsed: row.creditCents / 100,
  charged: row.chargedCents / 100,
  currency: 'USD',
  errorCode: row.errorCode,
  createdAt: row.createdAt.toISOString(),
  paidAt: row.paidAt?.toISOString() ?? null,
});

function provided(deps: PaymentsDeps): PaymentProvider {
  if (!deps.provider) throw new AppError('PAYMENT_NOT_CONFIGURED');
  return deps.provider;
}

/** The plan to buy: it must exist; a switched-off plan can only be renewed by those who have it. */
async function purchasablePlan(db: Executor, planId: string, current: string | null): Promise<PlanRow> {
  if (!isUuid(planId)) throw new AppError('PLAN_NOT_FOUND');
  const [plan] = await db.select().from(plans).where(eq(plans.id, planId));
  if (!plan) throw new AppError('PLAN_NOT_FOUND');
  if (!plan.active && plan.id !== current) throw new AppError('PLAN_NOT_AVAILABLE');
  return plan;
}

/** Writes (and commits) a pending order; the referral balance pays first. */
export async function createOrder(
  db: Db,
  account: Pick<UserRow, 'id' | 'creditCents'>,
  plan: PlanRow,
  period: BillingPeriod,
  kind: Exclude<OrderKind, 'credit'>,
  provider: string | null,
): Promise<OrderRow> {
  const amount = priceCents(plan, period);
  const credit = Math.min(Math.max(account.creditCents, 0), amount);
  const [row] = await db
    .insert(orders)
    .values({
      accountId: account.id,
      kind: amount - credit === 0 ? 'credit' : kind,
      planId: plan.id,
      planTitle: plan.title,
      period,
      amountCents: amount,
      creditCents: credit,
      chargedCents: amount - credit,
      provider: amount - credit === 0 ? null : provider,
    })
    .returning();
  return row!;
}

async function accountRow(db: Executor, id: string): Promise<UserRow> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  if (!row) throw new AppError('USER_NOT_FOUND');
  return row;
}

async function savedToken(deps: PaymentsDeps, accountId: string): Promise<string | null> {
  const [row] = await deps.db.select().from(paymentMethods).where(eq(paymentMethods.accountId, accountId));
  if (!row) return null;
  const opened = deps.secrets.open(row.token, row.id);
  return typeof opened.token === 'string' ? opened.token : null;
}

export interface PaymentStart {
  order: Order;
  checkout: Checkout | null;
}

/**
 * Buys a period of a plan. `card`: 'saved' charges the saved card when there is one (else the
 * checkout), 'new' always gives the checkout. An order the referral balance covers whole is paid
 * at once, without the provider.
 */
export async function startPayment(
  deps: PaymentsDeps,
  actor: PaymentActor,
  choice: { planId: string; period: BillingPeriod; lang?: Locale },
  card: 'saved' | 'new',
): Promise<PaymentStart> {
  const account = await accountRow(deps.db, actor.id);
  const plan = await purchasablePlan(deps.db, choice.planId, account.planId);
  const amount = priceCents(plan, choice.period);
  const coveredByCredit = amount <= Math.max(account.creditCents, 0);
  if (!coveredByCredit) provided(deps);
  const token = coveredByCredit || card === 'new' ? null : await savedToken(deps, account.id);
  const order = await createOrder(
    deps.db,
    account,
    plan,
    choice.period,
    token ? 'token' : 'checkout',
    deps.provider?.name ?? null,
  );
  if (order.kind === 'credit') {
    const settled = await applyEvent(deps, creditEvent(order), { source: 'credit' });
    return { order: toOrder(settled ?? order), checkout: null };
  }
  const provider = provided(deps);
  const description = describe(plan, choice.period, choice.lang ?? actor.lang);
  if (token) {
    const event = await chargeSaved(deps, provider, order, description, token);
    const settled = event ? await applyEvent(deps, event, { source: 'charge' }) : order;
    return { order: toOrder(settled ?? order), checkout: null };
  }
  const checkout = provider.checkout({
    orderId: order.id,
    amount: order.chargedCents / 100,
    currency: 'USD',
    description,
    language: choice.lang ?? (actor.lang as Locale),
    resultUrl: `${deps.publicUrl}/admin/billing?order=${order.id}`,
    callbackUrl: callbackUrl(deps),
    saveCard: true,
  });
  return { order: toOrder(order), checkout };
}

/** Renews the account's current plan for its current period now (the saved card, else checkout). */
export async function renewNow(deps: PaymentsDeps, actor: PaymentActor, lang?: Locale): Promise<PaymentStart> {
  const account = await accountRow(deps.db, actor.id);
  if (!account.planId) throw new AppError('PLAN_NOT_FOUND');
  const [renewal] = await deps.db.select().from(renewals).where(eq(renewals.accountId, account.id));
  const period = renewal?.period ?? account.subscription?.period ?? 'month';
  return startPayment(deps, actor, { planId: account.planId, period, lang }, 'saved');
}

/**
 * Checkouts left unpaid for `lifetimeMs` become `expired` (of one account, or all):
 * the billing list says the attempt was abandoned instead of a charge still waiting. Only
 * checkouts: a saved-card or renewal charge whose outcome is unknown stays pending until the
 * provider answers (the money may have moved). Returns the orders expired.
 */
export async function expireCheckouts(
  db: Executor,
  now: Date,
  lifetimeMs: number,
  accountId?: string,
): Promise<OrderRow[]> {
  const before = new Date(now.getTime() - lifetimeMs);
  return db
    .update(orders)
    .set({ status: 'expired', updatedAt: now })
    .where(
      and(
        eq(orders.status, 'pending'),
        eq(orders.kind, 'checkout'),
        lt(orders.createdAt, before),
        accountId ? eq(orders.accountId, accountId) : undefined,
      ),
    )
    .returning();
}

export const callbackUrl = (deps: Pick<PaymentsDeps, 'publicUrl'>) => `${deps.publicUrl}/api/payment/callback`;

const describe = (plan: PlanRow, period: BillingPeriod, lang: string) =>
  lang === 'en'
    ? `LeadRelay, plan "${plan.title.en}", ${period === 'year' ? '1 year' : '1 month'}`
    : `LeadRelay, тариф «${plan.title.uk}», ${period === 'year' ? '1 рік' : '1 місяць'}`;

export const creditEvent = (order: OrderRow): PaymentEvent => ({
  orderId: order.id,
  paymentId: null,
  outcome: 'success',
  amount: 0,
  currency: 'USD',
  card: null,
  errorCode: null,
  raw: { paidBy: 'credit' },
});

/**
 * Charges the saved card. Null when the outcome is unknown (no answer, a timeout, an unreadable
 * one: PaymentProviderError): the money may have moved, so the order stays pending until the
 * provider's callback or a status question settles it; it is never charged again blindly.
 */
export async function chargeSaved(
  deps: Pick<PaymentsDeps, 'log' | 'publicUrl'>,
  provider: PaymentProvider,
  order: OrderRow,
  description: string,
  token: string,
): Promise<PaymentEvent | null> {
  try {
    return await provider.chargeToken({
      orderId: order.id,
      amount: order.chargedCents / 100,
      currency: 'USD',
      description,
      token,
      callbackUrl: callbackUrl(deps),
    });
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error;
    deps.log.warn({ err: error, orderId: order.id }, 'card charge outcome unknown: the order waits for the provider');
    return null;
  }
}

export type EventSource = 'callback' | 'charge' | 'credit';

const addPeriod = (period: BillingPeriod) => (period === 'year' ? sql`interval '1 year'` : sql`interval '1 month'`);

/**
 * Applies a verified provider event to its order, once. Returns the order as it is afterwards
 * (undefined for an unknown order). Every event is recorded in payment_events with its result.
 */
export async function applyEvent(
  deps: PaymentsDeps,
  event: PaymentEvent,
  meta: { source: EventSource; remoteAddress?: string },
): Promise<OrderRow | undefined> {
  const now = new Date();
  const usdRate = (await currentRates(deps.db)).USD;
  const outcome = await deps.db.transaction(async (tx) => {
    const record = (result: string, orderId: string | null) =>
      tx.insert(paymentEvents).values({
        provider: meta.source === 'credit' ? 'credit' : (deps.provider?.name ?? 'unknown'),
        orderId,
        result,
        outcome: event.outcome,
        body: { source: meta.source, ...event.raw },
        remoteAddress: meta.remoteAddress ?? null,
      });
    const [order] = isUuid(event.orderId)
      ? await tx.select().from(orders).where(eq(orders.id, event.orderId)).for('update')
      : [];
    if (!order) {
      await record('unknown_order', null);
      return { result: 'unknown_order' as const };
    }
    const result = decide(order, event);
    await record(result === 'paid' || result === 'failed' || result === 'refunded' ? 'applied' : result, order.id);
    if (result === 'failed') {
      const [failed] = await tx
        .update(orders)
        .set({ status: 'failed', errorCode: event.errorCode ?? 'declined', updatedAt: now })
        .where(eq(orders.id, order.id))
        .returning();
      return { result, order: failed! };
    }
    if (result === 'refunded') return { result, order: await refundOrder(tx, order, now) };
    if (result !== 'paid') return { result, order };
    return { result, order: await payOrder(deps, tx, order, event, now, usdRate) };
  });
  if (outcome.result === 'unknown_order') {
    deps.log.warn({ orderId: event.orderId, source: meta.source }, 'payment event for an unknown order ignored');
    return undefined;
  }
  const { order, result } = outcome;
  if (result === 'paid' || result === 'failed' || result === 'refunded') {
    const account = await accountRow(deps.db, order.accountId);
    await deps.onOrderSettled(order, account);
  } else {
    deps.log.info({ orderId: order.id, result, outcome: event.outcome }, 'payment event changed nothing');
  }
  return order;
}

type Decision = 'paid' | 'failed' | 'refunded' | 'duplicate' | 'stale' | 'pending' | 'amount_mismatch';

/** What an event does to an order in its present state. */
function decide(order: OrderRow, event: PaymentEvent): Decision {
  const cents = toCents(event.amount);
  switch (event.outcome) {
    case 'success':
      if (order.status === 'paid' || order.status === 'refunded') return 'duplicate';
      // A success after a failure stands (a 3-D Secure check that finished late), and so does one
      // for an abandoned (expired) checkout the buyer finished late: money moved.
      if (order.kind !== 'credit' && (cents !== order.chargedCents || event.currency !== 'USD')) {
        return 'amount_mismatch';
      }
      return 'paid';
    case 'failure':
      // A late failure never undoes a payment; a repeated one is a duplicate. An abandoned
      // checkout the bank declined after all says declined, which tells more.
      if (order.status === 'pending' || order.status === 'expired') return 'failed';
      return order.status === 'failed' ? 'duplicate' : 'stale';
    case 'reversed':
      return order.status === 'paid' ? 'refunded' : order.status === 'refunded' ? 'duplicate' : 'stale';
    default:
      return 'pending';
  }
}

/** The order becomes paid: the account gets the plan and the period, an invoice, the card; the
 * referral balance pays its part and the referrer earns their share. */
async function payOrder(
  deps: PaymentsDeps,
  tx: Executor,
  order: OrderRow,
  event: PaymentEvent,
  now: Date,
  usdRate: number,
): Promise<OrderRow> {
  const today = now.toISOString().slice(0, 10);
  const [account] = await tx.select().from(users).where(eq(users.id, order.accountId)).for('update');
  if (!account) throw new Error(`order ${order.id} has no account`);
  const from = account.expDate && account.expDate > today ? account.expDate : today;
  const title = order.planTitle[account.lang === 'en' ? 'en' : 'uk'];
  const [extended] = await tx
    .update(users)
    .set({
      planId: order.planId,
      subscription: { title, planId: order.planId ?? '', period: order.period as BillingPeriod },
      expDate: sql`(${from}::date + ${addPeriod(order.period as BillingPeriod)})::date`,
      creditCents: sql`greatest(${users.creditCents} - ${order.creditCents}, 0)`,
      updatedAt: now,
    })
    .where(eq(users.id, account.id))
    .returning({ expDate: users.expDate });
  const reward = account.referredBy ? referralReward(order.chargedCents) : 0;
  if (reward > 0) {
    await tx
      .update(users)
      .set({ creditCents: sql`${users.creditCents} + ${reward}` })
      .where(and(eq(users.id, account.referredBy!), isNull(users.deletedAt)));
  }
  const [paid] = await tx
    .update(orders)
    .set({
      status: 'paid',
      paidAt: now,
      updatedAt: now,
      errorCode: null,
      rewardCents: reward,
      providerPaymentId: event.paymentId,
    })
    .where(eq(orders.id, order.id))
    .returning();
  await tx.insert(invoices).values({
    orderId: order.id,
    accountId: account.id,
    number: await nextInvoiceNumber(tx, now),
    periodFrom: from,
    periodTo: extended!.expDate!,
    usdRate,
    issuedAt: now,
  });
  if (event.card?.token) {
    await saveCard(deps, tx, account.id, order.provider ?? 'unknown', event.card);
  }
  await scheduleRenewal(tx, account.id, order.period as BillingPeriod, extended!.expDate!, now);
  return paid!;
}

const sellerYear = new Intl.DateTimeFormat('en', { timeZone: SELLER_TIME_ZONE, year: 'numeric' });

/**
 * The next invoice number, LR-<year>-000001 on: counted per year (the seller's time zone) in the
 * paying transaction, under the counter row's lock, so only issued invoices take numbers and a
 * rolled-back payment gives its number back (no sequence: nextval is not rolled back).
 */
export async function nextInvoiceNumber(tx: Executor, now: Date): Promise<string> {
  const year = Number(sellerYear.format(now));
  const [row] = await tx
    .insert(invoiceCounters)
    .values({ year, last: 1 })
    .onConflictDoUpdate({ target: invoiceCounters.year, set: { last: sql`${invoiceCounters.last} + 1` } })
    .returning({ last: invoiceCounters.last });
  return `LR-${year}-${String(row!.last).padStart(6, '0')}`;
}

/** The next renewal: RENEW_DAYS_BEFORE days before the new end, or at once when that is past. */
async function scheduleRenewal(tx: Executor, accountId: string, period: BillingPeriod, expDate: string, now: Date) {
  const due = new Date(Date.parse(`${expDate}T00:00:00Z`) - RENEW_DAYS_BEFORE * 86_400_000);
  const dueAt = due < now ? now : due;
  await tx
    .insert(renewals)
    .values({ accountId, period, dueAt, failures: 0, lastErrorCode: null, updatedAt: now })
    .onConflictDoUpdate({
      target: renewals.accountId,
      set: { period, dueAt, failures: 0, lastErrorCode: null, updatedAt: now },
    });
}

async function saveCard(
  deps: PaymentsDeps,
  tx: Executor,
  accountId: string,
  provider: string,
  card: NonNullable<PaymentEvent['card']>,
) {
  await tx.delete(paymentMethods).where(eq(paymentMethods.accountId, accountId));
  const id = crypto.randomUUID();
  await tx.insert(paymentMethods).values({
    id,
    accountId,
    provider,
    token: deps.secrets.seal({ token: card.token }, id),
    mask: card.mask,
    cardType: card.type,
    expiry: card.expiry ?? null,
  });
}

/** A refund: the order and its invoice say so, the paid period is taken back, and so is the
 * referrer's reward. */
async function refundOrder(tx: Executor, order: OrderRow, now: Date): Promise<OrderRow> {
  const [refunded] = await tx
    .update(orders)
    .set({ status: 'refunded', updatedAt: now })
    .where(eq(orders.id, order.id))
    .returning();
  await tx.update(invoices).set({ status: 'refunded' }).where(eq(invoices.orderId, order.id));
  await tx
    .update(users)
    .set({
      expDate: sql`(${users.expDate} - ${addPeriod(order.period as BillingPeriod)})::date`,
      creditCents: sql`${users.creditCents} + ${order.creditCents}`,
      updatedAt: now,
    })
    .where(eq(users.id, order.accountId));
  if (order.rewardCents > 0) {
    const [account] = await tx
      .select({ referredBy: users.referredBy })
      .from(users)
      .where(eq(users.id, order.accountId));
    if (account?.referredBy) {
      await tx
        .update(users)
        .set({ creditCents: sql`greatest(${users.creditCents} - ${order.rewardCents}, 0)` })
        .where(eq(users.id, account.referredBy));
    }
  }
  return refunded!;
}

/** Staff: refunds a paid order through the provider; the provider's answer is applied like a callback. */
export async function refund(deps: PaymentsDeps, orderId: string): Promise<Order> {
  if (!isUuid(orderId)) throw new AppError('ORDER_NOT_FOUND');
  const [order] = await deps.db.select().from(orders).where(eq(orders.id, orderId));
  if (!order) throw new AppError('ORDER_NOT_FOUND');
  if (order.status !== 'paid') throw new AppError('VALIDATION_ERROR');
  let event: PaymentEvent;
  if (order.chargedCents === 0) {
    event = { ...creditEvent(order), outcome: 'reversed' };
  } else {
    const provider = provided(deps);
    try {
      event = await provider.refund({ orderId: order.id, amount: order.chargedCents / 100 });
    } catch (error) {
      if (!(error instanceof PaymentProviderError)) throw error;
      deps.log.warn({ err: error, orderId: order.id }, 'the payment provider could not be reached for a refund');
      throw new AppError('PAYMENT_PROVIDER_ERROR');
    }
  }
  const settled = await applyEvent(deps, event, { source: order.chargedCents === 0 ? 'credit' : 'charge' });
  return toOrder(settled ?? order);
}
