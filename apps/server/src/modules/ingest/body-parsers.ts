// How the webhook URL reads its bodies: every field name a form sends is data, whatever it is
// called (issue 27). Elsewhere the API refuses a JSON key `__proto__` (Fastify's prototype-poisoning
// guard) and @fastify/multipart refuses any field named like an Object.prototype member
// (`constructor`, `toString`…); on a lead source either would lose a lead for its field's name. The
// code that reads these bodies treats keys as data (ownValue/setOwn in @leadrelay/shared), so here
// they are kept as the sender wrote them.
import { MAX_BODY_DEPTH, setOwn, WEBHOOK_BODY_LIMIT_BYTES } from '@leadrelay/shared';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../lib/app-error';
import { nestsDeeperThan } from '../../plugins/input';

/** Fields a multipart body may carry (files included), as before. */
const MAX_PARTS = 1000;

/** Multipart fields as a flat record (repeated names become lists); files are read and dropped. */
export async function multipartFields(body: Buffer, contentType: string): Promise<Record<string, unknown>> {
  const fields: Record<string, unknown> = {};
  // An empty body is an empty form, as a form with no fields filled is sent by some builders.
  if (body.length === 0) return fields;
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(body), { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw new AppError('INVALID_MULTIPART');
  }
  let parts = 0;
  for (const [name, value] of form) {
    if (++parts > MAX_PARTS) throw new AppError('PAYLOAD_TOO_LARGE');
    if (typeof value !== 'string') continue;
    const previous = Object.hasOwn(fields, name) ? fields[name] : undefined;
    setOwn(
      fields,
      name,
      previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value],
    );
  }
  return fields;
}

/** The ingest context's JSON and multipart parsers (form-urlencoded keeps @fastify/formbody: its records have no prototype). */
export function keysAsDataParsers(app: FastifyInstance): void {
  // JSON.parse makes `__proto__` an own data property, which is all a field is here.
  const parseJson = app.getDefaultJsonParser('ignore', 'ignore');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: WEBHOOK_BODY_LIMIT_BYTES },
    (request, body, done) => {
      parseJson(request, body as string, (error, value) => {
        if (error) return done(error, undefined);
        if (nestsDeeperThan(value, MAX_BODY_DEPTH)) return done(new AppError('BODY_TOO_DEEP'), undefined);
        done(null, value);
      });
    },
  );
  app.addContentTypeParser(
    'multipart/form-data',
    { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT_BYTES },
    (request, body, done) => {
      multipartFields(body as Buffer, String(request.headers['content-type'])).then(
        (fields) => done(null, fields),
        (error: Error) => done(error, undefined),
      );
    },
  );
}
