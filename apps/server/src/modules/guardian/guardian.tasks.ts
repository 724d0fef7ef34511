// The guardian's periodic tasks (listed by app.ts).
import type { PeriodicTask } from '../../delivery/periodic';
import { checkDroughts } from './guardian.service';

/** How often the drought watch runs. */
export const DROUGHT_CHECK_MS = 15 * 60_000;

export const guardianTasks = (): PeriodicTask[] => [
  { name: 'guardian-drought', everyMs: DROUGHT_CHECK_MS, run: (tx, now) => checkDroughts(tx, now) },
];
