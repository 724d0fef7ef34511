// Clearing an account's business data ("clear all data"): each module that keeps data per account
// exports its cleaner from its door, and app-modules.ts lists them in the order they must run.
import type { Executor } from '../db/client';

/** Deletes one module's business data of an account; runs inside the clearing transaction. */
export interface TenantDataCleaner {
  name: string;
  clear(tx: Executor, userId: string): Promise<void>;
}

export async function clearTenantData(
  tx: Executor,
  userId: string,
  cleaners: readonly TenantDataCleaner[],
): Promise<void> {
  for (const cleaner of cleaners) await cleaner.clear(tx, userId);
}
