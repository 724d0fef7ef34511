// The per-connection cache connectors get as ctx.cache (field lists, records made lately): one per
// integration id, in this process, for the API's calls and the worker's alike. Connectors keep no
// module-level state; this is where it went. Bounded: the least recently used connections are
// dropped past MAX_CONNECTIONS (a dropped cache only costs a re-read). Integration ids are random
// UUIDs, so apps sharing a process (tests) never share an entry.
import { type ConnectorCache, createConnectorCache } from '@leadrelay/connectors';

export const MAX_CONNECTIONS = 1_000;

const caches = new Map<string, ConnectorCache>();

export function connectionCache(integrationId: string): ConnectorCache {
  let cache = caches.get(integrationId);
  if (cache) {
    // Most recently used last: Map keeps insertion order.
    caches.delete(integrationId);
  } else {
    cache = createConnectorCache();
  }
  caches.set(integrationId, cache);
  for (const id of caches.keys()) {
    if (caches.size <= MAX_CONNECTIONS) break;
    caches.get(id)?.clear();
    caches.delete(id);
  }
  return cache;
}

/** Forgets a connection's cache (it was deleted or connected anew). */
export function forgetConnectionCache(integrationId: string): void {
  caches.get(integrationId)?.clear();
  caches.delete(integrationId);
}
