import { eq } from 'drizzle-orm';
import { fbConnections } from '../../db/schema';
import type { TenantDataCleaner } from '../../lib/tenant-data';

/** Clear-all-data and account removal: connections go with their pages, ad accounts and tokens (cascade). */
export const facebookCleaner: TenantDataCleaner = {
  name: 'facebook',
  clear: async (tx, userId) => {
    await tx.delete(fbConnections).where(eq(fbConnections.accountId, userId));
  },
};
