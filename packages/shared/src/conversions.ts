// CRM stages back to the ad platform as conversion events (issue 33, Meta's Conversions API): the
// settings of a source integration whose connector declares conversions, the datasets it can send
// to, each event as the lead's log shows it, and the dashboard's count. The same schemas validate
// the server's routes and the web's screen.
import { z } from 'zod';

/** The mapping key that applies to every CRM pipeline (a pipeline's own entry wins). */
export const CONVERSION_ANY_PIPELINE = '*';
/** The stage key of the first event, sent when the lead is first delivered. */
export const CONVERSION_INITIAL_STAGE = 'lead';
/** Its event name unless the mapping says otherwise. */
export const CONVERSION_INITIAL_EVENT = 'Lead';
export const CONVERSION_STATES = ['pending', 'sent', 'failed'] as const;
export type ConversionState = (typeof CONVERSION_STATES)[number];

// A key is a CRM's id as text (digits, "C1:NEW", "won") or "*": never one that could be an object's
// own machinery (`__proto__`): the server reads the mapping with Object.hasOwn only.
const KEY = /^(\*|[A-Za-z0-9][A-Za-z0-9_:.-]{0,63})$/;
const ZKey = z.string().regex(KEY, { error: 'VALIDATION_ERROR' });
/** An event name as Meta takes it: printable, at most 100 characters; null: this stage sends nothing. */
const ZEventName = z
  .string()
  .trim()
  .min(1, { error: 'REQUIRED' })
  .max(100, { error: 'VALIDATION_ERROR' })
  .regex(/^[^\p{Cc}\u2028\u2029]+$/u, { error: 'INVALID_CHARACTERS' })
  .nullable();

/** { <pipeline id or '*'>: { <stage id or 'lead'>: <event name | null> } } */
export const ZConversionEvents = z
  .record(ZKey, z.record(ZKey, ZEventName))
  .refine((m) => Object.keys(m).length <= 50, { error: 'VALIDATION_ERROR' })
  .refine((m) => Object.values(m).every((stages) => Object.keys(stages).length <= 200), {
    error: 'VALIDATION_ERROR',
  });
export type ConversionEvents = z.infer<typeof ZConversionEvents>;

/** A dataset (pixel) id: digits. */
const ZDatasetId = z.string().regex(/^\d{1,20}$/, { error: 'VALIDATION_ERROR' });

/** PUT /api/integrations/{id}/capi. */
export const ZConversionSettingsBody = z
  .object({
    enabled: z.boolean({ error: 'INVALID_TYPE' }),
    datasetId: ZDatasetId.nullable(),
    events: ZConversionEvents.default({}),
  })
  .strict();
export type ConversionSettingsBody = z.infer<typeof ZConversionSettingsBody>;

/** GET/PUT /api/integrations/{id}/capi. */
export interface ConversionSettings {
  enabled: boolean;
  datasetId: string | null;
  events: ConversionEvents;
  /** Sending waits for this reason (a lost permission, the dataset gone) until it is fixed; null: it does not. */
  heldReason: string | null;
}

export interface ConversionDataset {
  id: string;
  name: string;
  adAccounts: { id: string; name: string }[];
}

/** One conversion event of a lead, as its log shows it. */
export interface ConversionView {
  /** 'lead' (the initial event) or the CRM's stage id. */
  stage: string;
  stageName: string | null;
  pipelineId: string | null;
  eventName: string;
  state: ConversionState;
  attempts: number;
  nextAttemptAt: string | null;
  sentAt: string | null;
  /** Meta's answer to the request that carried it. */
  answer: { eventsReceived: number; fbtraceId: string | null; messages: string[] } | null;
  /** The reason code of a failure or of the last retry. */
  error: string | null;
  createdAt: string;
}

/** GET /api/conversions/statistic?days=N: events sent per day (the account's time zone), newest first. */
export const ZConversionStatisticQuery = z.object({
  days: z.coerce.number({ error: 'INTEGER' }).int({ error: 'INTEGER' }).min(1).max(366).default(30),
});
export interface ConversionStatistic {
  sent: number;
  pending: number;
  failed: number;
  days: { day: string; sent: number }[];
}
