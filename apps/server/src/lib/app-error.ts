// The error every layer throws for an answer a person or client can act on: a code of the API's
// (ErrorCode, its HTTP status from the shared table or its connector's: lib/error-codes.ts), field errors and headers. The error handler
// (plugins/errors.ts) turns it into the answer; lib/ and delivery/ throw it without knowing Fastify.
import type { ErrorCode } from '@leadrelay/shared';
import { statusOf } from './error-codes';

export type FieldError = { field: string; code: ErrorCode };

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly statusCode: number;
  readonly errors?: FieldError[];
  /** Extra response headers, e.g. Retry-After. */
  readonly headers?: Record<string, string>;

  constructor(
    code: ErrorCode,
    options: { message?: string; errors?: FieldError[]; headers?: Record<string, string> } = {},
  ) {
    super(options.message ?? humanize(code));
    this.name = 'AppError';
    this.code = code;
    this.statusCode = statusOf(code);
    this.errors = options.errors;
    this.headers = options.headers;
  }
}

/** A code as a sentence (the message of an AppError made without one). */
export function humanize(code: string): string {
  const text = code.toLowerCase().replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
