// The `http` destination: POST each lead as JSON to the user's https URL, optionally HMAC-signed.
import { requiredText } from '@leadrelay/shared';
import { z } from 'zod';
import { defineConnector } from '../kit/define-connector';
import { PermanentError } from '../kit/errors';
import { externalIdOf, type HttpAuth, type HttpSettings, postJson } from './client';
import { toHttpBody, toTestBody } from './mapping';

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

export const ZHttpAuth = z.object({
  /** HMAC-SHA256 key; when set every request carries X-LeadRelay-Signature and X-LeadRelay-Timestamp. */
  secret: requiredText().max(500, { error: 'MAX_LENGTH_500' }).optional(),
});

export const ZHttpSettings = z.object({
  url: z
    .string()
    .url()
    .refine((u) => /^https?:\/\//i.test(u), 'http or https only'),
  headers: z
    .record(
      z
        .string()
        .regex(HEADER_NAME, 'not a valid header name')
        .refine((n) => !RESERVED_HEADERS.has(n.toLowerCase()) && !n.toLowerCase().startsWith('x-leadrelay-'), {
          message: 'this header is set by LeadRelay',
        }),
      z
        .string()
        .max(2000)
        .refine((v) => !/[\r\n\0]/.test(v), 'no line breaks in header values'),
    )
    .refine((h) => Object.keys(h).length <= 10, 'at most 10 extra headers')
    .optional(),
  format: z.enum(['lead', 'lead+raw']).optional(),
});

export const http = defineConnector<HttpAuth, HttpSettings>({
  slug: 'http',
  kind: 'destination',
  auth: ZHttpAuth,
  settings: ZHttpSettings,
  // A POST of {test: true} (signed like a lead), not a HEAD: webhook receivers (Zapier, Make, n8n, plain
  // handlers) often answer HEAD/GET with 404 or 405. Reachable and accepted = 2xx, or a 4xx other than
  // 401/403/404/405/410 (the receiver is there but validated our test body as "not a lead"). 401/403
  // (likely the signature or an extra auth header), 404/405/410 (wrong URL) and URL_NOT_ALLOWED fail
  // permanently; 5xx, 429, timeouts and network errors fail as retryable.
  async testConnection(ctx) {
    const body = toTestBody();
    try {
      await postJson(ctx, body, body.id);
    } catch (err) {
      if (err instanceof PermanentError && err.httpStatus && ![401, 403, 404, 405, 410].includes(err.httpStatus)) {
        if (err.httpStatus >= 400 && err.httpStatus < 500) return;
      }
      throw err;
    }
  },
  async deliver(ctx, input) {
    const payload = toHttpBody(input, ctx.settings.format ?? 'lead');
    const { body, trace } = await postJson(ctx, payload, input.idempotencyKey);
    return { ...trace, externalId: externalIdOf(body) };
  },
});
