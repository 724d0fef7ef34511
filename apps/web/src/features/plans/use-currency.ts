// The price currency of the plan page: USD by default (spec 9), remembered in local storage.
import { type CurrencyName, displayRate, formatPrice, STORAGE } from '@leadrelay/shared';
import { useCallback, useSyncExternalStore } from 'react';
import type { CurrencyRates } from './api';

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

/** Formats USD amounts in the chosen currency; USD until the rates have arrived. */
export function priceFormatter(currency: CurrencyName, rates: CurrencyRates | undefined) {
  const shown: CurrencyName = rates ? currency : 'USD';
  const rate = rates ? displayRate(shown, rates) : 1;
  return (amount: number | null | undefined) => formatPrice(amount, shown, rate);
}
