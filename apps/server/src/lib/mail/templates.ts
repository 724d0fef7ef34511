// Every mail the product sends, in the recipient's language: what it says (keys of the catalogue
// in locales/, with their parameters) and where its one button leads. The layout draws the rest.
import type { ConnectionMailWords } from '@leadrelay/connectors';
import {
  formatDays,
  HELD_DROP_NOTICE_DAYS,
  HELD_RETENTION_DAYS,
  type HoldReason,
  type Locale,
} from '@leadrelay/shared';
import { fillText, t, tn } from './i18n';
import { mailReason } from './reasons';
import { type MailContext, renderMail, type Template } from './render';

export type { MailContext, Template } from './render';

const intlLocale = (lang: Locale) => (lang === 'en' ? 'en-GB' : 'uk-UA');

/** A date and time in UTC, spelled for the language (the account has no time zone). */
const utcTime = (lang: Locale, date: Date) =>
  `${new Intl.DateTimeFormat(intlLocale(lang), { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(date)} UTC`;

/** A day in UTC, spelled for the language. */
const utcDay = (lang: Locale, date: Date) =>
  new Intl.DateTimeFormat(intlLocale(lang), { dateStyle: 'long', timeZone: 'UTC' }).format(date);

/** A calendar day written YYYY-MM-DD (a plan's paid-until date), spelled for the language. */
const calendarDay = (lang: Locale, day: string) => utcDay(lang, new Date(`${day}T00:00:00Z`));

export function confirmEmailMail(ctx: MailContext, link: string): Promise<Template> {
  const { lang } = ctx;
  return renderMail(ctx, {
    subject: t(lang, 'confirm.subject'),
    preview: t(lang, 'confirm.preview'),
    heading: t(lang, 'confirm.heading'),
    paragraphs: [t(lang, 'confirm.body')],
    action: { label: t(lang, 'confirm.action'), url: link },
    why: t(lang, 'confirm.why'),
  });
}

/** The user asked for it on the sign-in page. */
export function resetPasswordMail(ctx: MailContext, link: string): Promise<Template> {
  const { lang } = ctx;
  return renderMail(ctx, {
    subject: t(lang, 'reset.subject'),
    preview: t(lang, 'reset.preview'),
    heading: t(lang, 'reset.heading'),
    paragraphs: [t(lang, 'reset.body')],
    action: { label: t(lang, 'reset.action'), url: link },
    why: t(lang, 'reset.why'),
  });
}

/** An operator sent it from the accounts screen (the operator never learns the password). */
export function operatorResetPasswordMail(ctx: MailContext, link: string): Promise<Template> {
  const { lang } = ctx;
  return renderMail(ctx, {
    subject: t(lang, 'operatorReset.subject'),
    preview: t(lang, 'operatorReset.preview'),
    heading: t(lang, 'operatorReset.heading'),
    paragraphs: [t(lang, 'operatorReset.body'), t(lang, 'operatorReset.keep')],
    action: { label: t(lang, 'operatorReset.action'), url: link },
    why: t(lang, 'operatorReset.why'),
  });
}

export interface IntegrationAlert {
  /** The integration's name as the user gave it. */
  name: string;
  /** Why it is broken: the stored reason (a code); the mail tells it in the reader's language. */
  reason: string;
  /** When deliveries are tried again; null when the user must reconnect first. */
  retryAt: Date | null;
  link: string;
}

export function integrationBrokenMail(ctx: MailContext, alert: IntegrationAlert): Promise<Template> {
  const { lang } = ctx;
  const { name } = alert;
  return renderMail(ctx, {
    subject: t(lang, 'broken.subject', { name }),
    preview: t(lang, 'broken.preview', { name }),
    heading: t(lang, 'broken.heading', { name }),
    paragraphs: [
      t(lang, 'broken.body', { name }),
      alert.retryAt ? t(lang, 'broken.retry', { time: utcTime(lang, alert.retryAt) }) : t(lang, 'broken.reconnect'),
      t(lang, 'broken.later'),
    ],
    detail: mailReason(lang, alert.reason),
    action: { label: t(lang, 'broken.action'), url: alert.link },
    why: t(lang, 'broken.why'),
  });
}

export function integrationRecoveredMail(ctx: MailContext, name: string, link: string): Promise<Template> {
  const { lang } = ctx;
  return renderMail(ctx, {
    subject: t(lang, 'recovered.subject', { name }),
    preview: t(lang, 'recovered.preview', { name }),
    heading: t(lang, 'recovered.heading', { name }),
    paragraphs: [t(lang, 'recovered.body', { name })],
    action: { label: t(lang, 'recovered.action'), url: link },
    why: t(lang, 'recovered.why'),
  });
}

/**
 * An account connection whose token or permissions its service refused (once per outage), in the
 * connector's words (its connections' `mail`, by language).
 */
export function connectionBrokenMail(
  ctx: MailContext,
  words: Readonly<Record<Locale, ConnectionMailWords>>,
  alert: { name: string; reason: string; link: string },
): Promise<Template> {
  const { lang } = ctx;
  const { name } = alert;
  const broken = words[lang].broken;
  // The connector's sentences may use the connection's {name}, or not.
  const w = (key: keyof typeof broken) => fillText(broken[key], { name }, `connection.broken.${key}`);
  return renderMail(ctx, {
    subject: w('subject'),
    preview: w('preview'),
    heading: w('heading'),
    paragraphs: [w('body'), w('wait')],
    detail: mailReason(lang, alert.reason),
    action: { label: w('action'), url: alert.link },
    why: w('why'),
  });
}

/** Once per hold: the account's leads have started to be held. */
export function leadsHeldMail(ctx: MailContext, reason: HoldReason, link: string): Promise<Template> {
  const { lang } = ctx;
  const expired = reason === 'plan_expired';
  return renderMail(ctx, {
    subject: t(lang, 'held.subject'),
    preview: t(lang, 'held.preview'),
    heading: t(lang, 'held.heading'),
    paragraphs: [
      t(lang, expired ? 'held.causeExpired' : 'held.causeLimit'),
      t(lang, expired ? 'held.releaseExpired' : 'held.releaseLimit'),
      t(lang, 'held.kept', { days: formatDays(HELD_RETENTION_DAYS, lang) }),
    ],
    action: { label: t(lang, 'held.action'), url: link },
    why: t(lang, 'held.why'),
  });
}

/** A week ahead: how many held leads are given up (never delivered) and when. */
export function heldLeadsDropMail(
  ctx: MailContext,
  notice: { reason: HoldReason; count: number; dropAt: Date; link: string },
): Promise<Template> {
  const { lang } = ctx;
  const { count } = notice;
  const expired = notice.reason === 'plan_expired';
  const day = utcDay(lang, notice.dropAt);
  const days = formatDays(HELD_RETENTION_DAYS - HELD_DROP_NOTICE_DAYS, lang);
  return renderMail(ctx, {
    subject: tn(lang, 'drop.subject', count, { day }),
    preview: t(lang, 'drop.preview'),
    heading: t(lang, 'drop.heading'),
    paragraphs: [
      t(lang, expired ? 'held.causeExpired' : 'held.causeLimit'),
      tn(lang, 'drop.body', count, { day, days }),
      tn(lang, expired ? 'drop.payExpired' : 'drop.payLimit', count),
    ],
    action: { label: t(lang, 'drop.action'), url: notice.link },
    why: t(lang, 'drop.why'),
  });
}

/** The saved card paid the renewal. `paidUntil`: YYYY-MM-DD. */
export function renewalPaidMail(ctx: MailContext, plan: string, paidUntil: string, link: string): Promise<Template> {
  const { lang } = ctx;
  const date = calendarDay(lang, paidUntil);
  return renderMail(ctx, {
    subject: t(lang, 'renewalPaid.subject'),
    preview: t(lang, 'renewalPaid.preview', { plan, date }),
    heading: t(lang, 'renewalPaid.heading'),
    paragraphs: [t(lang, 'renewalPaid.body', { plan }), t(lang, 'renewalPaid.until', { date })],
    action: { label: t(lang, 'renewalPaid.action'), url: link },
    why: t(lang, 'renewalPaid.why'),
  });
}

/** The bank declined the renewal. Dates YYYY-MM-DD; `nextTry` null when renewals stopped. */
export function renewalFailedMail(
  ctx: MailContext,
  renewal: { plan: string; expDate: string | null; nextTry: string | null; link: string },
): Promise<Template> {
  const { lang } = ctx;
  const { plan, expDate, nextTry } = renewal;
  return renderMail(ctx, {
    subject: t(lang, 'renewalFailed.subject'),
    preview: t(lang, 'renewalFailed.preview', { plan }),
    heading: t(lang, 'renewalFailed.heading'),
    paragraphs: [
      t(lang, 'renewalFailed.body', { plan }),
      ...(expDate ? [t(lang, 'renewalFailed.paidUntil', { date: calendarDay(lang, expDate) })] : []),
      nextTry ? t(lang, 'renewalFailed.retry', { date: calendarDay(lang, nextTry) }) : t(lang, 'renewalFailed.stopped'),
    ],
    action: { label: t(lang, 'renewalFailed.action'), url: renewal.link },
    why: t(lang, 'renewalFailed.why'),
  });
}

/** One lead passed on by escalation (issue 19), as the owner's mail lists it. */
export interface EscalationPass {
  /** The lead's name (or phone); empty when it has neither. */
  lead: string;
  /** The source integration's name. */
  source: string;
  from: string;
  to: string;
}

/** How many passes the mail lists by name; the rest are counted. */
export const ESCALATION_MAIL_LINES = 10;

/** The leads of one account passed to another manager in one run of the escalation task (one mail, not one per lead). */
export function leadsEscalatedMail(
  ctx: MailContext,
  passes: readonly EscalationPass[],
  link: string,
): Promise<Template> {
  const { lang } = ctx;
  const count = passes.length;
  const lines = passes.slice(0, ESCALATION_MAIL_LINES).map((p) =>
    t(lang, 'escalated.line', {
      lead: p.lead || t(lang, 'escalated.noName'),
      source: p.source,
      from: p.from,
      to: p.to,
    }),
  );
  const rest = count - lines.length;
  return renderMail(ctx, {
    subject: tn(lang, 'escalated.subject', count),
    preview: t(lang, 'escalated.preview'),
    heading: t(lang, 'escalated.heading'),
    paragraphs: [tn(lang, 'escalated.body', count), ...lines, ...(rest > 0 ? [tn(lang, 'escalated.more', rest)] : [])],
    action: { label: t(lang, 'escalated.action'), url: link },
    why: t(lang, 'escalated.why'),
  });
}
