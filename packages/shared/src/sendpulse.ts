// SendPulse as a destination (CRM contact and deal) and as the chatbot behind the Pipedrive widget
// (spec 2 "Widget", 7 "Pipedrive": GET /api/legacy/api/pipedrive/sendpulse). The server validates
// with these and the web builds its forms and reads the widget's answers with them.
import { z } from 'zod';
import { requiredText } from './validation';

export const SENDPULSE_CHANNELS = ['telegram', 'whatsapp', 'instagram', 'messenger', 'viber', 'livechat'] as const;
export type SendpulseChannel = (typeof SENDPULSE_CHANNELS)[number];

/** A REST API app's ID and Secret (SendPulse: Settings → API). */
export const ZSendpulseAuth = z.object({
  clientId: requiredText().trim().max(200),
  clientSecret: requiredText().trim().max(200),
});
export type SendpulseAuth = z.infer<typeof ZSendpulseAuth>;

export const ZSendpulseSettings = z.object({
  /** The chatbot channel the widget searches and writes in. */
  channel: z.enum(SENDPULSE_CHANNELS).default('telegram'),
  /** The bot; unset: every bot of the channel is searched. */
  botId: z.string().trim().min(1).max(100).optional(),
  /** The bot variable holding the contact's phone. */
  matchVariable: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_.-]{1,100}$/, { error: 'VALIDATION_ERROR' })
    .default('phone'),
  /** Set both to make a CRM deal for every lead (else only the contact). */
  pipelineId: z.number().int().positive().optional(),
  stepId: z.number().int().positive().optional(),
});
export type SendpulseSettings = z.infer<typeof ZSendpulseSettings>;

export const ZSendpulseBot = z.object({ id: z.string(), name: z.string(), channel: z.string() });
export type SendpulseBot = z.infer<typeof ZSendpulseBot>;

// ---- The Pipedrive–SendPulse widget ----

export const SENDPULSE_MESSAGE_MAX = 4096;

/** GET /api/pipedrive/widget/{integrationId}: the address to paste into Pipedrive as a custom panel. */
export const ZWidgetUrl = z.object({ url: z.string() });

const required = (i: { input: unknown }) => (i.input === undefined ? 'REQUIRED' : 'INVALID_TYPE');
const ZToken = z.string({ error: required }).min(1, { error: 'REQUIRED' }).max(4000, { error: 'VALIDATION_ERROR' });
/** A Pipedrive person id: in a query string the digits, in a body a number. */
const ZPersonIdText = z
  .string({ error: required })
  .regex(/^[1-9]\d{0,14}$/, { error: 'INVALID_TYPE' })
  .transform(Number);
const ZPersonId = z.number({ error: required }).int({ error: 'INVALID_TYPE' }).positive({ error: 'INVALID_TYPE' });

export const ZWidgetQuery = z.object({ token: ZToken, personId: ZPersonIdText });
export type WidgetQuery = z.infer<typeof ZWidgetQuery>;

export const ZWidgetPerson = z.object({
  id: z.number(),
  name: z.string(),
  phones: z.array(z.string()),
  emails: z.array(z.string()),
});
export const ZWidgetContact = z.object({
  id: z.string(),
  name: z.string(),
  username: z.string().optional(),
  channel: z.string(),
  lastActivityAt: z.string().optional(),
  conversationUrl: z.string(),
});
export const ZWidgetData = z.object({
  person: ZWidgetPerson,
  channel: z.string(),
  contacts: z.array(ZWidgetContact),
});
export type WidgetPerson = z.infer<typeof ZWidgetPerson>;
export type WidgetContact = z.infer<typeof ZWidgetContact>;
export type WidgetData = z.infer<typeof ZWidgetData>;

export const ZWidgetMessageBody = z.object({
  token: ZToken,
  personId: ZPersonId,
  contactId: z.string({ error: required }).trim().min(1, { error: 'REQUIRED' }).max(100, { error: 'VALIDATION_ERROR' }),
  text: z
    .string({ error: (i) => (i.input === undefined ? 'REQUIRED' : 'INVALID_TYPE') })
    .refine((s) => s.trim().length > 0, { error: 'REQUIRED' })
    .refine((s) => s.length <= SENDPULSE_MESSAGE_MAX, { error: `MAX_LENGTH_${SENDPULSE_MESSAGE_MAX}` }),
});
export type WidgetMessageBody = z.infer<typeof ZWidgetMessageBody>;
