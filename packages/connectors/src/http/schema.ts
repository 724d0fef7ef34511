// What the http destination keeps: pure zod, shared by the connector (index.ts) and its page (manifest.ts).
import { requiredText } from '@leadrelay/shared';
import { z } from 'zod';

// Headers the connector owns or that HTTP itself owns: a user header must not replace them.
const RESERVED_HEADERS = new Set([
  'host',
  'content-length',
  'content-type',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'idempotency-key',
  'user-agent',
]);
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** At most this many extra headers. */
export const MAX_HEADERS = 10;

export const ZHttpAuth = z.object({
  /** HMAC-SHA256 key; when set every request carries X-LeadRelay-Signature and X-LeadRelay-Timestamp. */
  secret: requiredText().max(500, { error: 'MAX_LENGTH_500' }).optional(),
});

export const ZHttpUrl = z
  .string()
  .url()
  .refine((u) => /^https?:\/\//i.test(u), 'http or https only');

/** A header name a user may set: a token, and none that LeadRelay or HTTP itself sets. */
export const ZHeaderName = z
  .string()
  .regex(HEADER_NAME, 'not a valid header name')
  .refine((n) => !RESERVED_HEADERS.has(n.toLowerCase()) && !n.toLowerCase().startsWith('x-leadrelay-'), {
    message: 'this header is set by LeadRelay',
  });

export const ZHeaderValue = z
  .string()
  .max(2000)
  .refine((v) => !/[\r\n\0]/.test(v), 'no line breaks in header values');

export const HTTP_FORMATS = ['lead', 'lead+raw'] as const;

export const ZHttpSettings = z.object({
  url: ZHttpUrl,
  headers: z
    .record(ZHeaderName, ZHeaderValue)
    .refine((h) => Object.keys(h).length <= MAX_HEADERS, 'at most 10 extra headers')
    .optional(),
  format: z.enum(HTTP_FORMATS).optional(),
});
