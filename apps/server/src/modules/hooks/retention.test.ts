import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveries, deliveryAttempts, hooks, leads } from '../../db/schema';
import { accountIdOf, createDestination, createSource } from '../../test/routing-fixtures';
import { createTestApp, signUp, type TestApp } from '../../test/test-app';
import { testDestination } from '../../test/test-destination';
import { pruneLeadLog } from './retention';

const dest = testDestination();
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    delivery: { getConnector: dest.getConnector, random: () => 0 },
  });
});
afterAll(() => t.close());

/** Moves a hook, its lead and its deliveries `days` into the past. */
async function age(hookId: string, days: number) {
  const [hook] = await t.app.db.select().from(hooks).where(eq(hooks.id, hookId));
  const back = sql`now() - make_interval(days => ${days})`;
  await t.app.db.update(hooks).set({ createdAt: back }).where(eq(hooks.id, hookId));
  await t.app.db.update(leads).set({ createdAt: back }).where(eq(leads.id, hook!.leadId!));
  return hook!.leadId!;
}

describe('retention of the lead log', () => {
  it('prunes what is older than the retention and finished, in batches, and keeps what is still on its way', async () => {
    const user = await signUp(t);
    const accountId = await accountIdOf(t.app.db, user.login);
    const crm = await createDestination(t.app.db, accountId);
    const source = await createSource(t.app.db, accountId, { destinationIds: [crm] });
    const post = async (phone: string) =>
      (await t.app.inject({ method: 'POST', url: source.url, payload: { name: 'Olena', phone } })).json()
        .hookId as string;
    const [oldA, oldB, waiting, fresh] = [
      await post('0501111111'),
      await post('0502222222'),
      await post('0503333333'),
      await post('0504444444'),
    ];
    await t.app.deliveryWorker.drain();
    // The third one's destination fails: it waits for a retry, pending.
    const [waitingDelivery] = await t.app.db.select().from(deliveries).where(eq(deliveries.hookId, waiting));
    await t.app.db
      .update(deliveries)
      .set({ status: 'pending', nextAttemptAt: new Date(Date.now() + 3_600_000) })
      .where(eq(deliveries.id, waitingDelivery!.id));
    const oldLeads = [await age(oldA, 200), await age(oldB, 200), await age(waiting, 200)];
    await age(fresh, 10);

    expect(await pruneLeadLog(t.app.db, new Date(), 180, 1)).toEqual({ hooks: 1, leads: 1 });
    expect(await pruneLeadLog(t.app.db, new Date(), 180, 1)).toEqual({ hooks: 1, leads: 1 });
    expect(await pruneLeadLog(t.app.db, new Date(), 180, 1)).toEqual({ hooks: 0, leads: 0 });

    const left = await t.app.db.select({ id: hooks.id }).from(hooks).where(eq(hooks.accountId, accountId));
    expect(left.map((h) => h.id).sort()).toEqual([waiting, fresh].sort());
    expect(await t.app.db.select().from(leads).where(inArray(leads.id, oldLeads))).toHaveLength(1);
    const attempts = await t.app.db
      .select()
      .from(deliveryAttempts)
      .innerJoin(deliveries, eq(deliveries.id, deliveryAttempts.deliveryId))
      .where(eq(deliveries.accountId, accountId));
    expect(attempts.map((a) => a.deliveries.hookId).sort()).toEqual([waiting, fresh].sort());
  });
});
