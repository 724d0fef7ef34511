// What ingest keeps tidy (periodic tasks its door hands to the app).
import type { PeriodicTask } from '../../delivery/periodic';
import { pruneDedupeKeys } from './ingest.service';

export const ingestTasks = (): PeriodicTask[] => [
  // Ingest takes over an expired key itself; this only keeps the table small.
  { name: 'prune-dedupe-keys', everyMs: 10 * 60_000, run: (tx, now) => pruneDedupeKeys(tx, now) },
];
