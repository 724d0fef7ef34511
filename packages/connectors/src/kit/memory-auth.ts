// rotateAuth and withLock as the server provides them, kept in memory: for connector tests and for
// callers that hold credentials nowhere else. Same contract as ConnectorContext.rotateAuth.
import { createKeyedLock, lockAll, sortedKeys } from './keyed-lock';
import type { ConnectorContext } from './types';

export interface MemoryAuthStore<Auth> {
  /** The credentials stored now. */
  current(): Auth;
  /** How many times a refresh actually ran. */
  refreshes(): number;
  rotateAuth: NonNullable<ConnectorContext<Auth, unknown>['rotateAuth']>;
  withLock: NonNullable<ConnectorContext<Auth, unknown>['withLock']>;
}

export function memoryAuthStore<Auth>(initial: Auth): MemoryAuthStore<Auth> {
  let stored = initial;
  let refreshes = 0;
  const lock = createKeyedLock();
  return {
    current: () => stored,
    refreshes: () => refreshes,
    rotateAuth: (stale, refresh) =>
      lock('auth', async () => {
        if (JSON.stringify(stored) !== JSON.stringify(stale)) return stored;
        refreshes += 1;
        stored = await refresh(stored);
        return stored;
      }),
    withLock: (keys, fn) =>
      lockAll(
        lock,
        sortedKeys(keys).map((k) => `key:${k}`),
        fn,
      ),
  };
}
