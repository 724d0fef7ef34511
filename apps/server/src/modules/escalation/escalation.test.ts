// Escalation on a fake clock (issue 19 part 3): a lead nobody takes within N minutes of working time
// passes to the next manager on duty, its Telegram card goes out again, the owner is told; not over
// a weekend; a lead taken stops. Also the hours and routing validation of the collections and
// integrations APIs.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CollectionItem, deliveries, hooks, integrations, leadAssignments, leads } from '../../db/schema';
import { OFFICE_HOURS } from '../../lib/working-time';
import { accountIdOf, createCollection, createDestination, createSource } from '../../test/routing-fixtures';
import { callAs, createTestApp, expectError, type SignedInUser, signUp, type TestApp } from '../../test/test-app';
import { ingestWebhook } from '../ingest/ingest.service';
import { recordReaction } from '../reactions/reactions.service';
import { type EscalationOutcome, escalationTasks, tellOwners } from './escalation.tasks';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const deps = () => ({ mailer: t.app.mailer, publicUrl: 'http://app.test', log: t.app.log });

/** One run of the task at `now`, as the scheduler runs it, and its mail awaited. */
async function runTask(now: Date): Promise<EscalationOutcome> {
  const [task] = escalationTasks(deps(), t.app.events);
  const outcome = (await t.app.db.transaction((tx) => task!.run(tx as never, now))) as EscalationOutcome;
  await tellOwners(deps(), outcome);
  return outcome;
}

const item = (id: string, name: string, extra: Partial<CollectionItem> = {}): CollectionItem => ({
  id,
  name,
  value: `crm-${id}`,
  hours: OFFICE_HOURS,
  ...extra,
});

async function team(items: CollectionItem[], routing: Record<string, unknown>) {
  const user = await signUp(t);
  const accountId = await accountIdOf(t.app.db, user.login);
  const crm = await createDestination(t.app.db, accountId, { name: 'CRM' });
  const telegram = await createDestination(t.app.db, accountId, { type: 'telegram', name: 'Telegram' });
  const collectionId = await createCollection(t.app.db, accountId, items);
  const source = await createSource(t.app.db, accountId, {
    destinationIds: [crm, telegram],
    distributionId: collectionId,
    options: { routing },
  });
  const post = async (now: Date, name = 'Olena') => {
    const result = await ingestWebhook(
      { db: t.app.db, events: t.app.events, log: t.app.log, now: () => now },
      { token: source.token, body: { name, phone: '+380501234567' }, request: { method: 'POST', headers: {} } },
    );
    const [hook] = await t.app.db.select({ leadId: hooks.leadId }).from(hooks).where(eq(hooks.id, result.hookId));
    // Both destinations got it (the card went to the first holder).
    await t.app.db
      .update(deliveries)
      .set({ status: 'delivered', deliveredAt: now })
      .where(eq(deliveries.leadId, hook!.leadId!));
    return hook!.leadId!;
  };
  const state = async (leadId: string) => {
    const [lead] = await t.app.db.select().from(leads).where(eq(leads.id, leadId));
    const [assignment] = await t.app.db.select().from(leadAssignments).where(eq(leadAssignments.leadId, leadId));
    const rows = await t.app.db
      .select({ type: integrations.type, status: deliveries.status })
      .from(deliveries)
      .innerJoin(integrations, eq(integrations.id, deliveries.destinationId))
      .where(eq(deliveries.leadId, leadId));
    return {
      assignee: lead!.assignee,
      assignment,
      deliveries: Object.fromEntries(rows.map((r) => [r.type, r.status])),
    };
  };
  return { user, accountId, collectionId, source, post, state };
}

// The escalation mails only (sign-up sent its own).
const mailsTo = (login: string) => t.outbox.filter((m) => m.to === login && m.subject.includes('передано'));

describe('escalation', () => {
  // Monday 5 January 2026, Kyiv is UTC+2: office hours 09:00–18:00 are 07:00–16:00 UTC.
  it('passes a lead nobody took after N working minutes to the next manager, sends the card again and tells the owner', async () => {
    const a = await team([item('i1', 'Iryna'), item('i2', 'Andriy'), item('i3', 'Marta')], {
      whenNobody: 'wait',
      escalateAfterMinutes: 15,
    });
    const leadId = await a.post(new Date('2026-01-05T08:00:00Z'));
    expect((await a.state(leadId)).assignee).toMatchObject({ name: 'Iryna', itemId: 'i1', id: 'crm-i1' });

    expect((await runTask(new Date('2026-01-05T08:01:00Z'))).enrolled).toBeGreaterThanOrEqual(1);
    expect((await a.state(leadId)).assignment?.escalateAt).toEqual(new Date('2026-01-05T08:15:00Z'));
    const early = await runTask(new Date('2026-01-05T08:14:59Z'));
    expect(early.passes.filter((p) => p.leadId === leadId)).toEqual([]);
    expect(mailsTo(a.user.login)).toHaveLength(0);

    const run = await runTask(new Date('2026-01-05T08:15:00Z'));
    expect(run.passes.filter((p) => p.leadId === leadId)).toEqual([
      expect.objectContaining({ from: 'Iryna', to: 'Andriy', lead: 'Olena', source: 'Site form' }),
    ]);
    const after = await a.state(leadId);
    expect(after.assignee).toEqual({ id: 'crm-i2', name: 'Andriy', itemId: 'i2' });
    // The Telegram card goes out again (to Andriy); the CRM keeps the lead it has.
    expect(after.deliveries).toEqual({ telegram: 'pending', 'test-crm': 'delivered' });
    expect(after.assignment).toMatchObject({ itemId: 'i2', passes: 1, escalateAt: new Date('2026-01-05T08:30:00Z') });
    expect(after.assignment?.history).toEqual([
      { itemId: 'i1', name: 'Iryna', from: '2026-01-05T08:00:00.000Z', until: '2026-01-05T08:15:00.000Z' },
      { itemId: 'i2', name: 'Andriy', from: '2026-01-05T08:15:00.000Z' },
    ]);
    // The lead log's drawer tells who had it and until when, and when it passes on next.
    const [hook] = await t.app.db.select({ id: hooks.id }).from(hooks).where(eq(hooks.leadId, leadId));
    const detail = await callAs(t, 'GET', `/api/hook/${hook!.id}`, a.user);
    expect(detail.json().assignment).toEqual({
      holders: [
        { name: 'Iryna', from: '2026-01-05T08:00:00.000Z', until: '2026-01-05T08:15:00.000Z' },
        { name: 'Andriy', from: '2026-01-05T08:15:00.000Z', until: null },
      ],
      escalateAt: '2026-01-05T08:30:00.000Z',
    });
    const [mail] = mailsTo(a.user.login);
    expect(mail?.subject).toBe('LeadRelay: 1 лід передано іншому менеджеру');
    expect(mail?.text).toContain('Olena (Site form): Iryna → Andriy');
    expect(mail?.html).toContain('Iryna → Andriy');

    // Andriy does not take it either: Marta, who has not had it, gets it next.
    await runTask(new Date('2026-01-05T08:30:00Z'));
    expect((await a.state(leadId)).assignee).toMatchObject({ name: 'Marta' });
  });

  it('counts working time only: a lead that came at 17:55 on Friday passes on at 09:10 on Monday', async () => {
    const a = await team([item('i1', 'Iryna'), item('i2', 'Andriy')], { escalateAfterMinutes: 15 });
    // Friday 9 January 2026, 17:55 in Kyiv.
    const leadId = await a.post(new Date('2026-01-09T15:55:00Z'));
    await runTask(new Date('2026-01-09T15:56:00Z'));
    expect((await a.state(leadId)).assignment?.escalateAt).toEqual(new Date('2026-01-12T07:10:00Z'));
    for (const at of ['2026-01-09T16:10:00Z', '2026-01-10T12:00:00Z', '2026-01-11T20:00:00Z', '2026-01-12T07:09:00Z']) {
      await runTask(new Date(at));
      expect((await a.state(leadId)).assignee).toMatchObject({ name: 'Iryna' });
    }
    await runTask(new Date('2026-01-12T07:10:00Z'));
    expect((await a.state(leadId)).assignee).toMatchObject({ name: 'Andriy' });
  });

  it('stops when a manager takes the lead: no pass, no mail', async () => {
    const a = await team([item('i1', 'Iryna'), item('i2', 'Andriy')], { escalateAfterMinutes: 10 });
    const leadId = await a.post(new Date('2026-01-06T08:00:00Z'));
    await runTask(new Date('2026-01-06T08:01:00Z'));
    await recordReaction(t.app.db, {
      accountId: a.accountId,
      leadId,
      kind: 'taken',
      via: 'telegram',
      by: { name: 'Iryna' },
    });
    const run = await runTask(new Date('2026-01-06T08:10:00Z'));
    expect(run.passes.filter((p) => p.leadId === leadId)).toEqual([]);
    const after = await a.state(leadId);
    expect(after.assignee).toMatchObject({ name: 'Iryna' });
    expect(after.assignment?.escalateAt).toBeNull();
    expect(after.deliveries.telegram).toBe('delivered');
    expect(mailsTo(a.user.login)).toHaveLength(0);
  });

  it('leaves a source without escalation alone', async () => {
    const a = await team([item('i1', 'Iryna'), item('i2', 'Andriy')], { escalateAfterMinutes: null });
    const leadId = await a.post(new Date('2026-01-07T08:00:00Z'));
    await runTask(new Date('2026-01-07T09:00:00Z'));
    expect((await a.state(leadId)).assignment).toBeUndefined();
  });
});

describe('hours, away and routing through the API', () => {
  const base = '/api/legacy/api/admin/collection';
  let alice: SignedInUser;
  let bob: SignedInUser;
  beforeAll(async () => {
    alice = await signUp(t);
    bob = await signUp(t);
  });
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, user: SignedInUser, payload?: unknown) =>
    callAs(t, method, url, user, payload);

  it('saves working hours and the away switch on an item, and refuses bad hours with their keys', async () => {
    const created = (
      await call('POST', base, alice, {
        name: 'Sales',
        items: [
          { name: 'Iryna', value: '1' },
          { name: 'Andriy', value: '2' },
        ],
      })
    ).json();
    const [iryna, andriy] = created.items;
    const week = [[{ from: '09:00', to: '18:00' }], [], [], [], [], [], [{ from: '22:00', to: '06:00' }]];
    const saved = await call('PUT', `${base}/${created._id}`, alice, {
      items: [
        { id: iryna.id, name: 'Iryna', value: '1', hours: { week, daysOff: ['2026-01-07'] } },
        { id: andriy.id, name: 'Andriy', value: '2' },
      ],
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().items[0].hours).toEqual({ timeZone: 'Europe/Kyiv', week, daysOff: ['2026-01-07'] });
    expect(saved.json().items[1].hours).toBeUndefined();

    const bad = (hours: unknown) =>
      call('PUT', `${base}/${created._id}`, alice, { items: [{ id: iryna.id, name: 'Iryna', value: '1', hours }] });
    expectError(await bad({ week: [[{ from: '9:00', to: '18:00' }], [], [], [], [], [], []] }), 400, 'INVALID_TIME');
    expectError(await bad({ week: [[{ from: '09:00', to: '09:00' }], [], [], [], [], [], []] }), 400, 'EMPTY_SHIFT');
    expectError(
      await bad({ timeZone: 'Europe/Atlantis', week: [[], [], [], [], [], [], []] }),
      400,
      'INVALID_TIME_ZONE',
    );
    expectError(await bad({ week: [[], [], []] }), 400, 'VALIDATION_ERROR');
    for (const day of ['07.01.2026', '2026-02-30', '2026-13-45', '0000-01-01', '2026-04-31', '9999-01-01'])
      expectError(await bad({ week: [[], [], [], [], [], [], []], daysOff: [day] }), 400, 'INVALID_DATE');
    // Nothing half-written: the hours saved before are still there.
    expect((await call('GET', `${base}/${created._id}`, alice)).json().items[0].hours.daysOff).toEqual(['2026-01-07']);

    const away = await call('PUT', `${base}/${created._id}/items/${andriy.id}/away`, alice, { away: true });
    expect(away.statusCode).toBe(200);
    expect(away.json().items.map((i: { away?: boolean }) => i.away ?? false)).toEqual([false, true]);
    expect(away.json().items[0].hours.week).toEqual(week);
    const back = await call('PUT', `${base}/${created._id}/items/${andriy.id}/away`, alice, { away: false });
    expect(back.json().items[1].away).toBeUndefined();
    expectError(
      await call('PUT', `${base}/${created._id}/items/${andriy.id}/away`, alice, { away: 'yes' }),
      400,
      'INVALID_TYPE',
    );
    expectError(
      await call('PUT', `${base}/${created._id}/items/nobody/away`, alice, { away: true }),
      404,
      'ITEM_NOT_FOUND',
    );
    expectError(
      await call('PUT', `${base}/${created._id}/items/${andriy.id}/away`, bob, { away: true }),
      404,
      'COLLECTION_NOT_FOUND',
    );
    const unsigned = await t.app.inject({
      method: 'PUT',
      url: `${base}/${created._id}/items/${andriy.id}/away`,
      payload: { away: true },
    });
    expect(unsigned.statusCode).toBe(401);
  });

  it("checks the routing policy of a source: a fallback is required for 'fallback' and must be in its collection", async () => {
    const accountId = await accountIdOf(t.app.db, alice.login);
    const collectionId = await createCollection(t.app.db, accountId, [item('f1', 'Fallback')]);
    const source = await createSource(t.app.db, accountId, { distributionId: collectionId });
    const update = (routing: unknown, user = alice) =>
      call('PUT', `/api/integrations/${source.id}/update`, user, { options: { routing } });
    expectError(await update({ whenNobody: 'fallback' }), 400, 'FALLBACK_ITEM_REQUIRED');
    expectError(await update({ whenNobody: 'fallback', fallbackItemId: 'x' }), 400, 'FALLBACK_ITEM_NOT_FOUND');
    expectError(await update({ whenNobody: 'everyone' }), 400, 'VALIDATION_ERROR');
    expectError(await update({ escalateAfterMinutes: 0 }), 400, 'VALIDATION_ERROR');
    const ok = await update({ whenNobody: 'fallback', fallbackItemId: 'f1', escalateAfterMinutes: 20 });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().options.routing).toEqual({
      whenNobody: 'fallback',
      fallbackItemId: 'f1',
      escalateAfterMinutes: 20,
    });
    expectError(await update({ escalateAfterMinutes: 20 }, bob), 404, 'INTEGRATION_NOT_FOUND');
  });
});
