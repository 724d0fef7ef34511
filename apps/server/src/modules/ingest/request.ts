import { setOwn } from '@leadrelay/shared';
import type { StoredRequest } from '../../db/schema';

const SECRET_HEADER = /authorization|cookie|token|secret|signature|api[-_]?key|password|session/i;
// x-leadrelay-*: only we set them (a source's item id, a test lead): a sender's own are not kept.
const DROPPED_HEADER = /^(host|connection|content-length|accept-encoding|x-forwarded-.*|x-leadrelay-.*)$/i;

/** The request as stored on the hook: headers that may carry secrets are redacted. */
export function storedRequest(
  method: string,
  headers: Record<string, string | string[] | undefined>,
  body: unknown,
  ip?: string,
): StoredRequest {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || DROPPED_HEADER.test(name)) continue;
    // A header name is the sender's: `__proto__` is kept as a header, not taken as the prototype.
    setOwn(kept, name, SECRET_HEADER.test(name) ? '[redacted]' : Array.isArray(value) ? value.join(', ') : value);
  }
  const contentType = typeof headers['content-type'] === 'string' ? headers['content-type'] : undefined;
  return { method, contentType, headers: kept, body, ip };
}
