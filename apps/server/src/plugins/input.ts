// The input boundary, in one place for every route (docs/adr/009-input-boundary.md):
// - a JSON body may nest at most MAX_BODY_DEPTH deep (BODY_TOO_DEEP), checked right after parsing
//   and without recursion, so a hostile body cannot overflow the stack further in;
// - text PostgreSQL cannot store (U+0000, or a UTF-16 surrogate without its pair, which `jsonb`
//   refuses) is rejected with INVALID_CHARACTERS in path parameters, the query string and bodies,
//   except where a route sets `config.textPolicy: 'clean'`: the lead sources, where a stray byte
//   from a broken form must not cost a lead. There NUL is dropped and a lone surrogate becomes
//   U+FFFD.
// `storableText` is the one cleaner for every way in: what arrives outside a parsed body (mail,
// LiqPay's base64 data, a source receiver's bytes, every lead at ingest) calls it where its bytes become text
// (the table in the ADR).
import { MAX_BODY_DEPTH } from '@leadrelay/shared';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/app-error';
import { storableText, unstorableTextAt } from '../lib/storable-text';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What to do with text PostgreSQL cannot store in the body: reject (default) or clean. */
    textPolicy?: 'reject' | 'clean';
    /**
     * A JSON body a third party posts (a messenger bot's updates, a CRM's events): a key named `__proto__`
     * or `constructor.prototype` is a field like any other, not refused with INVALID_JSON (the sender
     * cannot change it, and a refusal holds back its later calls). The code reading such a body
     * treats keys as data (ADR 011).
     */
    keysAsData?: boolean;
  }
}

/** Whether `value` nests objects and arrays deeper than `max` (iterative: safe on any input). */
export function nestsDeeperThan(value: unknown, max = MAX_BODY_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [item, depth] = stack.pop() as [unknown, number];
    if (item === null || typeof item !== 'object') continue;
    if (depth + 1 > max) return true;
    const children = Array.isArray(item) ? item : Object.values(item);
    for (const child of children) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

function rejectUnstorable(value: unknown): void {
  const field = unstorableTextAt(value);
  if (field !== null) throw new AppError('INVALID_CHARACTERS', { errors: [{ field, code: 'INVALID_CHARACTERS' }] });
}

export function setupInput(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  // JSON.parse makes `__proto__` an own data property: a field, as the webhook URL reads it (ingest/body-parsers.ts).
  const parseKeysAsData = app.getDefaultJsonParser('ignore', 'ignore');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const parse = request.routeOptions.config.keysAsData ? parseKeysAsData : parseJson;
    parse(request, body as string, (error, value) => {
      if (error) return done(error, undefined);
      if (nestsDeeperThan(value)) return done(new AppError('BODY_TOO_DEEP'), undefined);
      done(null, value);
    });
  });

  app.addHook('preValidation', async (request) => {
    rejectUnstorable(request.params);
    rejectUnstorable(request.query);
    if (request.body === undefined) return;
    if (request.routeOptions.config.textPolicy === 'clean') request.body = storableText(request.body);
    else rejectUnstorable(request.body);
  });
}
