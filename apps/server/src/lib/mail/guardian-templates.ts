// The guardian's mails (issue 19 part 4; docs/mail.md): a source gone silent, a credential about to
// end, and the weekly report (speed to lead and the reconciliation). Times are in the account's time
// zone when the notice carries it (issue 31), Kyiv otherwise.
import type { Locale } from '@leadrelay/shared';
import { t } from './i18n';
import { mailReason } from './reasons';
import { type MailContext, renderMail, type Template } from './render';

const ZONE = 'Europe/Kyiv';
const intlLocale = (lang: Locale) => (lang === 'en' ? 'en-GB' : 'uk-UA');

/** A moment in the zone (Kyiv unless given), spelled for the language. */
const kyivTime = (lang: Locale, date: Date, zone = ZONE) =>
  new Intl.DateTimeFormat(intlLocale(lang), { dateStyle: 'medium', timeStyle: 'short', timeZone: zone }).format(date);

/** A day in the zone (Kyiv unless given), spelled for the language. */
const kyivDay = (lang: Locale, date: Date, zone = ZONE) =>
  new Intl.DateTimeFormat(intlLocale(lang), { day: 'numeric', month: 'long', timeZone: zone }).format(date);

const count = (lang: Locale, n: number) => new Intl.NumberFormat(intlLocale(lang)).format(n);
const percent = (lang: Locale, share: number) =>
  new Intl.NumberFormat(intlLocale(lang), { style: 'percent', maximumFractionDigits: 0 }).format(share);

/** A reaction time: "7 хв", "1 год 5 хв"; "немає" when nothing was reacted to. */
export function duration(lang: Locale, ms: number | null): string {
  if (ms === null) return t(lang, 'weekly.none');
  const minutes = Math.round(ms / 60_000);
  if (minutes < 60) return t(lang, 'weekly.minutes', { m: minutes });
  return t(lang, 'weekly.hours', { h: Math.floor(minutes / 60), m: minutes % 60 });
}

export interface DroughtNotice {
  /** The source integration's name as the user gave it. */
  name: string;
  /** The last lead before the silence. */
  silentSince: Date;
  /** Leads the source's history expected during the silence. */
  expected: number;
  link: string;
  /** The account's time zone (Kyiv when left out). */
  timeZone?: string;
}

/** Once per drought: a source that normally has leads at this hour has had none for long. */
export function droughtMail(ctx: MailContext, notice: DroughtNotice): Promise<Template> {
  const { lang } = ctx;
  const { name } = notice;
  const since = kyivTime(lang, notice.silentSince, notice.timeZone);
  return renderMail(ctx, {
    subject: t(lang, 'drought.subject', { name }),
    preview: t(lang, 'drought.preview', { name, since }),
    heading: t(lang, 'drought.heading', { name }),
    paragraphs: [
      t(lang, 'drought.body', { name, since, expected: count(lang, Math.max(1, Math.round(notice.expected))) }),
      t(lang, 'drought.check'),
      t(lang, 'drought.later'),
    ],
    action: { label: t(lang, 'drought.action'), url: notice.link },
    why: t(lang, 'drought.why'),
  });
}

export interface ExpiryNotice {
  /** The integration's or the account connection's (its profile's) name. */
  name: string;
  /** The service, as its brand is written (the catalogue's name of the type, a connector's brand). */
  service: string;
  expiresAt: Date;
  /**
   * refresh: renewed by use (an OAuth refresh token); else an account connection's token, renewed by
   * logging in again: its connector's sentence of how, by language (its connections' mail `renew`).
   */
  renewal: 'refresh' | { login: Readonly<Record<Locale, string>> };
  /** The integration's page in the web, where it is reconnected. */
  link: string;
}

/** 7 days and 1 day before a credential ends, each once. */
export function credentialExpiryMail(ctx: MailContext, notice: ExpiryNotice): Promise<Template> {
  const { lang } = ctx;
  const { name, service } = notice;
  const day = kyivDay(lang, notice.expiresAt);
  return renderMail(ctx, {
    subject: t(lang, 'expiry.subject', { name, day }),
    preview: t(lang, 'expiry.preview', { name, day }),
    heading: t(lang, 'expiry.heading', { name }),
    paragraphs: [
      t(lang, 'expiry.body', { name, service, time: kyivTime(lang, notice.expiresAt) }),
      notice.renewal === 'refresh' ? t(lang, 'expiry.renewRefresh') : notice.renewal.login[lang],
    ],
    action: { label: t(lang, 'expiry.action'), url: notice.link },
    why: t(lang, 'expiry.why'),
  });
}

export interface WeeklyCounts {
  received: number;
  delivered: number;
  held: number;
  failed: number;
}

export interface WeeklyReport {
  /** The week's first and last day (in `timeZone`). */
  from: Date;
  to: Date;
  /** The account's time zone (Kyiv when left out). */
  timeZone?: string;
  totals: WeeklyCounts;
  speed: {
    reacted: number;
    medianMs: number | null;
    p90Ms: number | null;
    /** Shares of all the week's leads reacted to within 5, 15 and 60 minutes (0..1). */
    within: { '5': number; '15': number; '60': number };
    neverTaken: number;
  };
  /** Per source integration, most leads first. */
  sources: (WeeklyCounts & { name: string })[];
  link: string;
}

/** Once a week: the team's reaction times and what became of the week's leads, per source. */
export function weeklyReportMail(ctx: MailContext, report: WeeklyReport): Promise<Template> {
  const { lang } = ctx;
  const period = `${kyivDay(lang, report.from, report.timeZone)} – ${kyivDay(lang, report.to, report.timeZone)}`;
  const numbers = (c: WeeklyCounts) => ({
    received: count(lang, c.received),
    delivered: count(lang, c.delivered),
    held: count(lang, c.held),
    failed: count(lang, c.failed),
  });
  const { speed } = report;
  const median = duration(lang, speed.medianMs);
  const paragraphs =
    report.totals.received === 0
      ? [t(lang, 'weekly.noLeads')]
      : [
          t(lang, 'weekly.received', numbers(report.totals)),
          ...(speed.reacted > 0
            ? [
                t(lang, 'weekly.speed', { median, p90: duration(lang, speed.p90Ms) }),
                t(lang, 'weekly.within', {
                  w5: percent(lang, speed.within['5']),
                  w15: percent(lang, speed.within['15']),
                  w60: percent(lang, speed.within['60']),
                  never: count(lang, speed.neverTaken),
                }),
              ]
            : [t(lang, 'weekly.noReactions')]),
          ...report.sources.map((s) => t(lang, 'weekly.source', { name: s.name, ...numbers(s) })),
        ];
  return renderMail(ctx, {
    subject: t(lang, 'weekly.subject', { period }),
    preview: t(lang, 'weekly.preview', { received: count(lang, report.totals.received), median }),
    heading: t(lang, 'weekly.heading', { period }),
    paragraphs,
    action: { label: t(lang, 'weekly.action'), url: report.link },
    why: t(lang, 'weekly.why'),
  });
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A short Telegram message (HTML): the mail's heading in bold, its first paragraph, and the link in full (Telegram makes it tappable). */
function telegramText(heading: string, body: string, label: string, url: string): string {
  return `<b>${escapeHtml(heading)}</b>\n\n${escapeHtml(body)}\n\n${escapeHtml(label)}: ${escapeHtml(url)}`;
}

/** The drought notice for the owner's Telegram chat, in the same words as the mail. */
export function droughtTelegram(lang: Locale, notice: DroughtNotice): string {
  const { name } = notice;
  const since = kyivTime(lang, notice.silentSince, notice.timeZone);
  const expected = count(lang, Math.max(1, Math.round(notice.expected)));
  return telegramText(
    t(lang, 'drought.heading', { name }),
    t(lang, 'drought.body', { name, since, expected }),
    t(lang, 'drought.action'),
    notice.link,
  );
}

/** The credential-expiry notice for the owner's Telegram chat, with the reconnect link. */
export function expiryTelegram(lang: Locale, notice: ExpiryNotice): string {
  const { name, service } = notice;
  return telegramText(
    t(lang, 'expiry.heading', { name }),
    t(lang, 'expiry.body', { name, service, time: kyivTime(lang, notice.expiresAt) }),
    t(lang, 'expiry.action'),
    notice.link,
  );
}

export interface AccessNotice {
  /** The source integration's name as the user gave it. */
  name: string;
  /** The service, as its brand is written (the catalogue's name of the type). */
  service: string;
  /** The stored reason the sender refused (a code), told in the reader's language. */
  reason: string;
  /** The integration's page in the web, where it is connected again. */
  link: string;
}

/**
 * A source the sender refused (the guardian's `access` alert) for the owner's Telegram chat: the
 * mail is the broken-integration one (templates.ts), sent when the integration broke.
 */
export function accessTelegram(lang: Locale, notice: AccessNotice): string {
  const { name, service } = notice;
  return telegramText(
    t(lang, 'access.heading', { name }),
    t(lang, 'access.body', { name, service, reason: mailReason(lang, notice.reason) }),
    t(lang, 'access.action'),
    notice.link,
  );
}
