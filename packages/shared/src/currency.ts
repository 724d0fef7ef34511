import { NON_USD_DISPLAY_FACTOR, UAH_RATE_FACTOR } from './constants';

export type CurrencyName = 'USD' | 'UAH';

/**
 * The rates map of GET /api/legacy/api/currency: hryvnias per unit of each currency (the National
 * Bank of Ukraine's convention: USD is the official UAH per dollar, UAH is 1), and when it was set.
 */
export interface Rates {
  USD: number;
  UAH: number;
  updatedAt?: string;
}

/**
 * The rate prices (in USD) are multiplied by for the active currency: 1 in USD; in UAH 1.025 × the
 * USD rate (spec section 9).
 */
export function displayRate(currency: CurrencyName, rates: Pick<Rates, 'USD'>): number {
  return currency === 'UAH' ? rates.USD * UAH_RATE_FACTOR : 1;
}

/**
 * Spec section 9: USD shows "$" and amount × rate to 2 decimals; another currency shows
 * "≈ round(amount × rate × 1.03) грн"; an empty amount shows a dash.
 */
export function formatPrice(amount: number | null | undefined, currency: CurrencyName, rate: number): string {
  if (amount === null || amount === undefined || Number.isNaN(amount)) return '—';
  if (currency === 'USD') return `$${(amount * rate).toFixed(2)}`;
  return `≈ ${Math.round(amount * rate * NON_USD_DISPLAY_FACTOR)} грн`;
}
