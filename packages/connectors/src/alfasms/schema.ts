// AlphaSMS as a destination (issue 14): an SMS (or Viber with SMS fallback) to the lead and/or the
// responsible manager on every lead, and the account's SMS log (spec 7 "Other":
// GET /api/legacy/api/admin/sms). The server validates with these and the web builds its forms
// and reads the answers with them. Phone types (mobile or not) are checked by the connector.

import { requiredText, unknownPlaceholders, zMinText } from '@leadrelay/shared';
import { z } from 'zod';

export const SMS_RECIPIENTS = ['lead', 'manager', 'both'] as const;
export type SmsRecipients = (typeof SMS_RECIPIENTS)[number];
/** Longest template and longest rendered text (AlphaSMS splits it into parts; 1000 is about 15 Cyrillic parts). */
export const SMS_TEXT_MAX = 1000;
/** Quiet hours by default: no text to a customer from 21:00 to 09:00 Kyiv time. */
export const DEFAULT_QUIET_HOURS = { enabled: true, from: '21:00', to: '09:00' } as const;
/** Quiet hours are Kyiv time whatever the server's clock says. */
export const SMS_TIME_ZONE = 'Europe/Kyiv';

/** The API key from the AlphaSMS cabinet (Settings → API); write-only in our API. */
export const ZAlphaSmsAuth = z.object({
  apiKey: zMinText(8)
    .trim()
    .max(200, { error: 'MAX_LENGTH_200' })
    .regex(/^[\x21-\x7e]+$/, { error: 'VALIDATION_ERROR' }),
});
export type AlphaSmsAuth = z.infer<typeof ZAlphaSmsAuth>;

/** A registered alpha-name: up to 11 Latin letters, digits and a few marks (operators' rule). */
export const ZAlphaName = z
  .string({ error: (i) => (i.input === undefined ? 'REQUIRED' : 'INVALID_TYPE') })
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9 ._&'-]{0,10}$/, { error: 'SMS_SENDER_INVALID' });

const ZTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'VALIDATION_ERROR' });
const ZTemplate = z
  .string()
  .trim()
  .max(SMS_TEXT_MAX, { error: `MAX_LENGTH_${SMS_TEXT_MAX}` });

export const ZQuietHours = z.object({
  enabled: z.boolean(),
  /** Kyiv time the quiet starts (HH:MM); it may run past midnight (21:00 → 09:00). */
  from: ZTime,
  to: ZTime,
});
export type QuietHours = z.infer<typeof ZQuietHours>;

export const ZAlphaSmsSettings = z
  .object({
    /** The alpha-name the SMS comes from. */
    sender: ZAlphaName,
    recipients: z.enum(SMS_RECIPIENTS).default('lead'),
    /** The text to the lead; {name}, {phone}, {utm_source} … and {custom.key} are filled in. */
    leadTemplate: ZTemplate.optional(),
    /** The text to the manager. */
    managerTemplate: ZTemplate.optional(),
    /** The manager's mobile when the lead's responsible user (distribution) carries no phone. */
    managerPhone: z.string().trim().max(30).optional(),
    /** Viber first, SMS when Viber does not deliver (AlphaSMS "viber+sms"); the account must have a Viber sender. */
    viber: z.boolean().default(false),
    /** The Viber sender's name when it differs from the alpha-name. */
    viberSender: requiredText().trim().max(30).optional(),
    /** Text numbers outside Ukraine too (off: a foreign number is skipped). */
    international: z.boolean().default(false),
    /** Texts to the customer wait out this window (Kyiv time) and go at its end. */
    quietHours: ZQuietHours.default({ ...DEFAULT_QUIET_HOURS }),
  })
  .superRefine((s, ctx) => {
    const toLead = s.recipients !== 'manager';
    const toManager = s.recipients !== 'lead';
    if (toLead && !s.leadTemplate) ctx.addIssue({ code: 'custom', path: ['leadTemplate'], message: 'REQUIRED' });
    if (toManager && !s.managerTemplate) {
      ctx.addIssue({ code: 'custom', path: ['managerTemplate'], message: 'REQUIRED' });
    }
    for (const key of ['leadTemplate', 'managerTemplate'] as const) {
      const unknown = unknownPlaceholders(s[key] ?? '');
      if (unknown.length) ctx.addIssue({ code: 'custom', path: [key], message: 'SMS_PLACEHOLDER_UNKNOWN' });
    }
    if (s.quietHours.enabled && s.quietHours.from === s.quietHours.to) {
      ctx.addIssue({ code: 'custom', path: ['quietHours', 'to'], message: 'VALIDATION_ERROR' });
    }
  });
export type AlphaSmsSettings = z.infer<typeof ZAlphaSmsSettings>;

/** GET /api/alfasms/balance/{id}: the account's money at AlphaSMS. */
export const ZSmsBalance = z.object({ amount: z.number(), currency: z.string() });
export type SmsBalance = z.infer<typeof ZSmsBalance>;

// ---- The SMS log ----

/**
 * A message's state. sent: AlphaSMS took it; then what its status call says: delivered, read
 * (Viber), undelivered (final failure) or expired. Unknown statuses of AlphaSMS keep the last one.
 */
export const SMS_STATUSES = ['sent', 'delivered', 'read', 'undelivered', 'expired'] as const;
export type SmsStatus = (typeof SMS_STATUSES)[number];
export const SMS_FINAL_STATUSES: readonly SmsStatus[] = ['delivered', 'read', 'undelivered', 'expired'];

export const ZSmsListQuery = z
  .object({
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    limit: z.coerce.number().int().min(1).max(100).default(10),
    integrationId: z.uuid({ message: 'VALIDATION_ERROR' }).optional(),
    status: z.enum(SMS_STATUSES, { error: 'VALIDATION_ERROR' }).optional(),
  })
  .strict();
export type SmsListQuery = z.infer<typeof ZSmsListQuery>;

export const ZSmsMessage = z.object({
  _id: z.string(),
  integration: z.object({ _id: z.string(), name: z.string() }),
  hookId: z.string().nullable(),
  leadId: z.string().nullable(),
  /** lead: the customer; manager: the responsible manager. */
  recipient: z.enum(['lead', 'manager']),
  /** 380XXXXXXXXX as AlphaSMS got it. */
  phone: z.string(),
  /** sms, or viber+sms when Viber went first. */
  channel: z.string(),
  text: z.string(),
  msgId: z.string(),
  parts: z.number(),
  status: z.enum(SMS_STATUSES),
  /** What AlphaSMS last called it (DELIVERED, READ …), when it said. */
  providerStatus: z.string().nullable(),
  /** In the account's currency at AlphaSMS, when its answer carries a price. */
  cost: z.number().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SmsMessage = z.infer<typeof ZSmsMessage>;
export const ZSmsList = z.object({ data: z.array(ZSmsMessage), total: z.number() });
export type SmsList = z.infer<typeof ZSmsList>;
