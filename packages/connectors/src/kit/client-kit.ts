// Pieces the destination clients share: a fetch that puts our request trace on every failure, and a
// wait that a cancelled call interrupts.
import { PermanentError, RetryableError } from './errors';
import type { AttemptTrace } from './types';

/**
 * fetchFn(url, init) with our (redacted) request trace on its failures: the safe fetch's own
 * classified errors keep their class, code and Retry-After; anything else is a NETWORK failure.
 */
export async function fetchWithTrace(
  fetchFn: typeof fetch,
  url: string,
  init: RequestInit,
  trace: AttemptTrace,
): Promise<Response> {
  try {
    return await fetchFn(url, init);
  } catch (err) {
    if (err instanceof PermanentError) throw new PermanentError(err.message, { ...trace, code: err.code, cause: err });
    if (err instanceof RetryableError) {
      throw new RetryableError(err.message, { ...trace, code: err.code, retryAfterMs: err.retryAfterMs, cause: err });
    }
    throw new RetryableError(`NETWORK: ${(err as Error).message}`, { ...trace, code: 'NETWORK', cause: err });
  }
}

/** Resolves after ms; rejects with abortReason() (default the signal's reason) once the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal, abortReason = () => signal?.reason): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
