import { describe, expect, it } from 'vitest';
import { generatePassword } from './password';
import { isValidPassword } from './validation';

describe('generatePassword', () => {
  const samples = Array.from({ length: 2000 }, generatePassword);

  it('is 8 to 12 characters long and uses every length', () => {
    const lengths = new Set(samples.map((p) => p.length));
    expect([...lengths].sort((a, b) => a - b)).toEqual([8, 9, 10, 11, 12]);
  });
  it('always has a digit, a lowercase and an uppercase letter, and nothing else', () => {
    for (const p of samples) {
      expect(p).toMatch(/\d/);
      expect(p).toMatch(/[a-z]/);
      expect(p).toMatch(/[A-Z]/);
      expect(p).toMatch(/^[A-Za-z\d]+$/);
    }
  });
  it('passes the sign-up password rule', () => {
    expect(samples.every(isValidPassword)).toBe(true);
  });
  it('does not repeat itself', () => {
    expect(new Set(samples).size).toBeGreaterThan(1990);
  });
  it('does not always put the required characters first', () => {
    expect(samples.some((p) => !/^\d/.test(p))).toBe(true);
  });
});
