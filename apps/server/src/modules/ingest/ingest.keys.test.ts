// Issue 27, class 1: a field named like a member every JavaScript object or function has
// (`constructor`, `__proto__`, `toString`, `hasOwnProperty`, `prototype`, `call`… in any case) is a
// form field like any other. Property-based: hostile names at the top level and nested, in JSON,
// form-urlencoded and multipart bodies, through the webhook URL and on to a real http destination.
import { createSafeFetch, getConnector } from '@leadrelay/connectors';
import { type HttpEmulator, startHttpEmulator } from '@leadrelay/connectors/http/emulator';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hooks, leads } from '../../db/schema';
import { DeliveryWorker } from '../../delivery/worker';
import { accountIdOf, createDestination, createSource } from '../../test/routing-fixtures';
import { createTestApp, signUp, type TestApp } from '../../test/test-app';

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_127);
const RUNS = Number(process.env.FUZZ_RUNS ?? 25);

/** Every member name of Object.prototype and Function.prototype, and the names that reach them. */
export const MEMBER_NAMES = [
  ...new Set([
    ...Object.getOwnPropertyNames(Object.prototype),
    ...Object.getOwnPropertyNames(Function.prototype),
    '__proto__',
    'prototype',
  ]),
];
/** Keys the default mapping reads as well-known fields rather than custom ones. */
const WELL_KNOWN = /^(name|full_name|phone|tel|phone_number|email|comment|message|utm_\w+)$/i;

/** A member name as written, or in any mix of cases (`__proto__` itself, `Constructor`, `TOSTRING`). */
const memberName = fc.oneof(fc.constantFrom(...MEMBER_NAMES), fc.mixedCase(fc.constantFrom(...MEMBER_NAMES)));
/** A value a form sends: text that survives any encoding, never empty. */
const text = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 ]{0,11}[A-Za-z0-9]$/);

/** A nested value with hostile keys at any depth (kept in the raw payload, not in `custom`). */
const nested = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    text,
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(memberName, tie('value'), { maxKeys: 3 }),
  ),
})).value;

/** Flat string fields, as forms send them. */
const flatFields = fc.dictionary(memberName, text, { minKeys: 1, maxKeys: 8 });
/** JSON fields: scalars, lists of text, nested objects. */
const jsonFields = fc.dictionary(
  memberName,
  fc.oneof(text, fc.integer(), fc.boolean(), fc.array(text, { minLength: 1, maxLength: 3 }), nested),
  { minKeys: 1, maxKeys: 8 },
);

/** What the default mapping puts in `custom` for a top-level value. */
function customText(value: unknown): string | undefined {
  if (typeof value === 'string') return value || undefined;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string'))
    return value.filter(Boolean).join(', ') || undefined;
  return undefined;
}

/** The custom fields a body must arrive with: every member-named key that is not a well-known one. */
function expectedCustom(fields: Record<string, unknown>): [string, string][] {
  const out: [string, string][] = [];
  for (const [key, value] of Object.entries(fields)) {
    const shown = customText(value);
    if (shown !== undefined && !WELL_KNOWN.test(key)) out.push([key, shown]);
  }
  return out;
}

/** Own entries of what arrived, however it was parsed (a `__proto__` key stays a key). */
const own = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' ? Object.fromEntries(Object.entries(value)) : {};

function multipartBody(fields: Record<string, string>): { body: string; type: string } {
  const boundary = '----lr-keys-boundary';
  let body = '';
  for (const [name, value] of Object.entries(fields)) {
    body += `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  }
  body += `--${boundary}\r\nContent-Disposition: form-data; name="cv"; filename="cv.txt"\r\nContent-Type: text/plain\r\n\r\nfile\r\n--${boundary}--\r\n`;
  return { body, type: `multipart/form-data; boundary=${boundary}` };
}

let t: TestApp;
let emulator: HttpEmulator;
let source: { id: string; url: string };
let http: string;
let accountId: string;
let worker: DeliveryWorker;
let sent = 0;

beforeAll(async () => {
  t = await createTestApp({ allowPrivateDestinations: true });
  emulator = await startHttpEmulator();
  accountId = await accountIdOf(t.app.db, (await signUp(t)).login);
  http = await createDestination(t.app.db, accountId, { type: 'http', settings: { url: emulator.hookUrl } });
  source = await createSource(t.app.db, accountId, { destinationIds: [http] });
  worker = new DeliveryWorker({
    db: t.app.db,
    events: t.app.events,
    log: t.app.log,
    getConnector,
    fetch: createSafeFetch({ allowPrivate: true }),
    breaker: { threshold: 1_000 },
  });
});
afterAll(async () => {
  await emulator.close();
  await t.close();
});

/**
 * Posts one lead and checks it end to end: accepted (never a 4xx or 5xx for its field names),
 * stored with its raw payload and its custom fields, and delivered with them.
 */
async function roundTrip(fields: Record<string, unknown>, encode: 'json' | 'form' | 'multipart'): Promise<void> {
  // A field of our own makes every body unique, so no lead is a repeat of an earlier one.
  const ref = `ref-${++sent}`;
  const all: Record<string, unknown> = { lead_ref: ref };
  for (const [k, v] of Object.entries(fields)) Object.defineProperty(all, k, { value: v, enumerable: true });
  let payload: string;
  let type: string;
  if (encode === 'json') {
    [payload, type] = [JSON.stringify(all), 'application/json'];
  } else if (encode === 'form') {
    [payload, type] = [
      new URLSearchParams(Object.entries(all as Record<string, string>)).toString(),
      'application/x-www-form-urlencoded',
    ];
  } else {
    ({ body: payload, type } = multipartBody(all as Record<string, string>));
  }
  const res = await t.app.inject({ method: 'POST', url: source.url, payload, headers: { 'content-type': type } });
  expect(res.statusCode, `${encode} ${payload.slice(0, 300)} → ${res.body}`).toBe(202);

  const [lead] = await t.app.db
    .select()
    .from(leads)
    .where(eq(leads.id, await leadIdOf(res.json().hookId)));
  const custom = own((lead!.fields as { custom?: unknown }).custom);
  const expected = expectedCustom(fields);
  for (const [key, value] of expected) expect(custom[key], `stored custom.${key}`).toBe(value);
  expect(own(lead!.raw)).toEqual(own(JSON.parse(JSON.stringify(all))));

  const delivered = await deliveredCustom(lead!.id);
  for (const [key, value] of expected) expect(delivered[key], `delivered custom.${key}`).toBe(value);
}

/** The custom fields the http destination received for a lead (its idempotency key starts with the lead's id). */
async function deliveredCustom(leadId: string): Promise<Record<string, unknown>> {
  await worker.drain();
  const arrived = emulator.records.find((r) => r.idempotencyKey?.startsWith(`${leadId}:`));
  expect(arrived, `delivered ${leadId}`).toBeDefined();
  return own((arrived!.body as { lead: { custom: unknown } }).lead.custom);
}

async function leadIdOf(hookId: string): Promise<string> {
  const [hook] = await t.app.db.select({ leadId: hooks.leadId }).from(hooks).where(eq(hooks.id, hookId));
  return hook!.leadId!;
}

describe('a field named like a built-in member of JavaScript objects', () => {
  it('is kept and delivered from a JSON body, nested hostile keys and lists included', async () => {
    await fc.assert(
      fc.asyncProperty(jsonFields, (fields) => roundTrip(fields, 'json')),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('is kept and delivered from a form-urlencoded body', async () => {
    await fc.assert(
      fc.asyncProperty(flatFields, (fields) => roundTrip(fields, 'form')),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('is kept and delivered from a multipart body (the file is dropped)', async () => {
    await fc.assert(
      fc.asyncProperty(flatFields, (fields) => roundTrip(fields, 'multipart')),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('covers every member name, each as the only field', async () => {
    for (const name of MEMBER_NAMES) {
      for (const variant of [name, name.toUpperCase()]) {
        await roundTrip(Object.defineProperty({}, variant, { value: 'x1', enumerable: true }), 'json');
        await roundTrip(Object.defineProperty({}, variant, { value: 'x2', enumerable: true }), 'multipart');
      }
    }
  });

  it('is a mapping path and a mapping target: custom.<member> gets the value mapped into it, and is delivered', async () => {
    await fc.assert(
      fc.asyncProperty(memberName, fc.oneof(fc.constant('__proto__'), memberName), text, async (from, to, value) => {
        const mapped = await createSource(t.app.db, accountId, {
          destinationIds: [http],
          options: { mapping: [{ from: `form.${from}`, to: `custom.${to}` }] },
        });
        const form = Object.defineProperty({}, from, { value, enumerable: true });
        const payload = JSON.stringify({ form, lead_ref: `ref-${++sent}` });
        const res = await t.app.inject({
          method: 'POST',
          url: mapped.url,
          payload,
          headers: { 'content-type': 'application/json' },
        });
        expect(res.statusCode, `${payload} → ${res.body}`).toBe(202);
        const [lead] = await t.app.db
          .select()
          .from(leads)
          .where(eq(leads.id, await leadIdOf(res.json().hookId)));
        expect(own((lead!.fields as { custom?: unknown }).custom)[to], `stored custom.${to}`).toBe(value);
        expect((await deliveredCustom(lead!.id))[to], `delivered custom.${to}`).toBe(value);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
