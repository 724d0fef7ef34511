// Prom.ua (Ukraine's largest marketplace) as a lead SOURCE: the merchant's API token and what the
// integration page reads. An order's fields are in mapping.ts; which of them are confirmed and which
// assumed: docs/connectors/promua.md.
import { z } from 'zod';

/**
 * A Prom API token: the merchant makes it in the company cabinet on Prom (API token management) with the
 * orders permission. It goes into an Authorization header, so no whitespace or control character.
 */
export const PROMUA_TOKEN = /^[\x21-\x7e]{8,500}$/;

/** What is stored (sealed) for a connection: the token alone. */
export const ZPromuaAuth = z.object({ token: z.string().regex(PROMUA_TOKEN) });
export type PromuaAuth = z.infer<typeof ZPromuaAuth>;

/** Nothing of a Prom connection is a setting (the API's address is the operator's configuration). */
export const ZPromuaSettings = z.object({}).passthrough();
export type PromuaSettings = z.infer<typeof ZPromuaSettings>;

const required = (i: { input: unknown }) => (i.input === undefined ? 'REQUIRED' : 'INVALID_TYPE');

/** POST /api/integrations/{id}/connect: the token, checked with Prom before it is stored. */
export const ZPromuaConnectBody = z
  .object({
    token: z
      .string({ error: required })
      .trim()
      .min(1, { error: 'REQUIRED' })
      .max(500, { error: 'MAX_LENGTH_500' })
      .regex(PROMUA_TOKEN, { error: 'PROMUA_TOKEN_INVALID' }),
  })
  .strict();
export type PromuaConnectBody = z.infer<typeof ZPromuaConnectBody>;

/** One order the poll found: what became of it is its hook's status. */
export const ZPromuaOrderRow = z.object({
  orderId: z.string(),
  name: z.string().nullable(),
  phone: z.string().nullable(),
  total: z.string().nullable(),
  currency: z.string().nullable(),
  /** The order's status at Prom when it was taken (pending, received …). */
  orderStatus: z.string().nullable(),
  via: z.enum(['webhook', 'poll']),
  timesSeen: z.number().int(),
  hookId: z.string().nullable(),
  /** The lead's hook status now (accepted, delivered, held …); null when the hook was deleted. */
  status: z.string().nullable(),
  receivedAt: z.string(),
  lastSeenAt: z.string(),
});

/** GET /api/integrations/{id}/source: the connection, the poll and the last orders. */
export const ZPromuaState = z.object({
  connected: z.boolean(),
  /** The token's last four characters, so the merchant can tell which one it is (never the token). */
  tokenEnd: z.string().nullable(),
  poll: z.object({
    /** Orders created before this were looked for (null: not yet). */
    polledUntil: z.string().nullable(),
    lastPollAt: z.string().nullable(),
    /** An error code (PROMUA_…), with Prom's words after a colon; null when the last poll worked. */
    lastError: z.string().nullable(),
  }),
  orders: z.array(ZPromuaOrderRow),
});
export type PromuaState = z.infer<typeof ZPromuaState>;
