import type { StatisticDay } from '@leadrelay/shared';
import { describe, expect, it } from 'vitest';
import { chartNote, fillDays, formatDay } from './chart-data';

const day = (id: string, delivered: number, failed = 0, pending = 0, held = 0): StatisticDay => ({
  _id: id,
  date: `${id}T00:00:00.000Z`,
  received: delivered + failed + pending + held,
  delivered,
  failed,
  pending,
  filtered: 0,
  duplicate: 0,
  held,
});

describe('fillDays', () => {
  const now = new Date('2026-03-14T23:30:00Z');

  it('gives the last 14 days of the zone oldest first, zeros where the statistic has no row', () => {
    const days = fillDays([day('2026-03-14', 5, 1, 2, 4), day('2026-03-10', 3)], 'UTC', now);
    expect(days).toHaveLength(14);
    expect(days[0]?.day).toBe('2026-03-01');
    expect(days[13]).toEqual({ day: '2026-03-14', received: 12, delivered: 5, failed: 1, pending: 2, held: 4 });
    expect(days[9]).toEqual({ day: '2026-03-10', received: 3, delivered: 3, failed: 0, pending: 0, held: 0 });
    expect(days[10]).toEqual({ day: '2026-03-11', received: 0, delivered: 0, failed: 0, pending: 0, held: 0 });
  });

  it('leaves out days older than the window and crosses month ends', () => {
    const days = fillDays([day('2026-02-27', 9), day('2026-02-28', 4)], 'UTC', new Date('2026-03-13T00:00:00Z'));
    expect(days[0]?.day).toBe('2026-02-28');
    expect(days[0]?.delivered).toBe(4);
    expect(days.some((d) => d.day === '2026-02-27')).toBe(false);
  });

  it("ends on today in the account's zone: 23:30 UTC on 14 March is already 15 March in Kyiv", () => {
    const days = fillDays([day('2026-03-15', 2)], 'Europe/Kyiv', now);
    expect(days[13]).toMatchObject({ day: '2026-03-15', delivered: 2 });
    expect(days[0]?.day).toBe('2026-03-02');
    expect(fillDays([], 'America/New_York', now)[13]?.day).toBe('2026-03-14');
  });
});

describe('chartNote', () => {
  const now = new Date('2026-03-14T12:00:00Z');

  it('says "no leads" only when none came in', () => {
    expect(chartNote(fillDays([], 'UTC', now))).toBe('empty');
  });

  it('says leads came in but went nowhere when every one was filtered, a duplicate or had no destination', () => {
    const filtered: StatisticDay = { ...day('2026-03-14', 0), received: 2, filtered: 1, duplicate: 1 };
    expect(chartNote(fillDays([filtered], 'UTC', now))).toBe('unrouted');
  });

  it('says nothing beside bars', () => {
    expect(chartNote(fillDays([day('2026-03-13', 0, 0, 1)], 'UTC', now))).toBeNull();
  });
});

describe('formatDay', () => {
  it('formats in the active language, on the UTC day', () => {
    expect(formatDay('2026-03-01', 'en')).toBe('1 Mar');
    expect(formatDay('2026-03-01', 'uk')).toMatch(/^1 бер/);
    expect(formatDay('2026-03-01', 'uk', 'numeric')).toBe('01.03');
    expect(formatDay('2026-03-01', 'en', 'numeric')).toBe('01/03');
  });
});
