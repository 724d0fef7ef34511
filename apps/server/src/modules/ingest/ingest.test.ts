import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dedupeKeys, leads } from '../../db/schema';
import {
  accountIdOf,
  createCollection,
  createDestination,
  createSource,
  storedRows,
} from '../../test/routing-fixtures';
import { createTestApp, errorOf, signUp, type TestApp } from '../../test/test-app';
import { pruneDedupeKeys } from './ingest.service';

let t: TestApp;
let accountId: string;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  const user = await signUp(t);
  token = user.accessToken;
  accountId = await accountIdOf(t.app.db, user.login);
});
afterAll(() => t.close());

const post = (url: string, payload: string | object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload, headers });

const stored = (integrationId: string) => storedRows(t.app.db, integrationId);

function multipart(fields: Record<string, string>, file?: { name: string; content: string }) {
  const boundary = '----lr-test-boundary';
  let body = '';
  for (const [name, value] of Object.entries(fields)) {
    body += `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  }
  if (file) {
    body += `--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\n${file.content}\r\n`;
  }
  body += `--${boundary}--\r\n`;
  return { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('webhook source', () => {
  it('takes a JSON lead: one lead, one hook and one delivery per active destination, in one answer', async () => {
    const crm = await createDestination(t.app.db, accountId);
    const sms = await createDestination(t.app.db, accountId, { name: 'SMS' });
    const off = await createDestination(t.app.db, accountId, { name: 'Off', active: false });
    const source = await createSource(t.app.db, accountId, { destinationIds: [crm, off, sms] });
    const res = await post(
      source.url,
      { name: 'Olena', phone: '050 123 45 67', utm_source: 'fb', city: 'Kyiv' },
      {
        authorization: 'Bearer secret-value',
        // Ours alone: a sender cannot mark its lead a test or name another source.
        'x-leadrelay-test': 'true',
        'x-leadrelay-source': 'googleads-webhook',
      },
    );
    expect(res.statusCode).toBe(202);
    const body = res.json();
    expect(body).toMatchObject({ ok: true, status: 'pending' });
    const s = await stored(source.id);
    expect(s.leads).toHaveLength(1);
    expect(s.leads[0]!.fields).toEqual({
      name: 'Olena',
      phone: '+380501234567',
      utm: { source: 'fb' },
      custom: { city: 'Kyiv' },
    });
    expect(s.hooks).toMatchObject([{ id: body.hookId, status: 'pending', leadId: s.leads[0]!.id }]);
    expect(s.hooks[0]!.request.headers.authorization).toBe('[redacted]');
    expect(Object.keys(s.hooks[0]!.request.headers).filter((h) => h.startsWith('x-leadrelay'))).toEqual([]);
    expect(s.deliveries.map((d) => d.destinationId).sort()).toEqual([crm, sms].sort());
    expect(s.deliveries[0]!.idempotencyKey).toBe(`${s.leads[0]!.id}:${s.deliveries[0]!.destinationId}`);
  });

  it('takes form-urlencoded and multipart fields (files are dropped)', async () => {
    const source = await createSource(t.app.db, accountId, {
      options: {
        mapping: [
          { from: ['first', 'last'], to: 'name' },
          { from: 'tel', to: 'phone', transform: ['phone'] },
        ],
      },
    });
    const form = await post(source.url, 'first=Taras&last=Shevchenko&tel=%2B380%2050%20123%2045%2067', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(form.statusCode).toBe(202);
    const mp = multipart({ first: 'Lesia', last: 'Ukrainka', tel: '0671234567' }, { name: 'cv', content: 'file body' });
    const multi = await post(source.url, mp.body, mp.headers);
    expect(multi.statusCode).toBe(202);
    const s = await stored(source.id);
    expect(s.leads.map((l) => l.fields).sort((a, b) => (a.name! < b.name! ? -1 : 1))).toEqual([
      { name: 'Lesia Ukrainka', phone: '+380671234567', custom: {} },
      { name: 'Taras Shevchenko', phone: '+380501234567', custom: {} },
    ]);
    // No destinations: stored and accepted, nothing to deliver.
    expect(s.hooks.every((h) => h.status === 'accepted')).toBe(true);
  });

  it('keeps a lead whose fields carry a NUL character (PostgreSQL cannot store it): the character is dropped', async () => {
    const crm = await createDestination(t.app.db, accountId);
    const source = await createSource(t.app.db, accountId, { destinationIds: [crm] });
    const json = await post(source.url, '{"name":"Ole\\u0000na","city\\u0000":"Ky\\u0000iv"}', {
      'content-type': 'application/json',
    });
    expect(json.statusCode).toBe(202);
    const form = await post(source.url, 'name=Iv%00an&phone=0501234567', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(form.statusCode).toBe(202);
    const s = await stored(source.id);
    expect(s.leads.map((l) => l.fields.name).sort()).toEqual(['Ivan', 'Olena']);
    expect(s.leads.find((l) => l.fields.name === 'Olena')!.fields).toMatchObject({ custom: { city: 'Kyiv' } });
  });

  it('accepts bodies up to 1 MB and refuses bigger ones with 413, storing nothing', async () => {
    const source = await createSource(t.app.db, accountId);
    const big = await post(source.url, { name: 'Big', comment: 'x'.repeat(600 * 1024) });
    expect(big.statusCode).toBe(202);
    const tooBig = await post(source.url, { name: 'Too big', comment: 'x'.repeat(1024 * 1024 + 10) });
    expect(errorOf(tooBig)).toMatchObject({ statusCode: 413, code: 'PAYLOAD_TOO_LARGE' });
    const formTooBig = await post(source.url, `comment=${'x'.repeat(1024 * 1024 + 10)}`, {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(errorOf(formTooBig)).toMatchObject({ statusCode: 413, code: 'PAYLOAD_TOO_LARGE' });
    const mp = multipart({ comment: 'x'.repeat(1024 * 1024 + 10) });
    expect(errorOf(await post(source.url, mp.body, mp.headers))).toMatchObject({ statusCode: 413 });
    expect((await stored(source.id)).leads).toHaveLength(1);
  });

  it('answers 404 INTEGRATION_NOT_FOUND for an unknown token or an inactive integration, storing nothing', async () => {
    const unknown = await post('/api/hooks/in/no-such-token', { name: 'x' });
    expect(errorOf(unknown)).toMatchObject({ statusCode: 404, code: 'INTEGRATION_NOT_FOUND' });
    const inactive = await createSource(t.app.db, accountId, { active: false });
    expect(errorOf(await post(inactive.url, { name: 'x' }))).toMatchObject({
      statusCode: 404,
      code: 'INTEGRATION_NOT_FOUND',
    });
    const s = await stored(inactive.id);
    expect([s.leads.length, s.hooks.length]).toEqual([0, 0]);
  });

  it('refuses bad input with a key and stores nothing', async () => {
    const source = await createSource(t.app.db, accountId);
    expect(errorOf(await post(source.url, '{"name":', { 'content-type': 'application/json' }))).toMatchObject({
      statusCode: 400,
      code: 'INVALID_JSON',
    });
    expect(errorOf(await post(source.url, '[1,2]', { 'content-type': 'application/json' }))).toMatchObject({
      statusCode: 400,
      code: 'VALIDATION_ERROR',
    });
    expect(errorOf(await post(source.url, 'name=x', { 'content-type': 'text/plain' }))).toMatchObject({
      statusCode: 415,
      code: 'UNSUPPORTED_MEDIA_TYPE',
    });
    expect((await stored(source.id)).hooks).toHaveLength(0);
  });

  it('drops a lead a filter refuses: the hook says filtered and why, no lead, no delivery', async () => {
    const crm = await createDestination(t.app.db, accountId);
    const source = await createSource(t.app.db, accountId, {
      destinationIds: [crm],
      options: {
        filters: [
          { field: 'phone', op: 'notEmpty' },
          { field: 'utm.source', op: 'equals', value: 'google', negate: true },
        ],
      },
    });
    const noPhone = await post(source.url, { name: 'No phone' });
    expect(noPhone.statusCode).toBe(200);
    expect(noPhone.json()).toMatchObject({ ok: true, status: 'filtered' });
    const google = await post(source.url, { phone: '0501234567', utm_source: 'Google' });
    expect(google.json().status).toBe('filtered');
    const kept = await post(source.url, { phone: '0501234567', utm_source: 'fb' });
    expect(kept.statusCode).toBe(202);
    const s = await stored(source.id);
    expect(s.leads).toHaveLength(1);
    expect(s.deliveries).toHaveLength(1);
    const reasons = s.hooks
      .filter((h) => h.status === 'filtered')
      .map((h) => h.reason)
      .sort();
    expect(reasons).toEqual(['FILTERED: phone notEmpty', 'FILTERED: utm.source not equals "google"']);
  });

  it('makes one lead of a repeat: by Idempotency-Key, by source id, by the same body', async () => {
    const crm = await createDestination(t.app.db, accountId);
    const source = await createSource(t.app.db, accountId, {
      destinationIds: [crm],
      options: { dedupe: { sourceIdField: 'lead.id' } },
    });
    const first = await post(source.url, { name: 'A' }, { 'idempotency-key': 'evt-1' });
    const again = await post(source.url, { name: 'A changed' }, { 'idempotency-key': 'evt-1' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ ok: true, hookId: first.json().hookId, status: 'duplicate' });

    const bySource = await post(source.url, { lead: { id: 42 }, name: 'B' });
    const bySourceAgain = await post(source.url, { lead: { id: 42 }, name: 'B again' });
    expect(bySourceAgain.json()).toMatchObject({ hookId: bySource.json().hookId, status: 'duplicate' });

    const byBody = await post(source.url, { name: 'C', phone: '0501234567' });
    const byBodyAgain = await post(source.url, { phone: '0501234567', name: 'C' });
    expect(byBodyAgain.json()).toMatchObject({ hookId: byBody.json().hookId, status: 'duplicate' });
    // A different named event with the same fields is another lead.
    const other = await post(source.url, { name: 'C', phone: '0501234567' }, { 'idempotency-key': 'evt-2' });
    expect(other.statusCode).toBe(202);

    const s = await stored(source.id);
    expect(s.leads).toHaveLength(4);
    expect(s.deliveries).toHaveLength(4);
    expect(s.hooks.filter((h) => h.status === 'duplicate')).toHaveLength(3);
  });

  it('stores the body once, on the lead; the lead log shows it in the request; a repeat keeps its own', async () => {
    const crm = await createDestination(t.app.db, accountId);
    const source = await createSource(t.app.db, accountId, { destinationIds: [crm] });
    const lead = { name: 'Iryna', phone: '+380671112233', comment: 'Передзвоніть після 18:00. '.repeat(20) };
    const first = await post(source.url, lead, { 'idempotency-key': 'once-1' });
    const repeat = { ...lead, name: 'Iryna again' };
    const again = await post(source.url, repeat, { 'idempotency-key': 'once-1' });
    expect(again.json()).toMatchObject({ hookId: first.json().hookId, status: 'duplicate' });

    const s = await stored(source.id);
    expect(s.leads.map((l) => l.raw)).toEqual([lead]);
    const written = s.hooks.find((h) => h.id === first.json().hookId)!;
    expect(written.request).toMatchObject({ bodyInLead: true, method: 'POST' });
    expect(written.request).not.toHaveProperty('body');
    // The repeat has no lead: its hook keeps the body it came with.
    const duplicate = s.hooks.find((h) => h.status === 'duplicate')!;
    expect(duplicate.request.body).toEqual(repeat);
    expect(duplicate.request).not.toHaveProperty('bodyInLead');

    for (const [hookId, body] of [
      [written.id, lead],
      [duplicate.id, repeat],
    ] as const) {
      const view = await t.app.inject({
        method: 'GET',
        url: `/api/hook/${hookId}`,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(view.json().request).toMatchObject({ method: 'POST', body });
      expect(view.json().request).not.toHaveProperty('bodyInLead');
    }
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/hook?integrationId=${source.id}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(list.json().data.map((h: { request: { body: unknown } }) => h.request.body)).toEqual(
      expect.arrayContaining([lead, repeat]),
    );
  });

  it('counts a repeat only within the window: an expired key is taken over, and pruned', async () => {
    const source = await createSource(t.app.db, accountId, { options: { dedupe: { bodyWindowHours: 1 } } });
    expect((await post(source.url, { name: 'Window' })).statusCode).toBe(202);
    const [key] = (await stored(source.id)).keys;
    expect(key!.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(3_600_000);
    expect((await post(source.url, { name: 'Window' })).statusCode).toBe(200);
    await t.app.db
      .update(dedupeKeys)
      .set({ expiresAt: new Date(Date.now() - 1_000) })
      .where(eq(dedupeKeys.integrationId, source.id));
    expect((await post(source.url, { name: 'Window' })).statusCode).toBe(202);
    expect((await stored(source.id)).leads).toHaveLength(2);
    await t.app.db
      .update(dedupeKeys)
      .set({ expiresAt: new Date(Date.now() - 1_000) })
      .where(eq(dedupeKeys.integrationId, source.id));
    await pruneDedupeKeys(t.app.db);
    expect((await stored(source.id)).keys).toHaveLength(0);
  });

  it('makes one lead of two identical requests racing', async () => {
    const source = await createSource(t.app.db, accountId);
    const results = await Promise.all(
      [1, 2, 3].map(() => post(source.url, { name: 'Race' }, { 'idempotency-key': 'race' })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 200, 202]);
    expect((await stored(source.id)).leads).toHaveLength(1);
  });

  it('writes lead, hook, deliveries and dedupe keys in one transaction: a failing insert leaves nothing', async () => {
    const crm = await createDestination(t.app.db, accountId);
    const source = await createSource(t.app.db, accountId, { destinationIds: [crm] });
    await t.app.db.execute(sql`create or replace function lr_test_fail() returns trigger language plpgsql as $$
      begin raise exception 'simulated failure'; end $$`);
    await t.app.db.execute(
      sql`create trigger lr_test_fail before insert on deliveries for each row execute function lr_test_fail()`,
    );
    try {
      const res = await post(source.url, { name: 'Lost?' }, { 'idempotency-key': 'tx-1' });
      expect(res.statusCode).toBe(500);
    } finally {
      await t.app.db.execute(sql`drop trigger lr_test_fail on deliveries`);
    }
    const s = await stored(source.id);
    expect([s.leads.length, s.hooks.length, s.deliveries.length, s.keys.length]).toEqual([0, 0, 0, 0]);
    // The sender retries: now it goes through, not as a duplicate.
    expect((await post(source.url, { name: 'Lost?' }, { 'idempotency-key': 'tx-1' })).statusCode).toBe(202);
  });
});

describe('distribution', () => {
  it('assigns round-robin by weight, fairly under concurrent ingests', async () => {
    const crm = await createDestination(t.app.db, accountId);
    const collection = await createCollection(t.app.db, accountId, [
      { id: 'i1', name: 'Anna', value: 'u-anna', weight: 2 },
      { id: 'i2', name: 'Bohdan', value: 'u-bohdan' },
      { id: 'i3', name: 'Chrystia', value: 'u-chrystia', weight: 1 },
    ]);
    const a = await createSource(t.app.db, accountId, { destinationIds: [crm], distributionId: collection });
    const b = await createSource(t.app.db, accountId, { destinationIds: [crm], distributionId: collection });
    // Two sources sharing the collection, posting at the same time: 40 leads = 10 cycles of 4 slots.
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => [post(a.url, { name: `a${i}` }), post(b.url, { name: `b${i}` })]).flat(),
    );
    const rows = await t.app.db
      .select({ assignee: leads.assignee })
      .from(leads)
      .where(and(eq(leads.accountId, accountId), sql`${leads.integrationId} in (${a.id}, ${b.id})`));
    const tally: Record<string, number> = {};
    for (const r of rows) tally[r.assignee!.id] = (tally[r.assignee!.id] ?? 0) + 1;
    expect(tally).toEqual({ 'u-anna': 20, 'u-bohdan': 10, 'u-chrystia': 10 });
  });

  it('ignores a collection of another account', async () => {
    const other = await signUp(t);
    const foreign = await createCollection(t.app.db, await accountIdOf(t.app.db, other.login), [
      { id: 'x', name: 'Spy', value: 'u-spy' },
    ]);
    const source = await createSource(t.app.db, accountId, { distributionId: foreign });
    expect((await post(source.url, { name: 'x' })).statusCode).toBe(202);
    expect((await stored(source.id)).leads[0]!.assignee).toBeNull();
  });
});
