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
