// A manager's working hours and the "away" switch (issue 19 part 3, docs/adr/010-manager-bot.md):
// one schema for the server (working-time arithmetic, collection items) and the web's hours form.
// Zod only: no Luxon, so the web can validate with it (the zone is checked with Intl).
import { z } from 'zod';
import { calendarDate } from './validation';

export const DEFAULT_TIME_ZONE = 'Europe/Kyiv';

const HHMM = /^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/;

/** Whether the runtime knows the IANA time zone (Node and browsers both ship the full database). */
export function isValidTimeZone(zone: string): boolean {
  if (!zone || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** An IANA time zone name the runtime knows (an account's zone, a manager's hours). */
export const ZTimeZone = z
  .string({ error: 'INVALID_TYPE' })
  .refine((zone) => isValidTimeZone(zone), { message: 'INVALID_TIME_ZONE' });

/** One shift in wall time; an end not after the start runs past midnight (22:00–06:00). */
export const ZShift = z
  .object({
    from: z.string({ error: 'INVALID_TIME' }).regex(HHMM, { error: 'INVALID_TIME' }),
    to: z.string({ error: 'INVALID_TIME' }).regex(HHMM, { error: 'INVALID_TIME' }),
  })
  .strict()
  .refine((s) => s.from !== s.to, { message: 'EMPTY_SHIFT', path: ['to'] });
export type Shift = z.infer<typeof ZShift>;

/**
 * A manager's working hours. `week[0]` is Monday … `week[6]` Sunday, each a list of shifts in wall
 * time; `daysOff` are local dates (YYYY-MM-DD) on which no shift starts.
 */
export const ZWorkingHours = z
  .object({
    timeZone: z
      .string()
      .default(DEFAULT_TIME_ZONE)
      .refine((zone) => isValidTimeZone(zone), { message: 'INVALID_TIME_ZONE' }),
    week: z.array(z.array(ZShift).max(6, { error: 'VALIDATION_ERROR' })).length(7, { error: 'VALIDATION_ERROR' }),
    daysOff: z.array(calendarDate('INVALID_DATE')).max(400, { error: 'VALIDATION_ERROR' }).default([]),
  })
  .strict();
export type WorkingHours = z.infer<typeof ZWorkingHours>;
/** What a client sends (the zone and days off may be left out). */
export type WorkingHoursInput = z.input<typeof ZWorkingHours>;

/** Monday to Friday, 09:00–18:00 in Kyiv: what the hours form starts with. */
export const OFFICE_HOURS: WorkingHours = {
  timeZone: DEFAULT_TIME_ZONE,
  week: [0, 1, 2, 3, 4].map(() => [{ from: '09:00', to: '18:00' }]).concat([[], []]),
  daysOff: [],
};

export const WHEN_NOBODY = ['wait', 'fallback'] as const;
export type WhenNobody = (typeof WHEN_NOBODY)[number];

/** Minutes a manager may have a lead before it passes on: at most a working week. */
export const ESCALATE_AFTER_MAX_MINUTES = 7 * 24 * 60;

/**
 * A source's routing policy (its options' `routing` key): when nobody in the distribution is on
 * duty the lead waits for the first who comes on, or goes to the fallback item; a lead nobody took
 * within `escalateAfterMinutes` of working time passes to the next manager (null: never).
 * Without it: wait, and no escalation.
 */
export const ZRoutingPolicy = z
  .object({
    whenNobody: z.enum(WHEN_NOBODY, { error: 'VALIDATION_ERROR' }).default('wait'),
    fallbackItemId: z.string().max(64).nullable().optional(),
    escalateAfterMinutes: z
      .number({ error: 'INVALID_TYPE' })
      .int({ error: 'INTEGER' })
      .min(1, { error: 'VALIDATION_ERROR' })
      .max(ESCALATE_AFTER_MAX_MINUTES, { error: 'VALIDATION_ERROR' })
      .nullable()
      .default(null),
  })
  .strict()
  .refine((p) => p.whenNobody !== 'fallback' || !!p.fallbackItemId, {
    message: 'FALLBACK_ITEM_REQUIRED',
    path: ['fallbackItemId'],
  });
export type RoutingPolicy = z.infer<typeof ZRoutingPolicy>;
export const DEFAULT_ROUTING_POLICY: RoutingPolicy = { whenNobody: 'wait', escalateAfterMinutes: null };

/** The away switch on its own (the quick toggle from the web and the bot). */
export const ZAwayBody = z.object({ away: z.boolean({ error: 'INVALID_TYPE' }) }).strict();
