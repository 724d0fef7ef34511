// The SMS log's periodic task (its door hands it to the app): statuses of messages still on their way.
import type { Deps } from '../../config';
import type { PeriodicTask } from '../../delivery/periodic';
import { refreshSmsStatuses } from './sms.service';

export const smsTasks = (deps: Pick<Deps, 'config' | 'log' | 'secrets' | 'locks' | 'db'>): PeriodicTask[] => [
  { name: 'sms-statuses', everyMs: 60_000, run: (tx, now) => refreshSmsStatuses(deps, tx, now) },
];
