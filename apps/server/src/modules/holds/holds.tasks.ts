// The held leads' periodic tasks (its door hands them to the app): release within a minute,
// retention hourly.
import type { PeriodicTask } from '../../delivery/periodic';
import { announceHooks, announceReleased } from '../../delivery/queue';
import type { EngineEventBus } from '../../lib/events';
import { applyRetention, type ChangedHooks, type HoldsDeps, sweepHolds } from './holds.service';

export const HOLDS_SWEEP_TASK = 'release-held-leads';
export const HOLDS_RETENTION_TASK = 'held-leads-retention';

export function holdsTasks(deps: HoldsDeps, events: EngineEventBus): PeriodicTask[] {
  // After the commit: the dashboard hears of the changed hooks, the workers of released deliveries.
  const released = (changed: unknown) => {
    for (const { accountId, hookIds } of changed as ChangedHooks) announceReleased(events, accountId, hookIds);
  };
  const dropped = (changed: unknown) => {
    for (const { accountId, hookIds } of changed as ChangedHooks) announceHooks(events, accountId, hookIds);
  };
  return [
    // Every 30 s, so a payment, a plan change or a new month releases held leads within a minute
    // even when nothing called refreshAccountHold.
    { name: HOLDS_SWEEP_TASK, everyMs: 30_000, run: (tx, now) => sweepHolds(deps, tx, now), afterCommit: released },
    {
      name: HOLDS_RETENTION_TASK,
      everyMs: 60 * 60_000,
      run: (tx, now) => applyRetention(deps, tx, now),
      afterCommit: dropped,
    },
  ];
}
