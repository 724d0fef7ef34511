import { eq } from 'drizzle-orm';
import { collections, integrations } from '../../db/schema';
import type { TenantDataCleaner } from '../../lib/tenant-data';

/** Clear-all-data: integrations go with their leads, hooks and deliveries (foreign keys cascade). */
export const integrationsCleaner: TenantDataCleaner = {
  name: 'integrations',
  clear: async (tx, userId) => {
    await tx.delete(integrations).where(eq(integrations.accountId, userId));
  },
};

export const collectionsCleaner: TenantDataCleaner = {
  name: 'collections',
  clear: async (tx, userId) => {
    await tx.delete(collections).where(eq(collections.accountId, userId));
  },
};
