// Issue 31 part 1: every day the account is shown begins at midnight in the account's time zone
// (Kyiv unless set). A lead at 00:30 Kyiv time on day D is 22:30 (21:30 in summer) UTC of D-1: the
// dashboard chart, the guardian's reconciliation and speed to lead all count it on D.
import { eq } from 'drizzle-orm';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hooks, leads } from '../../db/schema';
import { accountIdOf, createDestination, createSource } from '../../test/routing-fixtures';
import { bearer, createTestApp, errorOf, type SignedInUser, signUp, type TestApp } from '../../test/test-app';
import { testDestination } from '../../test/test-destination';

const dest = testDestination();
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ delivery: { getConnector: dest.getConnector, random: () => 0 } });
});
afterAll(() => t.close());

const call = (method: 'GET' | 'PATCH', url: string, user: SignedInUser, payload?: object) =>
  t.app.inject({ method, url, payload, headers: bearer(user.accessToken) });

describe("the account's time zone", () => {
  it('is Kyiv for a new account, can be set to another IANA zone, and shows in me and the account', async () => {
    const user = await signUp(t);
    expect((await call('GET', '/api/auth/me', user)).json().timeZone).toBe('Europe/Kyiv');
    const set = await call('PATCH', '/api/account', user, { timeZone: 'America/New_York' });
    expect([set.statusCode, set.json().timeZone]).toEqual([200, 'America/New_York']);
    expect((await call('GET', '/api/account', user)).json().timeZone).toBe('America/New_York');
    expect((await call('GET', '/api/auth/me', user)).json().timeZone).toBe('America/New_York');
  });

  it('refuses a zone that does not exist, or is not text, with a 400 and leaves the zone as it was', async () => {
    const user = await signUp(t);
    for (const timeZone of ['Mars/Olympus_Mons', '', 'Europe/Kyiv; drop table users', 'x'.repeat(200)]) {
      const res = await call('PATCH', '/api/account', user, { timeZone });
      expect([res.statusCode, errorOf(res).code], timeZone).toEqual([400, 'INVALID_TIME_ZONE']);
    }
    const typed = await call('PATCH', '/api/account', user, { timeZone: 3 });
    expect([typed.statusCode, errorOf(typed).code]).toEqual([400, 'INVALID_TYPE']);
    expect((await call('GET', '/api/account', user)).json().timeZone).toBe('Europe/Kyiv');
  });
});

describe('a lead at 00:30 Kyiv time', () => {
  /** A signed-up account with one lead whose hook and lead were received at `at`. */
  async function accountWithLeadAt(at: Date) {
    await t.app.deliveryWorker.drain();
    const user = await signUp(t);
    const accountId = await accountIdOf(t.app.db, user.login);
    const crm = await createDestination(t.app.db, accountId, { name: 'CRM' });
    const source = await createSource(t.app.db, accountId, { destinationIds: [crm] });
    const hookId = (await t.app.inject({ method: 'POST', url: source.url, payload: { name: 'Olena' } })).json().hookId;
    await t.app.deliveryWorker.drain();
    await t.app.db.update(hooks).set({ createdAt: at }).where(eq(hooks.id, hookId));
    await t.app.db.update(leads).set({ createdAt: at }).where(eq(leads.accountId, accountId));
    return { user, source };
  }

  /** The days the account's dashboard chart, reconciliation and speed reports put its lead on. */
  async function daysShown(user: SignedInUser) {
    const chart = (await call('GET', '/api/legacy/api/admin/statistic?page=1&limit=14', user)).json();
    const guardian = (await call('GET', '/api/guardian/reconciliation?days=7', user)).json();
    const speed = (await call('GET', '/api/report/speed-to-lead?days=7', user)).json();
    const breakdown = (await call('GET', '/api/report/speed-to-lead/breakdown?days=7', user)).json();
    return {
      chart: chart.data.map((d: { date: string; received: number }) => [d.date, d.received]),
      guardian: guardian.rows.map((r: { day: string; received: number }) => [r.day, r.received]),
      speed: speed.rows.map((r: { day: string; leads: number }) => [r.day, r.leads]),
      breakdown: breakdown.byDay.map((r: { day: string; leads: number }) => [r.day, r.leads]),
      zones: [guardian.timeZone, speed.timeZone, breakdown.timeZone],
    };
  }

  // Yesterday in Kyiv, so the moment is in the past whenever the test runs.
  const kyivDay = DateTime.now().setZone('Europe/Kyiv').minus({ days: 1 }).toISODate()!;
  const at = DateTime.fromISO(`${kyivDay}T00:30`, { zone: 'Europe/Kyiv' }).toJSDate();

  it('counts on that Kyiv day in the dashboard chart, the guardian and speed to lead, not on the UTC day before', async () => {
    expect(at.toISOString().slice(0, 10)).not.toBe(kyivDay);
    const { user } = await accountWithLeadAt(at);
    expect(await daysShown(user)).toEqual({
      chart: [[kyivDay, 1]],
      guardian: [[kyivDay, 1]],
      speed: [[kyivDay, 1]],
      breakdown: [[kyivDay, 1]],
      zones: ['Europe/Kyiv', 'Europe/Kyiv', 'Europe/Kyiv'],
    });
  });

  it("counts on the day before in an account set to New York's zone, everywhere alike", async () => {
    const { user } = await accountWithLeadAt(at);
    expect((await call('PATCH', '/api/account', user, { timeZone: 'America/New_York' })).statusCode).toBe(200);
    const newYorkDay = DateTime.fromJSDate(at, { zone: 'America/New_York' }).toISODate()!;
    expect(newYorkDay).not.toBe(kyivDay);
    expect(await daysShown(user)).toEqual({
      chart: [[newYorkDay, 1]],
      guardian: [[newYorkDay, 1]],
      speed: [[newYorkDay, 1]],
      breakdown: [[newYorkDay, 1]],
      zones: ['America/New_York', 'America/New_York', 'America/New_York'],
    });
  });
});
