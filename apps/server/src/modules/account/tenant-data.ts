import type { Executor } from '../../db/client';
import { facebookCleaner } from '../facebook/facebook.cleaner';
import { routingCleaner } from '../hooks/hooks.cleaner';
import { collectionsCleaner, integrationsCleaner } from '../integrations/integrations.cleaner';

/** Deletes one module's business data of an account; runs inside the clearing transaction. */
export interface TenantDataCleaner {
  name: string;
  clear(tx: Executor, userId: string): Promise<void>;
}

// The explicit list of modules holding business data per account. Integrations, leads, hooks
// and the rest add their cleaner here as they arrive; profile and login are never cleared.
export const tenantDataCleaners: readonly TenantDataCleaner[] = [
  // Before integrations: leads and hooks reference them.
  routingCleaner,
  integrationsCleaner,
  collectionsCleaner,
  facebookCleaner,
];

export async function clearTenantData(
  tx: Executor,
  userId: string,
  cleaners: readonly TenantDataCleaner[] = tenantDataCleaners,
): Promise<void> {
  for (const cleaner of cleaners) await cleaner.clear(tx, userId);
}
