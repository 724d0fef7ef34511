// The rates prices are shown in (spec 9): the last good official USD rate, taken daily from the
// NBU by a periodic task; a built-in rate on a fresh install that has never reached the bank.
import type { Rates } from '@leadrelay/shared';
import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '../../db/client';
import { currencyRates } from '../../db/schema';
import { fetchUsdRate } from './nbu';

/** Hryvnias per dollar until the first rate arrives (the NBU's rate in late 2026, rounded). */
export const FALLBACK_USD_RATE = 41.5;

export interface CurrencyView extends Rates {
  updatedAt: string | undefined;
  /** `nbu`: the official rate of `rateDate`; `fallback`: the built-in rate (never reached the bank). */
  source: 'nbu' | 'fallback';
  rateDate: string | undefined;
}

export async function currentRates(db: Executor): Promise<CurrencyView> {
  const [usd] = await db.select().from(currencyRates).where(eq(currencyRates.code, 'USD'));
  if (!usd) return { USD: FALLBACK_USD_RATE, UAH: 1, updatedAt: undefined, source: 'fallback', rateDate: undefined };
  return { USD: usd.rate, UAH: 1, updatedAt: usd.fetchedAt.toISOString(), source: 'nbu', rateDate: usd.rateDate };
}

/** Takes today's rate; when the bank cannot be reached the last good one stays (logged, not thrown). */
export async function refreshRates(
  db: Executor,
  url: string,
  log: Pick<FastifyBaseLogger, 'warn'>,
  now: Date,
  fetchImpl?: typeof fetch,
): Promise<'updated' | 'kept'> {
  let official: Awaited<ReturnType<typeof fetchUsdRate>>;
  try {
    official = await fetchUsdRate(url, fetchImpl);
  } catch (error) {
    log.warn({ err: error, url }, 'the exchange rate could not be taken: the last good rate stays');
    return 'kept';
  }
  await db
    .insert(currencyRates)
    .values({ code: 'USD', rate: official.rate, rateDate: official.rateDate, fetchedAt: now })
    .onConflictDoUpdate({
      target: currencyRates.code,
      set: { rate: sql`excluded.rate`, rateDate: sql`excluded.rate_date`, fetchedAt: sql`excluded.fetched_at` },
    });
  return 'updated';
}
