import { render, screen } from '@testing-library/react';
import { Button } from 'antd';
import { afterEach, describe, expect, it, vi } from 'vitest';
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
