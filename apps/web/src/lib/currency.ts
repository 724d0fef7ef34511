// The price currency every money figure is shown in: USD by default (spec 9), the choice the plan
// page's switch stores in local storage; the rates from GET /api/legacy/api/currency. The plan,
// billing and referral screens all show amounts this way, so it lives below the features.
import { type CurrencyName, displayRate, formatPrice, type Rates, STORAGE } from '@leadrelay/shared';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';
import { api } from './http';

/** GET /api/legacy/api/currency: hryvnias per unit, and where the rate came from. */
export interface CurrencyRates extends Rates {
  source?: string;
  rateDate?: string;
}

export const CURRENCY_KEY = ['currency'] as const;

export const fetchCurrencyRates = () => api.get<CurrencyRates>('/api/legacy/api/currency');

/** The rate changes every few hours at most. */
export function useCurrencyRatesQuery() {
  return useQuery({ queryKey: CURRENCY_KEY, queryFn: fetchCurrencyRates, staleTime: 60 * 60_000 });
}

const listeners = new Set<() => void>();
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

export function readCurrency(): CurrencyName {
  return localStorage.getItem(STORAGE.currency) === 'UAH' ? 'UAH' : 'USD';
}

export function useCurrency(): [CurrencyName, (c: CurrencyName) => void] {
  const currency = useSyncExternalStore(subscribe, readCurrency);
  const set = useCallback((c: CurrencyName) => {
    localStorage.setItem(STORAGE.currency, c);
    for (const l of listeners) l();
  }, []);
  return [currency, set];
}

/**
 * Formats USD amounts in the chosen currency; USD until the rates have arrived. `usdRate` (UAH per
 * USD) replaces today's rate for an amount of another day, e.g. an invoice paid at that day's rate.
 */
export function priceFormatter(currency: CurrencyName, rates: Pick<Rates, 'USD'> | undefined) {
  return (amount: number | null | undefined, usdRate?: number | null) => {
    const usd = usdRate ?? rates?.USD;
    const shown: CurrencyName = usd ? currency : 'USD';
    const rate = usd ? displayRate(shown, { USD: usd }) : 1;
    return formatPrice(amount, shown, rate);
  };
}

/** The formatter of the stored currency at today's rate: what a screen showing amounts needs. */
export function usePrice() {
  const [currency] = useCurrency();
  const rates = useCurrencyRatesQuery();
  return priceFormatter(currency, rates.data);
}
