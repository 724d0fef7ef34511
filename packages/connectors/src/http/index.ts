// The `http` destination: POST each lead as JSON to the user's https URL, optionally HMAC-signed.
import { defineConnector } from '../kit/define-connector';
import { PermanentError } from '../kit/errors';
import { externalIdOf, type HttpAuth, type HttpSettings, postJson } from './client';
import { toHttpBody, toTestBody } from './mapping';
import { ZHttpAuth, ZHttpSettings } from './schema';

export { ZHttpAuth, ZHttpSettings };

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
