// Working time of a manager (issue 19): weekly hours in the manager's time zone (Europe/Kyiv unless
// set), days off, and arithmetic on it: is this instant working time, when does the next working
// stretch start, and when has N minutes of working time passed (the escalation clock counts
// working time only). Wall times are read in the zone with Luxon, so daylight-saving changes give
// the real length of a shift: a 22:00–06:00 night is 7 hours in Kyiv when the clocks go forward and
// 9 when they go back.
import type { WorkingHours } from '@leadrelay/shared';
import { DateTime } from 'luxon';

// The schema is shared with the web's hours form (packages/shared/src/working-hours.ts).
export {
  DEFAULT_TIME_ZONE,
  OFFICE_HOURS,
  type Shift,
  type WorkingHours,
  ZShift,
  ZWorkingHours,
} from '@leadrelay/shared';

/** How far ahead the arithmetic looks for working time before it says there is none. */
export const WORKING_TIME_HORIZON_DAYS = 366;

interface Stretch {
  start: number;
  end: number;
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** The wall time `minutes` after midnight of `day` (24:00 is the next midnight), as an instant. */
function wallTime(day: DateTime, minutes: number): DateTime {
  const base = minutes >= 24 * 60 ? day.plus({ days: 1 }) : day;
  const m = minutes % (24 * 60);
  return base.set({ hour: Math.floor(m / 60), minute: m % 60, second: 0, millisecond: 0 });
}

/** The shifts that start on one local day, as instants (ms), in the order they start. */
function shiftsOfDay(hours: WorkingHours, day: DateTime, daysOff: ReadonlySet<string>): Stretch[] {
  if (daysOff.has(day.toISODate() ?? '')) return [];
  const shifts = hours.week[day.weekday - 1] ?? [];
  return shifts
    .map((shift) => {
      const from = minutesOf(shift.from);
      const to = minutesOf(shift.to);
      // A wall time the clocks skip (03:30 on the spring change) moves on by the gap (04:30), as calendars do.
      const start = wallTime(day, from);
      const end = wallTime(to <= from ? day.plus({ days: 1 }) : day, to);
      return { start: start.toMillis(), end: end.toMillis() };
    })
    .filter((s) => s.end > s.start)
    .sort((a, b) => a.start - b.start);
}

/**
 * The working stretches that end after `from`, in order, overlapping or touching shifts merged
 * (22:00–24:00 and 00:00–06:00 are one night), up to the horizon.
 */
function* stretchesFrom(hours: WorkingHours, from: number): Generator<Stretch> {
  const daysOff = new Set(hours.daysOff);
  // The day before too: its night shift may still run at `from`.
  let day = DateTime.fromMillis(from, { zone: hours.timeZone }).startOf('day').minus({ days: 1 });
  let pending: Stretch | undefined;
  for (let i = 0; i <= WORKING_TIME_HORIZON_DAYS + 1; i++, day = day.plus({ days: 1 })) {
    for (const s of shiftsOfDay(hours, day, daysOff)) {
      if (s.end <= from) continue;
      if (pending && s.start <= pending.end) {
        pending.end = Math.max(pending.end, s.end);
        continue;
      }
      if (pending) yield pending;
      pending = { ...s };
    }
  }
  if (pending) yield pending;
}

/**
 * The working stretch under way at `at`, or else the next one (instants in ms); null when none is
 * within the horizon. One look serves both "on duty now?" and "when does that change?".
 */
export function stretchAt(hours: WorkingHours, at: Date): { start: number; end: number } | null {
  for (const s of stretchesFrom(hours, at.getTime())) return { start: s.start, end: s.end };
  return null;
}

/** Whether `at` is within the hours. */
export function isWorkingAt(hours: WorkingHours, at: Date): boolean {
  const t = at.getTime();
  for (const s of stretchesFrom(hours, t)) return s.start <= t;
  return false;
}

/** `at` itself when it is working time, otherwise the start of the next stretch; null when none is within the horizon. */
export function nextWorkingStart(hours: WorkingHours, at: Date): Date | null {
  const t = at.getTime();
  for (const s of stretchesFrom(hours, t)) return new Date(Math.max(s.start, t));
  return null;
}

/** The instant at which `ms` of working time has passed since `from`; null when the horizon ends first. */
export function addWorkingTime(hours: WorkingHours, from: Date, ms: number): Date | null {
  const t = from.getTime();
  let left = ms;
  for (const s of stretchesFrom(hours, t)) {
    const start = Math.max(s.start, t);
    if (start + left <= s.end) return new Date(start + left);
    left -= s.end - start;
  }
  return null;
}

/** Working time (ms) between two instants. */
export function workingTimeBetween(hours: WorkingHours, from: Date, to: Date): number {
  const a = from.getTime();
  const b = to.getTime();
  let total = 0;
  for (const s of stretchesFrom(hours, a)) {
    if (s.start >= b) break;
    total += Math.min(s.end, b) - Math.max(s.start, a);
  }
  return total;
}
