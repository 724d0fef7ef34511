// SendPulse: a destination (CRM contact, found by phone then e-mail before one is made, and an
// optional deal) and the chatbot the Pipedrive widget reads and writes through (sendpulseChat).
import type { WidgetContact } from '@leadrelay/shared';
import { defineConnector } from '../kit/define-connector';
import { personLockKeys } from '../kit/keyed-lock';
import type { AttemptTrace, DeliveryInput } from '../kit/types';
import {
  addCrmEmail,
  addCrmPhone,
  type ChatbotContact,
  type CrmContact,
  createCrmContact,
  createDeal,
  findContactsByVariable,
  findCrmContactByExternalId,
  findCrmContacts,
  listBots,
  listPipelines,
  type SendpulseContext,
  sendText,
  userInfo,
} from './client';
import { contactName, conversationUrl, dealName, phoneDigits, samePhone, toCrmContact } from './mapping';
import { type SendpulseAuth, type SendpulseSettings, ZSendpulseAuth, ZSendpulseSettings } from './schema';

/** At most this many of a person's phones and e-mails are looked up (each is one call per bot). */
const MAX_LOOKUPS = 3;

const hasPhone = (c: CrmContact, phone: string) => !c.phones || c.phones.some((p) => samePhone(p.phone, phone));
const hasEmail = (c: CrmContact, email: string) =>
  !c.emails || c.emails.some((e) => e.email.toLowerCase() === email.toLowerCase());

async function findOrCreateContact(
  ctx: SendpulseContext,
  input: DeliveryInput,
): Promise<{ contact: CrmContact; created: boolean; trace?: AttemptTrace }> {
  const { lead, idempotencyKey } = input;
  if (lead.phone) {
    const found = (await findCrmContacts(ctx, { phone: lead.phone })).find((c) => hasPhone(c, lead.phone!));
    if (found) return { contact: found, created: false };
  }
  if (lead.email) {
    const found = (await findCrmContacts(ctx, { email: lead.email })).find((c) => hasEmail(c, lead.email!));
    if (found) return { contact: found, created: false };
  }
  // An earlier attempt of this very delivery may have made the contact and failed before its phone was added.
  const ours = await findCrmContactByExternalId(ctx, idempotencyKey);
  const made = ours
    ? { data: ours, trace: undefined }
    : await createCrmContact(ctx, toCrmContact(lead, idempotencyKey));
  const contact = made.data;
  if (lead.phone && !contact.phones?.some((p) => samePhone(p.phone, lead.phone!))) {
    await addCrmPhone(ctx, contact.id, lead.phone);
  }
  if (lead.email && !contact.emails?.some((e) => e.email.toLowerCase() === lead.email!.toLowerCase())) {
    await addCrmEmail(ctx, contact.id, lead.email);
  }
  return { contact, created: !ours, trace: made.trace };
}

export const sendpulse = defineConnector<SendpulseAuth, SendpulseSettings>({
  slug: 'sendpulse',
  kind: 'destination',
  // EMULATORS=true (demo installs, end-to-end tests): its emulator, loaded only then.
  demo: () => import('./demo').then((m) => m.startDemo()),
  // A lead with no phone, e-mail or name would be an empty contact: refused (LEAD_NO_CONTACT).
  requiresContact: true,
  auth: ZSendpulseAuth,
  settings: ZSendpulseSettings,
  connectAuth: 'manual',
  config: { SENDPULSE_API_URL: { type: 'url', default: 'https://api.sendpulse.com' } },
  baseUrl: (cfg) => cfg.SENDPULSE_API_URL as string | undefined,
  loaders: {
    bots: async (ctx) =>
      (await listBots(ctx)).map((b) => ({
        id: b.id,
        name: b.name ?? b.channel_data?.name ?? b.channel_data?.username ?? b.id,
        channel: (b.channel ?? '').toLowerCase(),
      })),
    pipelines: (ctx) => listPipelines(ctx),
  },
  // A token (the credentials are right) and /user/info (the token is accepted).
  async testConnection(ctx) {
    await userInfo(ctx);
  },
  async deliver(ctx, input) {
    const { lead, idempotencyKey } = input;
    const lockKeys = personLockKeys(lead, `lead:${idempotencyKey}`);
    const run = () => findOrCreateContact(ctx, input);
    const { contact, trace } = ctx.withLock ? await ctx.withLock(lockKeys, run) : await run();
    const { pipelineId, stepId } = ctx.settings;
    if (pipelineId && stepId) {
      const deal = await createDeal(ctx, { pipelineId, stepId, name: dealName(lead), contact: [contact.id] });
      return { ...deal.trace, externalId: String(deal.data.id) };
    }
    return { ...(trace ?? {}), externalId: String(contact.id) };
  },
});

// ---- The chatbot side, for the Pipedrive widget ----

export interface ChatPerson {
  phones: string[];
  emails: string[];
}

async function botsToSearch(ctx: SendpulseContext): Promise<string[]> {
  if (ctx.settings.botId) return [ctx.settings.botId];
  const channel = ctx.settings.channel;
  return (await listBots(ctx)).filter((b) => (b.channel ?? '').toLowerCase() === channel).map((b) => b.id);
}

/** Phone as it may be stored in a bot variable: as given, digits only, +digits. */
const phoneForms = (phone: string) => [...new Set([phone.trim(), phoneDigits(phone), `+${phoneDigits(phone)}`])];

export function sendpulseChat(ctx: SendpulseContext) {
  const channel = ctx.settings.channel;
  const toWidget = (c: ChatbotContact, botId: string): WidgetContact => ({
    id: c.id,
    name: contactName(c),
    ...(c.channel_data?.username ? { username: c.channel_data.username } : {}),
    channel,
    ...(c.last_activity_at ? { lastActivityAt: c.last_activity_at } : {}),
    conversationUrl: conversationUrl(channel, c.bot_id ?? botId, c.id),
  });

  return {
    /** The bot contacts whose phone variable matches one of the person's phones, else whose email matches. */
    async findContacts(person: ChatPerson): Promise<WidgetContact[]> {
      const bots = await botsToSearch(ctx);
      const found = new Map<string, WidgetContact>();
      const phones = person.phones.filter((p) => phoneDigits(p).length >= 5).slice(0, MAX_LOOKUPS);
      for (const botId of bots) {
        for (const phone of phones) {
          for (const value of phoneForms(phone)) {
            const hits = await findContactsByVariable(ctx, channel, botId, ctx.settings.matchVariable, value);
            for (const c of hits) found.set(c.id, toWidget(c, botId));
            if (hits.length) break;
          }
        }
      }
      if (found.size) return [...found.values()];
      const emails = person.emails.filter((e) => e.includes('@')).slice(0, MAX_LOOKUPS);
      for (const botId of bots) {
        for (const email of emails) {
          for (const c of await findContactsByVariable(ctx, channel, botId, 'email', email.trim())) {
            found.set(c.id, toWidget(c, botId));
          }
        }
      }
      return [...found.values()];
    },
    sendText: (contactId: string, text: string) => sendText(ctx, channel, contactId, text),
  };
}

export { ZSendpulseAuth, ZSendpulseSettings };
