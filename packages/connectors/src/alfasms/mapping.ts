// Pure: what the AlphaSMS destination sends, to whom and when. Phones are read with libphonenumber's
// full metadata (number types: a landline cannot take an SMS); quiet hours are Kyiv time through
// Intl, so the server's own time zone never matters; AlphaSMS's error texts become codes.

import { createHash } from 'node:crypto';
import { countSms, type Lead, normalizePhone, renderSmsTemplate } from '@leadrelay/shared';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { type AlphaSmsSettings, type QuietHours, SMS_TEXT_MAX, SMS_TIME_ZONE, type SmsStatus } from './schema';

// ---- Phones ----

/** Why a number gets no SMS: a code the web translates. */
export type PhoneSkip = 'SMS_NO_PHONE' | 'SMS_PHONE_INVALID' | 'SMS_PHONE_NOT_MOBILE' | 'SMS_PHONE_FOREIGN';
export type PhoneCheck = { ok: true; phone: string } | { ok: false; reason: PhoneSkip };

/**
 * The number as AlphaSMS takes it (digits, 380XXXXXXXXX for Ukraine), or why it gets no SMS:
 * none, not a phone number, not a mobile (a landline, a free-phone), or abroad while
 * `international` is off. Ukrainian shortcuts (0XX…, 380…) are read as the lead mapping reads them.
 */
export function smsPhone(raw: string | undefined, international = false): PhoneCheck {
  if (!raw?.trim()) return { ok: false, reason: 'SMS_NO_PHONE' };
  const e164 = normalizePhone(raw);
  const parsed = e164 ? parsePhoneNumberFromString(e164, 'UA') : undefined;
  if (!parsed?.isValid()) return { ok: false, reason: 'SMS_PHONE_INVALID' };
  if (!international && parsed.country !== 'UA') return { ok: false, reason: 'SMS_PHONE_FOREIGN' };
  const type = parsed.getType();
  if (type !== 'MOBILE' && type !== 'FIXED_LINE_OR_MOBILE') return { ok: false, reason: 'SMS_PHONE_NOT_MOBILE' };
  return { ok: true, phone: parsed.number.slice(1) };
}

// ---- Quiet hours (Kyiv time) ----

const kyivClock = new Intl.DateTimeFormat('en-GB', {
  timeZone: SMS_TIME_ZONE,
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** Minutes since midnight in Kyiv at `at`. */
export function kyivMinutes(at: Date): number {
  const parts = kyivClock.formatToParts(at);
  const hour = Number(parts.find((p) => p.type === 'hour')?.value);
  const minute = Number(parts.find((p) => p.type === 'minute')?.value);
  return hour * 60 + minute;
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** True when `minute` (of a Kyiv day) is inside the window; a window may run past midnight. */
function isQuiet(minute: number, from: number, to: number): boolean {
  return from < to ? minute >= from && minute < to : minute >= from || minute < to;
}

/**
 * When the quiet hours around `now` end (the first minute texts may go), or null outside them or
 * when they are off. The end is found on Kyiv's own clock, so a change to or from summer time
 * inside the night still lands on the hour set.
 */
export function quietUntil(now: Date, quiet: QuietHours): Date | null {
  if (!quiet.enabled) return null;
  const from = minutesOf(quiet.from);
  const to = minutesOf(quiet.to);
  if (from === to || !isQuiet(kyivMinutes(now), from, to)) return null;
  const startOfMinute = now.getTime() - (now.getTime() % 60_000);
  const wait = (to - kyivMinutes(now) + 1440) % 1440;
  let until = startOfMinute + wait * 60_000;
  // An hour gained or lost in between: move by what Kyiv's clock says is still missing.
  const drift = ((to - kyivMinutes(new Date(until)) + 2160) % 1440) - 720;
  until += drift * 60_000;
  return new Date(until);
}

// ---- Messages ----

export type Recipient = 'lead' | 'manager';

export interface PlannedMessage {
  recipient: Recipient;
  phone: string;
  text: string;
  /** Our id for AlphaSMS's `id` field: the same on every retry of this delivery and recipient. */
  id: number;
  parts: number;
}

export interface Plan {
  messages: PlannedMessage[];
  /** Why a recipient got nothing, first one first (the delivery's note). */
  skipped: { recipient: Recipient; reason: string; detail?: string }[];
}

/** A positive integer below 2^53 from the delivery's key and the recipient: AlphaSMS's `id` for it. */
export function messageId(idempotencyKey: string, recipient: Recipient): number {
  const digest = createHash('sha256').update(`${idempotencyKey}|${recipient}`).digest();
  return Number(digest.readBigUInt64BE(0) % 9_007_199_254_740_991n) + 1;
}

/** The text of a template for a lead, cut to SMS_TEXT_MAX (a long comment must not make 40 parts). */
export function smsText(template: string, lead: Lead): string {
  return renderSmsTemplate(template, lead).slice(0, SMS_TEXT_MAX);
}

/**
 * Who gets what for one lead. The manager is the lead's responsible user from distribution when
 * that user's value is a mobile number, else the integration's manager phone.
 */
export function planMessages(
  settings: AlphaSmsSettings,
  lead: Lead,
  idempotencyKey: string,
  assigneePhone?: string,
): Plan {
  const plan: Plan = { messages: [], skipped: [] };
  const add = (recipient: Recipient, template: string | undefined, check: PhoneCheck, source?: string) => {
    if (!check.ok) {
      plan.skipped.push({
        recipient,
        reason: recipient === 'manager' ? `SMS_MANAGER_${check.reason.slice(4)}` : check.reason,
        detail: source?.trim() || undefined,
      });
      return;
    }
    const text = smsText(template ?? '', lead);
    if (!text) {
      plan.skipped.push({ recipient, reason: 'SMS_TEXT_EMPTY' });
      return;
    }
    plan.messages.push({
      recipient,
      phone: check.phone,
      text,
      id: messageId(idempotencyKey, recipient),
      parts: countSms(text).parts,
    });
  };
  if (settings.recipients !== 'manager') {
    add('lead', settings.leadTemplate, smsPhone(lead.phone, settings.international), lead.phone);
  }
  if (settings.recipients !== 'lead') {
    const fromAssignee = assigneePhone ? smsPhone(assigneePhone, true) : undefined;
    const manager = fromAssignee?.ok ? fromAssignee : smsPhone(settings.managerPhone, true);
    add('manager', settings.managerTemplate, manager, fromAssignee?.ok ? assigneePhone : settings.managerPhone);
  }
  return plan;
}

/** One `data` item of AlphaSMS's JSON API for a message: sms, or viber+sms (Viber first, SMS if it is not delivered). */
export function toItem(message: PlannedMessage, settings: AlphaSmsSettings): Record<string, unknown> {
  const sms = {
    id: message.id,
    phone: Number(message.phone),
    sms_signature: settings.sender,
    sms_message: message.text,
  };
  if (!settings.viber) return { type: 'sms', ...sms };
  return {
    type: 'viber+sms',
    ...sms,
    viber_type: 'text',
    viber_signature: settings.viberSender ?? settings.sender,
    viber_message: message.text,
  };
}

// ---- AlphaSMS's errors ----

/**
 * What an error text of AlphaSMS means for the delivery. auth: the key is refused (the integration
 * is broken until reconnected); configuration: the alpha-name, Viber sender or balance (broken until
 * fixed); phone: this number is refused (skipped); transient: anything else (tried again later).
 * Only "Access denied" and "Error in Alpha-name" are in AlphaSMS's docs; the other texts are matched
 * loosely (docs/connectors/alphasms.md).
 */
export type AlphaErrorKind = 'auth' | 'configuration' | 'phone' | 'transient';
export function alphaError(text: string | undefined): { code: string; kind: AlphaErrorKind } {
  const t = (text ?? '').toLowerCase();
  if (/access denied|auth|api key|forbidden/.test(t)) return { code: 'ALPHASMS_ACCESS_DENIED', kind: 'auth' };
  if (/viber/.test(t)) return { code: 'ALPHASMS_VIBER_SENDER_INVALID', kind: 'configuration' };
  if (/alpha-?name|signature|sender/.test(t)) return { code: 'ALPHASMS_SENDER_INVALID', kind: 'configuration' };
  if (/balance|funds|money|credit/.test(t)) return { code: 'ALPHASMS_LOW_BALANCE', kind: 'configuration' };
  if (/phone|number|recipient|destination/.test(t)) return { code: 'ALPHASMS_PHONE_REJECTED', kind: 'phone' };
  return { code: 'ALPHASMS_ERROR', kind: 'transient' };
}

/** A delivery note: the code, and the number or text it is about. */
export const noteOf = (reason: string, detail?: string) => (detail ? `${reason}: ${detail}` : reason);

/**
 * Our status for AlphaSMS's word for a message (upper case), or undefined for one that means "still
 * on its way" or that we do not know (the last status stays). The words are from public clients of
 * the API, not its docs (docs/connectors/alphasms.md).
 */
export function smsStatusOf(providerStatus: string | undefined): SmsStatus | undefined {
  switch (providerStatus?.toUpperCase().replace(/_/g, ' ')) {
    case 'DELIVERED':
    case 'PARTIALLY DELIVERED':
      return 'delivered';
    case 'READ':
    case 'REPLIED':
      return 'read';
    case 'EXPIRED':
      return 'expired';
    case 'UNDELIVERABLE':
    case 'UNDELIVERED':
    case 'REJECTED':
    case 'FAILED':
    case 'DELETED':
    case 'NO ROUTE':
    case 'SIM FULL':
    case 'INVALID DESTINATION ADDRESS':
    case 'INVALID SOURCE ADDRESS':
      return 'undelivered';
    default:
      return undefined;
  }
}
