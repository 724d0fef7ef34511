// Spec section 2, "Locale and query behaviours": promo cookie, hidden actions, table page size.
import { COOKIE, DEFAULT_PAGE_SIZE, PROMO_COOKIE_MAX_AGE_SECONDS, STORAGE } from '@leadrelay/shared';
import Cookies from 'js-cookie';
import { useCallback, useMemo, useSyncExternalStore } from 'react';

/** ?promo=… is kept in the `promo` cookie for 90 days. */
export function capturePromo(search: string, now = Date.now()): string | null {
  const promo = new URLSearchParams(search).get('promo')?.trim();
  if (!promo) return null;
  Cookies.set(COOKIE.promo, promo, {
    expires: new Date(now + PROMO_COOKIE_MAX_AGE_SECONDS * 1000),
    path: '/',
    sameSite: 'lax',
  });
  return promo;
}

export function readPromo(): string | undefined {
  return Cookies.get(COOKIE.promo) || undefined;
}

/** ?actions=a,b is kept in local storage `hidden-actions`. */
export function captureHiddenActions(search: string): string[] | null {
  const raw = new URLSearchParams(search).get('actions');
  if (raw === null) return null;
  const list = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  localStorage.setItem(STORAGE.hiddenActions, JSON.stringify(list));
  emit();
  return list;
}

export function readHiddenActions(): string[] {
  try {
    const parsed = JSON.parse(localStorage.getItem(STORAGE.hiddenActions) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((s): s is string => typeof s === 'string') : [];
  } catch {
    return [];
  }
}

const listeners = new Set<() => void>();
function emit() {
  for (const l of listeners) l();
}
function subscribe(l: () => void) {
  listeners.add(l);
  return () => listeners.delete(l);
}

/** `isHidden('export')` is true when ?actions= listed it. */
export function useHiddenActions() {
  const raw = useSyncExternalStore(subscribe, () => localStorage.getItem(STORAGE.hiddenActions) ?? '[]');
  return useMemo(() => {
    const list = raw ? readHiddenActions() : [];
    return { hidden: list, isHidden: (action: string) => list.includes(action) };
  }, [raw]);
}

export function readPageSize(): number {
  const n = Number(localStorage.getItem(STORAGE.limit));
  return Number.isInteger(n) && n > 0 ? n : DEFAULT_PAGE_SIZE;
}

export function savePageSize(n: number): void {
  localStorage.setItem(STORAGE.limit, String(n));
  emit();
}

/** Table page size, kept in local storage `limit` (default 10). */
export function usePageSize(): [number, (n: number) => void] {
  const size = useSyncExternalStore(subscribe, readPageSize);
  const set = useCallback((n: number) => savePageSize(n), []);
  return [size, set];
}
