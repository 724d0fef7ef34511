import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { paymentMethods, renewals } from '../../db/schema';
import type { TenantDataCleaner } from '../../lib/tenant-data';

/** A removed account's saved card goes at once and nothing renews; its orders and invoices stay
 * (they are the seller's accounting records). */
export const paymentsCleaner: TenantDataCleaner = {
  name: 'payments',
  async clear(tx: Executor, userId: string) {
    await tx.delete(paymentMethods).where(eq(paymentMethods.accountId, userId));
    await tx.delete(renewals).where(eq(renewals.accountId, userId));
  },
};
