import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHUNK_RELOAD_KEY, claimChunkReload, importWithReload, setReloadForTests } from './chunk-reload';

afterEach(() => vi.useRealTimers());

describe('chunk reload guard', () => {
  it('allows one reload per minute', () => {
    const t0 = 1_700_000_000_000;
    expect(claimChunkReload(t0)).toBe(true);
    expect(claimChunkReload(t0 + 1_000)).toBe(false);
    expect(claimChunkReload(t0 + 59_999)).toBe(false);
    expect(claimChunkReload(t0 + 60_000)).toBe(true);
    expect(sessionStorage.getItem(CHUNK_RELOAD_KEY)).toBe(String(t0 + 60_000));
  });

  it('reloads on the first failed import and rethrows on a second failure within the minute', async () => {
    const reload = vi.fn();
    setReloadForTests(reload);
    const failing = () => Promise.reject(new TypeError('Failed to fetch dynamically imported module'));
    void importWithReload(failing); // never settles: the page is reloading
    await new Promise((r) => setTimeout(r, 0));
    expect(reload).toHaveBeenCalledTimes(1);
    await expect(importWithReload(failing)).rejects.toThrow('dynamically imported');
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('passes successful imports through', async () => {
    await expect(importWithReload(async () => 'ok')).resolves.toBe('ok');
  });
});
