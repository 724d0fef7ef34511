// The chatbot widget in a CRM's person panel (spec 2 "Widget"): the panel's
// address, what the panel asks and is answered, and the message it sends. The server validates with
// these and the web reads the widget's answers with them. The chatbot's own credentials and settings
// are its connector's (its folder's schema.ts).
import { z } from 'zod';

export const WIDGET_MESSAGE_MAX = 4096;

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
    .refine((s) => s.length <= WIDGET_MESSAGE_MAX, { error: `MAX_LENGTH_${WIDGET_MESSAGE_MAX}` }),
});
export type WidgetMessageBody = z.infer<typeof ZWidgetMessageBody>;
