// The bot's side of the webhook (issue 19, ADR 010): grammY's webhookCallback checks the
// X-Telegram-Bot-Api-Secret-Token header, then the handlers: /start <code> links the manager's chat
// to their collection item (a code is used once, within 15 minutes, on the bot it was made for),
// /away and /back set the item's `away`, and a press on a card's "Беру"/"Передзвонив" records the
// lead's reaction once (the unique key decides a race) and edits every card of the lead to say who
// and when; the loser of a race, or a second press, is told who was first.
import {
  type CardAction,
  callTelegram,
  cardKeyboard,
  parseCallbackData,
  passedFooter,
  reactionFooter,
  TELEGRAM_BOT_WORDS,
  type TelegramAuth,
  type TelegramBotInfo,
} from '@leadrelay/connectors';
import { type Locale, type ReactionKind, type TelegramLanguage, telegramLanguage } from '@leadrelay/shared';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { Bot, type Context } from 'grammy';
import type { UserFromGetMe } from 'grammy/types';
import type { Executor } from '../../db/client';
import {
  collections,
  guardianSettings,
  integrations,
  leadReactions,
  telegramCards,
  telegramLinkCodes,
  users,
} from '../../db/schema';
import { recordReaction } from '../reactions';
import { apiFor, authOfRow, clientOptions, PLATFORM, setItemKey, type TelegramDeps } from './telegram.service';

/** Whose bot an update came to: one account's own integration, or the platform's bot. */
export type BotScope = { kind: 'own'; integrationId: string; accountId: string } | { kind: 'platform' };

const KIND: Record<CardAction, ReactionKind> = { t: 'taken', c: 'called' };

/** A grammY bot for one update: no getMe (its info is known), calls through our fetch and API root. */
export function makeBot(
  deps: TelegramDeps,
  token: string,
  info: TelegramBotInfo,
  scope: BotScope,
  now: () => Date,
): Bot {
  const bot = new Bot(token, { botInfo: info as unknown as UserFromGetMe, client: clientOptions(deps) });
  const lang = (ctx: Context) => telegramLanguage(ctx.from?.language_code);

  bot.command('start', async (ctx) => {
    const words = TELEGRAM_BOT_WORDS[lang(ctx)];
    const code = ctx.match.trim();
    if (!code) return void (await ctx.reply(words.hello));
    const linked = await linkChat(deps, scope, code, ctx, now());
    if (linked?.owner) return void (await ctx.reply(TELEGRAM_BOT_WORDS[linked.owner].ownerLinked));
    await ctx.reply(linked ? words.linked(linked.name) : words.codeInvalid, { parse_mode: 'HTML' });
  });

  for (const [command, away] of [
    ['away', true],
    ['back', false],
  ] as const) {
    bot.command(command, async (ctx) => {
      const words = TELEGRAM_BOT_WORDS[lang(ctx)];
      const changed = await setAway(deps, scope, ctx.chat.id, away);
      await ctx.reply(changed ? words[command] : words.notLinked);
    });
  }

  bot.on('callback_query:data', async (ctx) => {
    const words = TELEGRAM_BOT_WORDS[lang(ctx)];
    const press = parseCallbackData(ctx.callbackQuery.data);
    const chatId = ctx.callbackQuery.message?.chat.id ?? ctx.from.id;
    const [card] = press
      ? await deps.db
          .select()
          .from(telegramCards)
          .where(
            and(
              eq(telegramCards.leadId, press.leadId),
              eq(telegramCards.chatId, chatId),
              scope.kind === 'own' ? eq(telegramCards.integrationId, scope.integrationId) : undefined,
            ),
          )
          .limit(1)
      : [];
    // Only a manager who was sent the card can press on it.
    if (!press || !card) return void (await ctx.answerCallbackQuery({ text: words.unknownLead }));
    const result = await recordReaction(deps.db, {
      accountId: card.accountId,
      leadId: card.leadId,
      kind: KIND[press.action],
      via: 'telegram',
      by: { id: card.itemId, name: card.itemName ?? ctx.from.first_name },
      at: now(),
    });
    if (!result.recorded) {
      const name = result.reaction.byName ?? '';
      const text = press.action === 't' ? words.alreadyTaken(name) : words.alreadyCalled(name);
      return void (await ctx.answerCallbackQuery({ text, show_alert: true }));
    }
    await ctx.answerCallbackQuery({ text: press.action === 't' ? words.taken : words.called });
    await refreshCards(deps, token, card.leadId);
  });

  return bot;
}

/**
 * /start <code>: the chat stored on the code's item (the item's name), or, for an owner's code, as
 * the account owner's chat (the owner's language); null when the code does not fit.
 */
async function linkChat(
  deps: TelegramDeps,
  scope: BotScope,
  code: string,
  ctx: Context,
  now: Date,
): Promise<{ name: string; owner?: undefined } | { owner: Locale } | null> {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(code) || !ctx.from || !ctx.chat) return null;
  const [row] = await deps.db.select().from(telegramLinkCodes).where(eq(telegramLinkCodes.code, code));
  if (!row) return null;
  // The code belongs to this bot: the own bot's integration, or an integration on the platform's bot.
  if (scope.kind === 'own' && row.integrationId !== scope.integrationId) return null;
  if (scope.kind === 'platform') {
    const [integration] = await deps.db.select().from(integrations).where(eq(integrations.id, row.integrationId));
    if (!integration || authOfRow(deps, integration)?.kind !== 'platform') return null;
  }
  return deps.db.transaction(async (tx) => {
    // Used once: of two /start with one code, one update takes it.
    const [taken] = await tx
      .update(telegramLinkCodes)
      .set({ usedAt: now })
      .where(
        and(eq(telegramLinkCodes.code, code), isNull(telegramLinkCodes.usedAt), gt(telegramLinkCodes.expiresAt, now)),
      )
      .returning();
    if (!taken) return null;
    const link = {
      chatId: ctx.chat!.id,
      ...(ctx.from!.username ? { username: ctx.from!.username } : {}),
      language: telegramLanguage(ctx.from!.language_code),
      linkedAt: now.toISOString(),
    };
    if (taken.purpose === 'owner') {
      await storeOwnerChat(tx, taken.accountId, { integrationId: taken.integrationId, ...link });
      const [owner] = await tx.select({ lang: users.lang }).from(users).where(eq(users.id, taken.accountId));
      return { owner: owner?.lang ?? 'uk' };
    }
    if (!taken.collectionId || !taken.itemId) return null;
    const { collectionId, itemId } = taken;
    const changed = await setItemKey(tx, { collectionId, accountId: taken.accountId }, itemId, 'telegram', link);
    if (!changed) return null;
    const [collection] = await tx.select().from(collections).where(eq(collections.id, collectionId));
    return { name: collection?.items.find((i) => i.id === itemId)?.name ?? '' };
  });
}

/** /away and /back: every item this chat is linked as (in the own bot's account). */
async function setAway(deps: TelegramDeps, scope: BotScope, chatId: number, away: boolean): Promise<boolean> {
  const rows = await deps.db
    .select()
    .from(collections)
    .where(
      and(
        scope.kind === 'own' ? eq(collections.accountId, scope.accountId) : undefined,
        sql`${collections.items} @> ${JSON.stringify([{ telegram: { chatId } }])}::jsonb`,
      ),
    );
  let changed = false;
  for (const row of rows) {
    for (const item of row.items) {
      if ((item as { telegram?: { chatId?: number } }).telegram?.chatId !== chatId) continue;
      changed =
        (await setItemKey(deps.db, { collectionId: row.id, accountId: row.accountId }, item.id, 'away', away)) ||
        changed;
    }
  }
  return changed;
}

/** Every card of a lead shows its reactions (who and when); the buttons left are those not pressed yet. */
export async function refreshCards(deps: TelegramDeps, token: string, leadId: string): Promise<void> {
  const [cards, reactions] = await Promise.all([
    deps.db.select().from(telegramCards).where(eq(telegramCards.leadId, leadId)),
    deps.db.select().from(leadReactions).where(eq(leadReactions.leadId, leadId)).orderBy(leadReactions.at),
  ]);
  const api = apiFor(deps, token);
  const pressed = reactions.map((r) => (r.kind === 'taken' ? 't' : 'c') as CardAction);
  for (const card of cards) {
    const language = card.language === 'en' ? 'en' : 'uk';
    const footers = [
      ...(card.passedTo ? [passedFooter(language, card.passedTo)] : []),
      ...reactions.map((r) => reactionFooter(language, r.kind === 'taken' ? 't' : 'c', r.byName ?? '', r.at)),
    ];
    const keyboard = card.state === 'passed' ? undefined : cardKeyboard(leadId, language, pressed);
    const hasButtons = keyboard && keyboard.inline_keyboard[0]!.length > 0;
    try {
      await callTelegram(() =>
        api.editMessageText(card.chatId, card.messageId, [card.text, footers.join('\n')].join('\n\n'), {
          parse_mode: 'HTML',
          link_preview_options: { is_disabled: true },
          ...(hasButtons ? { reply_markup: keyboard } : {}),
        }),
      );
    } catch (error) {
      // One card that cannot be edited (a manager who blocked the bot) does not stop the others.
      deps.log.warn({ err: error, leadId, chatId: card.chatId }, 'telegram: a card could not be updated');
    }
  }
  if (pressed.includes('t')) {
    await deps.db
      .update(telegramCards)
      .set({ state: 'taken' })
      .where(and(eq(telegramCards.leadId, leadId), eq(telegramCards.state, 'open')));
  }
}

export type { TelegramAuth };
export { PLATFORM };

/**
 * /start with an owner's code (already taken once by the caller): the chat stored for the account,
 * where the guardian sends its notices (guardian/owner-telegram.ts).
 */
async function storeOwnerChat(
  tx: Executor,
  accountId: string,
  link: { integrationId: string; chatId: number; username?: string; language: TelegramLanguage; linkedAt: string },
): Promise<void> {
  await tx
    .insert(guardianSettings)
    .values({ accountId, telegram: link })
    .onConflictDoUpdate({ target: guardianSettings.accountId, set: { telegram: link, updatedAt: new Date() } });
}
