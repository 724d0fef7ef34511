// The Telegram destination (issue 19, ADR 010): every lead routed to it sends its assignee (a
// distribution item linked to a Telegram chat) a card with "Беру"/"Take it" and "Передзвонив"/
// "Called back". The bot is the account's own (a BotFather token, checked with getMe, sealed with
// the webhook's secret) or the platform's (TELEGRAM_BOT_TOKEN). Who the card goes to, the lead's id
// and link and the lead's earlier cards come from the server's manager bot, which provides the
// `manager-chat` delivery context it declares (input.extra); the cards sent go back as records for
// the bot to keep. Presses arrive at the bot's webhook.
import { z } from 'zod';
import { defineConnector } from '../kit/define-connector';
import { PermanentError } from '../kit/errors';
import type { DeliveryResult } from '../kit/types';
import { cardKeyboard, cardText, passedFooter } from './card';
import { callTelegram, TELEGRAM_API_URL, telegramApi } from './client';
import { codes } from './codes';

export * from './card';
export {
  callTelegram,
  TELEGRAM_API_URL,
  type TelegramCall,
  telegramApi,
  telegramClientOptions,
  telegramError,
} from './client';

/** The bot as getMe answered when it was connected (grammY needs it to handle updates without a call). */
export const ZTelegramBotInfo = z
  .object({
    id: z.number(),
    is_bot: z.literal(true),
    first_name: z.string(),
    username: z.string(),
  })
  .passthrough();
export type TelegramBotInfo = z.infer<typeof ZTelegramBotInfo>;

export const ZTelegramAuth = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('own'),
    botToken: z.string().min(1),
    /** The X-Telegram-Bot-Api-Secret-Token our webhook requires (setWebhook's secret_token). */
    webhookSecret: z.string().min(16),
    bot: ZTelegramBotInfo,
  }),
  z.object({ kind: z.literal('platform') }),
]);
export type TelegramAuth = z.infer<typeof ZTelegramAuth>;

/** Nothing to set: who gets a card is the distribution's business. */
export const ZTelegramSettings = z.object({}).passthrough();
export type TelegramSettings = z.infer<typeof ZTelegramSettings>;

export interface TelegramRecipient {
  itemId: string;
  name: string;
  chatId: number;
  language: 'uk' | 'en';
}

/** What the `manager-chat` delivery context adds to a delivery (DeliveryInput.extra). */
export interface TelegramDelivery {
  leadId: string;
  leadUrl: string;
  sourceName: string;
  /** The platform bot's token, for an integration on the platform's bot. */
  platformToken?: string;
  /** The assignee's chat, or why there is none. */
  recipient: TelegramRecipient | { problem: 'TELEGRAM_NO_ASSIGNEE' | 'TELEGRAM_NOT_LINKED'; name?: string };
  /** This lead's open cards to other managers (before an escalation): edited to say it was passed on. */
  others: { chatId: number; messageId: number; language: 'uk' | 'en'; text: string }[];
}

/** What a delivery reports for the server to store (DeliveryResult.records). */
export type TelegramRecord =
  | {
      kind: 'card';
      leadId: string;
      itemId: string;
      itemName: string;
      chatId: number;
      messageId: number;
      language: 'uk' | 'en';
      text: string;
    }
  | { kind: 'passed'; leadId: string; chatId: number; messageId: number };

/** The token a call uses: the account's own bot's, or the platform's. */
export function tokenOf(auth: TelegramAuth, platformToken: string | undefined): string {
  if (auth.kind === 'own') return auth.botToken;
  if (!platformToken) throw new PermanentError('TELEGRAM_PLATFORM_BOT_UNAVAILABLE', { code: 'CONFIGURATION' });
  return platformToken;
}

export const telegram = defineConnector<TelegramAuth, TelegramSettings>({
  slug: 'telegram',
  kind: 'destination',
  // EMULATORS=true (demo installs, end-to-end tests): its emulator, loaded only then.
  demo: () => import('./demo').then((m) => m.startDemo()),
  // The server's own connect route checks the token, sets the webhook and stores its secret.
  connectAuth: 'own',
  // The manager bot adds the assignee's chat and the lead's earlier cards, and keeps the cards sent.
  deliveryContext: 'manager-chat',
  // A lead passed to another manager sends the new holder their own card.
  deliversToAssignee: true,
  codes,
  auth: ZTelegramAuth,
  settings: ZTelegramSettings,
  config: {
    TELEGRAM_API_URL: { type: 'url', default: TELEGRAM_API_URL },
    TELEGRAM_BOT_TOKEN: { type: 'text' },
  },
  baseUrl: (cfg) => cfg.TELEGRAM_API_URL as string | undefined,
  async testConnection(ctx) {
    if (ctx.auth.kind === 'platform') return;
    await callTelegram(() => telegramApi(ctx, ctx.auth.kind === 'own' ? ctx.auth.botToken : '').getMe());
  },
  async deliver(ctx, input): Promise<DeliveryResult> {
    const extra = input.extra as TelegramDelivery | undefined;
    if (!extra) throw new PermanentError('INTEGRATION_SETTINGS_INVALID', { code: 'CONFIGURATION' });
    const { recipient } = extra;
    if ('problem' in recipient) {
      throw new PermanentError(recipient.name ? `${recipient.problem}: ${recipient.name}` : recipient.problem, {
        code: recipient.problem,
      });
    }
    const api = telegramApi(ctx, tokenOf(ctx.auth, extra.platformToken));
    const text = cardText({
      lead: input.lead,
      leadId: extra.leadId,
      sourceName: extra.sourceName,
      leadUrl: extra.leadUrl,
      language: recipient.language,
    });
    const sent = await callTelegram(() =>
      api.sendMessage(recipient.chatId, text, {
        parse_mode: 'HTML',
        link_preview_options: { is_disabled: true },
        reply_markup: cardKeyboard(extra.leadId, recipient.language),
      }),
    );
    const records: TelegramRecord[] = [
      {
        kind: 'card',
        leadId: extra.leadId,
        itemId: recipient.itemId,
        itemName: recipient.name,
        chatId: recipient.chatId,
        messageId: sent.message_id,
        language: recipient.language,
        text,
      },
    ];
    // The lead went on to this manager: the earlier cards say so and lose their buttons. A card that
    // cannot be edited (deleted, a blocked bot) does not undo the delivery.
    for (const old of extra.others) {
      try {
        await api.editMessageText(
          old.chatId,
          old.messageId,
          `${old.text}\n\n${passedFooter(old.language, recipient.name)}`,
          {
            parse_mode: 'HTML',
            link_preview_options: { is_disabled: true },
          },
        );
        records.push({ kind: 'passed', leadId: extra.leadId, chatId: old.chatId, messageId: old.messageId });
      } catch (error) {
        ctx.logger.warn({ err: error, chatId: old.chatId }, 'telegram: an earlier card could not be marked passed on');
      }
    }
    return {
      externalId: String(sent.message_id),
      request: { method: 'POST', url: '/bot[redacted]/sendMessage', body: { chat_id: recipient.chatId, text } },
      records,
    };
  },
});
