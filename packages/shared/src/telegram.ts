// The Telegram manager bot (issue 19, ADR 010): how an integration is connected (the account's own
// bot by its BotFather token, or the platform's), the one-time link codes that tie a collection
// item (a manager) to their chat, and what the routes answer. The server validates with these and
// the web builds its forms from them.
import { z } from 'zod';

export const TELEGRAM_CONNECT_MODES = ['own', 'platform'] as const;
export type TelegramConnectMode = (typeof TELEGRAM_CONNECT_MODES)[number];
export const TELEGRAM_LANGUAGES = ['uk', 'en'] as const;
export type TelegramLanguage = (typeof TELEGRAM_LANGUAGES)[number];

/** A link code lives this long (ADR 010: 15 minutes) and is used once. */
export const TELEGRAM_LINK_CODE_TTL_MINUTES = 15;

/** BotFather's token: the bot's id, a colon, 35 characters (letters, digits, _ and -). */
export const TELEGRAM_TOKEN_PATTERN = /^\d{1,20}:[A-Za-z0-9_-]{30,}$/;

export const ZTelegramConnectBody = z.discriminatedUnion('mode', [
  z
    .object({
      integrationId: z.string(),
      mode: z.literal('own'),
      botToken: z.string().trim().regex(TELEGRAM_TOKEN_PATTERN, { error: 'TELEGRAM_TOKEN_INVALID' }),
    })
    .strict(),
  z.object({ integrationId: z.string(), mode: z.literal('platform') }).strict(),
]);
export type TelegramConnectBody = z.infer<typeof ZTelegramConnectBody>;

/** How an integration is connected; nothing secret. */
export const ZTelegramAccount = z.object({
  connected: z.boolean(),
  mode: z.enum(TELEGRAM_CONNECT_MODES).optional(),
  /** The bot's @username (without the @). */
  botUsername: z.string().optional(),
  /** Whether the platform's bot is configured on this server (TELEGRAM_BOT_TOKEN). */
  platformAvailable: z.boolean(),
  /** The distribution collection whose managers link to this bot. */
  collectionId: z.string().nullable(),
});
export type TelegramAccount = z.infer<typeof ZTelegramAccount>;

export const ZTelegramLinkCodeBody = z
  .object({ integrationId: z.string(), collectionId: z.string(), itemId: z.string().max(64) })
  .strict();
export type TelegramLinkCodeBody = z.infer<typeof ZTelegramLinkCodeBody>;

export const ZTelegramLinkCode = z.object({
  code: z.string(),
  /** https://t.me/<bot>?start=<code> */
  url: z.string(),
  botUsername: z.string(),
  expiresAt: z.string(),
});
export type TelegramLinkCode = z.infer<typeof ZTelegramLinkCode>;

export const ZTelegramUnlinkBody = z.object({ collectionId: z.string(), itemId: z.string().max(64) }).strict();

/** The account's Telegram destinations a collection's managers can link to (the collections page). */
export const ZTelegramBots = z.array(
  z.object({
    integrationId: z.string(),
    name: z.string(),
    botUsername: z.string().nullable(),
    collectionId: z.string().nullable(),
  }),
);
export type TelegramBots = z.infer<typeof ZTelegramBots>;

/**
 * The manager's language from their Telegram app's language_code: Ukrainian for uk, and for ru and
 * be too (managers in Ukraine whose app is in Russian or Belarusian read Ukrainian); English for
 * any other language; Ukrainian, the product's default, when Telegram does not say.
 */
export function telegramLanguage(languageCode: string | undefined): TelegramLanguage {
  if (!languageCode) return 'uk';
  return /^(uk|ru|be)\b/i.test(languageCode) ? 'uk' : 'en';
}

/** The account owner's own chat on the account's bot, for the guardian's notices (issue 19 part 4). */
export interface OwnerTelegramLink {
  integrationId: string;
  chatId: number;
  username?: string;
  language: TelegramLanguage;
  linkedAt: string;
}

/** POST /api/guardian/telegram/link-code: which bot (by default the account's first connected one). */
export const ZOwnerTelegramLinkCodeBody = z
  .object({ integrationId: z.string({ message: 'VALIDATION_ERROR' }).max(64).optional() })
  .strict();
export type OwnerTelegramLinkCodeBody = z.infer<typeof ZOwnerTelegramLinkCodeBody>;

/** GET /api/guardian/telegram: the owner's link, and the bot a new link would use (null: none connected). */
export const ZOwnerTelegram = z.object({
  linked: z.object({ username: z.string().optional(), linkedAt: z.string(), integrationId: z.string() }).nullable(),
  bot: z.object({ integrationId: z.string(), botUsername: z.string() }).nullable(),
});
export type OwnerTelegram = z.infer<typeof ZOwnerTelegram>;
