// Pictures of connections' people and assets: the service answers a CDN URL that stays valid for hours, so
// each id is asked once per 2 hours (spec 9: avatar cache lifetime 7,200,000 ms), per process.
export const PICTURE_CACHE_TTL_MS = 7_200_000;
const MAX_ENTRIES = 5_000;

export interface PictureCache {
  /** The cached URL (null: the service has none), or undefined when it is not cached or expired. */
  get(id: string, now?: number): string | null | undefined;
  set(id: string, url: string | null, now?: number): void;
  forget(id: string): void;
}

export function createPictureCache(ttlMs = PICTURE_CACHE_TTL_MS): PictureCache {
  const entries = new Map<string, { url: string | null; expiresAt: number }>();
  return {
    get(id, now = Date.now()) {
      const entry = entries.get(id);
      if (!entry) return undefined;
      if (entry.expiresAt <= now) {
        entries.delete(id);
        return undefined;
      }
      return entry.url;
    },
    set(id, url, now = Date.now()) {
      entries.delete(id);
      // Map keeps insertion order: the first key is the oldest.
      if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
      entries.set(id, { url, expiresAt: now + ttlMs });
    },
    forget(id) {
      entries.delete(id);
    },
  };
}
