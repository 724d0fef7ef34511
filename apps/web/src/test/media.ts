// What the browser answers to media queries, for components that follow the screen or the system's
// settings (lib/use-media-query.ts, antd's grid).
import { vi } from 'vitest';

/**
 * The spec's breakpoint edges, one width either side of each (xs under 768, sm under 992, md under
 * 1200, lg under 1920, xl beyond), with the breakpoint each width is in.
 */
export const BREAKPOINT_EDGES: [number, string][] = [
  [767, 'xs'],
  [768, 'sm'],
  [991, 'sm'],
  [992, 'md'],
  [1199, 'md'],
  [1200, 'lg'],
  [1919, 'lg'],
  [1920, 'xl'],
];

/** The system's "reduce motion" setting as the browser reports it. */
export function prefersReducedMotion(reduce: boolean) {
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query: string) =>
      ({
        matches: reduce && query.includes('prefers-reduced-motion: reduce'),
        media: query,
        addEventListener: () => {},
        removeEventListener: () => {},
      }) as unknown as MediaQueryList,
  );
}
