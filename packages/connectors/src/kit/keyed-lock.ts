// An in-process lock per key: calls with the same key run one after another, in arrival order;
// other keys are not held up. The server adds a PostgreSQL advisory lock on top across processes.

export type KeyedLock = <T>(key: string, fn: () => Promise<T>) => Promise<T>;

export function createKeyedLock(): KeyedLock {
  const tails = new Map<string, Promise<unknown>>();
  return async <T>(key: string, fn: () => Promise<T>): Promise<T> => {
    const previous = tails.get(key) ?? Promise.resolve();
    const run = previous.then(fn, fn);
    const tail = run.catch(() => undefined);
    tails.set(key, tail);
    try {
      return await run;
    } finally {
      // The last one out removes the key, so the map holds only keys in use.
      if (tails.get(key) === tail) tails.delete(key);
    }
  };
}

/** One key or several; several are taken in sorted order, so two callers never wait on each other in a cycle. */
export type LockKeys = string | readonly string[];

export const sortedKeys = (keys: LockKeys): string[] => [...new Set(typeof keys === 'string' ? [keys] : keys)].sort();

/** Runs `fn` holding every key of `keys` on `lock` (nested in sorted order). */
export function lockAll<T>(lock: KeyedLock, keys: LockKeys, fn: () => Promise<T>): Promise<T> {
  return sortedKeys(keys).reduceRight<() => Promise<T>>((inner, key) => () => lock(key, inner), fn)();
}

/**
 * The keys that name one person in a lead: its phone digits and its e-mail. A connector locks them
 * all while it looks for the contact and creates it, so two leads for one person (one with a phone,
 * the other with the phone and an e-mail) never make two contacts.
 */
export function personLockKeys(lead: { phone?: string; email?: string }, fallback: string): string[] {
  const keys: string[] = [];
  const digits = lead.phone?.replace(/\D+/g, '');
  if (digits) keys.push(`phone:${digits}`);
  const email = lead.email?.trim().toLowerCase();
  if (email) keys.push(`email:${email}`);
  return keys.length ? keys : [fallback];
}
