// Round-robin over the managers on duty (issue 19 part 3) on a fixed clock: who is away or off shift
// gets no lead; when nobody is on, the source's policy says who (the fallback, or the first to come
// on); the cached distribution does not outlive a shift boundary.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CollectionItem, hooks, leads } from '../../db/schema';
import { OFFICE_HOURS, type WorkingHours } from '../../lib/working-time';
import { accountIdOf, createCollection, createSource } from '../../test/routing-fixtures';
import { createTestApp, signUp, type TestApp } from '../../test/test-app';
import { ingestWebhook } from './ingest.service';
import { sourceByToken } from './source-cache';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** 07:00–09:00 in Kyiv on weekdays (05:00–07:00 UTC in January). */
const EARLY: WorkingHours = {
  timeZone: 'Europe/Kyiv',
  week: [0, 1, 2, 3, 4].map(() => [{ from: '07:00', to: '09:00' }]).concat([[], []]),
  daysOff: [],
};
const item = (id: string, extra: Partial<CollectionItem> = {}): CollectionItem => ({
  id,
  name: id,
  value: id,
  hours: OFFICE_HOURS,
  ...extra,
});

async function source(items: CollectionItem[], routing?: Record<string, unknown>) {
  const user = await signUp(t);
  const accountId = await accountIdOf(t.app.db, user.login);
  const distributionId = await createCollection(t.app.db, accountId, items);
  const src = await createSource(t.app.db, accountId, { distributionId, options: routing ? { routing } : {} });
  /** The manager each lead went to, posted at `at`. */
  const post = async (at: Date, n = 1) => {
    const names: (string | undefined)[] = [];
    for (let i = 0; i < n; i++) {
      const { hookId } = await ingestWebhook(
        { db: t.app.db, events: t.app.events, log: t.app.log, now: () => at },
        { token: src.token, body: { name: `Lead ${i}` }, request: { method: 'POST', headers: {} } },
      );
      const [row] = await t.app.db
        .select({ assignee: leads.assignee })
        .from(hooks)
        .innerJoin(leads, eq(leads.id, hooks.leadId))
        .where(eq(hooks.id, hookId));
      names.push(row?.assignee?.itemId);
    }
    return names;
  };
  return { src, post };
}

// Monday 5 January 2026; Kyiv is UTC+2.
const MONDAY_NOON = new Date('2026-01-05T10:00:00Z');
const MONDAY_NIGHT = new Date('2026-01-05T22:00:00Z');

describe('round-robin over the managers on duty', () => {
  it('skips whoever is away or off shift', async () => {
    const s = await source([
      item('away', { away: true }),
      item('early', { hours: EARLY }),
      item('on'),
      item('always', { hours: undefined }),
    ]);
    expect(await s.post(MONDAY_NOON, 4)).toEqual(['on', 'always', 'on', 'always']);
  });

  it('when nobody is on, gives the lead to the fallback person', async () => {
    const s = await source([item('a'), item('b'), item('night', { away: true })], {
      whenNobody: 'fallback',
      fallbackItemId: 'night',
    });
    expect(await s.post(MONDAY_NIGHT, 2)).toEqual(['night', 'night']);
    // In the day the round-robin goes on as usual, without the (away) fallback.
    expect(await s.post(MONDAY_NOON, 2)).toEqual(['a', 'b']);
  });

  it('when nobody is on, waits for the first who comes on (never everyone)', async () => {
    const s = await source(
      [item('office'), item('early', { hours: EARLY }), item('away', { away: true, hours: EARLY })],
      {
        whenNobody: 'wait',
      },
    );
    expect(await s.post(MONDAY_NIGHT, 3)).toEqual(['early', 'early', 'early']);
  });

  it('does not serve a cached on-duty set past a shift boundary', async () => {
    const s = await source([item('office'), item('always', { hours: undefined })]);
    // 17:59:59.9 in Kyiv: both on; at 18:00, a tenth of a second later (within the cache's second), "office" is off.
    const before = await sourceByToken(t.app.db, s.src.token, t.app.log, new Date('2026-01-05T15:59:59.900Z'));
    expect(before?.distribution?.assignees.map((a) => a.itemId)).toEqual(['office', 'always']);
    const after = await sourceByToken(t.app.db, s.src.token, t.app.log, new Date('2026-01-05T16:00:00.000Z'));
    expect(after?.distribution?.assignees.map((a) => a.itemId)).toEqual(['always']);
  });
});
