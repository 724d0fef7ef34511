// Bitrix24 as a destination: the settings an integration stores, the body of its connect route (the
// portal's inbound webhook address), what its own routes answer, and the address rules both sides check.
// The server validates with these and the web builds its forms from them (the manifest imports them).
import { requiredText } from '@leadrelay/shared';
import { z } from 'zod';

/** Where leads go: a Bitrix24 lead (crm.lead.add), or a deal in a pipeline and stage (crm.deal.add). */
export const BITRIX24_TARGETS = ['lead', 'deal'] as const;
export type Bitrix24Target = (typeof BITRIX24_TARGETS)[number];

export const ZBitrix24Settings = z.object({
  target: z.enum(BITRIX24_TARGETS).default('lead'),
  /** A deal pipeline (crm.category.list, entityTypeId 2; 0 is the general one). Unset: the portal's default. */
  categoryId: z.number().int().min(0).max(1_000_000).optional(),
  /**
   * A stage of that pipeline by its directory record's ID (crm.status.list `ID`, a number); the
   * STATUS_ID it stands for ("NEW", "C1:NEW") is read at delivery. Unset: the pipeline's first stage.
   */
  stageId: z.number().int().positive().optional(),
  /** The record's title; {name}, {phone}, {email}, {source} are filled in. Default "Заявка: {name}". */
  title: z.string().max(250).optional(),
  /** Responsible user when distribution names nobody the portal has. */
  ownerId: z.number().int().positive().optional(),
});
export type Bitrix24Settings = z.infer<typeof ZBitrix24Settings>;

/** POST /api/bitrix24/connect: the inbound webhook address an administrator made in Bitrix24. */
export const ZBitrix24ConnectBody = z.object({
  integrationId: z.uuid(),
  webhookUrl: requiredText().trim().max(500),
});
export type Bitrix24ConnectBody = z.infer<typeof ZBitrix24ConnectBody>;
export const ZBitrix24ConnectResult = z.object({ integrationId: z.string(), type: z.literal('bitrix24') });

/** GET /api/bitrix24/account/{id}: the portal and the webhook's user, never the webhook's code. */
export const ZBitrix24Account = z.object({
  connected: z.boolean(),
  portal: z.string().optional(),
  /** The user the webhook acts as (its number in the address). */
  userId: z.number().optional(),
  /** The address with its code hidden: https://acme.bitrix24.ua/rest/1/••••/ */
  webhook: z.string().optional(),
});
export type Bitrix24Account = z.infer<typeof ZBitrix24Account>;

export const ZBitrix24Stage = z.object({
  id: z.number(),
  statusId: z.string(),
  name: z.string(),
  sort: z.number(),
  semantics: z.string(),
});
export const ZBitrix24Pipeline = z.object({
  id: z.number(),
  name: z.string(),
  isDefault: z.boolean(),
  stages: z.array(ZBitrix24Stage),
});
export type Bitrix24Pipeline = z.infer<typeof ZBitrix24Pipeline>;
export type Bitrix24Stage = z.infer<typeof ZBitrix24Stage>;

export const ZBitrix24User = z.object({ id: z.number(), name: z.string(), email: z.string().optional() });
export type Bitrix24User = z.infer<typeof ZBitrix24User>;

// ---- The inbound webhook address (the web checks as you type, the server checks the host again) ----

/** https://{portal}/rest/{user id}/{code}/ : the portal's origin, the webhook's user and its secret code. */
export interface InboundWebhook {
  origin: string;
  userId: number;
  code: string;
}

/**
 * The inbound webhook in what a person pasted: the address Bitrix24 shows, with or without its
 * trailing slash, or with a method name after it (".../profile.json", as its examples show).
 * Undefined when it is not one (user info, a query, another path, a code of other characters).
 */
export function parseInboundWebhook(input: string): InboundWebhook | undefined {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return undefined;
  }
  if (url.username || url.password || url.search || url.hash || !/^https?:$/.test(url.protocol)) return undefined;
  const m = /^\/rest\/(\d{1,10})\/([A-Za-z0-9]{8,64})(?:\/(?:[a-z][a-z0-9_.]{0,80})?)?$/.exec(url.pathname);
  if (!m) return undefined;
  const userId = Number(m[1]);
  if (!Number.isSafeInteger(userId) || userId <= 0) return undefined;
  return { origin: url.origin, userId, code: m[2]! };
}

/** The base every method name is appended to. */
export const webhookBase = (w: InboundWebhook): string => `${w.origin}/rest/${w.userId}/${w.code}/`;

/** The address as a screen may show it: the code hidden. */
export const maskedWebhook = (w: InboundWebhook): string => `${w.origin}/rest/${w.userId}/••••/`;

/**
 * The token Bitrix24 shows for an outgoing webhook (speed to lead: stage-watch.ts), pasted back on
 * the destination's page: 32 hexadecimal characters in the documentation's examples; letters and
 * digits of a sane length are taken, in case a portal makes them otherwise.
 */
export const ZBitrix24OutgoingToken = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9]{16,128}$/, { error: 'BITRIX24_OUTGOING_TOKEN_INVALID' });
