// The AlphaSMS destination: on every lead an SMS (or Viber with SMS fallback) to the lead and/or the
// responsible manager, from the integration's templates. A number that is not a mobile is skipped
// with the reason as the delivery's note; texts to the customer in quiet hours wait (DeferredError)
// for their end; AlphaSMS's errors inside HTTP 200 become codes: a refused key or alpha-name or an
// empty balance mark the integration broken, anything unknown is tried again.

import { z } from 'zod';
import { defineConnector } from '../kit/define-connector';
import { DeferredError, PermanentError, RetryableError } from '../kit/errors';
import { type AlphaContext, balance, call, numberOf, statuses } from './client';
import { codes } from './codes';
import { alphaError, noteOf, planMessages, quietUntil, smsPhone, toItem } from './mapping';
import { type SentSms, smsAliases, smsRecords } from './records';
import {
  type AlphaSmsAuth,
  type AlphaSmsSettings,
  DEFAULT_QUIET_HOURS,
  ZAlphaSmsAuth,
  ZAlphaSmsSettings,
} from './schema';

export { ALPHASMS_API_URL, type AlphaContext, type MessageStatus } from './client';
export { messageId, quietUntil, smsPhone, smsStatusOf } from './mapping';
export type { SentSms } from './records';

const ZChecked = ZAlphaSmsSettings.superRefine((s, ctx) => {
  if (s.managerPhone && !smsPhone(s.managerPhone, true).ok) {
    ctx.addIssue({ code: 'custom', path: ['managerPhone'], message: 'SMS_PHONE_NOT_MOBILE' });
  }
});

/** Settings never saved: the key can be checked and the balance read, nothing can be sent yet. */
export type UnsetSettings = Record<string, never>;
export type AlphaSmsStoredSettings = AlphaSmsSettings | UnsetSettings;
const isSet = (s: AlphaSmsStoredSettings): s is AlphaSmsSettings => 'sender' in s;

/**
 * The settings as the server checks them: the shared form's rules and a manager phone that is a
 * mobile — or none at all yet (a new integration whose key is saved before its messages), so the
 * connection check and the balance work from the first step.
 */
export const ZAlphaSmsConnectorSettings = z.unknown().transform((value, ctx): AlphaSmsStoredSettings => {
  if (value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0) return {};
  const parsed = ZChecked.safeParse(value);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  return z.NEVER;
});

export const alfasms = defineConnector<AlphaSmsAuth, AlphaSmsStoredSettings>({
  slug: 'alfasms',
  kind: 'destination',
  codes,
  // EMULATORS=true (demo installs, end-to-end tests): its emulator, loaded only then.
  demo: () => import('./demo').then((m) => m.startDemo()),
  connectAuth: 'manual',
  auth: ZAlphaSmsAuth,
  settings: ZAlphaSmsConnectorSettings,
  config: { ALFASMS_API_URL: { type: 'url', default: 'https://alphasms.ua' } },
  baseUrl: (cfg) => cfg.ALFASMS_API_URL as string | undefined,
  loaders: { balance: (ctx) => balance(ctx as AlphaContext) },
  records: { sms: smsRecords() },
  aliases: smsAliases,
  // The key is accepted when the balance answers.
  async testConnection(ctx) {
    await balance(ctx as AlphaContext);
  },
  async deliver(ctx, input) {
    const settings = ctx.settings;
    // Coded: the web says "set up the integration"; the integration is marked broken until it is.
    if (!isSet(settings)) throw new PermanentError('INTEGRATION_SETTINGS_INVALID', { code: 'CONFIGURATION' });
    const toCustomer = settings.recipients !== 'manager';
    const until = toCustomer ? quietUntil(new Date(), settings.quietHours ?? DEFAULT_QUIET_HOURS) : null;
    if (until) throw new DeferredError('SMS_QUIET_HOURS', { until, code: 'SMS_QUIET_HOURS' });

    const plan = planMessages(settings, input.lead, input.idempotencyKey, input.assignee?.id);
    const skipped = plan.skipped.map((s) => noteOf(s.reason, s.detail));
    if (!plan.messages.length) return { note: skipped[0] };

    const channel = settings.viber ? 'viber+sms' : 'sms';
    const { items, trace } = await call(
      ctx as AlphaContext,
      plan.messages.map((m) => toItem(m, settings)),
    );
    const sent: SentSms[] = [];
    const refused: { code: string; kind: string; text?: string }[] = [];
    plan.messages.forEach((m, i) => {
      const item = items[i];
      const msgId = item?.data?.msg_id;
      if (item?.success && (typeof msgId === 'number' || typeof msgId === 'string')) {
        const cost = numberOf(item.data?.price ?? item.data?.cost);
        sent.push({
          recipient: m.recipient,
          phone: m.phone,
          channel,
          text: m.text,
          msgId: String(msgId),
          parts: numberOf(item.data?.parts) ?? m.parts,
          ...(cost !== undefined ? { cost } : {}),
        });
        return;
      }
      refused.push({ ...alphaError(item?.error), text: item?.error });
      // A refused number is this recipient's skip; the rest are the delivery's failure (below).
      if (alphaError(item?.error).kind === 'phone') skipped.push(noteOf('ALPHASMS_PHONE_REJECTED', m.phone));
    });

    if (!sent.length) {
      const worst =
        refused.find((r) => r.kind === 'auth') ??
        refused.find((r) => r.kind === 'configuration') ??
        refused.find((r) => r.kind === 'transient');
      if (worst?.kind === 'auth') throw new PermanentError(worst.code, { ...trace, httpStatus: 200, code: 'AUTH' });
      if (worst?.kind === 'configuration') {
        throw new PermanentError(worst.code, { ...trace, httpStatus: 200, code: 'CONFIGURATION' });
      }
      if (worst) {
        const detail = worst.text ? `: ${worst.text.slice(0, 200)}` : '';
        throw new RetryableError(`${worst.code}${detail}`, { ...trace, httpStatus: 200, code: worst.code });
      }
      // Every number was refused: nothing to send, like a landline.
      return { ...trace, note: skipped[0] };
    }
    // What went out is not sent again: a recipient refused now is this delivery's note.
    const failedToo = refused.find((r) => r.kind !== 'phone');
    const note = skipped[0] ?? (failedToo ? noteOf(failedToo.code) : undefined);
    return {
      ...trace,
      externalId: sent.map((s) => s.msgId).join(','),
      records: sent,
      ...(note ? { note } : {}),
    };
  },
});

export { balance as alphaSmsBalance, statuses as alphaSmsStatuses, ZAlphaSmsAuth };
