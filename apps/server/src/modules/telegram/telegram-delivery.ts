// The Telegram destination's part in the delivery engine: what a delivery of a lead needs beyond the
// lead (the worker's enricher: the assignee's linked chat, the lead's id and link, the lead's open
// cards to other managers) and the bookkeeping of what it sent (the worker's recorder: the cards,
// and the earlier ones now passed on).
import type { DeliveryResult, TelegramDelivery, TelegramRecord } from '@leadrelay/connectors';
import { and, eq, ne } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import {
  collections,
  type DeliveryRow,
  type IntegrationRow,
  integrations,
  type LeadRow,
  telegramCards,
} from '../../db/schema';
import { type TelegramDeps, telegramConfig } from './telegram.service';

type LinkedItem = { id: string; name: string; value: string; telegram?: { chatId: number; language: 'uk' | 'en' } };

/** The worker's enricher for telegram deliveries. */
export function telegramEnricher(deps: Pick<TelegramDeps, 'config'> & { db: Executor }) {
  return async (_delivery: DeliveryRow, lead: LeadRow, destination: IntegrationRow): Promise<TelegramDelivery> => {
    const [source] = await deps.db.select().from(integrations).where(eq(integrations.id, lead.integrationId));
    const { platformToken } = telegramConfig(deps);
    const base = {
      leadId: lead.id,
      leadUrl: `${deps.config.publicUrl}/admin/integrations/${source?.type ?? 'webhook'}/${lead.integrationId}`,
      sourceName: source?.name ?? '',
      ...(platformToken ? { platformToken } : {}),
    };
    const assignee = lead.assignee;
    if (!assignee) return { ...base, recipient: { problem: 'TELEGRAM_NO_ASSIGNEE' }, others: [] };
    // The managers linked to this bot are the items of its distribution collection (the source's when it has none).
    const collectionId = destination.distributionId ?? source?.distributionId;
    const [collection] = collectionId
      ? await deps.db
          .select()
          .from(collections)
          .where(and(eq(collections.id, collectionId), eq(collections.accountId, lead.accountId)))
      : [];
    const items = (collection?.items ?? []) as LinkedItem[];
    const item =
      items.find((i) => i.value === assignee.id && i.name === assignee.name) ??
      items.find((i) => i.value === assignee.id);
    if (!item?.telegram) {
      return { ...base, recipient: { problem: 'TELEGRAM_NOT_LINKED', name: assignee.name ?? assignee.id }, others: [] };
    }
    const others = await deps.db
      .select()
      .from(telegramCards)
      .where(
        and(
          eq(telegramCards.leadId, lead.id),
          eq(telegramCards.integrationId, destination.id),
          ne(telegramCards.itemId, item.id),
          eq(telegramCards.state, 'open'),
        ),
      );
    return {
      ...base,
      recipient: { itemId: item.id, name: item.name, chatId: item.telegram.chatId, language: item.telegram.language },
      others: others.map((c) => ({
        chatId: c.chatId,
        messageId: c.messageId,
        language: c.language === 'en' ? 'en' : 'uk',
        text: c.text,
      })),
    };
  };
}

/** The worker's recorder: the card sent is stored (one per lead, destination and manager); earlier ones marked passed. */
export async function recordTelegramCards(tx: Executor, delivery: DeliveryRow, result: DeliveryResult): Promise<void> {
  const records = (result.records ?? []) as TelegramRecord[];
  const card = records.find((r): r is Extract<TelegramRecord, { kind: 'card' }> => r.kind === 'card');
  if (!card) return;
  const [lead] = await tx
    .select({ accountId: integrations.accountId })
    .from(integrations)
    .where(eq(integrations.id, delivery.destinationId));
  if (!lead) return;
  const values = {
    accountId: lead.accountId,
    leadId: card.leadId,
    integrationId: delivery.destinationId,
    itemId: card.itemId,
    itemName: card.itemName,
    chatId: card.chatId,
    messageId: card.messageId,
    language: card.language,
    text: card.text,
    state: 'open',
    passedTo: null,
    sentAt: new Date(),
  };
  await tx
    .insert(telegramCards)
    .values(values)
    .onConflictDoUpdate({
      target: [telegramCards.leadId, telegramCards.integrationId, telegramCards.itemId],
      set: {
        chatId: values.chatId,
        messageId: values.messageId,
        text: values.text,
        language: values.language,
        state: 'open',
        passedTo: null,
        sentAt: values.sentAt,
      },
    });
  for (const passed of records) {
    if (passed.kind !== 'passed') continue;
    await tx
      .update(telegramCards)
      .set({ state: 'passed', passedTo: card.itemName })
      .where(
        and(
          eq(telegramCards.leadId, passed.leadId),
          eq(telegramCards.chatId, passed.chatId),
          eq(telegramCards.messageId, passed.messageId),
        ),
      );
  }
}
