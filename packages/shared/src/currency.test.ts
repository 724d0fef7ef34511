import { describe, expect, it } from 'vitest';
import { displayRate, formatPrice } from './currency';

describe('currency display', () => {
  it('shows USD with a dollar sign, amount × rate, two decimals', () => {
    expect(formatPrice(10, 'USD', 1)).toBe('$10.00');
    expect(formatPrice(9.5, 'USD', 1.1)).toBe('$10.45');
  });
  it('shows another currency as approximately amount × rate × 1.03, rounded, in hryvnia', () => {
    expect(formatPrice(10, 'UAH', 41)).toBe('≈ 422 грн');
    expect(formatPrice(1, 'UAH', 40)).toBe('≈ 41 грн');
  });
  it('shows a dash for an empty amount', () => {
    expect(formatPrice(null, 'USD', 1)).toBe('—');
    expect(formatPrice(undefined, 'UAH', 41)).toBe('—');
  });
  it('shows the UAH rate as 1.025 × the USD rate; prices in USD stay as they are', () => {
    expect(displayRate('UAH', { USD: 40 })).toBeCloseTo(41);
    expect(displayRate('USD', { USD: 40 })).toBe(1);
  });
  it('shows a $29 plan at an official rate of 41.5 as $29.00, or about 1,271 hryvnias', () => {
    const rates = { USD: 41.5 };
    expect(formatPrice(29, 'USD', displayRate('USD', rates))).toBe('$29.00');
    // 29 × (41.5 × 1.025) × 1.03 = 1270.6
    expect(formatPrice(29, 'UAH', displayRate('UAH', rates))).toBe('≈ 1271 грн');
  });
});
