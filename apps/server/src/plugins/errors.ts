import { type ApiError, type ErrorCode, fieldErrors, ownValue } from '@leadrelay/shared';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { ZodError } from 'zod';
import { AppError, type FieldError, humanize } from '../lib/app-error';
import { isKnownCode, statusOf } from '../lib/error-codes';

interface ValidationIssue {
  keyword: string;
  instancePath: string;
  message?: string;
  params?: Record<string, unknown>;
}

/** A zod issue as zod gives it, or as fastify-type-provider-zod passes it on (its fields in `params`). */
interface IssueLike {
  code: string;
  path: string[];
  message: string;
  keys?: unknown;
  errors?: unknown;
}

const isMissing = (i: IssueLike) => i.code === 'invalid_type' && /received (undefined|null)/.test(i.message);

/** An issue's key: its message when that is one of our keys, else REQUIRED, INVALID_TYPE or VALIDATION_ERROR. */
function issueCode(issue: IssueLike): ErrorCode {
  if (isKnownCode(issue.message)) return issue.message;
  if (issue.code === 'invalid_type') return isMissing(issue) ? 'REQUIRED' : 'INVALID_TYPE';
  return 'VALIDATION_ERROR';
}

/**
 * Each issue as { path, message: our key }. A union none of whose shapes fits (a connect that takes
 * an OAuth code or an API token) speaks for the shape the body meant, the one missing the fewest
 * fields, so a short token is MIN_LENGTH_10 and not "invalid input".
 */
function toKeyedIssues(issues: IssueLike[]): { path: string[]; message: string }[] {
  const out: { path: string[]; message: string }[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys' && Array.isArray(issue.keys)) {
      for (const key of issue.keys) out.push({ path: [...issue.path, String(key)], message: 'VALIDATION_ERROR' });
      continue;
    }
    if (issue.code === 'invalid_union' && Array.isArray(issue.errors) && issue.errors.length > 0) {
      const branches = issue.errors as { code: string; path: PropertyKey[]; message: string }[][];
      const missing = (b: (typeof branches)[number]) => b.filter((i) => isMissing({ ...i, path: [] })).length;
      const meant = branches.reduce((best, b) => (missing(b) < missing(best) ? b : best));
      const nested = meant.map((i) => ({ ...i, path: [...issue.path, ...i.path.map(String)] }));
      if (nested.length > 0) {
        out.push(...toKeyedIssues(nested));
        continue;
      }
    }
    out.push({ path: issue.path, message: issueCode(issue) });
  }
  return out;
}

/** Zod's own messages (not one of our keys) become REQUIRED, INVALID_TYPE or VALIDATION_ERROR. */
function toIssues(validation: ValidationIssue[]) {
  return toKeyedIssues(
    validation.map((v) => ({
      ...v.params,
      code: v.keyword,
      path: v.instancePath.split('/').filter(Boolean),
      message: v.message ?? '',
    })),
  );
}

/**
 * A schema a service checks itself (a connector's credentials and settings, a source's options)
 * answers like a route's own schema: each field with its key (MIN_LENGTH_8, REQUIRED …), the first
 * of them the answer's code, so a short key is MIN_LENGTH_8 and not a bare VALIDATION_ERROR.
 * `prefix` ('auth', 'body' …) goes before each field; '' names the fields as a route's body schema does.
 */
export function zodAppError(prefix: string, error: ZodError): AppError {
  const issues = toKeyedIssues(
    error.issues.map(
      (i) => ({ ...i, path: [...(prefix ? [prefix] : []), ...i.path.map(String)] }) as unknown as IssueLike,
    ),
  );
  const errors = fieldErrors({ issues } as unknown as ZodError) as FieldError[];
  return new AppError(errors[0]?.code ?? 'VALIDATION_ERROR', { errors });
}

/** Fastify's own client errors, by code. */
const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'VALIDATION_ERROR',
};

const STATUS_CODES: Record<number, ErrorCode> = {
  400: 'VALIDATION_ERROR',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'TOO_MANY_REQUESTS',
};

/** What @fastify/busboy throws at a malformed multipart body: plain errors, known only by their text. */
const MULTIPART_PARSER_ERROR = /^Multipart: |unexpected end of multipart data|malformed part header/i;

/** PostgreSQL's answers to text it cannot store: U+0000 (22021) and `\\ud800` in jsonb (22P05). */
const UNSTORABLE_TEXT = new Set(['22021', '22P05']);

/** The SQLSTATE of a database error, also when the query builder wraps it as its `cause`. */
function pgCodeOf(error: unknown): string | undefined {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, i = 0; e && i < 3; e = e.cause as never, i++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  }
  return undefined;
}

function body(code: ErrorCode, message: string, errors?: FieldError[]): ApiError {
  return { statusCode: statusOf(code), code, message, ...(errors?.length ? { errors } : {}) };
}

/**
 * Paths Fastify's router refuses before any route (its `frameworkErrors`): a parameter over its 100
 * characters, which no id or secret of ours is (so it is an unknown one: 404), or a malformed
 * percent-encoding (400). Our error shape, never the path echoed back: it may carry a secret.
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const code: ErrorCode = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'NOT_FOUND' : 'VALIDATION_ERROR';
  void reply.code(statusOf(code)).send(body(code, humanize(code)));
}

export function setupErrors(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      if (error.headers) reply.headers(error.headers);
      return reply.code(error.statusCode).send(body(error.code, error.message, error.errors));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors = fieldErrors({ issues: toIssues(error.validation) } as unknown as ZodError) as FieldError[];
      const first = errors[0]?.code ?? 'VALIDATION_ERROR';
      return reply.code(400).send(body(first, `Invalid ${error.validationContext ?? 'request'}`, errors));
    }
    if (!isResponseSerializationError(error as never)) {
      const mapped =
        (ownValue(FASTIFY_CODES, error.code) as ErrorCode | undefined) ??
        (error.statusCode && error.statusCode < 500 ? STATUS_CODES[error.statusCode] : undefined);
      if (mapped) return reply.code(statusOf(mapped)).send(body(mapped, humanize(mapped)));
      if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
        return reply.code(400).send(body('VALIDATION_ERROR', 'Bad request'));
      }
    }
    if (MULTIPART_PARSER_ERROR.test(error.message ?? '')) {
      // The multipart parser's own complaints (no boundary, a truncated part) wherever a route reads parts.
      request.log.info({ err: error }, 'malformed multipart body');
      return reply.code(400).send(body('INVALID_MULTIPART', humanize('INVALID_MULTIPART')));
    }
    if (UNSTORABLE_TEXT.has(pgCodeOf(error) ?? '')) {
      // The input boundary (plugins/input.ts) should have caught it: logged so the gap gets closed.
      request.log.warn({ err: error }, 'text PostgreSQL cannot store got past the input boundary');
      return reply.code(400).send(body('INVALID_CHARACTERS', humanize('INVALID_CHARACTERS')));
    }
    request.log.error({ err: error }, 'unexpected error');
    return reply.code(500).send(body('INTERNAL_ERROR', 'Something went wrong'));
  });

  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send(body('NOT_FOUND', `Route ${request.method} ${request.url.split('?')[0]} not found`));
  });
}
