// The National Bank of Ukraine's public exchange-rate API: GET …/NBUStatService/v1/statdirectory/
// exchange?valcode=USD&json answers [{ r030: 840, txt, rate: <UAH per USD>, cc: 'USD', exchangedate: 'DD.MM.YYYY' }]
// (docs/currency.md: what was confirmed). No key; published once a day.
import { isCalendarDate } from '@leadrelay/shared';
import { z } from 'zod';

export const NBU_USD_URL = 'https://bank.gov.ua/NBUStatService/v1/statdirectory/exchange?valcode=USD&json';
const FETCH_TIMEOUT_MS = 10_000;

/** The bank's DD.MM.YYYY as an ISO day, as every date the API answers is. */
const isoDay = (ddmmyyyy: string) => ddmmyyyy.split('.').reverse().join('-');

const ZNbuAnswer = z
  .array(
    z.object({
      cc: z.string(),
      // A hryvnia rate far outside this is a broken answer, not a rate to price with.
      rate: z.number().min(1).max(1_000),
      // A day that exists (31.02.2026 would fail where the rate is stored, not here).
      exchangedate: z
        .string()
        .regex(/^\d{2}\.\d{2}\.\d{4}$/)
        .refine((d) => isCalendarDate(isoDay(d))),
    }),
  )
  .min(1);

export interface OfficialRate {
  rate: number;
  /** YYYY-MM-DD: the day the bank set the rate for. */
  rateDate: string;
}

/** The official USD rate, or a thrown Error saying why not (unreachable, refused, malformed). */
export async function fetchUsdRate(url: string, fetchImpl: typeof fetch = fetch): Promise<OfficialRate> {
  const res = await fetchImpl(url, {
    signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    headers: { accept: 'application/json' },
  });
  if (!res.ok) throw new Error(`the NBU answered ${res.status}`);
  const parsed = ZNbuAnswer.safeParse(await res.json().catch(() => undefined));
  const usd = parsed.success ? parsed.data.find((r) => r.cc === 'USD') : undefined;
  if (!usd) throw new Error('the NBU answer holds no USD rate');
  return { rate: usd.rate, rateDate: isoDay(usd.exchangedate) };
}
