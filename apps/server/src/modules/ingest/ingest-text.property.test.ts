// Property: whatever text a lead carries (NUL, half a UTF-16 pair, in keys and values, nested), the
// webhook never answers 5xx, and every lead it accepts is stored and delivered with its fields,
// made storable the one way lib/storable-text.ts does it (NUL dropped, a lone surrogate → U+FFFD).
import { getConnector } from '@leadrelay/connectors';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveries, hooks, leads } from '../../db/schema';
import { accountIdOf, createDestination, createSource } from '../../test/routing-fixtures';
import { createTestApp, signUp, type TestApp } from '../../test/test-app';
import { testDestination } from '../../test/test-destination';

const dest = testDestination();
let t: TestApp;
let accountId: string;
beforeAll(async () => {
  t = await createTestApp({ delivery: { getConnector: (slug) => dest.getConnector(slug) ?? getConnector(slug) } });
  accountId = await accountIdOf(t.app.db, (await signUp(t)).login);
});
afterAll(() => t.close());

/** What the boundary makes of a string (the property's oracle, written out independently). */
const clean = (s: string) => s.replaceAll('\u0000', '').toWellFormed();

// Letters, digits, a pair (emoji), and the hostile ones: NUL and both halves of a pair alone.
const char = fc.constantFrom('\u0000', '\ud800', '\udbff', '\udc00', '\udfff', '\ud83d', 'a', 'Ї', '7', '_', '😀');
/** Custom field names: ASCII the default mapping takes, and the hostile ones. */
const keyChar = fc.constantFrom('\u0000', '\u0000', '\ud800', '\udc00', 'a', 'b', '7', '_', '-', 'Ї');
const text = fc.array(char, { minLength: 1, maxLength: 10 }).map((cs) => cs.join(''));
/** Non-empty once cleaned: a field the lead keeps. */
const kept = text.filter((s) => clean(s).length > 0);
/** Extra fields (they land in `custom`), with names unique once cleaned and never a well-known one. */
const key = fc.array(keyChar, { minLength: 1, maxLength: 8 }).map((cs) => `x${cs.join('')}`);
const extras = fc.uniqueArray(fc.tuple(key, text), {
  maxLength: 5,
  selector: ([k]) => clean(k),
});
/** A nested object: its keys unique once cleaned too (two that clean alike would be one key stored). */
const nestedObject = fc
  .uniqueArray(fc.tuple(text, text), { maxLength: 3, selector: ([k]) => clean(k) })
  .map((entries) => Object.fromEntries(entries));

let seq = 0;

describe('a webhook lead with text PostgreSQL cannot store', () => {
  it('is never a 5xx; accepted, it is stored and delivered with every field, cleaned', async () => {
    const crm = await createDestination(t.app.db, accountId);
    const source = await createSource(t.app.db, accountId, { destinationIds: [crm] });
    await fc.assert(
      fc.asyncProperty(
        kept,
        kept,
        extras,
        nestedObject,
        fc.constantFrom('json', 'form'),
        async (name, comment, more, nested, encoding) => {
          seq++;
          const fields: Record<string, string> = Object.fromEntries([...more, ['name', name], ['comment', comment]]);
          // Forms carry no lone surrogates (their bytes are UTF-8); a NUL is %00.
          const form = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k.toWellFormed(), v.toWellFormed()]));
          const sent = encoding === 'json' ? fields : form;
          const res = await t.app.inject({
            method: 'POST',
            url: source.url,
            ...(encoding === 'json'
              ? { payload: JSON.stringify({ ...fields, nested, seq }) }
              : { payload: new URLSearchParams({ ...form, seq: String(seq) }).toString() }),
            headers: { 'content-type': encoding === 'json' ? 'application/json' : 'application/x-www-form-urlencoded' },
          });
          expect(res.statusCode, res.body).toBeLessThan(500);
          expect(res.statusCode, res.body).toBe(202);

          // The hook keeps the whole body as received (on its lead, as `raw`), cleaned: every key, nested ones too.
          const [hook] = await t.app.db.select().from(hooks).where(eq(hooks.id, res.json().hookId));
          const [lead] = await t.app.db.select().from(leads).where(eq(leads.id, hook!.leadId!));
          const body = (hook!.request.body ?? lead!.raw) as Record<string, unknown>;
          for (const [k, v] of Object.entries(sent)) expect(body[clean(k)]).toBe(clean(v));
          if (encoding === 'json') {
            for (const [k, v] of Object.entries(nested)) expect(body.nested).toHaveProperty([clean(k)], clean(v));
          }
          // The lead: name and comment, and in `custom` the other fields whose cleaned name is a
          // custom key (the default mapping's rule: [A-Za-z0-9_.-]{1,64}).
          const custom = Object.fromEntries(
            Object.entries(sent)
              .filter(([k]) => k !== 'name' && k !== 'comment')
              .map(([k, v]): [string, string] => [clean(k), clean(v)])
              .filter(([k, v]) => v !== '' && /^[A-Za-z0-9_\-.]{1,64}$/.test(k)),
          );
          expect(lead!.fields).toMatchObject({ name: clean(sent.name ?? ''), comment: clean(sent.comment ?? '') });
          expect(lead!.fields.custom ?? {}).toMatchObject(custom);

          await t.app.deliveryWorker.drain();
          const [delivery] = await t.app.db.select().from(deliveries).where(eq(deliveries.leadId, lead!.id));
          expect(delivery!.status).toBe('delivered');
          const delivered = dest.received.find((r) => r.idempotencyKey === delivery!.idempotencyKey);
          expect(delivered, 'delivered').toBeDefined();
          expect(delivered!.lead).toMatchObject({ name: lead!.fields.name, comment: lead!.fields.comment });
          expect(delivered!.lead.custom ?? {}).toMatchObject(custom);
        },
      ),
      { numRuns: 40 },
    );
  });
});
