// Telling an account's owner what the guardian found (issue 19 part 4): one entry point,
// `notifyOwner`, and the channels it tries: mail, and the owner's own Telegram chat when they
// linked one (owner-telegram.ts; docs/adr/010-manager-bot.md).
import type { GuardianSettings, Locale, OwnerTelegramLink } from '@leadrelay/shared';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '../../db/client';
import { guardianSettings, users } from '../../db/schema';
import {
  type AccessNotice,
  accessTelegram,
  credentialExpiryMail,
  type DroughtNotice,
  droughtMail,
  droughtTelegram,
  type ExpiryNotice,
  expiryTelegram,
  type WeeklyReport,
  weeklyReportMail,
} from '../../lib/mail/guardian-templates';
import type { Mailer } from '../../lib/mail/mailer';
import type { Template } from '../../lib/mail/render';
import type { TelegramDeps } from '../telegram';
import { sendToOwner } from './owner-telegram';

export interface GuardianDeps {
  mailer: Mailer;
  publicUrl: string;
  log: FastifyBaseLogger;
  /** What the Telegram channel needs (the database, the sealed bot tokens); without it, mail only. */
  telegram?: TelegramDeps;
}

/** What the owner is told; links are built per channel from the owner's language. */
export type OwnerNotice =
  | { kind: 'drought'; notice: Omit<DroughtNotice, 'link'> }
  | { kind: 'expiry'; notice: Omit<ExpiryNotice, 'link'>; path: string }
  | { kind: 'access'; notice: Omit<AccessNotice, 'link'>; path: string }
  | { kind: 'weekly'; notice: Omit<WeeklyReport, 'link'> };

export interface Owner {
  accountId: string;
  login: string;
  lang: Locale;
  settings: GuardianSettings;
  /** The owner's linked Telegram chat, or null. */
  telegram: OwnerTelegramLink | null;
}

/** A way to reach the owner; true when this channel told them. */
export interface NotifyChannel {
  name: string;
  send(deps: GuardianDeps, owner: Owner, notice: OwnerNotice): Promise<boolean>;
}

export const DEFAULT_SETTINGS: GuardianSettings = { mailDrought: true, mailExpiry: true, weeklyMail: true };

/** The account's owner with their address, language and guardian settings; undefined when deleted. */
export async function ownerOf(db: Executor, accountId: string): Promise<Owner | undefined> {
  const [row] = await db
    .select({ login: users.login, lang: users.lang, s: guardianSettings })
    .from(users)
    .leftJoin(guardianSettings, eq(guardianSettings.accountId, users.id))
    .where(and(eq(users.id, accountId), isNull(users.deletedAt)));
  if (!row) return undefined;
  const settings = row.s
    ? { mailDrought: row.s.mailDrought, mailExpiry: row.s.mailExpiry, weeklyMail: row.s.weeklyMail }
    : DEFAULT_SETTINGS;
  return { accountId, login: row.login, lang: row.lang, settings, telegram: row.s?.telegram ?? null };
}

const screen = (deps: GuardianDeps, lang: Locale, path: string) =>
  `${deps.publicUrl}${lang === 'en' ? '/en' : ''}${path}`;

/** The mail of a notice, or null when the owner turned that mail off. */
function mailOf(deps: GuardianDeps, owner: Owner, n: OwnerNotice): Promise<Template> | null {
  const ctx = { lang: owner.lang, publicUrl: deps.publicUrl };
  const link = (path: string) => screen(deps, owner.lang, path);
  switch (n.kind) {
    case 'drought':
      return owner.settings.mailDrought ? droughtMail(ctx, { ...n.notice, link: link('/admin/guardian') }) : null;
    case 'expiry':
      return owner.settings.mailExpiry ? credentialExpiryMail(ctx, { ...n.notice, link: link(n.path) }) : null;
    case 'weekly':
      return owner.settings.weeklyMail ? weeklyReportMail(ctx, { ...n.notice, link: link('/admin/speed') }) : null;
    case 'access':
      return null;
  }
}

export const mailChannel: NotifyChannel = {
  name: 'mail',
  async send(deps, owner, notice) {
    // A refused source was mailed when it broke (the broken-integration mail of integration-health or
    // connection-health, which opened the alert): told, and never mailed twice.
    if (notice.kind === 'access') return true;
    const mail = mailOf(deps, owner, notice);
    if (!mail) return false;
    await deps.mailer.send({ to: owner.login, ...(await mail) });
    return true;
  },
};

/**
 * The owner's linked Telegram chat: the drought, expiry and access notices (the weekly report stays a mail).
 * Not linked, or no bot any more: false (not applicable). A bot the owner blocked (403) throws, a
 * failure of this channel only.
 */
export const telegramChannel: NotifyChannel = {
  name: 'telegram',
  async send(deps, owner, notice) {
    if (!owner.telegram || !deps.telegram || notice.kind === 'weekly') return false;
    const link = (path: string) => screen(deps, owner.lang, path);
    const html =
      notice.kind === 'drought'
        ? droughtTelegram(owner.lang, { ...notice.notice, link: link('/admin/guardian') })
        : notice.kind === 'access'
          ? accessTelegram(owner.lang, { ...notice.notice, link: link(notice.path) })
          : expiryTelegram(owner.lang, { ...notice.notice, link: link(notice.path) });
    return sendToOwner(deps.telegram, owner.telegram, html);
  },
};

/** Every channel the owner can be told through, tried in order. */
export const channels: NotifyChannel[] = [mailChannel, telegramChannel];

/**
 * Tells the owner through every channel; true when at least one did. A channel that fails is
 * logged and counts as not told, so the caller leaves its marker unset and tries again next run.
 */
export async function notifyOwner(deps: GuardianDeps, owner: Owner, notice: OwnerNotice): Promise<boolean> {
  let told = false;
  for (const channel of channels) {
    try {
      if (await channel.send(deps, owner, notice)) told = true;
    } catch (error) {
      deps.log.warn(
        { err: error, accountId: owner.accountId, channel: channel.name, kind: notice.kind },
        'guardian notice not sent',
      );
    }
  }
  return told;
}
