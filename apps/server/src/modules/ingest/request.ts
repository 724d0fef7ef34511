import type { StoredRequest } from '../../db/schema';

const SECRET_HEADER = /authorization|cookie|token|secret|signature|api[-_]?key|password|session/i;
const DROPPED_HEADER = /^(host|connection|content-length|accept-encoding|x-forwarded-.*)$/i;

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
    kept[name] = SECRET_HEADER.test(name) ? '[redacted]' : Array.isArray(value) ? value.join(', ') : value;
  }
  const contentType = typeof headers['content-type'] === 'string' ? headers['content-type'] : undefined;
  return { method, contentType, headers: kept, body, ip };
}
