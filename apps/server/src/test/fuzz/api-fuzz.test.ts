// Property-based fuzzing of every operation in the OpenAPI document (issue 16): malformed,
// oversized, deeply nested, wrong-typed, unicode-hostile and boundary values in path parameters,
// the query and the body, sent anonymously, as a client, as staff and as the owner. Any 5xx, or an
// answer slower than REQUEST_TIMEOUT_MS, fails the operation's test with the request that did it.
//
// Seeded and bounded in `npm test` (FUZZ_SEED, FUZZ_RUNS runs per operation); the bench runs it
// larger (`npm run bench -w @leadrelay/bench -- fuzz`).
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountIdOf, createSource } from '../routing-fixtures';
import { createTestApp, type SignedInUser, signUp, signUpStaff, type TestApp } from '../test-app';

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_124);
const RUNS = Number(process.env.FUZZ_RUNS ?? 8);
const REQUEST_TIMEOUT_MS = 10_000;

interface Operation {
  method: string;
  path: string;
  params: string[];
  query: string[];
  /** Top-level body properties and their JSON Schema, so most bodies get past validation. */
  body: Record<string, JsonSchema>;
  required: string[];
}

interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  anyOf?: JsonSchema[];
}

type OpenApi = {
  paths: Record<string, Record<string, { parameters?: { name: string; in: string }[]; requestBody?: unknown }>>;
};

/** The operations of the document, with the names of their parameters and top-level body fields. */
function operationsOf(doc: OpenApi): Operation[] {
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const parameters = op.parameters ?? [];
      const content = (
        op.requestBody as { content?: Record<string, { schema?: JsonSchema & { required?: string[] } }> }
      )?.content;
      const schema = Object.values(content ?? {})[0]?.schema;
      ops.push({
        method: method.toUpperCase(),
        path,
        params: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        query: parameters.filter((p) => p.in === 'query').map((p) => p.name),
        body: schema?.properties ?? {},
        required: schema?.required ?? [],
      });
    }
  }
  return ops;
}

// ---- values -------------------------------------------------------------------------------

const HOSTILE = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfff',
  '\ud83d',
  '😀',
  'Олена Ґудзь',
  '../../etc/passwd',
  '%',
  '%00',
  '%E0%A4%A',
  "' or 1=1--",
  '<img src=x onerror=alert(1)>',
  '-1',
  '0',
  '1e309',
  '9007199254740993',
  'NaN',
  'null',
  'true',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  'a'.repeat(5000),
  '\u202e\u200b\ufeff',
  'http://127.0.0.1:1/',
  'javascript:alert(1)',
];

const hostileString = (ids: string[]) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...HOSTILE, ...ids) },
    { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 1, arbitrary: fc.uuid() },
  );

/** Any JSON-ish value, wrong types included; strings from the hostile set. */
const anyValue = (ids: string[]) =>
  fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      hostileString(ids),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(hostileString(ids), tie('value'), { maxKeys: 4 }),
    ),
  })).value;

const BOUNDARY_NUMBERS = [0, -1, 1, 0.5, -0, 2 ** 31, 2 ** 53 + 2, -(2 ** 63), 1e308, Number.MIN_VALUE];

/** A value of the schema's type with hostile content (so it gets past validation), or anything. */
function typedValue(schema: JsonSchema, ids: string[], depth = 0): fc.Arbitrary<unknown> {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  const typed = ((): fc.Arbitrary<unknown> | null => {
    if (schema.enum?.length) return fc.constantFrom(...schema.enum);
    if (schema.anyOf?.length) return fc.oneof(...schema.anyOf.map((s) => typedValue(s, ids, depth + 1)));
    if (type === 'string') return hostileString(ids);
    if (type === 'integer')
      return fc.oneof(fc.constantFrom(...BOUNDARY_NUMBERS.filter(Number.isInteger)), fc.integer());
    if (type === 'number') return fc.oneof(fc.constantFrom(...BOUNDARY_NUMBERS), fc.double({ noNaN: true }));
    if (type === 'boolean') return fc.boolean();
    if (type === 'array' && depth < 3)
      return fc.array(schema.items ? typedValue(schema.items, ids, depth + 1) : anyValue(ids), { maxLength: 5 });
    if (type === 'object' && schema.properties && depth < 3)
      return fc.record(
        Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, typedValue(v, ids, depth + 1)])),
        { requiredKeys: [] },
      );
    return null;
  })();
  return typed ? fc.oneof({ weight: 4, arbitrary: typed }, { weight: 1, arbitrary: anyValue(ids) }) : anyValue(ids);
}

/** A raw body: schema-shaped with hostile values, any JSON, or bytes no parser should choke on. */
const rawBody = (op: Operation, ids: string[]) =>
  fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .record(Object.fromEntries(Object.entries(op.body).map(([f, schema]) => [f, typedValue(schema, ids)])), {
          requiredKeys: op.required.filter((f) => f in op.body),
        })
        .map((b) => ({ type: 'application/json', payload: JSON.stringify(b) })),
    },
    { weight: 2, arbitrary: anyValue(ids).map((b) => ({ type: 'application/json', payload: JSON.stringify(b) })) },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 50, max: 5000 }).map((n) => ({
        type: 'application/json',
        payload: `${'{"a":['.repeat(n)}1${']}'.repeat(n)}`,
      })),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        { type: 'application/json', payload: '{"a":' },
        { type: 'application/json', payload: '{"a":"\\ud800","b":"\\u0000"}' },
        { type: 'application/json', payload: '{"__proto__":{"admin":true}}' },
        { type: 'application/json', payload: `{"a":"${'x'.repeat(200_000)}"}` },
        { type: 'application/x-www-form-urlencoded', payload: 'a=%00&b=%ED%A0%80&a=2' },
        { type: 'multipart/form-data', payload: 'no boundary' },
        {
          type: 'multipart/form-data; boundary=z',
          payload: '--z\r\nContent-Disposition: form-data; name="a"\r\n\r\nb',
        },
        { type: 'text/plain', payload: 'plain' },
        { type: 'application/xml', payload: '<a/>' },
      ),
    },
  );

/** Percent-encodes any JS string, lone surrogates too (as the bytes a broken client would send). */
function encodeSegment(text: string): string {
  return Array.from(text, (ch) => {
    try {
      return encodeURIComponent(ch);
    } catch {
      const code = ch.charCodeAt(0);
      return `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`.toUpperCase();
    }
  }).join('');
}

const requestFor = (op: Operation, ids: string[]) =>
  fc.record({
    caller: fc.constantFrom('anonymous', 'client', 'admin', 'owner'),
    params: fc.tuple(...op.params.map(() => hostileString(ids))),
    query: fc.array(
      fc.tuple(fc.oneof(fc.constantFrom(...op.query, 'page', 'limit', 'x'), hostileString([])), hostileString(ids)),
      { maxLength: 4 },
    ),
    body: fc.option(rawBody(op, ids), { nil: undefined, freq: 4 }),
  });

/**
 * The known classes of hostile input, run first for every operation and every known id, so a
 * regression of any of them fails at once whatever the seed: NUL and lone surrogates in
 * parameters and query, and bodies that are deep, unicode-hostile in every field, or broken
 * multipart.
 */
function edgeCases(op: Operation, ids: string[]): Sample[] {
  const poisoned = (text: string) => ({
    caller: 'client',
    params: op.params.map(() => text),
    query: [...op.query.map((q) => [q, text] as [string, string]), ['x', text] as [string, string]],
  });
  const everyField = (text: string) => JSON.stringify(Object.fromEntries(Object.keys(op.body).map((f) => [f, text])));
  const bodies = [
    { type: 'application/json', payload: `${'['.repeat(20_000)}${']'.repeat(20_000)}` },
    { type: 'application/json', payload: everyField('\ud800 a\u0000b') },
    { type: 'application/json', payload: JSON.stringify({ '\udc00': '\u0000' }) },
    { type: 'multipart/form-data', payload: 'no boundary' },
    { type: 'multipart/form-data; boundary=z', payload: '--z\r\nContent-Disposition: form-data; name="a"\r\n\r\nb' },
  ];
  return [
    { ...poisoned('a\u0000b'), body: undefined },
    { ...poisoned('\ud800'), body: undefined },
    ...ids.flatMap((id) =>
      bodies.map((body) => ({
        caller: 'owner',
        params: op.params.map(() => id),
        query: [] as [string, string][],
        body,
      })),
    ),
  ];
}

// ---- the run -------------------------------------------------------------------------------

let t: TestApp;
/** Warnings and errors the app logged: the error handler's last-resort mapping counts as a failure. */
const logged: string[] = [];
const callers: Record<string, SignedInUser | null> = { anonymous: null };
const ids: string[] = [];

const freshUser = (role: 'client' | 'admin' | 'owner'): Promise<SignedInUser> =>
  role === 'client' ? signUp(t) : signUpStaff(t, role);

/** A fuzzed call may sign a caller out or remove its account: the next operation gets a new one. */
async function keepCallersSignedIn(): Promise<void> {
  for (const role of ['client', 'admin', 'owner'] as const) {
    const user = callers[role];
    const me = user
      ? await t.app.inject({
          method: 'GET',
          url: '/api/auth/me',
          headers: { authorization: `Bearer ${user.accessToken}` },
        })
      : null;
    if (me?.statusCode !== 200) callers[role] = await freshUser(role);
  }
}

async function send(op: Operation, sample: Sample) {
  let path = op.path;
  op.params.forEach((name, i) => {
    path = path.replace(`{${name}}`, encodeSegment(sample.params[i] ?? ''));
  });
  const query = sample.query.map(([k, v]) => `${encodeSegment(k)}=${encodeSegment(v)}`).join('&');
  const user = callers[sample.caller];
  const headers: Record<string, string> = user ? { authorization: `Bearer ${user.accessToken}` } : {};
  if (sample.body) headers['content-type'] = sample.body.type;
  const call = t.app.inject({
    method: op.method as 'GET',
    url: query ? `${path}?${query}` : path,
    headers,
    ...(sample.body ? { payload: sample.body.payload } : {}),
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), REQUEST_TIMEOUT_MS);
  });
  const res = await Promise.race([call, timeout]).finally(() => clearTimeout(timer));
  return { res, url: query ? `${path}?${query}` : path };
}

interface Sample {
  caller: string;
  params: string[];
  query: [string, string][];
  body?: { type: string; payload: string };
}

const doc = await (async () => {
  // The document is read from a throwaway app in collection, so each operation is its own test.
  const probe = await createTestApp();
  await probe.app.ready();
  const spec = probe.app.swagger() as unknown as OpenApi;
  await probe.close();
  return spec;
})();
const operations = operationsOf(doc);

beforeAll(async () => {
  t = await createTestApp({
    logger: { level: 'warn', stream: { write: (line: string) => void logged.push(line) } },
  });
  await keepCallersSignedIn();
  const client = callers.client as SignedInUser;
  const source = await createSource(t.app.db, await accountIdOf(t.app.db, client.login));
  ids.push(source.id, source.token, await accountIdOf(t.app.db, client.login), randomUUID());
}, 120_000);
afterAll(() => t?.close());

describe(`every operation of the API document, fuzzed (seed ${SEED}, ${RUNS} runs each)`, () => {
  it('covers the whole document', () => {
    expect(operations.length).toBeGreaterThan(150);
  });

  it.each(operations.map((op) => [`${op.method} ${op.path}`, op] as const))(
    '%s never answers 5xx nor hangs',
    async (_name, op) => {
      await keepCallersSignedIn();
      await fc.assert(
        fc.asyncProperty(requestFor(op, ids), async (sample) => {
          const { res, url } = await send(op, sample as Sample);
          if (res === 'timeout') throw new Error(`${op.method} ${url} did not answer in ${REQUEST_TIMEOUT_MS} ms`);
          const answer = res as LightMyRequestResponse;
          const leaked = logged.splice(0).find((line) => /input boundary|unexpected error/.test(line));
          if (leaked) throw new Error(`${op.method} ${url} as ${sample.caller} got past the input boundary: ${leaked}`);
          if (answer.statusCode >= 500) {
            throw new Error(
              `${op.method} ${url} as ${sample.caller} → ${answer.statusCode} ${answer.body.slice(0, 300)}`,
            );
          }
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true, examples: edgeCases(op, ids).map((e) => [e]) },
      );
    },
    60_000,
  );
});
