import { describe, expect, it } from 'vitest';
import { formatDays, ukrainianPlural } from './plural';

describe('Ukrainian day-word declension', () => {
  it.each([
    [1, '1 день'],
    [2, '2 дні'],
    [3, '3 дні'],
    [4, '4 дні'],
    [5, '5 днів'],
    [7, '7 днів'],
    [11, '11 днів'],
    [12, '12 днів'],
    [14, '14 днів'],
    [21, '21 день'],
    [22, '22 дні'],
    [25, '25 днів'],
    [101, '101 день'],
    [111, '111 днів'],
    [112, '112 днів'],
    [0, '0 днів'],
  ])('%i → %s', (n, text) => {
    expect(formatDays(n, 'uk')).toBe(text);
  });
  it('handles negatives by magnitude', () => {
    expect(ukrainianPlural(-1)).toBe('one');
    expect(ukrainianPlural(-3)).toBe('few');
  });
  it('matches the CLDR categories Intl uses for uk', () => {
    const rules = new Intl.PluralRules('uk');
    for (let n = 0; n <= 250; n++) expect(ukrainianPlural(n)).toBe(rules.select(n));
  });
  it('says day or days in English', () => {
    expect(formatDays(1, 'en')).toBe('1 day');
    expect(formatDays(3, 'en')).toBe('3 days');
  });
});
