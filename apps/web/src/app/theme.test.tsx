import { render, screen } from '@testing-library/react';
import { Button, Grid, Pagination } from 'antd';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyLocale } from '../lib/i18n';
import { BREAKPOINT_EDGES, prefersReducedMotion } from '../test/media';
import { AppTheme } from './theme';

const Add = ({ loading }: { loading: boolean }) => (
  <AppTheme locale="en">
    <Button loading={loading}>Add</Button>
  </AppTheme>
);

afterEach(() => vi.restoreAllMocks());

describe('reduced motion', () => {
  it('drops a finished loading icon at once, so the button is called "Add" again', () => {
    prefersReducedMotion(true);
    const { rerender } = render(<Add loading />);
    expect(screen.getByRole('button', { name: 'loading Add' })).toBeTruthy();
    rerender(<Add loading={false} />);
    expect(screen.getByRole('button', { name: 'Add' })).toBeTruthy();
  });
});

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

describe("the spec's breakpoints in antd's grid (xs under 768, sm under 992, md under 1200, lg under 1920)", () => {
  it.each(BREAKPOINT_EDGES)("antd's grid switches at the same widths (%i px → %s)", (width, name) => {
    windowWidth(width);
    render(
      <AppTheme locale="en">
        <AntdBreakpoint />
      </AppTheme>,
    );
    expect(screen.getByRole('status').textContent).toBe(name);
  });
});

describe('antd in the page’s language', () => {
  it('names the page-size selector in Ukrainian (antd’s uk_UA leaves it "Page Size")', () => {
    applyLocale('uk');
    const { container } = render(
      <AppTheme locale="uk">
        <Pagination total={100} showSizeChanger />
      </AppTheme>,
    );
    const sizer = container.querySelector('.ant-pagination-options input');
    expect(sizer?.getAttribute('aria-label')).toBe('Рядків на сторінці');
  });
});
