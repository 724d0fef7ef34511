import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RawDb, rawDb } from '../../db/raw-sql';
import {
  accountIdOf,
  createCollection,
  createDestination,
  createSource,
  storedRows,
} from '../../test/routing-fixtures';
import { createTestApp, onUnlimitedPlan, signUp, type TestApp } from '../../test/test-app';
import { GroupCommit } from './group-commit';
import { INGEST_BATCH, INGEST_LEAD } from './ingest-statements';
import type { KeptLead } from './lead-writer';
import { type Source, sourceByToken } from './source-cache';

let t: TestApp;
let accountId: string;
beforeAll(async () => {
  t = await createTestApp();
  const user = await onUnlimitedPlan(t, await signUp(t));
  accountId = await accountIdOf(t.app.db, user.login);
});
afterAll(() => t.close());

/**
 * The real driver, counting the statements it is given by name. `firstDelayMs`: the first
 * statement reaches the database only that much later (a slow connection), so a statement sent
 * beside it would overtake it.
 */
function counting(firstDelayMs = 0): { raw: RawDb; calls: string[] } {
  const inner = rawDb(t.app.db);
  const calls: string[] = [];
  return {
    calls,
    raw: {
      query: async (statement, params) => {
        calls.push(statement.name);
        if (calls.length === 1 && firstDelayMs) await new Promise((r) => setTimeout(r, firstDelayMs));
        return inner.query(statement, params);
      },
      transaction: (fn) => inner.transaction(fn),
    },
  };
}

function kept(source: Source, name: string, key: string): KeptLead {
  const now = new Date();
  return {
    source,
    keys: [key],
    hookId: randomUUID(),
    leadId: randomUUID(),
    duplicateId: randomUUID(),
    now,
    expiresAt: new Date(now.getTime() + 3_600_000),
    fields: { name },
    body: { name },
    sourceId: key.replace(/^\w+:/, ''),
    request: { method: 'POST', headers: {}, body: { name } },
  };
}

const stored = (integrationId: string) => storedRows(t.app.db, integrationId);

async function sourceOf(url: string): Promise<Source> {
  const source = await sourceByToken(t.app.db, url.split('/').pop()!, t.app.log);
  if (!source) throw new Error('no source');
  return source;
}

describe('group commit', () => {
  it('writes leads that arrive together in one statement, a repeat as if it came after its first', async () => {
    const crm = await createDestination(t.app.db, accountId);
    const collection = await createCollection(t.app.db, accountId, [
      { id: 'a', name: 'Anna', value: 'u-anna' },
      { id: 'b', name: 'Bohdan', value: 'u-bohdan' },
    ]);
    const url = (await createSource(t.app.db, accountId, { destinationIds: [crm], distributionId: collection })).url;
    const source = await sourceOf(url);
    // The first batch is slow to reach the database: its repeat, in the next batch, still comes after it.
    const { raw, calls } = counting(300);
    const committer = new GroupCommit(raw);
    const batch = [
      kept(source, 'One', 'idem:a'),
      kept(source, 'Two', 'idem:b'),
      kept(source, 'One again', 'idem:a'),
      kept(source, 'Three', 'idem:c'),
    ];
    const written = await Promise.all(batch.map((lead) => committer.write(lead, t.app.log)));
    // The repeat ends the first batch: two statements for four leads.
    expect(calls).toEqual([INGEST_BATCH.name, INGEST_BATCH.name]);
    expect(written.map((w) => [w?.found, w?.taken, w?.status])).toEqual([
      [true, true, 'pending'],
      [true, true, 'pending'],
      [true, false, null],
      [true, true, 'pending'],
    ]);
    expect(written[2]?.original).toBe(batch[0]!.hookId);
    const s = await stored(source.id);
    expect(s.leads).toHaveLength(3);
    expect(s.deliveries).toHaveLength(3);
    expect(s.keys.map((k) => [k.key, k.hookId]).sort()).toEqual(
      [
        ['idem:a', batch[0]!.hookId],
        ['idem:b', batch[1]!.hookId],
        ['idem:c', batch[3]!.hookId],
      ].sort(),
    );
    expect(s.hooks.find((h) => h.id === batch[2]!.duplicateId)).toMatchObject({
      status: 'duplicate',
      reason: `DUPLICATE_OF: ${batch[0]!.hookId}`,
      leadId: null,
    });
    // One round-robin slot per written lead, in the order they arrived.
    const assignee = (lead: KeptLead) => s.leads.find((l) => l.id === lead.leadId)?.assignee?.name;
    expect([batch[0]!, batch[1]!, batch[3]!].map(assignee)).toEqual(['Anna', 'Bohdan', 'Anna']);
  });

  it('when one lead of a batch fails, writes the others one by one and fails only that one', async () => {
    const crm = await createDestination(t.app.db, accountId);
    const url = (await createSource(t.app.db, accountId, { destinationIds: [crm] })).url;
    const source = await sourceOf(url);
    await t.app.db.execute(sql`create or replace function lr_test_poison() returns trigger language plpgsql as $$
      begin
        if new.fields->>'name' = 'Poison' then raise exception 'simulated failure of one lead'; end if;
        return new;
      end $$`);
    await t.app.db.execute(
      sql`create trigger lr_test_poison before insert on leads for each row execute function lr_test_poison()`,
    );
    const { raw, calls } = counting();
    const committer = new GroupCommit(raw);
    const batch = ['A', 'B', 'Poison', 'C', 'D'].map((name) => kept(source, name, `idem:${name}`));
    let results: PromiseSettledResult<unknown>[];
    try {
      results = await Promise.allSettled(batch.map((lead) => committer.write(lead, t.app.log)));
    } finally {
      await t.app.db.execute(sql`drop trigger lr_test_poison on leads`);
    }
    expect(calls).toEqual([INGEST_BATCH.name, ...Array(5).fill(INGEST_LEAD.name)]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect(String((results[2] as PromiseRejectedResult).reason)).toContain('simulated failure of one lead');
    const s = await stored(source.id);
    expect(s.leads.map((l) => l.fields.name).sort()).toEqual(['A', 'B', 'C', 'D']);
    expect(s.hooks).toHaveLength(4);
    expect(s.deliveries).toHaveLength(4);
    expect(s.keys.map((k) => k.key).sort()).toEqual(['idem:A', 'idem:B', 'idem:C', 'idem:D']);
  });

  it('answers every one of a burst of webhooks with repeats after its commit: one lead per event', async () => {
    const crm = await createDestination(t.app.db, accountId);
    const source = await createSource(t.app.db, accountId, { destinationIds: [crm] });
    const post = (i: number) =>
      t.app.inject({
        method: 'POST',
        url: source.url,
        payload: { name: `Lead ${i}` },
        headers: { 'idempotency-key': `burst-${i}` },
      });
    // Every event twice, the repeats interleaved with the others.
    const answers = await Promise.all([...Array.from({ length: 40 }, (_, i) => [post(i), post(i)]).flat()]);
    const byKey = new Map<number, { statusCode: number; body: { hookId: string; status: string } }[]>();
    answers.forEach((a, n) => {
      const i = Math.floor(n / 2);
      byKey.set(i, [...(byKey.get(i) ?? []), { statusCode: a.statusCode, body: a.json() }]);
    });
    for (const [, pair] of byKey) {
      expect(pair.map((p) => p.statusCode).sort()).toEqual([200, 202]);
      const [first, repeat] = pair[0]!.statusCode === 202 ? pair : [pair[1]!, pair[0]!];
      expect(repeat!.body).toMatchObject({ status: 'duplicate', hookId: first!.body.hookId });
    }
    // Answered means stored.
    const s = await stored(source.id);
    expect(s.leads).toHaveLength(40);
    expect(s.deliveries).toHaveLength(40);
    expect(s.hooks.filter((h) => h.status === 'pending')).toHaveLength(40);
    expect(s.hooks.filter((h) => h.status === 'duplicate')).toHaveLength(40);
  });
});
