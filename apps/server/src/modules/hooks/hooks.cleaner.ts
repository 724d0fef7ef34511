import { eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { accountHolds, collections, distributionCursors, hooks, leads } from '../../db/schema';
import type { TenantDataCleaner } from '../../lib/tenant-data';

/** Leads and hooks of the account; deliveries, attempts and error records go with them (cascade),
 * and so does the hold of its held leads. The month's usage stays: clearing data frees no leads. */
export const routingCleaner: TenantDataCleaner = {
  name: 'routing',
  async clear(tx: Executor, userId: string) {
    await tx.delete(hooks).where(eq(hooks.accountId, userId));
    await tx.delete(leads).where(eq(leads.accountId, userId));
    await tx.delete(accountHolds).where(eq(accountHolds.accountId, userId));
    const owned = tx.select({ id: collections.id }).from(collections).where(eq(collections.accountId, userId));
    await tx.delete(distributionCursors).where(inArray(distributionCursors.collectionId, owned));
  },
};
