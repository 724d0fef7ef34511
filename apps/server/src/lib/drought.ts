// The guardian's drought detector (issue 19 part 4a): has a source been silent much longer than its
// own history says it should be, at this hour of this weekday?
//
// The model is a rate per hour of the week (168 buckets, in the account's time zone, so Monday 10:00
// is Monday 10:00 in summer and in winter), learned from the source's arrivals over the last weeks.
// Over a silence, the leads one would have expected are the rates summed over the silent hours; if
// arrivals are roughly Poisson, the chance of that silence by bad luck is exp(-expected). A quiet
// weekend of a source that never gets leads on weekends expects nothing, so it never alerts.
import { DateTime } from 'luxon';
import { DEFAULT_TIME_ZONE } from './working-time';

const HOUR_MS = 3_600_000;
const WEEK_HOURS = 168;

export interface DroughtOptions {
  timeZone?: string;
  /** Weeks of history the rates are learned from (the history before them is ignored). */
  weeks?: number;
  /** Alert when a silence this long had at most this chance by bad luck (default 1 %). */
  maxChance?: number;
  /** Never alert before this much silence (default 1 hour). */
  minSilenceMs?: number;
  /** Too little to learn from: fewer leads than this in the history (default 20). */
  minLeads?: number;
}

export interface DroughtVerdict {
  alert: boolean;
  /** Why not, when there is no alert for a reason other than the numbers. */
  reason?: 'NOT_ENOUGH_HISTORY' | 'NOT_LONG_ENOUGH';
  silentSince: Date | null;
  silentMs: number;
  /** Leads the history expects during the silence. */
  expected: number;
  /** The chance of the silence by bad luck: exp(-expected). */
  chance: number;
}

/** The hour of the week (0 = Monday 00:00–01:00) of an instant in the zone. */
function hourOfWeek(ms: number, zone: string): number {
  const t = DateTime.fromMillis(ms, { zone });
  return (t.weekday - 1) * 24 + t.hour;
}

/** Leads per hour for each hour of the week, from arrivals in [now - weeks, now). */
export function hourlyRates(arrivals: readonly Date[], now: Date, weeks: number, zone: string): number[] {
  const from = now.getTime() - weeks * WEEK_HOURS * HOUR_MS;
  const counts = new Array<number>(WEEK_HOURS).fill(0);
  for (const a of arrivals) {
    const t = a.getTime();
    if (t >= from && t < now.getTime()) counts[hourOfWeek(t, zone)]! += 1;
  }
  return counts.map((c) => c / weeks);
}

/** Whether the source's silence up to `now` is a drought, from its arrivals (any order). */
export function detectDrought(arrivals: readonly Date[], now: Date, options: DroughtOptions = {}): DroughtVerdict {
  const zone = options.timeZone ?? DEFAULT_TIME_ZONE;
  const weeks = options.weeks ?? 4;
  const nowMs = now.getTime();
  const past = arrivals.map((a) => a.getTime()).filter((t) => t <= nowMs);
  const last = past.length ? new Date(Math.max(...past)) : null;
  const learned = past.filter((t) => t >= nowMs - weeks * WEEK_HOURS * HOUR_MS).length;
  return judgeSilence({ rates: hourlyRates(arrivals, now, weeks, zone), last, learned }, now, options);
}

/** What the detector needs of a source's history: its rates per hour of the week, its last lead, how many leads they were learned from. */
export interface SourceHistory {
  rates: readonly number[];
  last: Date | null;
  learned: number;
}

/**
 * The verdict from a history already summed up (the guardian's task counts per hour of the week in
 * SQL instead of reading every arrival).
 */
export function judgeSilence(history: SourceHistory, now: Date, options: DroughtOptions = {}): DroughtVerdict {
  const zone = options.timeZone ?? DEFAULT_TIME_ZONE;
  const maxChance = options.maxChance ?? 0.01;
  const minSilenceMs = options.minSilenceMs ?? HOUR_MS;
  const minLeads = options.minLeads ?? 20;
  const nowMs = now.getTime();
  const last = history.last ? history.last.getTime() : null;
  const silentMs = last === null ? 0 : Math.max(0, nowMs - last);
  const verdict = (expected: number, reason?: DroughtVerdict['reason']): DroughtVerdict => {
    const chance = Math.exp(-expected);
    return {
      alert: !reason && chance <= maxChance,
      ...(reason ? { reason } : {}),
      silentSince: last === null ? null : new Date(last),
      silentMs,
      expected,
      chance,
    };
  };
  if (last === null || history.learned < minLeads) return verdict(0, 'NOT_ENOUGH_HISTORY');
  // Expected arrivals over the silence: each hour's rate times the part of that hour in the silence.
  let expected = 0;
  for (let t = last; t < nowMs; ) {
    const hourEnd = DateTime.fromMillis(t, { zone }).startOf('hour').plus({ hours: 1 }).toMillis();
    const end = Math.min(hourEnd, nowMs);
    expected += (history.rates[hourOfWeek(t, zone)] ?? 0) * ((end - t) / HOUR_MS);
    t = end;
    // A silence of months adds nothing new past a certain point: the verdict is long settled.
    if (expected > 50) break;
  }
  return verdict(expected, silentMs < minSilenceMs ? 'NOT_LONG_ENOUGH' : undefined);
}
