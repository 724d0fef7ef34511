import { BREAKPOINTS } from '@leadrelay/shared';
import { useSyncExternalStore } from 'react';

const QUERY = `(max-width: ${BREAKPOINTS.xs - 1}px)`;

function subscribe(cb: () => void) {
  const mq = window.matchMedia?.(QUERY);
  mq?.addEventListener('change', cb);
  return () => mq?.removeEventListener('change', cb);
}

/** Spec breakpoints: xs is under 768 px. */
export function useIsMobile(): boolean {
  return useSyncExternalStore(subscribe, () => window.matchMedia?.(QUERY).matches ?? false);
}
