import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distributionCursors, hooks, integrations, leads } from '../../db/schema';
import {
  accountIdOf,
  createCollection,
  createDestination,
  createSource,
  storedRows,
} from '../../test/routing-fixtures';
import { callAs, createTestApp, errorOf, signUp, type TestApp } from '../../test/test-app';
import { distributionOf, pickWeighted } from './distribution';
import { SOURCE_CACHE_TTL_MS } from './source-cache';

let t: TestApp;
let accountId: string;
beforeAll(async () => {
  t = await createTestApp();
  const user = await signUp(t);
  accountId = await accountIdOf(t.app.db, user.login);
});
afterAll(() => t.close());

const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload, headers });

const stored = (integrationId: string) => storedRows(t.app.db, integrationId);

describe('the source read once per second', () => {
  it('never writes to a source deactivated, re-tokened or deleted after it was read: 404 at once', async () => {
    const deactivated = await createSource(t.app.db, accountId);
    expect((await post(deactivated.url, { name: 'Before' })).statusCode).toBe(202);
    await t.app.db.update(integrations).set({ active: false }).where(eq(integrations.id, deactivated.id));
    expect(errorOf(await post(deactivated.url, { name: 'After' }))).toMatchObject({
      statusCode: 404,
      code: 'INTEGRATION_NOT_FOUND',
    });
    expect((await stored(deactivated.id)).hooks).toHaveLength(1);

    const retokened = await createSource(t.app.db, accountId);
    expect((await post(retokened.url, { name: 'Before' })).statusCode).toBe(202);
    await t.app.db.update(integrations).set({ hookToken: 'another' }).where(eq(integrations.id, retokened.id));
    expect(errorOf(await post(retokened.url, { name: 'After' }))).toMatchObject({ statusCode: 404 });
    expect((await stored(retokened.id)).hooks).toHaveLength(1);

    const crm = await createDestination(t.app.db, accountId);
    const deleted = await createSource(t.app.db, accountId, { destinationIds: [crm] });
    expect((await post(deleted.url, { name: 'Before' })).statusCode).toBe(202);
    await t.app.db.delete(integrations).where(eq(integrations.id, deleted.id));
    // A new lead and a repeat both answer as an unknown token.
    expect(errorOf(await post(deleted.url, { name: 'After' }))).toMatchObject({ statusCode: 404 });
    expect(errorOf(await post(deleted.url, { name: 'Before' }))).toMatchObject({ statusCode: 404 });
    expect((await stored(deleted.id)).hooks).toHaveLength(0);
  });

  it('answers 404, not 500, when the source is deleted while its lead is being written', async () => {
    const source = await createSource(t.app.db, accountId);
    expect((await post(source.url, { name: 'Cached' })).statusCode).toBe(202);
    // The race (deleted between the check and the insert) ends in a foreign-key refusal; the
    // trigger refuses the same way, on the write and on its one retry.
    await t.app.db.execute(sql`create or replace function lr_test_fk() returns trigger language plpgsql as $$
      begin raise foreign_key_violation using message = 'simulated: integration deleted'; end $$`);
    await t.app.db.execute(
      sql`create trigger lr_test_fk before insert on leads for each row execute function lr_test_fk()`,
    );
    try {
      expect(errorOf(await post(source.url, { name: 'Racing the delete' }))).toMatchObject({
        statusCode: 404,
        code: 'INTEGRATION_NOT_FOUND',
      });
    } finally {
      await t.app.db.execute(sql`drop trigger lr_test_fk on leads`);
    }
    const s = await stored(source.id);
    expect([s.leads.length, s.hooks.length, s.keys.length]).toEqual([1, 1, 1]);
  });

  it('queues nothing for a destination deactivated after the source was read', async () => {
    const crm = await createDestination(t.app.db, accountId);
    const sms = await createDestination(t.app.db, accountId, { name: 'SMS' });
    const source = await createSource(t.app.db, accountId, { destinationIds: [crm, sms] });
    expect((await post(source.url, { name: 'Both' })).statusCode).toBe(202);
    await t.app.db.update(integrations).set({ active: false }).where(eq(integrations.id, sms));
    const one = await post(source.url, { name: 'CRM only' });
    await t.app.db.update(integrations).set({ active: false }).where(eq(integrations.id, crm));
    const none = await post(source.url, { name: 'Nobody' });
    expect([one.statusCode, none.statusCode]).toEqual([202, 202]);
    expect(none.json().status).toBe('accepted');
    const s = await stored(source.id);
    expect(s.deliveries.filter((d) => d.hookId === one.json().hookId).map((d) => d.destinationId)).toEqual([crm]);
    expect(s.deliveries.filter((d) => d.hookId === none.json().hookId)).toEqual([]);
    expect(s.hooks.find((h) => h.id === none.json().hookId)?.reason).toBe('NO_ACTIVE_DESTINATION');
  });

  it('takes a changed mapping within a second', async () => {
    const source = await createSource(t.app.db, accountId);
    expect((await post(source.url, { who: 'First' })).statusCode).toBe(202);
    await t.app.db
      .update(integrations)
      .set({ options: { mapping: [{ from: 'who', to: 'name' }] } })
      .where(eq(integrations.id, source.id));
    await new Promise((resolve) => setTimeout(resolve, SOURCE_CACHE_TTL_MS + 100));
    expect((await post(source.url, { who: 'Second' })).statusCode).toBe(202);
    const names = (await stored(source.id)).leads.map((l) => l.fields.name);
    expect(names).toContain('Second');
    expect(names).not.toContain('First');
  });
});

describe('changes through the API', () => {
  it('take effect at once in this process: a mapping saved, then a test lead', async () => {
    const user = await signUp(t);
    const owner = await accountIdOf(t.app.db, user.login);
    const source = await createSource(t.app.db, owner);
    expect((await post(source.url, { who: 'First' })).statusCode).toBe(202);
    const saved = await callAs(t, 'PUT', `/api/integrations/${source.id}/update`, user, {
      options: { mapping: [{ from: 'who', to: 'name' }] },
    });
    expect(saved.statusCode).toBe(200);
    expect((await post(source.url, { who: 'Second' })).statusCode).toBe(202);
    const names = (await stored(source.id)).leads.map((l) => l.fields.name);
    expect(names).toContain('Second');
  });
});

describe('dedupe in one statement', () => {
  it('gives back the keys a partial repeat took: a repeat of its source id, under a new Idempotency-Key', async () => {
    const crm = await createDestination(t.app.db, accountId);
    const source = await createSource(t.app.db, accountId, {
      destinationIds: [crm],
      options: { dedupe: { sourceIdField: 'lead.id' } },
    });
    const first = await post(source.url, { lead: { id: 7 }, name: 'A' }, { 'idempotency-key': 'k-1' });
    expect(first.statusCode).toBe(202);
    const repeat = await post(source.url, { lead: { id: 7 }, name: 'A' }, { 'idempotency-key': 'k-2' });
    expect(repeat.statusCode).toBe(200);
    expect(repeat.json()).toEqual({ ok: true, hookId: first.json().hookId, status: 'duplicate' });
    // k-2 was not kept by the repeat: another event under it is a new lead.
    const other = await post(source.url, { lead: { id: 8 }, name: 'B' }, { 'idempotency-key': 'k-2' });
    expect(other.statusCode).toBe(202);
    const s = await stored(source.id);
    expect(s.leads).toHaveLength(2);
    expect(s.deliveries).toHaveLength(2);
    expect(s.hooks.filter((h) => h.status === 'duplicate').map((h) => h.reason)).toEqual([
      `DUPLICATE_OF: ${first.json().hookId}`,
    ]);
    expect(s.keys.map((k) => k.key).sort()).toEqual(['idem:k-1', 'idem:k-2', 'src:7', 'src:8']);
  });

  it('acknowledges and stores every one of many concurrent leads, with their keys and deliveries', async () => {
    const crm = await createDestination(t.app.db, accountId);
    const sms = await createDestination(t.app.db, accountId, { name: 'SMS' });
    const source = await createSource(t.app.db, accountId, { destinationIds: [crm, sms] });
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => post(source.url, { name: `Lead ${i}`, phone: `050${1_000_000 + i}` })),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(60).fill(202));
    const hookIds = new Set(answers.map((a) => a.json().hookId as string));
    expect(hookIds.size).toBe(60);
    const s = await stored(source.id);
    expect(new Set(s.hooks.map((h) => h.id))).toEqual(hookIds);
    expect(s.leads).toHaveLength(60);
    expect(s.keys).toHaveLength(60);
    expect(s.deliveries).toHaveLength(120);
    expect(s.hooks.every((h) => h.status === 'pending' && h.leadId)).toBe(true);
  });

  it('stores the assignee and advances the round-robin only for written leads', async () => {
    const collection = await createCollection(t.app.db, accountId, [
      { id: 'a', name: 'Anna', value: 'u-anna' },
      { id: 'b', name: 'Bohdan', value: 'u-bohdan' },
    ]);
    const source = await createSource(t.app.db, accountId, {
      distributionId: collection,
      options: { filters: [{ field: 'phone', op: 'notEmpty' }] },
    });
    const answers: { status: string; hookId: string }[] = [];
    for (const body of [
      { phone: '0501111111' },
      { phone: '0501111111' }, // a repeat: no slot
      { name: 'No phone' }, // filtered: no slot
      { phone: '0502222222' },
      { phone: '0503333333' },
    ]) {
      answers.push((await post(source.url, body)).json());
    }
    expect(answers.map((a) => a.status)).toEqual(['accepted', 'duplicate', 'filtered', 'accepted', 'accepted']);
    const assigneeOf = async (hookId: string) => {
      const [row] = await t.app.db
        .select({ assignee: leads.assignee })
        .from(hooks)
        .innerJoin(leads, eq(leads.id, hooks.leadId))
        .where(eq(hooks.id, hookId));
      return row?.assignee;
    };
    expect(await Promise.all([0, 3, 4].map((i) => assigneeOf(answers[i]!.hookId)))).toEqual([
      { id: 'u-anna', name: 'Anna', itemId: 'a' },
      { id: 'u-bohdan', name: 'Bohdan', itemId: 'b' },
      { id: 'u-anna', name: 'Anna', itemId: 'a' },
    ]);
    const [cursor] = await t.app.db
      .select({ counter: distributionCursors.counter })
      .from(distributionCursors)
      .where(eq(distributionCursors.collectionId, collection));
    expect(cursor?.counter).toBe(3);
  });
});

describe('the round-robin cycle', () => {
  it('picks the same items as the weighted round-robin, slot by slot', () => {
    for (const weights of [[1], [1, 1, 1], [2, 1, 1], [5, 3, 2], [4, 2], [100, 1, 37], [6, 9, 3]]) {
      const items = weights.map((weight, i) => ({ id: `i${i}`, name: `N${i}`, value: `u${i}`, weight }));
      const cycle = distributionOf('c', items)!;
      const slots = cycle.slots.slice(1, -1).split(',').map(Number);
      const assignees = cycle.assignees;
      const total = weights.reduce((a, b) => a + b, 0);
      for (let counter = 1; counter <= total * 2; counter++) {
        const picked = assignees[slots[(counter - 1) % slots.length]!]!.id;
        expect(picked).toBe(pickWeighted(items, counter)!.value);
      }
    }
    expect(distributionOf('c', [])).toBeUndefined();
  });
});
