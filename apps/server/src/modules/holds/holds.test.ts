import { randomUUID } from 'node:crypto';
import { HELD_EXPIRED } from '@leadrelay/shared';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { rawDb } from '../../db/raw-sql';
import { accountHolds, deliveries, hooks, integrations, leads, plans, users } from '../../db/schema';
import { refreshAccountHold } from '../../delivery/queue';
import { accountIdOf, createDestination, createSource } from '../../test/routing-fixtures';
import { callAs, createTestApp, type SignedInUser, signUp, type TestApp } from '../../test/test-app';
import { testDestination } from '../../test/test-destination';
import { GroupCommit } from '../ingest/group-commit';
import { sourceByToken } from '../ingest/source-cache';
import { HOLDS_RETENTION_TASK, HOLDS_SWEEP_TASK } from './holds.tasks';

const DAY = 86_400_000;
const dest = testDestination();
/** The worker's and the periodic tasks' clock: real time, moved ahead by hand (ingest keeps real time). */
let ahead = 0;
const clock = { now: () => new Date(Date.now() + ahead) };
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    // One delivery at a time: what reaches the CRM first is what the queue gave first.
    delivery: {
      getConnector: dest.getConnector,
      concurrency: 1,
      now: clock.now,
    },
    periodic: { now: clock.now },
  });
});
afterAll(() => t.close());
afterEach(() => {
  ahead = 0;
  dest.received.length = 0;
  vi.restoreAllMocks();
});

const isoDay = (d: Date) => d.toISOString().slice(0, 10);
const names = () => dest.received.map((r) => r.lead.name);

/** A client account with a webhook source sending to one CRM; `post` sends a lead and returns the answer. */
async function account(values: { expDate?: string; leadsPerMonth?: number | null } = {}) {
  await t.app.deliveryWorker.drain();
  dest.received.length = 0;
  const user = await signUp(t);
  const accountId = await accountIdOf(t.app.db, user.login);
  if (values.expDate) await t.app.db.update(users).set({ expDate: values.expDate }).where(eq(users.id, accountId));
  if (values.leadsPerMonth !== undefined) await onPlan(accountId, values.leadsPerMonth);
  const crm = await createDestination(t.app.db, accountId, { name: 'My CRM' });
  const source = await createSource(t.app.db, accountId, { destinationIds: [crm] });
  const post = async (name: string) => {
    const res = await t.app.inject({ method: 'POST', url: source.url, payload: { name, phone: '0501234567' } });
    return { statusCode: res.statusCode, ...(res.json() as { hookId: string; status: string }) };
  };
  return { user, accountId, crm, source, post };
}

async function onPlan(accountId: string, leadsPerMonth: number | null): Promise<string> {
  const [plan] = await t.app.db
    .insert(plans)
    .values({
      title: { uk: 'Тест', en: 'Test' },
      monthlyCents: 1000,
      annualCents: 10000,
      limits: { leadsPerMonth, integrations: null, destinationsPerSource: null },
    })
    .returning({ id: plans.id });
  await t.app.db.update(users).set({ planId: plan!.id }).where(eq(users.id, accountId));
  return plan!.id;
}

const hookRows = (ids: string[]) => t.app.db.select().from(hooks).where(inArray(hooks.id, ids));
const statusOf = async (ids: string[]) => {
  const rows = await hookRows(ids);
  return ids.map((id) => {
    const row = rows.find((r) => r.id === id)!;
    return [row.status, row.reason];
  });
};
const totalsOf = async (user: SignedInUser) => (await callAs(t, 'GET', '/api/hook/total', user)).json();
const mailsTo = (login: string) => t.outbox.filter((m) => m.to === login);

describe('an expired account', () => {
  it('keeps taking leads, holds them with plan_expired and delivers nothing', async () => {
    const yesterday = isoDay(new Date(Date.now() - DAY));
    const a = await account({ expDate: yesterday });
    const answers = [await a.post('Olena'), await a.post('Petro')];
    expect(answers.map((r) => [r.statusCode, r.status])).toEqual([
      [202, 'held'],
      [202, 'held'],
    ]);
    const ids = answers.map((r) => r.hookId);
    expect(await statusOf(ids)).toEqual([
      ['held', 'plan_expired'],
      ['held', 'plan_expired'],
    ]);
    const stored = await t.app.db.select().from(leads).where(eq(leads.accountId, a.accountId));
    expect(stored.map((l) => l.fields.name).sort()).toEqual(['Olena', 'Petro']);

    expect(await t.app.deliveryWorker.drain()).toBe(0);
    expect(dest.received).toHaveLength(0);

    // The lead log and the dashboard show them as held, with the reason's code.
    const list = (await callAs(t, 'GET', '/api/hook?status=held', a.user)).json();
    expect(list.total).toBe(2);
    expect(list.data[0]).toMatchObject({
      status: 'held',
      reason: 'plan_expired',
      deliveries: [{ status: 'held', nextAttemptAt: null, destination: { name: 'My CRM' } }],
    });
    const totals = await totalsOf(a.user);
    expect(totals).toMatchObject({ total: 2, held: 2, pending: 0, delivered: 0 });
    expect(totals.hold).toMatchObject({ reason: 'plan_expired' });
    // Without a drop notice yet, the oldest is given up no sooner than 30 days after it was held.
    expect(Date.parse(totals.hold.dropsAt) - Date.parse(totals.hold.oldestAt)).toBeGreaterThanOrEqual(30 * DAY);
    const today = (await callAs(t, 'GET', '/api/legacy/api/admin/statistic', a.user)).json().data[0];
    expect(today).toMatchObject({ received: 2, held: 2, pending: 0 });
  });

  it('tells the account once by mail, in its language, that its leads are held', async () => {
    const a = await account({ expDate: isoDay(new Date(Date.now() - DAY)) });
    await a.post('Olena');
    await a.post('Petro');
    expect(await t.app.periodic.runNow(HOLDS_SWEEP_TASK)).toBe('ran');
    expect(await t.app.periodic.runNow(HOLDS_SWEEP_TASK)).toBe('ran');
    const mails = mailsTo(a.user.login).filter((m) => m.subject.startsWith('LeadRelay:'));
    expect(mails.map((m) => m.subject)).toEqual(['LeadRelay: ваші ліди утримуються']);
    expect(mails[0]!.text).toContain('Термін дії вашого тарифу LeadRelay закінчився');
    expect(mails[0]!.link).toBe('http://app.test/admin/plan');
  });

  it('delivers every held lead in arrival order within one check after it pays, then new leads at once', async () => {
    const a = await account({ expDate: isoDay(new Date(Date.now() - DAY)) });
    const held = [];
    for (const name of ['First', 'Second', 'Third']) held.push((await a.post(name)).hookId);
    // Paying still needs the check: only a check lets held leads go, so nothing overtakes them.
    await t.app.db
      .update(users)
      .set({ expDate: isoDay(new Date(Date.now() + 30 * DAY)) })
      .where(eq(users.id, a.accountId));
    const whilePaying = await a.post('Fourth');
    expect(whilePaying.status).toBe('held');
    held.push(whilePaying.hookId);
    expect(await t.app.deliveryWorker.drain()).toBe(0);

    // What the payment calls right after extending exp_date.
    expect(await refreshAccountHold(t.app.db, a.accountId, new Date(), t.app.events)).toEqual({
      held: null,
      released: 4,
    });
    // A second call (or the periodic check) finds nothing more to do.
    expect(await refreshAccountHold(t.app.db, a.accountId)).toEqual({ held: null, released: 0 });
    await t.app.deliveryWorker.drain();
    expect(names()).toEqual(['First', 'Second', 'Third', 'Fourth']);
    expect((await statusOf(held)).map(([status]) => status)).toEqual(Array(4).fill('delivered'));
    const released = await t.app.db.select().from(deliveries).where(inArray(deliveries.hookId, held));
    expect(released.every((d) => d.attempts === 1 && d.lastError === null)).toBe(true);

    const next = await a.post('Fifth');
    expect([next.statusCode, next.status]).toEqual([202, 'pending']);
    await t.app.deliveryWorker.drain();
    expect(names()).toEqual(['First', 'Second', 'Third', 'Fourth', 'Fifth']);
    expect(await totalsOf(a.user)).toMatchObject({ held: 0, hold: null, delivered: 5 });
  });

  it('is released by the periodic check when nothing called it after the payment', async () => {
    const a = await account({ expDate: isoDay(new Date(Date.now() - DAY)) });
    await a.post('Anna');
    await a.post('Bohdan');
    await t.app.periodic.runNow(HOLDS_SWEEP_TASK);
    expect(await t.app.deliveryWorker.drain()).toBe(0);
    await t.app.db
      .update(users)
      .set({ expDate: isoDay(new Date(Date.now() + 30 * DAY)) })
      .where(eq(users.id, a.accountId));
    expect(await t.app.periodic.runNow(HOLDS_SWEEP_TASK)).toBe('ran');
    await t.app.deliveryWorker.drain();
    expect(names()).toEqual(['Anna', 'Bohdan']);
    expect(await t.app.db.select().from(accountHolds).where(eq(accountHolds.accountId, a.accountId))).toEqual([]);
  });

  it('does not let a renew get round the hold: a renewed lead waits with the held ones', async () => {
    const a = await account();
    const failed = await a.post('Failed once');
    dest.failNext({ kind: 'permanent' });
    await t.app.deliveryWorker.drain();
    expect((await statusOf([failed.hookId]))[0]![0]).toBe('failed');
    await t.app.db
      .update(users)
      .set({ expDate: isoDay(new Date(Date.now() - DAY)) })
      .where(eq(users.id, a.accountId));
    const renew = await callAs(t, 'PUT', '/api/hook', a.user, { ids: [failed.hookId] });
    expect(renew.statusCode).toBe(200);
    expect(await statusOf([failed.hookId])).toEqual([['held', 'plan_expired']]);
    expect(await t.app.deliveryWorker.drain()).toBe(0);
    await t.app.db
      .update(users)
      .set({ expDate: isoDay(new Date(Date.now() + DAY)) })
      .where(eq(users.id, a.accountId));
    await refreshAccountHold(t.app.db, a.accountId);
    await t.app.deliveryWorker.drain();
    expect(names()).toEqual(['Failed once']);
  });

  it('answers refreshAccountHold for an account that is not held, or still is, by changing nothing', async () => {
    const fine = await account();
    expect(await refreshAccountHold(t.app.db, fine.accountId)).toEqual({ held: null, released: 0 });
    const expired = await account({ expDate: isoDay(new Date(Date.now() - DAY)) });
    const hook = (await expired.post('Still waiting')).hookId;
    expect(await refreshAccountHold(t.app.db, expired.accountId)).toEqual({ held: 'plan_expired', released: 0 });
    expect(await statusOf([hook])).toEqual([['held', 'plan_expired']]);
    // An unknown account is not an error either.
    expect(await refreshAccountHold(t.app.db, randomUUID())).toEqual({ held: null, released: 0 });
  });

  it('never holds a staff account, whatever its plan allows', async () => {
    const a = await account({ leadsPerMonth: 1 });
    await t.app.db.update(users).set({ role: 'admin', expDate: null }).where(eq(users.id, a.accountId));
    const answers = [await a.post('One'), await a.post('Two')];
    expect(answers.map((r) => r.status)).toEqual(['pending', 'pending']);
  });
});

describe('the monthly limit', () => {
  it('holds the leads past the plan’s limit with monthly_limit and releases them in order when the month rolls over', async () => {
    const a = await account({ leadsPerMonth: 2 });
    const answers = [];
    for (const name of ['L1', 'L2', 'L3', 'L4']) answers.push(await a.post(name));
    expect(answers.map((r) => [r.statusCode, r.status])).toEqual([
      [202, 'pending'],
      [202, 'pending'],
      [202, 'held'],
      [202, 'held'],
    ]);
    expect(await statusOf(answers.slice(2).map((r) => r.hookId))).toEqual([
      ['held', 'monthly_limit'],
      ['held', 'monthly_limit'],
    ]);
    await t.app.deliveryWorker.drain();
    expect(names()).toEqual(['L1', 'L2']);
    // The plan page's usage counts the leads that counted towards the limit.
    const limits = (await callAs(t, 'GET', '/api/legacy/api/plans/limits', a.user)).json();
    expect(limits).toMatchObject({ limits: { leadsPerMonth: 2 }, usage: { leadsThisMonth: 2 } });
    // The same month: still held.
    await t.app.periodic.runNow(HOLDS_SWEEP_TASK);
    expect(await t.app.deliveryWorker.drain()).toBe(0);

    const now = new Date();
    ahead = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 0, 0, 5) - now.getTime();
    expect(await t.app.periodic.runNow(HOLDS_SWEEP_TASK)).toBe('ran');
    await t.app.deliveryWorker.drain();
    expect(names()).toEqual(['L1', 'L2', 'L3', 'L4']);
    expect((await totalsOf(a.user)).held).toBe(0);
  });

  it('releases at once when the account moves to a bigger plan', async () => {
    const a = await account({ leadsPerMonth: 1 });
    await a.post('Fits');
    const over = await a.post('Over');
    expect(over.status).toBe('held');
    await t.app.periodic.runNow(HOLDS_SWEEP_TASK);
    expect(mailsTo(a.user.login).at(-1)?.text).toContain('Ліміт лідів вашого тарифу на цей місяць вичерпано');
    await onPlan(a.accountId, 100);
    expect(await refreshAccountHold(t.app.db, a.accountId)).toEqual({ held: null, released: 1 });
    await t.app.deliveryWorker.drain();
    expect(names()).toEqual(['Fits', 'Over']);
  });

  it('decides per lead within one group-commit batch: the first up to the limit go, the rest wait in order', async () => {
    const a = await account({ leadsPerMonth: 3 });
    const source = (await sourceByToken(t.app.db, a.source.token, t.app.log))!;
    const committer = new GroupCommit(rawDb(t.app.db));
    const batch = ['B1', 'B2', 'B3', 'B4', 'B5'].map((name) => {
      const now = new Date();
      return {
        source,
        keys: [`idem:${randomUUID()}`],
        hookId: randomUUID(),
        leadId: randomUUID(),
        duplicateId: randomUUID(),
        now,
        expiresAt: new Date(now.getTime() + 3_600_000),
        fields: { name },
        body: { name },
        sourceId: null,
        request: { method: 'POST', headers: {}, body: { name } },
      };
    });
    const written = await Promise.all(batch.map((lead) => committer.write(lead, t.app.log)));
    expect(written.map((w) => w?.status)).toEqual(['pending', 'pending', 'pending', 'held', 'held']);
    await t.app.deliveryWorker.drain();
    expect(names()).toEqual(['B1', 'B2', 'B3']);
  });
});

describe('retention of held leads', () => {
  it('mails how many will be given up and when a week ahead, then marks them failed (held_expired), keeping them', async () => {
    const a = await account({ expDate: isoDay(new Date(Date.now() - DAY)) });
    const old = (await a.post('Old')).hookId;
    const recent = (await a.post('Recent')).hookId;
    // The old lead has been held for 25 days.
    await t.app.db
      .update(deliveries)
      .set({ nextAttemptAt: new Date(Date.now() - 25 * DAY) })
      .where(eq(deliveries.hookId, old));

    // A mail that cannot be sent schedules nothing: no lead is given up unannounced.
    vi.spyOn(t.app.mailer, 'send').mockRejectedValueOnce(new Error('SMTP down'));
    await t.app.periodic.runNow(HOLDS_RETENTION_TASK);
    const [unscheduled] = await t.app.db.select().from(accountHolds).where(eq(accountHolds.accountId, a.accountId));
    expect(unscheduled!.dropAt).toBeNull();

    const sentAt = Date.now();
    await t.app.periodic.runNow(HOLDS_RETENTION_TASK);
    const [notice] = mailsTo(a.user.login).filter((m) => m.subject.includes('не буде доставлено'));
    expect(notice).toBeDefined();
    const [scheduled] = await t.app.db.select().from(accountHolds).where(eq(accountHolds.accountId, a.accountId));
    expect(scheduled!.dropAt!.getTime() - sentAt).toBeGreaterThanOrEqual(7 * DAY);
    expect(scheduled!.dropAt!.getTime() - sentAt).toBeLessThan(7 * DAY + 60_000);
    const dropDay = new Intl.DateTimeFormat('uk-UA', { dateStyle: 'long', timeZone: 'UTC' }).format(scheduled!.dropAt!);
    expect(notice!.subject).toBe(`LeadRelay: 1 лід не буде доставлено після ${dropDay}`);
    expect(notice!.text).toContain('1 лід утримується 23 дні або довше');
    // The dashboard says when.
    expect((await totalsOf(a.user)).hold.dropsAt).toBe(scheduled!.dropAt!.toISOString());

    // Six days later nothing is given up yet; a week later the announced lead is, the recent one still waits.
    ahead = 6 * DAY;
    await t.app.periodic.runNow(HOLDS_RETENTION_TASK);
    expect(await statusOf([old, recent])).toEqual([
      ['held', 'plan_expired'],
      ['held', 'plan_expired'],
    ]);
    ahead = 7 * DAY + 60_000;
    await t.app.periodic.runNow(HOLDS_RETENTION_TASK);
    expect(await statusOf([old, recent])).toEqual([
      ['failed', HELD_EXPIRED],
      ['held', 'plan_expired'],
    ]);
    const [dropped] = await t.app.db.select().from(deliveries).where(eq(deliveries.hookId, old));
    expect(dropped).toMatchObject({ status: 'failed', lastError: HELD_EXPIRED, attempts: 0 });
    const kept = await t.app.db
      .select()
      .from(leads)
      .where(and(eq(leads.accountId, a.accountId)));
    expect(kept).toHaveLength(2);
    expect(await totalsOf(a.user)).toMatchObject({ held: 1, failed: 1 });

    // Paying now delivers the one still held, never the one given up.
    await t.app.db
      .update(users)
      .set({ expDate: isoDay(new Date(Date.now() + 30 * DAY)) })
      .where(eq(users.id, a.accountId));
    await refreshAccountHold(t.app.db, a.accountId);
    await t.app.deliveryWorker.drain();
    expect(names()).toEqual(['Recent']);
  });
  it('gives up a renewed lead whose other destination had it already as partly delivered, not failed', async () => {
    const a = await account();
    const sms = await createDestination(t.app.db, a.accountId, { name: 'SMS' });
    await t.app.db
      .update(integrations)
      .set({ destinationIds: [a.crm, sms] })
      .where(eq(integrations.id, a.source.id));
    const hook = (await a.post('Two places')).hookId;
    dest.failNext({ kind: 'permanent' });
    await t.app.deliveryWorker.drain();
    expect(await statusOf([hook])).toEqual([['partial', null]]);
    await t.app.db
      .update(users)
      .set({ expDate: isoDay(new Date(Date.now() - DAY)) })
      .where(eq(users.id, a.accountId));
    expect((await callAs(t, 'PUT', '/api/hook', a.user, { ids: [hook] })).statusCode).toBe(200);
    expect(await statusOf([hook])).toEqual([['held', 'plan_expired']]);
    await t.app.db
      .update(deliveries)
      .set({ nextAttemptAt: new Date(Date.now() - 25 * DAY) })
      .where(and(eq(deliveries.hookId, hook), eq(deliveries.status, 'held')));
    await t.app.periodic.runNow(HOLDS_RETENTION_TASK);
    ahead = 7 * DAY + 60_000;
    await t.app.periodic.runNow(HOLDS_RETENTION_TASK);
    expect(await statusOf([hook])).toEqual([['partial', HELD_EXPIRED]]);
  });
});
