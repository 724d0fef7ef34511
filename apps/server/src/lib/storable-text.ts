// Text PostgreSQL cannot store: U+0000, and a UTF-16 surrogate without its pair (which `jsonb`
// refuses). `storableText` is the one cleaner for every way in (docs/adr/009-input-boundary.md): NUL
// dropped, a lone surrogate made U+FFFD. plugins/input.ts rejects or cleans request bodies with it;
// what arrives outside a parsed body (mail, a payment provider's data, a shop's order bytes, every
// lead, what a destination answers) calls it where its bytes become text.

const NUL = '\u0000';
const isStorable = (text: string) => !text.includes(NUL) && text.isWellFormed();
const cleanString = (text: string) => (isStorable(text) ? text : text.replaceAll(NUL, '').toWellFormed());

/** The path of the first string (key or value) PostgreSQL cannot store, or null. */
export function unstorableTextAt(value: unknown, path: string[] = []): string | null {
  if (typeof value === 'string') return isStorable(value) ? null : path.join('.') || '_';
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return null;
  for (const [key, item] of Object.entries(value)) {
    if (!isStorable(key)) return [...path, cleanString(key)].join('.');
    const found = unstorableTextAt(item, [...path, key]);
    if (found !== null) return found;
  }
  return null;
}

/**
 * The value with every string (keys too) made storable; the same object when nothing needed it
 * (the usual case), so a clean body costs one walk and no copy.
 */
export function storableText<T>(value: T): T {
  if (typeof value === 'string') return cleanString(value) as T;
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return value;
  if (Array.isArray(value)) {
    const items = value.map(storableText);
    return (items.some((item, i) => item !== value[i]) ? items : value) as T;
  }
  let changed = false;
  const entries = Object.entries(value).map(([key, item]) => {
    const cleanKey = cleanString(key);
    const cleanItem = storableText(item);
    if (cleanKey !== key || cleanItem !== item) changed = true;
    return [cleanKey, cleanItem] as const;
  });
  return (changed ? Object.fromEntries(entries) : value) as T;
}
