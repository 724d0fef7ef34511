// Names that come from outside (payload keys, mapping paths, header names, settings keys, CRM
// field names…) are data, never object members: `obj[name]` on a plain object finds what every
// object inherits (`constructor`, `toString`, `__proto__`), and assigning `obj['__proto__']`
// replaces the prototype. Index by an outside name only through these.

/** The value of `key` only when the object holds it itself (never an inherited member). */
export function ownValue(obj: unknown, key: string): unknown {
  if (obj === null || typeof obj !== 'object') return undefined;
  return Object.hasOwn(obj, key) ? (obj as Record<string, unknown>)[key] : undefined; // own-keys: checked
}

/** Sets `key` as the object's own property, `__proto__` included (no prototype change). */
export function setOwn<T>(obj: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A record with no prototype: every key is data. JSON.stringify and spreads treat it as `{}`. */
export function dataRecord<T>(entries?: Iterable<readonly [string, T]>): Record<string, T> {
  const out = Object.create(null) as Record<string, T>;
  if (entries) for (const [k, v] of entries) out[k] = v;
  return out;
}
