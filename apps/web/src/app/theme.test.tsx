import { render, screen } from '@testing-library/react';
import { Button, Pagination } from 'antd';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyLocale } from '../lib/i18n';
import { AppTheme } from './theme';

/** The system's "reduce motion" setting as the browser reports it. */
function prefersReducedMotion(reduce: boolean) {
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
