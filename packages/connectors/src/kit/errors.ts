import type { AttemptTrace } from './types';

interface FailureDetails extends AttemptTrace {
  httpStatus?: number;
}

/** Worth trying again later: network failure, timeout, 429, 5xx. */
export class RetryableError extends Error {
  readonly retryable = true;
  readonly httpStatus?: number;
  /** From Retry-After or a rate-limit header; the engine waits at least this long. */
  readonly retryAfterMs?: number;
  readonly trace: AttemptTrace;
  constructor(message: string, details: FailureDetails & { retryAfterMs?: number } = {}) {
    super(message);
    this.name = 'RetryableError';
    this.httpStatus = details.httpStatus;
    this.retryAfterMs = details.retryAfterMs;
    this.trace = { request: details.request, response: details.response };
  }
}

/** A retry cannot fix it: bad mapping, revoked auth, a 4xx the destination will repeat. */
export class PermanentError extends Error {
  readonly retryable = false;
  readonly httpStatus?: number;
  readonly trace: AttemptTrace;
  constructor(message: string, details: FailureDetails = {}) {
    super(message);
    this.name = 'PermanentError';
    this.httpStatus = details.httpStatus;
    this.trace = { request: details.request, response: details.response };
  }
}
