import { BREAKPOINTS } from '@leadrelay/shared';
import { useMediaQuery } from './use-media-query';

/** Spec breakpoints: xs is under 768 px. */
export function useIsMobile(): boolean {
  return useMediaQuery(`(max-width: ${BREAKPOINTS.xs - 1}px)`);
}
