import type { ConnectorCache, ConnectorContext } from './types';

/** A cache in memory (the server keeps one per integration; tests make their own). */
export function createConnectorCache(): ConnectorCache {
  const values = new Map<string, unknown>();
  return {
    get<T>(key: string, create: () => T): T {
      if (!values.has(key)) values.set(key, create());
      return values.get(key) as T;
    },
    clear: () => values.clear(),
  };
}

/** The connection's cache; a bare context (a unit test) gets one kept on the context object itself. */
export function cacheOf<Auth, Settings>(ctx: ConnectorContext<Auth, Settings>): ConnectorCache {
  ctx.cache ??= createConnectorCache();
  return ctx.cache;
}
