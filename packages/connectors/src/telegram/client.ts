// The only file of the Telegram connector that talks to the Bot API: grammY's Api over ctx.fetch
// (the server's safe fetch) at the configured API root (api.telegram.org, or the emulator), and
// Telegram's failures as the engine's errors. A 429 waits its retry_after; a manager who blocked
// the bot fails that manager's card only; a token Telegram refuses breaks the connection.
import { Api, type ApiClientOptions, GrammyError, HttpError } from 'grammy';
import { PermanentError, RetryableError } from '../kit/errors';

export const TELEGRAM_API_URL = 'https://api.telegram.org';

export interface TelegramCall {
  fetch: typeof fetch;
  /** Telegram's API root (methods are at {root}/bot<token>/<method>). */
  baseUrl?: string;
  signal?: AbortSignal;
}

/** grammY's client options for our fetch and API root (an Api's, or a Bot's `client`). */
export function telegramClientOptions(call: TelegramCall): ApiClientOptions {
  return {
    apiRoot: (call.baseUrl ?? TELEGRAM_API_URL).replace(/\/+$/, ''),
    // grammY's own AbortSignal (the abort-controller shim) is not the platform's; the call's signal bounds it instead.
    fetch: ((url: Parameters<typeof fetch>[0], init?: RequestInit) =>
      call.fetch(url, { ...init, signal: call.signal ?? null })) as typeof fetch,
    // grammY's default adds node-fetch's agent and compress options, which the platform fetch does not take.
    baseFetchConfig: {},
    timeoutSeconds: 15,
  };
}

/** grammY's Api for one bot token over our fetch. */
export function telegramApi(call: TelegramCall, token: string): Api {
  return new Api(token, telegramClientOptions(call));
}

/** Telegram's answers as the engine's errors; the token never appears in a message. */
export function telegramError(error: unknown): Error {
  if (error instanceof GrammyError) {
    const status = error.error_code;
    const said = error.description.slice(0, 200);
    if (status === 429) {
      const seconds = error.parameters.retry_after ?? 1;
      return new RetryableError(`TELEGRAM_RATE_LIMITED: ${said}`, {
        httpStatus: 429,
        code: 'RATE_LIMITED',
        retryAfterMs: seconds * 1000,
      });
    }
    if (status === 401 || status === 404) {
      return new PermanentError('TELEGRAM_TOKEN_INVALID', { httpStatus: status, code: 'AUTH' });
    }
    if (status === 403)
      return new PermanentError(`TELEGRAM_BLOCKED: ${said}`, { httpStatus: 403, code: 'TELEGRAM_BLOCKED' });
    if (status === 400 && /chat not found/i.test(said)) {
      return new PermanentError(`TELEGRAM_CHAT_NOT_FOUND: ${said}`, {
        httpStatus: 400,
        code: 'TELEGRAM_CHAT_NOT_FOUND',
      });
    }
    if (status >= 500) return new RetryableError(`HTTP_5XX: ${said}`, { httpStatus: status, code: 'HTTP_5XX' });
    return new PermanentError(`HTTP_4XX: ${said}`, { httpStatus: status, code: 'HTTP_4XX' });
  }
  if (error instanceof HttpError) return new RetryableError('NETWORK', { code: 'NETWORK', cause: error.error });
  if (error instanceof PermanentError || error instanceof RetryableError) return error;
  return new RetryableError('NETWORK', { code: 'NETWORK', cause: error });
}

/** Runs a Bot API call, its failure classified. */
export async function callTelegram<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw telegramError(error);
  }
}
