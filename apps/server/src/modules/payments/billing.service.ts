// What the billing page reads: the account's orders, invoices (and their PDF) and saved card.
// Everything is the account's own: another account's id is not found.
import type { BillingPeriod, Invoice, Locale, Order, PaymentMethod } from '@leadrelay/shared';
import { and, count, desc, eq } from 'drizzle-orm';
import type { SellerConfig } from '../../config';
import type { Executor } from '../../db/client';
import {
  type InvoiceRow,
  invoices,
  type OrderRow,
  orders,
  paymentEvents,
  paymentMethods,
  renewals,
  users,
} from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { isUuid } from '../../lib/ids';
import { storableText } from '../../lib/storable-text';
import { renderInvoicePdf } from './invoice-pdf';
import { expireCheckouts, toOrder } from './payments.service';

const toInvoice = (row: InvoiceRow, order: OrderRow): Invoice => ({
  _id: row.id,
  number: row.number,
  orderId: row.orderId,
  status: row.status,
  planTitle: order.planTitle,
  period: order.period as BillingPeriod,
  periodFrom: row.periodFrom,
  periodTo: row.periodTo,
  amount: order.amountCents / 100,
  creditUsed: order.creditCents / 100,
  charged: order.chargedCents / 100,
  currency: 'USD',
  usdRate: row.usdRate,
  issuedAt: row.issuedAt.toISOString(),
});

export async function listOrders(
  db: Executor,
  accountId: string,
  page: number,
  limit: number,
  checkoutLifetimeMs: number,
) {
  // Between the periodic task's runs too, an abandoned checkout is listed as such.
  await expireCheckouts(db, new Date(), checkoutLifetimeMs, accountId);
  const mine = eq(orders.accountId, accountId);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(orders)
      .where(mine)
      .orderBy(desc(orders.createdAt), desc(orders.seq))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ n: count() }).from(orders).where(mine),
  ]);
  return { data: { data: rows.map(toOrder) as Order[], total: total?.n ?? 0 } };
}

export async function listInvoices(db: Executor, accountId: string, page: number, limit: number) {
  const mine = eq(invoices.accountId, accountId);
  const [rows, [total]] = await Promise.all([
    db
      .select({ invoice: invoices, order: orders })
      .from(invoices)
      .innerJoin(orders, eq(orders.id, invoices.orderId))
      .where(mine)
      .orderBy(desc(invoices.issuedAt), desc(invoices.number))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ n: count() }).from(invoices).where(mine),
  ]);
  return { data: rows.map((r) => toInvoice(r.invoice, r.order)), total: total?.n ?? 0 };
}

async function invoiceRow(db: Executor, accountId: string, id: string) {
  if (!isUuid(id)) throw new AppError('INVOICE_NOT_FOUND');
  const [row] = await db
    .select({ invoice: invoices, order: orders })
    .from(invoices)
    .innerJoin(orders, eq(orders.id, invoices.orderId))
    .where(and(eq(invoices.id, id), eq(invoices.accountId, accountId)));
  if (!row) throw new AppError('INVOICE_NOT_FOUND');
  return row;
}

export async function getInvoice(db: Executor, accountId: string, id: string) {
  const row = await invoiceRow(db, accountId, id);
  return { data: toInvoice(row.invoice, row.order) };
}

/** The invoice as a PDF in `lang` (the account's language unless asked otherwise). */
export async function invoicePdf(
  db: Executor,
  accountId: string,
  id: string,
  seller: SellerConfig,
  lang: Locale,
): Promise<{ number: string; pdf: Buffer }> {
  const { invoice, order } = await invoiceRow(db, accountId, id);
  const [buyer] = await db.select().from(users).where(eq(users.id, accountId));
  const pdf = await renderInvoicePdf(
    {
      number: invoice.number,
      issuedAt: invoice.issuedAt.toISOString(),
      paidAt: order.paidAt?.toISOString() ?? null,
      buyer: { name: buyer?.name ?? '', login: buyer?.login ?? '', company: buyer?.company ?? '' },
      lines: [
        {
          title: lineTitle(order.planTitle[lang], order.period as BillingPeriod, lang),
          period: `${invoice.periodFrom} — ${invoice.periodTo}`,
          quantity: 1,
          amountUsd: order.amountCents / 100,
        },
      ],
      totalUsd: order.amountCents / 100,
      creditUsedUsd: order.creditCents / 100,
      paidUsd: order.chargedCents / 100,
      usdRate: invoice.usdRate,
      status: invoice.status,
    },
    seller,
    lang,
  );
  return { number: invoice.number, pdf };
}

const lineTitle = (plan: string, period: BillingPeriod, lang: Locale) =>
  lang === 'en'
    ? `LeadRelay plan "${plan}", ${period === 'year' ? '1 year' : '1 month'}`
    : `Тариф LeadRelay «${plan}», ${period === 'year' ? '1 рік' : '1 місяць'}`;

export async function paymentMethod(db: Executor, accountId: string): Promise<PaymentMethod | null> {
  const [row] = await db.select().from(paymentMethods).where(eq(paymentMethods.accountId, accountId));
  if (!row) return null;
  return {
    _id: row.id,
    card: { mask: row.mask, type: row.cardType, expiry: row.expiry },
    createdAt: row.createdAt.toISOString(),
  };
}

/** Forgets the saved card: no renewal charges it any more (the account pays from the plan page). */
export async function removePaymentMethod(db: Executor, accountId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const removed = await tx
      .delete(paymentMethods)
      .where(eq(paymentMethods.accountId, accountId))
      .returning({ id: paymentMethods.id });
    if (!removed.length) throw new AppError('PAYMENT_METHOD_NOT_FOUND');
    await tx.update(renewals).set({ dueAt: null, updatedAt: new Date() }).where(eq(renewals.accountId, accountId));
  });
}

/** A callback whose signature does not match: kept (cut to a size) for whoever investigates. */
export async function recordForged(db: Executor, provider: string, body: Record<string, unknown>, ip: string) {
  const kept = Object.fromEntries(
    Object.entries(body)
      .slice(0, 10)
      .map(([k, v]) => [k.slice(0, 50), typeof v === 'string' ? v.slice(0, 2000) : typeof v]),
  );
  // The body was cleaned at the input boundary; a cut may still halve a UTF-16 pair.
  await db.insert(paymentEvents).values({ provider, result: 'forged', body: storableText(kept), remoteAddress: ip });
}
