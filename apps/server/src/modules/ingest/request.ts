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

const NUL = '\u0000';

/**
 * The body without U+0000: PostgreSQL cannot store it in text or JSON, and a stray one from a
 * broken form must not cost the lead. Returns the same object when there is none (the usual case).
 */
export function withoutNul<T>(value: T): T {
  if (typeof value === 'string') return (value.includes(NUL) ? value.replaceAll(NUL, '') : value) as T;
  if (Array.isArray(value)) {
    const items = value.map(withoutNul);
    return (items.some((item, i) => item !== value[i]) ? items : value) as T;
  }
  if (value && typeof value === 'object') {
    let changed = false;
    const entries = Object.entries(value).map(([key, item]) => {
      const cleanKey = withoutNul(key);
      const cleanItem = withoutNul(item);
      if (cleanKey !== key || cleanItem !== item) changed = true;
      return [cleanKey, cleanItem] as const;
    });
    return (changed ? Object.fromEntries(entries) : value) as T;
  }
  return value;
}
