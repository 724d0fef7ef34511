import type { ErrorCode as ApiErrorCode } from '@leadrelay/shared';
import type { AttemptTrace } from './types';

interface FailureDetails extends AttemptTrace {
  httpStatus?: number;
  /** A stable machine-readable reason, e.g. URL_NOT_ALLOWED, TIMEOUT, NETWORK, AUTH, HTTP_4XX (see ErrorCode). */
  code?: ErrorCode | (string & {});
}

/** Reasons the kit itself uses; connectors may add their own strings. */
export type ErrorCode =
  | 'URL_NOT_ALLOWED'
  | 'TOO_MANY_REDIRECTS'
  | 'TIMEOUT'
  | 'ABORTED'
  | 'NETWORK'
  | 'AUTH'
  /** The destination refused our configuration (a sender name, the balance): the user must fix it. */
  | 'CONFIGURATION'
  /** The lead has no phone, e-mail or name: a CRM would make an empty contact (requiresContact). */
  | 'LEAD_NO_CONTACT'
  | 'RATE_LIMITED'
  | 'HTTP_5XX'
  | 'HTTP_4XX'
  | 'HTTP_UNEXPECTED';

/** Worth trying again later: network failure, timeout, 429, 5xx. */
export class RetryableError extends Error {
  readonly retryable = true;
  readonly httpStatus?: number;
  /** From Retry-After or a rate-limit header; the engine waits at least this long. */
  readonly retryAfterMs?: number;
  readonly code?: string;
  readonly trace: AttemptTrace;
  constructor(message: string, details: FailureDetails & { retryAfterMs?: number; cause?: unknown } = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'RetryableError';
    this.code = details.code;
    this.httpStatus = details.httpStatus;
    this.retryAfterMs = details.retryAfterMs;
    this.trace = { request: details.request, response: details.response };
  }
}

/** A retry cannot fix it: bad mapping, revoked auth, a 4xx the destination will repeat. */
export class PermanentError extends Error {
  readonly retryable = false;
  readonly httpStatus?: number;
  readonly code?: string;
  readonly trace: AttemptTrace;
  constructor(message: string, details: FailureDetails & { cause?: unknown } = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'PermanentError';
    this.code = details.code;
    this.httpStatus = details.httpStatus;
    this.trace = { request: details.request, response: details.response };
  }
}

/**
 * Not now, and not a failure: the destination must not be called before `until` (an SMS
 * destination's quiet hours). The engine makes the delivery due again then, without counting an attempt or a failure.
 * The message is a code the web translates (SMS_QUIET_HOURS).
 */
export class DeferredError extends Error {
  readonly deferred = true;
  readonly until: Date;
  readonly code?: string;
  constructor(message: string, details: { until: Date; code?: string }) {
    super(message);
    this.name = 'DeferredError';
    this.until = details.until;
    this.code = details.code;
  }
}

/**
 * A connect the person can put right (ConnectorDefinition.connect): one of the API's error codes,
 * which the server answers as it is, on a field of what they typed when `field` says so, with the
 * service's reason as the message when `reason` gives one (a portal address refused, on `portal`).
 */
export class ConnectRefusal extends Error {
  readonly code: ApiErrorCode;
  readonly field?: string;
  readonly reason?: string;
  constructor(code: ApiErrorCode, details: { field?: string; reason?: string } = {}) {
    super(code);
    this.name = 'ConnectRefusal';
    this.code = code;
    this.field = details.field;
    this.reason = details.reason;
  }
}
