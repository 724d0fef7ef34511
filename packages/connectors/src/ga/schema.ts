// Google Analytics 4 as a destination (issue 14): a Measurement Protocol event per lead. The
// protocol answers 2xx to anything, so its limits are checked here, before sending: the settings
// form, the server's settings check and the connector's last look at the payload all use these.
// Limits: support.google.com/analytics/answer/9267744 (collection limits) and 13316687 (naming
// rules, reserved names); docs/connectors/ga.md says what is confirmed and what is assumed.

import { ZLeadPath, zMinText } from '@leadrelay/shared';
import { z } from 'zod';

export const GA_LIMITS = {
  eventsPerRequest: 25,
  paramsPerEvent: 25,
  nameLength: 40,
  paramValueLength: 100,
  userIdLength: 256,
  bodyBytes: 130_000,
} as const;

/** Parameters the connector sets itself: currency, value, lead_source and the five utm_*. */
export const GA_BUILT_IN_PARAMS = [
  'currency',
  'value',
  'lead_source',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_content',
  'utm_term',
] as const;
/** Mapped parameters an event may carry besides the built-in ones, within the 25 per event. */
export const GA_MAX_CUSTOM_PARAMS = GA_LIMITS.paramsPerEvent - GA_BUILT_IN_PARAMS.length;

/** Web-stream reserved event names (13316687) and the app ones the Measurement Protocol reference lists. */
export const GA_RESERVED_EVENT_NAMES: ReadonlySet<string> = new Set([
  'ad_activeview',
  'ad_click',
  'ad_exposure',
  'ad_impression',
  'ad_query',
  'ad_reward',
  'adunit_exposure',
  'app_background',
  'app_clear_data',
  'app_exception',
  'app_remove',
  'app_store_refund',
  'app_store_subscription_cancel',
  'app_store_subscription_convert',
  'app_store_subscription_renew',
  'app_update',
  'app_upgrade',
  'click',
  'dynamic_link_app_open',
  'dynamic_link_app_update',
  'dynamic_link_first_open',
  'error',
  'file_download',
  'firebase_campaign',
  'firebase_in_app_message_action',
  'firebase_in_app_message_dismiss',
  'firebase_in_app_message_impression',
  'first_open',
  'first_visit',
  'form_start',
  'form_submit',
  'in_app_purchase',
  'notification_dismiss',
  'notification_foreground',
  'notification_open',
  'notification_receive',
  'os_update',
  'page_view',
  'scroll',
  'session_start',
  'session_start_with_rollout',
  'user_engagement',
  'video_progress',
  'video_start',
  'view_complete',
  'view_search_results',
]);
/** Reserved event parameter names (13316687). */
export const GA_RESERVED_PARAM_NAMES: ReadonlySet<string> = new Set([
  'engagement_time_msec',
  'gclid',
  'session_id',
  'session_number',
]);
/** Prefixes no event or parameter name may start with. */
export const GA_RESERVED_PREFIXES = ['_', 'firebase_', 'ga_', 'google_', 'gtag.'] as const;

/**
 * Why a name breaks the rules, or null: GA_NAME_TOO_LONG (over 40), GA_NAME_INVALID (not a letter
 * first then letters, digits and _ — we keep to ASCII), GA_NAME_RESERVED (a reserved name or prefix).
 */
export type GaNameIssue = 'GA_NAME_TOO_LONG' | 'GA_NAME_INVALID' | 'GA_NAME_RESERVED';
export function gaNameIssue(name: string, kind: 'event' | 'param'): GaNameIssue | null {
  if (GA_RESERVED_PREFIXES.some((p) => name.startsWith(p))) return 'GA_NAME_RESERVED';
  if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(name)) return 'GA_NAME_INVALID';
  if (name.length > GA_LIMITS.nameLength) return 'GA_NAME_TOO_LONG';
  const reserved = kind === 'event' ? GA_RESERVED_EVENT_NAMES : GA_RESERVED_PARAM_NAMES;
  return reserved.has(name) ? 'GA_NAME_RESERVED' : null;
}

const ZGaName = (kind: 'event' | 'param') =>
  z
    .string({ error: (i) => (i.input === undefined ? 'REQUIRED' : 'INVALID_TYPE') })
    .trim()
    .superRefine((name, ctx) => {
      const issue = gaNameIssue(name, kind);
      if (issue) ctx.addIssue({ code: 'custom', message: issue });
    });

/** The Measurement Protocol API secret (Admin → Data streams → Measurement Protocol API secrets); write-only. */
export const ZGaAuth = z.object({
  apiSecret: zMinText(8)
    .trim()
    .max(200, { error: 'MAX_LENGTH_200' })
    .regex(/^[\x21-\x7e]+$/, { error: 'VALIDATION_ERROR' }),
});
export type GaAuth = z.infer<typeof ZGaAuth>;

export const GA_REGIONS = ['global', 'eu'] as const;
export const GA_DEFAULT_EVENT = 'generate_lead';
/** The `_ga` cookie's value as a form passes it, in the lead's custom fields. */
export const GA_DEFAULT_CLIENT_ID_FIELD = 'custom._ga';

export const ZGaParamMapping = z.object({ name: ZGaName('param'), from: ZLeadPath });
export type GaParamMapping = z.infer<typeof ZGaParamMapping>;

export const ZGaSettings = z
  .object({
    /** The web stream's measurement id, G-XXXXXXX. */
    measurementId: z
      .string({ error: (i) => (i.input === undefined ? 'REQUIRED' : 'INVALID_TYPE') })
      .trim()
      .regex(/^G-[A-Z0-9]{4,20}$/, { error: 'GA_MEASUREMENT_ID_INVALID' }),
    /** eu: collected in the EU (region1.google-analytics.com). */
    region: z.enum(GA_REGIONS).default('global'),
    eventName: ZGaName('event').default(GA_DEFAULT_EVENT),
    /** The event's value when the lead carries none (valueField). */
    value: z.number().min(0).max(1_000_000_000_000).optional(),
    /** A lead field with the value (e.g. custom.price); a number, commas and spaces allowed. */
    valueField: ZLeadPath.optional(),
    currency: z
      .string()
      .trim()
      .regex(/^[A-Z]{3}$/, { error: 'VALIDATION_ERROR' })
      .default('UAH'),
    /** A lead field with an ISO 4217 currency code that wins over `currency`. */
    currencyField: ZLeadPath.optional(),
    /** Where the `_ga` cookie (or a client id) is in the lead; without one the id is derived from the lead. */
    clientIdField: ZLeadPath.default(GA_DEFAULT_CLIENT_ID_FIELD),
    /** A lead field sent as user_id. */
    userIdField: ZLeadPath.optional(),
    /** Send the lead's UTM as utm_source … utm_term (and utm.source as lead_source). */
    utm: z.boolean().default(true),
    /** More event parameters from lead fields. */
    params: z
      .array(ZGaParamMapping)
      .max(GA_MAX_CUSTOM_PARAMS, { error: `MAX_LENGTH_${GA_MAX_CUSTOM_PARAMS}` })
      .default([]),
  })
  .superRefine((s, ctx) => {
    const seen = new Set<string>();
    s.params.forEach((p, i) => {
      if ((GA_BUILT_IN_PARAMS as readonly string[]).includes(p.name) || seen.has(p.name)) {
        ctx.addIssue({ code: 'custom', path: ['params', i, 'name'], message: 'GA_PARAM_DUPLICATE' });
      }
      seen.add(p.name);
    });
  });
export type GaSettings = z.infer<typeof ZGaSettings>;

// ---- The Measurement Protocol payload and its validation ----

export interface GaEvent {
  name: string;
  params: Record<string, string | number>;
}
export interface GaPayload {
  client_id: string;
  user_id?: string;
  events: GaEvent[];
}

/** One broken limit: a code the web translates and the JSON path of the field. */
export interface GaIssue {
  code: string;
  path: string;
}

/**
 * The limits of the protocol checked on a payload: what Google's collection would drop without a
 * word. Values over 100 characters are not here: the connector cuts them to the limit.
 */
export function gaPayloadIssues(payload: GaPayload): GaIssue[] {
  const issues: GaIssue[] = [];
  if (!payload.client_id) issues.push({ code: 'GA_CLIENT_ID_MISSING', path: 'client_id' });
  if (payload.user_id !== undefined && payload.user_id.length > GA_LIMITS.userIdLength) {
    issues.push({ code: 'GA_USER_ID_TOO_LONG', path: 'user_id' });
  }
  if (payload.events.length > GA_LIMITS.eventsPerRequest) issues.push({ code: 'GA_TOO_MANY_EVENTS', path: 'events' });
  payload.events.forEach((event, i) => {
    const name = gaNameIssue(event.name, 'event');
    if (name) issues.push({ code: name, path: `events[${i}].name` });
    const params = Object.entries(event.params);
    if (params.length > GA_LIMITS.paramsPerEvent) {
      issues.push({ code: 'GA_TOO_MANY_PARAMS', path: `events[${i}].params` });
    }
    for (const [key, value] of params) {
      const issue = (GA_BUILT_IN_PARAMS as readonly string[]).includes(key) ? null : gaNameIssue(key, 'param');
      if (issue) issues.push({ code: issue, path: `events[${i}].params.${key}` });
      if (typeof value === 'string' && value.length > GA_LIMITS.paramValueLength) {
        issues.push({ code: 'GA_VALUE_TOO_LONG', path: `events[${i}].params.${key}` });
      }
    }
  });
  if (new TextEncoder().encode(JSON.stringify(payload)).length > GA_LIMITS.bodyBytes) {
    issues.push({ code: 'GA_BODY_TOO_LARGE', path: '' });
  }
  return issues;
}

// ---- "Send a test lead" (POST /api/ga/debug/{id}) ----

export const ZGaDebugBody = z
  .object({
    /** The lead to build the event from; default a sample lead. */
    lead: z
      .object({
        name: z.string().max(200).optional(),
        phone: z.string().max(50).optional(),
        email: z.string().max(254).optional(),
        utm: z.record(z.string(), z.string().max(500)).optional(),
        custom: z.record(z.string(), z.string().max(1000)).optional(),
      })
      .optional(),
  })
  .strict()
  .nullish();
export type GaDebugBody = z.infer<typeof ZGaDebugBody>;

export const ZGaValidationMessage = z.object({
  fieldPath: z.string(),
  description: z.string(),
  validationCode: z.string(),
});
export const ZGaDebugResult = z.object({
  /** No local issue and no message from Google's validation server. */
  valid: z.boolean(),
  /** Limits our own check found (then nothing was sent to Google). */
  issues: z.array(z.object({ code: z.string(), path: z.string() })),
  /** Google's validation server's answer (VALUE_INVALID, NAME_RESERVED …). */
  validationMessages: z.array(ZGaValidationMessage),
  /** The payload as it would be sent (no secret in it). */
  payload: z.unknown(),
});
export type GaDebugResult = z.infer<typeof ZGaDebugResult>;
