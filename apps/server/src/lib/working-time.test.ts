import { describe, expect, it } from 'vitest';
import {
  addWorkingTime,
  isWorkingAt,
  nextWorkingStart,
  OFFICE_HOURS,
  type WorkingHours,
  workingTimeBetween,
  ZWorkingHours,
} from './working-time';

const MIN = 60_000;
const HOUR = 60 * MIN;
const at = (iso: string) => new Date(iso);

/** Nights only: 22:00–06:00 every day (a night shift runs past midnight). */
const NIGHTS: WorkingHours = {
  timeZone: 'Europe/Kyiv',
  week: Array.from({ length: 7 }, () => [{ from: '22:00', to: '06:00' }]),
  daysOff: [],
};

describe('working time in Kyiv', () => {
  it('knows office hours in winter (UTC+2) and summer (UTC+3)', () => {
    // Monday 23 November 2026: 09:00 in Kyiv is 07:00 UTC.
    expect(isWorkingAt(OFFICE_HOURS, at('2026-11-23T06:59:00Z'))).toBe(false);
    expect(isWorkingAt(OFFICE_HOURS, at('2026-11-23T07:00:00Z'))).toBe(true);
    expect(isWorkingAt(OFFICE_HOURS, at('2026-11-23T15:59:00Z'))).toBe(true);
    expect(isWorkingAt(OFFICE_HOURS, at('2026-11-23T16:00:00Z'))).toBe(false);
    // Monday 6 July 2026: 09:00 in Kyiv is 06:00 UTC.
    expect(isWorkingAt(OFFICE_HOURS, at('2026-07-06T06:00:00Z'))).toBe(true);
    expect(isWorkingAt(OFFICE_HOURS, at('2026-07-06T05:59:00Z'))).toBe(false);
    // Saturday.
    expect(isWorkingAt(OFFICE_HOURS, at('2026-11-28T10:00:00Z'))).toBe(false);
  });

  it('finds the next start: after Friday evening comes Monday morning', () => {
    // Friday 27 November, 18:30 Kyiv → Monday 30 November, 09:00 Kyiv.
    expect(nextWorkingStart(OFFICE_HOURS, at('2026-11-27T16:30:00Z'))).toEqual(at('2026-11-30T07:00:00Z'));
    // During working time it is now.
    expect(nextWorkingStart(OFFICE_HOURS, at('2026-11-27T10:00:00Z'))).toEqual(at('2026-11-27T10:00:00Z'));
  });

  it('counts only working time: 15 minutes from Friday 17:50 end on Monday at 09:05', () => {
    expect(addWorkingTime(OFFICE_HOURS, at('2026-11-27T15:50:00Z'), 15 * MIN)).toEqual(at('2026-11-30T07:05:00Z'));
    expect(workingTimeBetween(OFFICE_HOURS, at('2026-11-27T15:50:00Z'), at('2026-11-30T07:05:00Z'))).toBe(15 * MIN);
    // Within one stretch it is plain time.
    expect(addWorkingTime(OFFICE_HOURS, at('2026-11-27T08:00:00Z'), 30 * MIN)).toEqual(at('2026-11-27T08:30:00Z'));
    // A whole week of office hours is 45 hours.
    expect(workingTimeBetween(OFFICE_HOURS, at('2026-11-23T00:00:00Z'), at('2026-11-30T00:00:00Z'))).toBe(45 * HOUR);
  });

  it('skips days off: Christmas on Friday moves Thursday evening’s clock to Monday', () => {
    const hours = { ...OFFICE_HOURS, daysOff: ['2026-12-25'] };
    // Thursday 24 December 17:55 Kyiv + 15 min → 5 min on Thursday, 10 on Monday 28th.
    expect(addWorkingTime(hours, at('2026-12-24T15:55:00Z'), 15 * MIN)).toEqual(at('2026-12-28T07:10:00Z'));
    expect(isWorkingAt(hours, at('2026-12-25T10:00:00Z'))).toBe(false);
  });

  it('gives a night shift its real length when the clocks change', () => {
    // 28→29 March 2026: the clocks go from 03:00 to 04:00; 22:00 (UTC+2) to 06:00 (UTC+3) is 7 hours.
    expect(workingTimeBetween(NIGHTS, at('2026-03-28T19:00:00Z'), at('2026-03-29T04:00:00Z'))).toBe(7 * HOUR);
    // 24→25 October 2026: from 04:00 back to 03:00; 22:00 (UTC+3) to 06:00 (UTC+2) is 9 hours.
    expect(workingTimeBetween(NIGHTS, at('2026-10-24T18:00:00Z'), at('2026-10-25T05:00:00Z'))).toBe(9 * HOUR);
    // A shift starting in the hour the clocks skip starts an hour later by the clock (03:30 → 04:30 summer time), as calendars do.
    const skipped: WorkingHours = { ...NIGHTS, week: NIGHTS.week.map(() => [{ from: '03:30', to: '05:00' }]) };
    expect(nextWorkingStart(skipped, at('2026-03-29T00:00:00Z'))).toEqual(at('2026-03-29T01:30:00Z'));
    expect(workingTimeBetween(skipped, at('2026-03-29T00:00:00Z'), at('2026-03-29T03:00:00Z'))).toBe(30 * MIN);
    // Office hours on the change's Monday are still 09:00 wall time, now UTC+3.
    expect(nextWorkingStart(OFFICE_HOURS, at('2026-03-29T12:00:00Z'))).toEqual(at('2026-03-30T06:00:00Z'));
  });

  it('joins a night across midnight and sees a night shift still running in the morning', () => {
    const split: WorkingHours = {
      ...NIGHTS,
      week: NIGHTS.week.map(() => [
        { from: '00:00', to: '06:00' },
        { from: '22:00', to: '24:00' },
      ]),
    };
    // 05:00 Kyiv on a winter Tuesday: inside the shift that began at 22:00 on Monday.
    expect(isWorkingAt(NIGHTS, at('2026-11-24T03:00:00Z'))).toBe(true);
    // One 8-hour stretch: 3 hours from 23:00 end at 02:00, not cut at midnight.
    expect(addWorkingTime(split, at('2026-11-23T21:00:00Z'), 3 * HOUR)).toEqual(at('2026-11-24T00:00:00Z'));
    expect(workingTimeBetween(split, at('2026-11-23T12:00:00Z'), at('2026-11-24T12:00:00Z'))).toBe(8 * HOUR);
  });

  it('follows another time zone when the manager has one', () => {
    const warsaw = { ...OFFICE_HOURS, timeZone: 'Europe/Warsaw' };
    // 09:00 in Warsaw (UTC+1 in winter) is 08:00 UTC: Kyiv's office has been open an hour.
    expect(isWorkingAt(warsaw, at('2026-11-23T07:30:00Z'))).toBe(false);
    expect(isWorkingAt(warsaw, at('2026-11-23T08:00:00Z'))).toBe(true);
  });

  it('says there is no working time when the week is empty', () => {
    const never: WorkingHours = { ...OFFICE_HOURS, week: Array.from({ length: 7 }, () => []) };
    expect(nextWorkingStart(never, at('2026-11-23T10:00:00Z'))).toBeNull();
    expect(addWorkingTime(never, at('2026-11-23T10:00:00Z'), MIN)).toBeNull();
    expect(isWorkingAt(never, at('2026-11-23T10:00:00Z'))).toBe(false);
  });

  it('validates what a user sends: times, zone, seven days', () => {
    expect(ZWorkingHours.parse({ week: OFFICE_HOURS.week })).toEqual(OFFICE_HOURS);
    const bad = (value: unknown) => ZWorkingHours.safeParse(value).success;
    expect(bad({ ...OFFICE_HOURS, timeZone: 'Europe/Atlantis' })).toBe(false);
    expect(bad({ ...OFFICE_HOURS, week: OFFICE_HOURS.week.slice(1) })).toBe(false);
    expect(bad({ ...OFFICE_HOURS, week: [[{ from: '9:00', to: '18:00' }], ...OFFICE_HOURS.week.slice(1)] })).toBe(
      false,
    );
    expect(bad({ ...OFFICE_HOURS, week: [[{ from: '10:00', to: '10:00' }], ...OFFICE_HOURS.week.slice(1)] })).toBe(
      false,
    );
    expect(bad({ ...OFFICE_HOURS, daysOff: ['25.12.2026'] })).toBe(false);
  });
});
