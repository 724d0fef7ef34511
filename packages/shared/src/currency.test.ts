import { describe, expect, it } from 'vitest';
import { displayRate, formatPrice } from './currency';

describe('currency display', () => {
  it('shows USD with a dollar sign, amount × rate, two decimals', () => {
    expect(formatPrice(10, 'USD', 1)).toBe('$10.00');
    expect(formatPrice(9.5, 'USD', 1.1)).toBe('$10.45');
  });
  it('shows another currency as approximately amount × rate × 1.03, rounded, in hryvnia', () => {
    expect(formatPrice(10, 'UAH', 41)).toBe('≈ 422 ₴');
    expect(formatPrice(1, 'UAH', 40)).toBe('≈ 41 ₴');
  });
  it('shows a dash for an empty amount', () => {
    expect(formatPrice(null, 'USD', 1)).toBe('—');
    expect(formatPrice(undefined, 'UAH', 41)).toBe('—');
  });
  it('shows the UAH rate as 1.025 × the USD rate', () => {
    expect(displayRate('UAH', { USD: 40 })).toBeCloseTo(41);
    expect(displayRate('USD', { USD: 40 })).toBe(40);
  });
});
