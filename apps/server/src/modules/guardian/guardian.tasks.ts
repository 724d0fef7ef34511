// The guardian's periodic tasks (its door hands them to the app).
import type { PeriodicTask } from '../../delivery/periodic';
import { checkDroughts, notifyDroughts } from './guardian.service';
import { ACCESS_CHECK_MS, checkAccess } from './guardian-access';
import { checkExpiries } from './guardian-expiry';
import type { GuardianDeps } from './guardian-notify';
import { type SpeedSummaryOf, sendWeeklyMails } from './weekly-mail';

/** How often the drought watch runs. */
export const DROUGHT_CHECK_MS = 15 * 60_000;
export const EXPIRY_CHECK_MS = 60 * 60_000;
export const WEEKLY_CHECK_MS = 60 * 60_000;

export const guardianTasks = (deps: GuardianDeps, speedOf: SpeedSummaryOf): PeriodicTask[] => [
  {
    name: 'guardian-drought',
    everyMs: DROUGHT_CHECK_MS,
    run: async (tx, now) => ({ ...(await checkDroughts(tx, now)), told: await notifyDroughts(deps, tx, now) }),
  },
  { name: 'guardian-expiry', everyMs: EXPIRY_CHECK_MS, run: (tx, now) => checkExpiries(deps, tx, now) },
  { name: 'guardian-access', everyMs: ACCESS_CHECK_MS, run: (tx, now) => checkAccess(deps, tx, now) },
  { name: 'guardian-weekly', everyMs: WEEKLY_CHECK_MS, run: (tx, now) => sendWeeklyMails(deps, speedOf, tx, now) },
];
