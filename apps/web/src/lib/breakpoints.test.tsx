import { render, screen } from '@testing-library/react';
import { Grid } from 'antd';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppTheme } from '../app/theme';
import { breakpointOf, upTo } from './breakpoints';

afterEach(() => vi.restoreAllMocks());

/** A window this wide, as matchMedia answers width queries. */
function windowWidth(width: number) {
  vi.spyOn(window, 'matchMedia').mockImplementation((query: string) => {
    const min = /min-width:\s*(\d+)px/.exec(query);
    const max = /max-width:\s*(\d+)px/.exec(query);
    const matches = (!min || width >= Number(min[1])) && (!max || width <= Number(max[1])) && Boolean(min || max);
    return {
      matches,
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
    } as unknown as MediaQueryList;
  });
}

/** The widest breakpoint antd's grid says is on (what <Col xs sm md lg xl> follow). */
function AntdBreakpoint() {
  const screens = Grid.useBreakpoint();
  const on = (['xl', 'lg', 'md', 'sm', 'xs'] as const).find((b) => screens[b]);
  return <output>{on ?? 'none'}</output>;
}

const EDGES: [number, string][] = [
  [375, 'xs'],
  [767, 'xs'],
  [768, 'sm'],
  [991, 'sm'],
  [992, 'md'],
  [1199, 'md'],
  [1200, 'lg'],
  [1919, 'lg'],
  [1920, 'xl'],
  [2560, 'xl'],
];

describe("the spec's breakpoints (xs under 768, sm under 992, md under 1200, lg under 1920, xl beyond)", () => {
  it.each(EDGES)('a window %i px wide is %s', (width, name) => {
    expect(breakpointOf(width)).toBe(name);
  });

  it.each(EDGES.filter(([width]) => width < 2560))(
    "antd's grid switches at the same widths (%i px → %s)",
    (width, name) => {
      windowWidth(width);
      render(
        <AppTheme locale="en">
          <AntdBreakpoint />
        </AppTheme>,
      );
      expect(screen.getByRole('status').textContent).toBe(name);
    },
  );

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
