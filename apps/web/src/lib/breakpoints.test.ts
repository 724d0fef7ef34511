import { describe, expect, it } from 'vitest';
import { BREAKPOINT_EDGES } from '../test/media';
import { breakpointOf, upTo } from './breakpoints';

const EDGES: [number, string][] = [[375, 'xs'], ...BREAKPOINT_EDGES, [2560, 'xl']];

describe("the spec's breakpoints (xs under 768, sm under 992, md under 1200, lg under 1920, xl beyond)", () => {
  it.each(EDGES)('a window %i px wide is %s', (width, name) => {
    expect(breakpointOf(width)).toBe(name);
  });

  it('a phone is under 768 px', () => {
    expect(upTo('xs')).toBe('(max-width: 767px)');
  });

  it("every stylesheet's width query is at one of the spec's edges", () => {
    const sheets = import.meta.glob('../**/*.css', { query: '?raw', import: 'default', eager: true }) as Record<
      string,
      string
    >;
    const edges = new Set(['767', '768', '991', '992', '1199', '1200', '1919', '1920']);
    const off = Object.entries(sheets).flatMap(([file, css]) =>
      [...css.matchAll(/(?:min|max)-width:\s*(\d+)px/g)]
        .filter((m) => m[1] !== undefined && !edges.has(m[1]))
        .map((m) => `${file}: ${m[0]}`),
    );
    expect(Object.keys(sheets).length).toBeGreaterThan(5);
    expect(off).toEqual([]);
  });
});
