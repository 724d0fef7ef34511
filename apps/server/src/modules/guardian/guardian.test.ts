import { eq } from 'drizzle-orm';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardianAlerts, leads } from '../../db/schema';
import { accountIdOf, createSource } from '../../test/routing-fixtures';
import { bearer, createTestApp, signUp, type TestApp } from '../../test/test-app';
import { checkDroughts } from './guardian.service';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const kyiv = (iso: string) => DateTime.fromISO(iso, { zone: 'Europe/Kyiv' });

/** Four weeks of a weekday 09:00–18:00 source: a lead every 12 minutes (5 an hour), up to `until`. */
function officeHours(until: DateTime): Date[] {
  const out: Date[] = [];
  for (let day = until.minus({ weeks: 4 }).startOf('day'); day < until; day = day.plus({ days: 1 })) {
    if (day.weekday > 5) continue;
    for (let t = day.set({ hour: 9 }); t < day.set({ hour: 18 }) && t < until; t = t.plus({ minutes: 12 })) {
      out.push(t.toJSDate());
    }
  }
  return out;
}

async function sourceWithHistory(until: DateTime) {
  const user = await signUp(t);
  const accountId = await accountIdOf(t.app.db, user.login);
  const source = await createSource(t.app.db, accountId, { destinationIds: [] });
  const rows = officeHours(until).map((createdAt) => ({
    accountId,
    integrationId: source.id,
    fields: { name: 'Lead', custom: {} },
    raw: {},
    createdAt,
  }));
  await t.app.db.insert(leads).values(rows);
  const alerts = () => t.app.db.select().from(guardianAlerts).where(eq(guardianAlerts.accountId, accountId));
  return { user, accountId, source, alerts };
}

describe('the drought watch', () => {
  it('opens one alert when a weekday morning passes without the usual leads, and closes it when a lead comes', async () => {
    const s = await sourceWithHistory(kyiv('2026-11-24T10:00'));
    // 10:30: half an hour of silence at 5 an hour is nothing unusual.
    await checkDroughts(t.app.db, kyiv('2026-11-24T10:30').toJSDate());
    expect(await s.alerts()).toEqual([]);
    // 12:30: two and a half hours, about 12 leads expected.
    const { opened } = await checkDroughts(t.app.db, kyiv('2026-11-24T12:30').toJSDate());
    expect(opened.filter((a) => a.accountId === s.accountId)).toHaveLength(1);
    await checkDroughts(t.app.db, kyiv('2026-11-24T13:30').toJSDate());
    const [alert, ...more] = await s.alerts();
    expect(more).toEqual([]);
    expect(alert).toMatchObject({ kind: 'drought', integrationId: s.source.id, closedAt: null });
    expect(alert!.silentSince?.getTime()).toBeLessThan(kyiv('2026-11-24T10:00').toMillis());
    expect(alert!.expected).toBeGreaterThan(8);

    // The history on the web; another account sees none of it.
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/guardian/alerts',
      headers: bearer(s.user.accessToken),
    });
    expect(list.json()).toMatchObject([{ kind: 'drought', integration: { _id: s.source.id }, closedAt: null }]);
    const other = await signUp(t);
    const theirs = await t.app.inject({
      method: 'GET',
      url: '/api/guardian/alerts',
      headers: bearer(other.accessToken),
    });
    expect(theirs.json()).toEqual([]);

    // A lead at 14:00 ends it.
    await t.app.db.insert(leads).values({
      accountId: s.accountId,
      integrationId: s.source.id,
      fields: { name: 'Back', custom: {} },
      raw: {},
      createdAt: kyiv('2026-11-24T14:00').toJSDate(),
    });
    await checkDroughts(t.app.db, kyiv('2026-11-24T14:15').toJSDate());
    const [ended] = await s.alerts();
    expect(ended!.closedAt).toEqual(kyiv('2026-11-24T14:15').toJSDate());
  });

  it('never alerts over a weekend the source never had leads on', async () => {
    const s = await sourceWithHistory(kyiv('2026-11-27T18:00'));
    for (const at of ['2026-11-28T12:00', '2026-11-29T20:00', '2026-11-30T08:59']) {
      await checkDroughts(t.app.db, kyiv(at).toJSDate());
    }
    expect(await s.alerts()).toEqual([]);
  });

  it('needs sign-in for the history', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/guardian/alerts' })).statusCode).toBe(401);
  });
});
