import { NON_USD_DISPLAY_FACTOR, UAH_RATE_FACTOR } from './constants';

export type CurrencyName = 'USD' | 'UAH';
export interface Rates {
  USD: number;
  UAH: number;
  updatedAt?: string;
}

/** The rate shown for a currency: UAH is 1.025 × the USD rate (spec section 9). */
export function displayRate(currency: CurrencyName, rates: Pick<Rates, 'USD'>): number {
  return currency === 'UAH' ? rates.USD * UAH_RATE_FACTOR : rates.USD;
}

/**
 * Spec section 9: USD shows "$" and amount × rate to 2 decimals; another currency shows
 * "≈ round(amount × rate × 1.03) ₴"; an empty amount shows a dash.
 */
export function formatPrice(amount: number | null | undefined, currency: CurrencyName, rate: number): string {
  if (amount === null || amount === undefined || Number.isNaN(amount)) return '—';
  if (currency === 'USD') return `$${(amount * rate).toFixed(2)}`;
  return `≈ ${Math.round(amount * rate * NON_USD_DISPLAY_FACTOR)} ₴`;
}
