import { getConnector } from '@leadrelay/connectors';
import { eq } from 'drizzle-orm';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectorConnections,
  guardianAlerts,
  hooks,
  integrations,
  leadReactions,
  leads,
  users,
} from '../../db/schema';
import { credentialExpiry } from '../../delivery/stored-auth';
import { accountIdOf, createSource } from '../../test/routing-fixtures';
import { bearer, createTestApp, signUp, type TestApp } from '../../test/test-app';
import { speedToLeadSummary } from '../reactions/reactions.service';
import { checkDroughts, notifyDroughts } from './guardian.service';
import { checkExpiries } from './guardian-expiry';
import type { GuardianDeps } from './guardian-notify';
import { sendWeeklyMails } from './weekly-mail';

let t: TestApp;
let deps: GuardianDeps;
beforeAll(async () => {
  t = await createTestApp();
  deps = { mailer: t.app.mailer, publicUrl: 'http://app.test', log: t.app.log };
});
afterAll(() => t.close());

const kyiv = (iso: string) => DateTime.fromISO(iso, { zone: 'Europe/Kyiv' });
/** What the guardian sent the address (sign-up's confirmation mail aside). */
const mailTo = (login: string) => t.app.mailer.outbox.filter((m) => m.to === login && !m.link?.includes('/confirm'));

async function account(lang: 'uk' | 'en' = 'uk') {
  const user = await signUp(t);
  const accountId = await accountIdOf(t.app.db, user.login);
  await t.app.db.update(users).set({ lang }).where(eq(users.id, accountId));
  return { user, accountId };
}

/** Four weeks of a weekday 09:00–18:00 source, a lead every 12 minutes, up to `until`. */
function officeHours(until: DateTime, weeks = 4): Date[] {
  const out: Date[] = [];
  for (let day = until.minus({ weeks }).startOf('day'); day < until; day = day.plus({ days: 1 })) {
    if (day.weekday > 5) continue;
    for (let at = day.set({ hour: 9 }); at < day.set({ hour: 18 }) && at < until; at = at.plus({ minutes: 12 })) {
      out.push(at.toJSDate());
    }
  }
  return out;
}

const lead = (accountId: string, integrationId: string, createdAt: Date) => ({
  accountId,
  integrationId,
  fields: { name: 'Lead', custom: {} },
  raw: {},
  createdAt,
});

/** One drought run: the detector and the notice, in one transaction like the periodic task. */
const droughtRun = (at: DateTime) =>
  t.app.db.transaction(async (tx) => {
    await checkDroughts(tx, at.toJSDate());
    return notifyDroughts(deps, tx, at.toJSDate());
  });

describe('the drought mail', () => {
  it('tells the owner once per drought, in their language, and again only after leads came back and stopped', async () => {
    const { user, accountId } = await account('en');
    const source = await createSource(t.app.db, accountId, { destinationIds: [] });
    await t.app.db.update(integrations).set({ name: 'Site form' }).where(eq(integrations.id, source.id));
    await t.app.db
      .insert(leads)
      .values(officeHours(kyiv('2026-11-24T10:00')).map((at) => lead(accountId, source.id, at)));

    await droughtRun(kyiv('2026-11-24T10:30'));
    expect(mailTo(user.login)).toHaveLength(0);
    await droughtRun(kyiv('2026-11-24T12:30'));
    const [first, ...more] = mailTo(user.login);
    expect(more).toHaveLength(0);
    expect(first!.subject).toBe('LeadRelay: leads stopped coming from "Site form"');
    expect(first!.text).toContain('http://app.test/en/admin/guardian');
    // While it lasts: nothing more, the alert marked as told.
    await droughtRun(kyiv('2026-11-24T13:30'));
    await droughtRun(kyiv('2026-11-24T15:00'));
    expect(mailTo(user.login)).toHaveLength(1);
    const [alert] = await t.app.db.select().from(guardianAlerts).where(eq(guardianAlerts.accountId, accountId));
    expect(alert!.notifiedAt).toEqual(kyiv('2026-11-24T12:30').toJSDate());

    // Leads come back on Wednesday morning, then stop again: a second drought, a second mail.
    const back = [];
    for (let at = kyiv('2026-11-25T09:00'); at < kyiv('2026-11-25T10:00'); at = at.plus({ minutes: 12 })) {
      back.push(lead(accountId, source.id, at.toJSDate()));
    }
    await t.app.db.insert(leads).values(back);
    await droughtRun(kyiv('2026-11-25T10:00'));
    expect(mailTo(user.login)).toHaveLength(1);
    await droughtRun(kyiv('2026-11-25T13:00'));
    expect(mailTo(user.login)).toHaveLength(2);
    await droughtRun(kyiv('2026-11-25T14:00'));
    expect(mailTo(user.login)).toHaveLength(2);
  });

  it('sends nothing to an owner who turned drought mails off, and leaves the alert untold', async () => {
    const { user, accountId } = await account();
    const source = await createSource(t.app.db, accountId, { destinationIds: [] });
    await t.app.db
      .insert(leads)
      .values(officeHours(kyiv('2026-11-24T10:00')).map((at) => lead(accountId, source.id, at)));
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/guardian/settings',
      headers: bearer(user.accessToken),
      payload: { mailDrought: false, mailExpiry: true, weeklyMail: true },
    });
    expect(put.statusCode).toBe(200);
    await droughtRun(kyiv('2026-11-24T12:30'));
    expect(mailTo(user.login)).toHaveLength(0);
    const [alert] = await t.app.db.select().from(guardianAlerts).where(eq(guardianAlerts.accountId, accountId));
    expect(alert).toMatchObject({ kind: 'drought', notifiedAt: null });
  });
});

describe('credential expiry warnings', () => {
  it('warns about an amoCRM refresh token 7 days and 1 day ahead, each once, with the reconnect link', async () => {
    const { user, accountId } = await account('uk');
    const expiresAt = kyiv('2026-12-10T12:00').toJSDate();
    const [amo] = await t.app.db
      .insert(integrations)
      .values({ accountId, type: 'amocrm', name: 'Продажі', credentialExpiresAt: expiresAt })
      .returning();
    const run = (at: DateTime) => t.app.db.transaction((tx) => checkExpiries(deps, tx, at.toJSDate()));
    await run(kyiv('2026-12-01T12:00')); // 9 days ahead: nothing yet
    expect(mailTo(user.login)).toHaveLength(0);
    await run(kyiv('2026-12-03T13:00'));
    await run(kyiv('2026-12-03T14:00'));
    await run(kyiv('2026-12-06T14:00'));
    const week = mailTo(user.login);
    expect(week).toHaveLength(1);
    expect(week[0]!.subject).toContain('«Продажі»');
    expect(week[0]!.text).toContain(`http://app.test/admin/integrations/amocrm/${amo!.id}`);
    // The service as the catalogue names the type.
    expect(week[0]!.text).toContain('amoCRM');
    await run(kyiv('2026-12-09T12:30'));
    await run(kyiv('2026-12-09T13:30'));
    expect(mailTo(user.login)).toHaveLength(2);
    const alerts = await t.app.db.select().from(guardianAlerts).where(eq(guardianAlerts.accountId, accountId));
    expect(alerts.map((a) => [a.daysAhead, a.closedAt === null]).sort()).toEqual([
      [1, true],
      [7, false],
    ]);

    // Reconnected: the credential's end moves, the open warning closes, nothing more is sent.
    await t.app.db
      .update(integrations)
      .set({ credentialExpiresAt: kyiv('2027-03-09T12:00').toJSDate() })
      .where(eq(integrations.id, amo!.id));
    await run(kyiv('2026-12-09T14:30'));
    expect(mailTo(user.login)).toHaveLength(2);
    const after = await t.app.db.select().from(guardianAlerts).where(eq(guardianAlerts.accountId, accountId));
    expect(after.every((a) => a.closedAt !== null)).toBe(true);
  });

  it('warns about a Facebook connection whose long-lived token ends, in English, and lists it in the history', async () => {
    const { user, accountId } = await account('en');
    const id = crypto.randomUUID();
    await t.app.db.insert(connectorConnections).values({
      id,
      accountId,
      type: 'facebook',
      externalId: `fb-${id}`,
      name: 'Olena Koval',
      secret: t.app.deps.secrets.seal({ accessToken: 'x' }, id),
      expiresAt: kyiv('2026-12-10T12:00').toJSDate(),
    });
    await t.app.db.transaction((tx) => checkExpiries(deps, tx, kyiv('2026-12-09T18:00').toJSDate()));
    const [mail, ...more] = mailTo(user.login);
    expect(more).toHaveLength(0);
    expect(mail!.subject).toBe('LeadRelay: access to "Olena Koval" ends 10 December');
    expect(mail!.text).toContain('http://app.test/en/admin/integrations/facebook');
    const list = await t.app.inject({ method: 'GET', url: '/api/guardian/alerts', headers: bearer(user.accessToken) });
    expect(list.json()).toMatchObject([
      { kind: 'expiry', integration: null, connection: { _id: id, name: 'Olena Koval' }, daysAhead: 1 },
    ]);
  });

  it('knows the end of an amoCRM refresh token from when it was obtained, and none for a key without one', async () => {
    const now = new Date('2026-12-01T00:00:00Z');
    const auth = { accessToken: 'a', refreshToken: 'r', expiresAt: 0, baseUrl: 'https://x.amocrm.ru' };
    expect(credentialExpiry(getConnector('amocrm'), auth, now)).toEqual(new Date('2027-03-01T00:00:00Z'));
    // An API key has no known end.
    expect(credentialExpiry(getConnector('amocrm'), { apiKey: 'k' }, now)).toBeNull();
  });
});

describe('the reconciliation', () => {
  it('counts per source and Kyiv day exactly what the lead log shows, for the account only', async () => {
    const { user, accountId } = await account();
    const a = await createSource(t.app.db, accountId, { destinationIds: [] });
    const b = await createSource(t.app.db, accountId, { destinationIds: [] });
    const statuses = [
      'delivered',
      'delivered',
      'failed',
      'partial',
      'held',
      'pending',
      'filtered',
      'duplicate',
    ] as const;
    const now = new Date();
    const rows = [
      ...statuses.map((status) => ({ integrationId: a.id, status })),
      { integrationId: b.id, status: 'delivered' as const },
    ].map((r) => ({ ...r, accountId, request: { method: 'POST', headers: {}, body: {} }, createdAt: now }));
    await t.app.db.insert(hooks).values(rows as (typeof hooks.$inferInsert)[]);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/guardian/reconciliation?days=1',
      headers: bearer(user.accessToken),
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const rowA = body.rows.find((r: { integration: { _id: string } }) => r.integration._id === a.id);
    expect(rowA).toMatchObject({ received: 6, delivered: 2, failed: 2, held: 1, other: 1 });
    // The same numbers as a count of the lead log filtered by source and status.
    const log = async (status: string) =>
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/hook?integrationId=${a.id}&status=${status}&limit=100`,
          headers: bearer(user.accessToken),
        })
      ).json().total;
    expect(await log('delivered')).toBe(rowA.delivered);
    expect(await log('held')).toBe(rowA.held);
    expect((await log('failed')) + (await log('partial'))).toBe(rowA.failed);
    expect(body.rows.find((r: { integration: { _id: string } }) => r.integration._id === b.id)).toMatchObject({
      received: 1,
      delivered: 1,
    });
    const other = await signUp(t);
    const theirs = await t.app.inject({
      method: 'GET',
      url: '/api/guardian/reconciliation',
      headers: bearer(other.accessToken),
    });
    expect(theirs.json().rows).toEqual([]);
  });

  it('refuses a period it does not keep', async () => {
    const { user } = await account();
    for (const days of ['0', '32', 'x']) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/guardian/reconciliation?days=${days}`,
        headers: bearer(user.accessToken),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/guardian/reconciliation' })).statusCode).toBe(401);
  });
});

describe('the weekly mail', () => {
  const weekly = (at: DateTime) =>
    t.app.db.transaction((tx) => sendWeeklyMails(deps, speedToLeadSummary, tx, at.toJSDate()));

  it('goes once per week from Monday 09:00 Kyiv, with speed to lead and the sources, in the owner’s language', async () => {
    const { user, accountId } = await account('en');
    const source = await createSource(t.app.db, accountId, { destinationIds: [] });
    await t.app.db
      .update(integrations)
      .set({ name: 'Site form', createdAt: kyiv('2026-11-01T00:00').toJSDate() })
      .where(eq(integrations.id, source.id));
    // Last week: four leads, reacted to in 3, 10 and 30 minutes; one never taken.
    const made = await t.app.db
      .insert(leads)
      .values([0, 1, 2, 3].map((i) => lead(accountId, source.id, kyiv(`2026-11-2${4 + i}T10:00`).toJSDate())))
      .returning();
    await t.app.db.insert(leadReactions).values(
      [3, 10, 30].map((minutes, i) => ({
        accountId,
        leadId: made[i]!.id,
        integrationId: source.id,
        kind: 'taken' as const,
        via: 'web' as const,
        at: new Date(made[i]!.createdAt.getTime() + minutes * 60_000),
      })),
    );
    await t.app.db.insert(hooks).values(
      made.map((l, i) => ({
        accountId,
        integrationId: source.id,
        leadId: l.id,
        status: i === 3 ? ('failed' as const) : ('delivered' as const),
        request: { method: 'POST', headers: {}, body: {} },
        createdAt: l.createdAt,
      })) as (typeof hooks.$inferInsert)[],
    );
    await weekly(kyiv('2026-11-30T08:00')); // Monday before 09:00: not yet
    expect(mailTo(user.login)).toHaveLength(0);
    await weekly(kyiv('2026-11-30T09:05'));
    await weekly(kyiv('2026-11-30T10:05'));
    await weekly(kyiv('2026-12-03T10:05'));
    const [mail, ...more] = mailTo(user.login);
    expect(more).toHaveLength(0);
    expect(mail!.subject).toBe('LeadRelay: your week 23 November – 29 November');
    expect(mail!.text).toContain('Leads received: 4; delivered: 3; held: 0; not delivered: 1.');
    expect(mail!.text).toContain('median 10 min, 90th percentile 26 min');
    expect(mail!.text).toContain('Reacted within 5 min: 25%, 15 min: 50%, an hour: 75%. Leads nobody took: 1.');
    expect(mail!.text).toContain('"Site form": received 4, delivered 3, held 0, not delivered 1.');
    // The next week, the next mail.
    await weekly(kyiv('2026-12-07T09:30'));
    expect(mailTo(user.login)).toHaveLength(2);
    expect(mailTo(user.login)[1]!.text).toContain('There were no leads this week.');
  });

  it('is tried again next run when the mail could not go, and then sent once', async () => {
    const { user, accountId } = await account('en');
    await createSource(t.app.db, accountId, { destinationIds: [] });
    let refuse = true;
    const flaky: GuardianDeps = {
      ...deps,
      mailer: {
        ...t.app.mailer,
        send: async (m) => {
          if (refuse && m.to === user.login) throw new Error('SMTP down');
          return t.app.mailer.send(m);
        },
      },
    };
    const run = (at: DateTime) =>
      t.app.db.transaction((tx) => sendWeeklyMails(flaky, speedToLeadSummary, tx, at.toJSDate()));
    await run(kyiv('2026-12-21T09:10'));
    expect(mailTo(user.login)).toHaveLength(0);
    refuse = false;
    await run(kyiv('2026-12-21T10:10'));
    await run(kyiv('2026-12-21T11:10'));
    expect(mailTo(user.login).map((m) => m.subject)).toEqual(['LeadRelay: your week 14 December – 20 December']);
  });

  it('respects the opt-out and writes Ukrainian to a Ukrainian owner', async () => {
    const off = await account('uk');
    await createSource(t.app.db, off.accountId, { destinationIds: [] });
    await t.app.inject({
      method: 'PUT',
      url: '/api/guardian/settings',
      headers: bearer(off.user.accessToken),
      payload: { mailDrought: true, mailExpiry: true, weeklyMail: false },
    });
    const on = await account('uk');
    await createSource(t.app.db, on.accountId, { destinationIds: [] });
    await weekly(kyiv('2026-12-14T09:30'));
    expect(mailTo(off.user.login)).toHaveLength(0);
    const [mail] = mailTo(on.user.login);
    expect(mail!.subject).toBe('LeadRelay: ваш тиждень 7 грудня – 13 грудня');
    expect(mail!.text).toContain('Цього тижня лідів не було.');
    const settings = await t.app.inject({
      method: 'GET',
      url: '/api/guardian/settings',
      headers: bearer(off.user.accessToken),
    });
    expect(settings.json()).toEqual({ mailDrought: true, mailExpiry: true, weeklyMail: false });
  });

  it('refuses settings that are not three switches', async () => {
    const { user } = await account();
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/guardian/settings',
      headers: bearer(user.accessToken),
      payload: { mailDrought: 'yes' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_ERROR');
  });
});
