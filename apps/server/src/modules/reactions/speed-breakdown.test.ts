import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrations, leadReactions, leads } from '../../db/schema';
import { accountIdOf, createSource } from '../../test/routing-fixtures';
import { bearer, createTestApp, signUp, type TestApp } from '../../test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const MIN = 60_000;

describe('the speed-to-lead breakdown', () => {
  it('gives the period, each day, each source and each manager their own median over their own leads', async () => {
    const user = await signUp(t);
    const accountId = await accountIdOf(t.app.db, user.login);
    const site = await createSource(t.app.db, accountId, { destinationIds: [] });
    const fb = await createSource(t.app.db, accountId, { destinationIds: [] });
    await t.app.db.update(integrations).set({ name: 'Site' }).where(eq(integrations.id, site.id));
    await t.app.db.update(integrations).set({ name: 'Facebook' }).where(eq(integrations.id, fb.id));
    const now = Date.now();
    // Site: Olena reacts in 2 and 4 minutes; Facebook: Ivan in 30 minutes, and one lead nobody takes.
    const plan = [
      { source: site.id, manager: 'Olena', after: 2 },
      { source: site.id, manager: 'Olena', after: 4 },
      { source: fb.id, manager: 'Ivan', after: 30 },
      { source: fb.id, manager: 'Ivan', after: null },
    ];
    for (const p of plan) {
      const createdAt = new Date(now - 2 * 60 * MIN);
      const [l] = await t.app.db
        .insert(leads)
        .values({
          accountId,
          integrationId: p.source,
          fields: { name: 'x', custom: {} },
          raw: {},
          assignee: { id: p.manager, name: p.manager, value: p.manager },
          createdAt,
        } as typeof leads.$inferInsert)
        .returning();
      if (p.after !== null) {
        await t.app.db.insert(leadReactions).values({
          accountId,
          leadId: l!.id,
          integrationId: p.source,
          kind: 'taken',
          via: 'web',
          at: new Date(createdAt.getTime() + p.after * MIN),
        });
      }
    }
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/report/speed-to-lead/breakdown?days=7',
      headers: bearer(user.accessToken),
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total).toMatchObject({ leads: 4, reacted: 3, neverTaken: 1, medianMs: 4 * MIN });
    expect(body.total.within).toEqual({ '5': 0.5, '15': 0.5, '60': 0.75 });
    // Two leads each: equal counts are in the order of the sources' names.
    expect(body.byIntegration).toEqual([
      expect.objectContaining({
        integration: expect.objectContaining({ name: 'Facebook' }),
        neverTaken: 1,
        medianMs: 30 * MIN,
      }),
      expect.objectContaining({ integration: expect.objectContaining({ name: 'Site' }), leads: 2, medianMs: 3 * MIN }),
    ]);
    expect(body.byManager.map((m: { manager: string; medianMs: number }) => [m.manager, m.medianMs]).sort()).toEqual([
      ['Ivan', 30 * MIN],
      ['Olena', 3 * MIN],
    ]);
    expect(body.byDay.reduce((n: number, d: { leads: number }) => n + d.leads, 0)).toBe(4);

    // Another account's source is not found; a period it does not keep is refused.
    const other = await signUp(t);
    const theirs = await t.app.inject({
      method: 'GET',
      url: `/api/report/speed-to-lead/breakdown?integrationId=${site.id}`,
      headers: bearer(other.accessToken),
    });
    expect(theirs.statusCode).toBe(404);
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/report/speed-to-lead/breakdown?days=400',
      headers: bearer(user.accessToken),
    });
    expect(bad.statusCode).toBe(400);
  });
});
