// The rate is published once a day; trying every 6 hours takes it within hours of a failed try.
import type { FastifyBaseLogger } from 'fastify';
import type { PeriodicTask } from '../../delivery/periodic';
import { refreshRates } from './currency.service';

export const CURRENCY_TASK = 'refresh-currency-rates';

export const currencyTasks = (url: string, log: FastifyBaseLogger): PeriodicTask[] => [
  { name: CURRENCY_TASK, everyMs: 6 * 60 * 60_000, run: (tx, now) => refreshRates(tx, url, log, now) },
];
