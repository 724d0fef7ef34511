// Spec section 4: a chunk-load failure reloads the page, at most once per minute.
import { CHUNK_RELOAD_GUARD_MS } from '@leadrelay/shared';

export const CHUNK_RELOAD_KEY = 'chunk-reload-at';

/** Records the attempt and returns true when no reload happened within the guard window. */
export function claimChunkReload(now = Date.now(), storage: Storage = sessionStorage): boolean {
  const last = Number(storage.getItem(CHUNK_RELOAD_KEY));
  if (last && now - last < CHUNK_RELOAD_GUARD_MS) return false;
  storage.setItem(CHUNK_RELOAD_KEY, String(now));
  return true;
}

let reload: () => void = () => window.location.reload();
export function setReloadForTests(fn: () => void): void {
  reload = fn;
}

/** Wraps a dynamic import: on failure reload once (guarded), otherwise rethrow. */
export async function importWithReload<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (err) {
    if (claimChunkReload()) {
      reload();
      return new Promise<T>(() => {}); // the page is going away
    }
    throw err;
  }
}

/** Vite reports failed preloads of dependencies with this event. */
export function installPreloadErrorHandler(): void {
  window.addEventListener('vite:preloadError', (event) => {
    if (claimChunkReload()) {
      event.preventDefault();
      reload();
    }
  });
}
