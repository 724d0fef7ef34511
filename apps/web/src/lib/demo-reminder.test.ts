import { describe, expect, it } from 'vitest';
import { takeDemoReminder } from './demo-reminder';
import { applyLocale, i18n } from './i18n';

const now = new Date('2025-03-10T09:00:00Z');
const inDays = (n: number) => new Date(now.getTime() + n * 86_400_000).toISOString().slice(0, 10);

describe('demo reminder', () => {
  it('is shown at most once a day', () => {
    const user = { planId: null, expDate: inDays(3) };
    expect(takeDemoReminder(user, now)).toEqual({ code: 'DEMO_DAYS_LEFT_WARNING', count: 3 });
    expect(takeDemoReminder(user, new Date(now.getTime() + 3_600_000))).toBeNull();
    expect(takeDemoReminder(user, new Date(now.getTime() + 86_400_000))).toEqual({
      code: 'DEMO_DAYS_LEFT_WARNING',
      count: 2,
    });
    expect(localStorage.getItem('last-inform')).toBe('2025-03-11');
  });

  it('only for demo accounts within 11 days', () => {
    expect(takeDemoReminder({ planId: 'p1', expDate: inDays(3) }, now)).toBeNull();
    expect(takeDemoReminder({ planId: null, expDate: inDays(12) }, now)).toBeNull();
    expect(takeDemoReminder({ planId: null, expDate: null }, now)).toBeNull();
    expect(takeDemoReminder({ planId: null, expDate: inDays(11) }, now)?.code).toBe('DEMO_DAYS_LEFT_WARNING');
  });

  it('says DEMO_EXPIRED at 0 days or below', () => {
    expect(takeDemoReminder({ planId: null, expDate: inDays(0) }, now)?.code).toBe('DEMO_EXPIRED');
    localStorage.clear();
    expect(takeDemoReminder({ planId: null, expDate: inDays(-4) }, now)?.code).toBe('DEMO_EXPIRED');
  });

  it('declines the day word in Ukrainian', () => {
    applyLocale('uk');
    const msg = (count: number) => i18n.t('common:demo.DEMO_DAYS_LEFT_WARNING', { count });
    expect(msg(1)).toBe('Залишився 1 день демо-періоду');
    expect(msg(3)).toBe('Залишилось 3 дні демо-періоду');
    expect(msg(5)).toBe('Залишилось 5 днів демо-періоду');
    expect(msg(11)).toBe('Залишилось 11 днів демо-періоду');
    expect(msg(21)).toBe('Залишився 21 день демо-періоду');
    expect(i18n.t('common:days', { count: 22 })).toBe('22 дні');
    applyLocale('en');
    expect(i18n.t('common:demo.DEMO_DAYS_LEFT_WARNING', { count: 1 })).toBe('1 day of the demo period left');
    expect(i18n.t('common:demo.DEMO_DAYS_LEFT_WARNING', { count: 3 })).toBe('3 days of the demo period left');
    applyLocale('uk');
  });
});
