import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { detectDrought } from './drought';

/** A small seeded generator, so the recorded series is the same on every run. */
function seeded(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * Four weeks of a source's arrivals as a Kyiv business records them: about 5 leads an hour on
 * weekdays from 09:00 to 18:00 (Poisson, seeded), nothing at night and nothing on weekends,
 * up to `until`.
 */
function officeSeries(until: DateTime, seed = 7): Date[] {
  const random = seeded(seed);
  const out: Date[] = [];
  let day = until.minus({ weeks: 4 }).startOf('day');
  while (day < until) {
    if (day.weekday <= 5) {
      let t = day.set({ hour: 9 });
      const close = day.set({ hour: 18 });
      for (;;) {
        t = t.plus({ milliseconds: (-Math.log(1 - random()) / 5) * 3_600_000 });
        if (t >= close || t >= until) break;
        out.push(t.toJSDate());
      }
    }
    day = day.plus({ days: 1 });
  }
  return out;
}

const kyiv = (iso: string) => DateTime.fromISO(iso, { zone: 'Europe/Kyiv' });

describe('the drought detector', () => {
  it('stays quiet over a weekend the source never had leads on', () => {
    // The last lead came on Friday before 18:00; it is now Sunday evening, then Monday 08:55.
    const friday = kyiv('2026-11-20T18:00');
    const series = officeSeries(friday);
    for (const now of ['2026-11-21T12:00', '2026-11-22T20:00', '2026-11-23T08:55']) {
      const verdict = detectDrought(series, kyiv(now).toJSDate());
      expect(verdict.alert, now).toBe(false);
      expect(verdict.silentMs).toBeGreaterThan(14 * 3_600_000);
    }
  });

  it('alerts when a weekday morning passes without the usual leads', () => {
    const tuesday = kyiv('2026-11-24T10:00');
    const series = officeSeries(tuesday);
    // Twenty minutes of silence at about 5 an hour: normal.
    expect(detectDrought(series, kyiv('2026-11-24T10:20').toJSDate()).alert).toBe(false);
    // Two hours and a half: about 12 leads expected, the chance of none by luck is tiny.
    const verdict = detectDrought(series, kyiv('2026-11-24T12:30').toJSDate());
    expect(verdict.alert).toBe(true);
    expect(verdict.expected).toBeGreaterThan(8);
    expect(verdict.chance).toBeLessThan(0.001);
  });

  it('counts only the hours the source usually works: Monday 09:30 after a weekend is not a drought, 11:30 is', () => {
    const friday = kyiv('2026-11-20T18:00');
    const series = officeSeries(friday);
    expect(detectDrought(series, kyiv('2026-11-23T09:30').toJSDate()).alert).toBe(false);
    expect(detectDrought(series, kyiv('2026-11-23T11:30').toJSDate()).alert).toBe(true);
  });

  it('says nothing without enough history to learn from', () => {
    const few = officeSeries(kyiv('2026-11-24T10:00')).slice(-10);
    const verdict = detectDrought(few, kyiv('2026-11-24T16:00').toJSDate());
    expect(verdict).toMatchObject({ alert: false, reason: 'NOT_ENOUGH_HISTORY' });
    expect(detectDrought([], new Date()).reason).toBe('NOT_ENOUGH_HISTORY');
  });

  it('learns hours in the local time, across the change to summer time', () => {
    // Four weeks ending on Tuesday 31 March 2026 10:00: the clocks went forward on the 29th.
    const series = officeSeries(kyiv('2026-03-31T10:00'), 11);
    // 09:00–10:00 local is busy in winter and in summer alike: silence from 10:00 to 12:30 alerts…
    expect(detectDrought(series, kyiv('2026-03-31T12:30').toJSDate()).alert).toBe(true);
    // …and the night before was quiet as ever.
    const night = officeSeries(kyiv('2026-03-30T17:59'), 11);
    expect(detectDrought(night, kyiv('2026-03-31T08:30').toJSDate()).alert).toBe(false);
  });
});
