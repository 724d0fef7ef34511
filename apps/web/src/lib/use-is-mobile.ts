import { upTo } from './breakpoints';
import { useMediaQuery } from './use-media-query';

/** Spec breakpoints: a phone is xs, under 768 px. */
export function useIsMobile(): boolean {
  return useMediaQuery(upTo('xs'));
}
