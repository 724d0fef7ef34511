import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hooks, leadReactions, leads } from '../../db/schema';
import { accountIdOf, createDestination, createSource } from '../../test/routing-fixtures';
import { bearer, createTestApp, errorOf, type SignedInUser, signUp, type TestApp } from '../../test/test-app';
import { testDestination } from '../../test/test-destination';
import { recordReaction, speedToLead } from './reactions.service';

const dest = testDestination();
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    delivery: { getConnector: dest.getConnector, random: () => 0 },
  });
});
afterAll(() => t.close());

type Method = 'GET' | 'POST';
const call = (method: Method, url: string, user?: SignedInUser, payload?: object) =>
  t.app.inject({ method, url, payload, headers: user ? bearer(user.accessToken) : {} });

async function account() {
  const user = await signUp(t);
  const accountId = await accountIdOf(t.app.db, user.login);
  const crm = await createDestination(t.app.db, accountId, { name: 'CRM' });
  const source = await createSource(t.app.db, accountId, {
    destinationIds: [crm],
    options: { filters: [{ field: 'name', op: 'notEmpty' }] },
  });
  const post = async (body: object) => (await call('POST', source.url, undefined, body)).json().hookId as string;
  const leadOf = async (hookId: string) =>
    (await t.app.db.select({ leadId: hooks.leadId }).from(hooks).where(eq(hooks.id, hookId)))[0]!.leadId!;
  return { user, accountId, source, post, leadOf };
}

describe('reactions to a lead', () => {
  it('are recorded once per kind: a second press, or two managers at once, leave the first standing', async () => {
    const a = await account();
    const hookId = await a.post({ name: 'Olena', phone: '0501234567' });
    const first = await call('POST', `/api/hook/${hookId}/reaction`, a.user, { kind: 'taken' });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ recorded: true, reaction: { kind: 'taken', via: 'web' } });
    const again = await call('POST', `/api/hook/${hookId}/reaction`, a.user, { kind: 'taken' });
    expect(again.json()).toMatchObject({ recorded: false, reaction: first.json().reaction });

    // Two managers press "Беру" on the same card at the same moment: one wins.
    const other = await a.post({ name: 'Taras' });
    const leadId = await a.leadOf(other);
    const presses = await Promise.all(
      ['Iryna', 'Petro', 'Oksana', 'Mykola'].map((name) =>
        recordReaction(t.app.db, { accountId: a.accountId, leadId, kind: 'taken', via: 'telegram', by: { name } }),
      ),
    );
    expect(presses.filter((p) => p.recorded)).toHaveLength(1);
    const winner = presses.find((p) => p.recorded)!.reaction;
    for (const p of presses) expect(p.reaction).toEqual(winner);
    expect(await t.app.db.select().from(leadReactions).where(eq(leadReactions.leadId, leadId))).toHaveLength(1);

    // The lead log shows them on the hook.
    const listed = (await call('GET', '/api/hook', a.user)).json().data as { _id: string; reactions: unknown[] }[];
    expect(listed.find((h) => h._id === other)?.reactions).toEqual([winner]);
    const detail = (await call('GET', `/api/hook/${hookId}`, a.user)).json();
    expect(detail.reactions).toEqual([first.json().reaction]);
    // A call back is its own kind.
    const called = await call('POST', `/api/hook/${hookId}/reaction`, a.user, { kind: 'called' });
    expect(called.json()).toMatchObject({ recorded: true, reaction: { kind: 'called' } });
  });

  it("refuses another account's hook (404), a hook without a lead (409), bad input (400), no sign-in (401)", async () => {
    const a = await account();
    const b = await account();
    const hookId = await a.post({ name: 'Olena' });
    const filtered = await a.post({ phone: '0671234567' });
    const theirs = await call('POST', `/api/hook/${hookId}/reaction`, b.user, { kind: 'taken' });
    expect([theirs.statusCode, errorOf(theirs).code]).toEqual([404, 'HOOK_NOT_FOUND']);
    const noLead = await call('POST', `/api/hook/${filtered}/reaction`, a.user, { kind: 'taken' });
    expect([noLead.statusCode, errorOf(noLead).code]).toEqual([409, 'HOOK_HAS_NO_LEAD']);
    const bad = await call('POST', `/api/hook/${hookId}/reaction`, a.user, { kind: 'liked' });
    expect([bad.statusCode, errorOf(bad).code]).toEqual([400, 'VALIDATION_ERROR']);
    expect((await call('POST', `/api/hook/not-a-uuid/reaction`, a.user, { kind: 'taken' })).statusCode).toBe(400);
    expect((await call('POST', `/api/hook/${hookId}/reaction`, undefined, { kind: 'taken' })).statusCode).toBe(401);
    expect(await t.app.db.select().from(leadReactions).where(eq(leadReactions.accountId, b.accountId))).toEqual([]);
    const report = await call('GET', `/api/report/speed-to-lead?integrationId=${a.source.id}`, b.user);
    expect([report.statusCode, errorOf(report).code]).toEqual([404, 'INTEGRATION_NOT_FOUND']);
    expect((await call('GET', '/api/report/speed-to-lead?days=0', a.user)).statusCode).toBe(400);
    expect((await call('GET', '/api/report/speed-to-lead?days=93', a.user)).statusCode).toBe(400);
  });
});

describe('the speed-to-lead report', () => {
  it('gives per day and manager the median, the 90th percentile, the shares within 5/15/60 min and the leads never taken', async () => {
    const a = await account();
    const ids = [];
    for (const name of ['A', 'B', 'C', 'D', 'E']) ids.push(await a.leadOf(await a.post({ name })));
    await t.app.deliveryWorker.drain();
    // Received at one instant (Kyiv noon on 24 November); reactions after 2, 10, 30 and 70 minutes; E never.
    const received = new Date('2026-11-24T10:00:00Z');
    await t.app.db
      .update(leads)
      .set({ createdAt: received, assignee: { id: 'm1', name: 'Iryna' } })
      .where(eq(leads.accountId, a.accountId));
    const minutes = [2, 10, 30, 70];
    for (const [i, m] of minutes.entries()) {
      await recordReaction(t.app.db, {
        accountId: a.accountId,
        leadId: ids[i]!,
        kind: 'taken',
        via: 'telegram',
        by: { id: 'm1', name: 'Iryna' },
        at: new Date(received.getTime() + m * 60_000),
      });
    }
    // A call back before the take counts as the first reaction.
    await recordReaction(t.app.db, {
      accountId: a.accountId,
      leadId: ids[3]!,
      kind: 'called',
      via: 'web',
      at: new Date(received.getTime() + 50 * 60_000),
    });

    const report = await speedToLead(t.app.db, a.accountId, { days: 7 }, new Date('2026-11-25T09:00:00Z'));
    expect(report.rows).toEqual([
      {
        day: '2026-11-24',
        integrationId: a.source.id,
        manager: 'Iryna',
        leads: 5,
        reacted: 4,
        neverTaken: 1,
        // 2, 10, 30, 50 minutes: median 20, 90th percentile 44 (linear between 30 and 50).
        medianMs: 20 * 60_000,
        p90Ms: 44 * 60_000,
        within: { '5': 0.2, '15': 0.4, '60': 0.8 },
        deliveryMedianMs: expect.any(Number),
      },
    ]);
    // Older than the window, or another account's: not counted.
    const narrow = await speedToLead(t.app.db, a.accountId, { days: 1 }, new Date('2026-11-25T09:00:00Z'));
    expect(narrow.rows).toEqual([]);
    const api = await call('GET', `/api/report/speed-to-lead?days=92&integrationId=${a.source.id}`, a.user);
    expect(api.statusCode).toBe(200);
    expect(api.json()).toMatchObject({ timeZone: 'Europe/Kyiv', rows: [{ leads: 5, reacted: 4 }] });
  });
});
