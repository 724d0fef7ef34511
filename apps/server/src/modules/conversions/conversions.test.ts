// CRM stages back to Meta (issue 33 B1), through the emulators and a real PostgreSQL: a Meta lead
// (the Graph emulator's submitLead) delivered to amoCRM (its emulator), moved to a stage there,
// makes one initial event and one stage event at the Graph emulator, with the leadgen id as
// lead_id; each once, whatever is replayed; retried on 5xx, paused by the breaker; held on a lost
// permission, and sent again once the person saves the settings.
import { type AmoEmulator, startAmoEmulator } from '@leadrelay/connectors/amocrm/emulator';
import { type GraphEmulator, startGraphEmulator } from '@leadrelay/connectors/testing';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rowsOf as rowsOfSql } from '../../db/client';
import {
  conversionEvents,
  conversionSettings,
  crmWatches,
  deliveries,
  guardianAlerts,
  integrations,
  leads,
  users,
} from '../../db/schema';
import { connect } from '../../test/facebook-kit';
import { CONSULTATION, DENTAL, work } from '../../test/facebook-leads-kit';
import { freePort } from '../../test/free-port';
import { callAs, createTestApp, onUnlimitedPlan, type SignedInUser, signUp, type TestApp } from '../../test/test-app';

let t: TestApp;
let emu: GraphEmulator;
let amo: AmoEmulator;
let alice: SignedInUser;
let bob: SignedInUser;
let publicUrl: string;
let fbConnection: string;
let crm: string;
const PIXEL = '90000000000001';
const NEGOTIATION = 70_000_012;
const WON = 142;

beforeAll(async () => {
  emu = await startGraphEmulator();
  const port = await freePort();
  publicUrl = `http://127.0.0.1:${port}`;
  amo = await startAmoEmulator({ redirectUri: `${publicUrl}/api/amocrm/callback` });
  t = await createTestApp({
    publicUrl,
    allowPrivateDestinations: true,
    crm: {
      facebook: { appId: emu.appId, appSecret: emu.appSecret, graphUrl: emu.graphUrl, dialogUrl: emu.dialogUrl },
      amocrm: { clientId: amo.clientId, clientSecret: amo.clientSecret, oauthUrl: amo.oauthUrl, hosts: [amo.host] },
    },
  });
  await t.app.listen({ port, host: '127.0.0.1' });
  alice = await onUnlimitedPlan(t, await signUp(t));
  bob = await onUnlimitedPlan(t, await signUp(t));
  fbConnection = await connect(t, alice);
  crm = await amoConnected(alice);
});
afterAll(async () => {
  await t?.close();
  await amo?.close();
  await emu?.close();
});
beforeEach(() => {
  emu.setFault(null);
});

const until = async (what: string, ok: () => boolean | Promise<boolean>, ms = 8000) => {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

async function amoConnected(user: SignedInUser): Promise<string> {
  const made = await callAs(t, 'POST', '/api/integrations', user, { type: 'amocrm', name: 'amoCRM', settings: {} });
  const id = made.json()._id as string;
  const started = await callAs(t, 'POST', '/api/legacy/api/amocrm/connect', user, { integrationId: id });
  const cookie = String(started.headers['set-cookie']).split(';')[0]!;
  const consent = await fetch(started.json().url, { redirect: 'manual' });
  const back = new URL(consent.headers.get('location')!);
  await t.app.inject({ method: 'GET', url: back.pathname + back.search, headers: { cookie } });
  await until('the amoCRM subscription', async () => {
    const [w] = await t.app.db.select().from(crmWatches).where(eq(crmWatches.integrationId, id));
    return !!w?.remoteId;
  });
  return id;
}

/** A Meta source on the dental page's form, delivering to amoCRM; its conversions as given. */
async function metaSource(capi?: { enabled: boolean; datasetId: string | null; events?: object }): Promise<string> {
  const res = await callAs(t, 'POST', '/api/integrations', alice, {
    type: 'facebook',
    name: 'Meta leads',
    settings: { fbConnectionId: fbConnection, fbPageId: DENTAL.id, fbFormId: CONSULTATION },
    destination: [crm],
  });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json()._id as string;
  await only(id);
  const sub = await callAs(t, 'POST', `/api/facebook/connection/${fbConnection}/account/${DENTAL.id}/subscribe`, alice);
  expect(sub.statusCode, sub.body).toBe(200);
  if (capi) {
    const put = await callAs(t, 'PUT', `/api/integrations/${id}/capi`, alice, capi);
    expect(put.statusCode, put.body).toBe(200);
  }
  return id;
}

/** The Meta sources made so far: each test keeps only its own, so a lead reaches one source. */
const made: string[] = [];
async function only(source: string) {
  for (const id of made.splice(0)) {
    if (id !== source) await t.app.db.update(integrations).set({ active: false }).where(eq(integrations.id, id));
  }
  made.push(source);
}

/** A lead submitted on the form, fetched, ingested and delivered to amoCRM: its ids. */
async function metaLead(source: string) {
  const leadgenId = emu.submitLead({ formId: CONSULTATION });
  await emu.idle();
  await work(t);
  const [lead] = await t.app.db.select().from(leads).where(eq(leads.integrationId, source));
  const all = await t.app.db.select().from(leads).where(eq(leads.integrationId, source));
  const mine = all.find((l) => JSON.stringify(l.raw).includes(leadgenId)) ?? lead;
  const [delivery] = await t.app.db.select().from(deliveries).where(eq(deliveries.leadId, mine!.id));
  expect(delivery?.status).toBe('delivered');
  return { leadgenId, leadId: mine!.id, amoLeadId: Number(delivery!.externalId) };
}

/** The sender, until nothing is due. */
const runTask = () => t.app.conversionSender.drain();
/** Time passes for a lead's waiting events (and its source's hold or pause ends). */
const later = async (leadId: string, source?: string) => {
  const past = new Date(Date.now() - 1000);
  await t.app.db.update(conversionEvents).set({ nextAttemptAt: past }).where(eq(conversionEvents.leadId, leadId));
  if (source) {
    await t.app.db
      .update(conversionSettings)
      .set({ heldUntil: past })
      .where(eq(conversionSettings.integrationId, source));
  }
};

const amoMove = async (leadId: number, statusId: number) => {
  const sent = amo.sent.length;
  const res = await fetch(`${amo.url}/__emulator/leads/${leadId}/status`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ status_id: statusId }),
  });
  expect(res.status).toBe(200);
  await until('amoCRM to hear back', () => amo.sent.length > sent);
  return amo.sent.at(-1)!;
};

const eventsAt = (leadgenId: string) => emu.capiEvents().filter((e) => e.leadId === leadgenId);
const rowsOf = (leadId: string) => t.app.db.select().from(conversionEvents).where(eq(conversionEvents.leadId, leadId));

describe('conversion events: CRM stages back to Meta', () => {
  it('settings: a dataset is the one choice; the datasets the connection reaches; another account gets 404', async () => {
    const source = await metaSource();
    const url = `/api/integrations/${source}/capi`;
    const fresh = await callAs(t, 'GET', url, alice);
    expect(fresh.json()).toEqual({ enabled: false, datasetId: null, events: {}, heldReason: null });
    const noDataset = await callAs(t, 'PUT', url, alice, { enabled: true, datasetId: null });
    expect(noDataset.statusCode).toBe(400);
    expect(noDataset.json().code).toBe('CONVERSIONS_DATASET_REQUIRED');
    // A CRM id that could be an object's machinery is refused, never stored as a member.
    const proto = await t.app.inject({
      method: 'PUT',
      url,
      headers: { authorization: `Bearer ${alice.accessToken}`, 'content-type': 'application/json' },
      payload: `{"enabled":true,"datasetId":"${PIXEL}","events":{"__proto__":{"1":"Lead"}}}`,
    });
    expect(proto.statusCode).toBe(400);
    const badName = await callAs(t, 'PUT', url, alice, {
      enabled: true,
      datasetId: PIXEL,
      events: { '*': { '1': 'x'.repeat(101) } },
    });
    expect(badName.statusCode).toBe(400);
    const datasets = await callAs(t, 'GET', `${url}/datasets`, alice);
    expect(datasets.statusCode, datasets.body).toBe(200);
    expect(datasets.json().datasets.map((d: { id: string }) => d.id)).toEqual(
      expect.arrayContaining([PIXEL, '90000000000002']),
    );
    expect(datasets.json().datasets.map((d: { id: string }) => d.id)).not.toContain('90000000000009');
    const saved = await callAs(t, 'PUT', url, alice, {
      enabled: true,
      datasetId: PIXEL,
      events: { '*': { [String(WON)]: 'Purchase' } },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await callAs(t, 'GET', url, alice)).json()).toMatchObject({ enabled: true, datasetId: PIXEL });
    for (const [method, path] of [
      ['GET', url],
      ['PUT', url],
      ['GET', `${url}/datasets`],
    ] as const) {
      const res = await callAs(t, method, path, bob, { enabled: false, datasetId: null });
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('INTEGRATION_NOT_FOUND');
    }
    // A destination sends no conversions.
    const amoCapi = await callAs(t, 'GET', `/api/integrations/${crm}/capi`, alice);
    expect(amoCapi.statusCode).toBe(400);
    expect(amoCapi.json().code).toBe('CONVERSIONS_NOT_AVAILABLE');
  });

  it('a delivered lead sends Lead, a stage sends its name, each once; a replay sends nothing more', async () => {
    const source = await metaSource({
      enabled: true,
      datasetId: PIXEL,
      events: { '*': { [String(WON)]: 'Purchase' } },
    });
    const { leadgenId, leadId, amoLeadId } = await metaLead(source);
    // Made by the statement that stored the delivery, before the sender ran.
    expect(await rowsOf(leadId)).toEqual([expect.objectContaining({ stage: 'lead', state: 'pending' })]);
    await runTask();
    expect(eventsAt(leadgenId).map((e) => [e.eventName, e.datasetId, e.actionSource])).toEqual([
      ['Lead', PIXEL, 'system_generated'],
    ]);
    // Moved to Negotiation (its name from amoCRM's pipelines), then to won (the mapping's Purchase).
    const moved = await amoMove(amoLeadId, NEGOTIATION);
    expect(moved.status).toBe(200);
    await runTask();
    await amoMove(amoLeadId, WON);
    await runTask();
    expect(eventsAt(leadgenId).map((e) => e.eventName)).toEqual(['Lead', 'Negotiation', 'Purchase']);
    expect(new Set(eventsAt(leadgenId).map((e) => e.eventId)).size).toBe(3);

    // amoCRM posting the same change again, and the task running again, send nothing new.
    const replay = await t.app.inject({
      method: 'POST',
      url: new URL(moved.destination).pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: moved.body,
    });
    expect(replay.statusCode).toBe(200);
    await runTask();
    await runTask();
    expect(eventsAt(leadgenId)).toHaveLength(3);
    expect(await rowsOf(leadId)).toHaveLength(3);

    // The lead's log shows each with Meta's answer; the dashboard counts them.
    const [hook] = (await callAs(t, 'GET', `/api/hook?integrationId=${source}`, alice)).json().data;
    const log = (await callAs(t, 'GET', `/api/hook/${hook._id}`, alice)).json();
    expect(log.conversions).toEqual([
      expect.objectContaining({
        stage: 'lead',
        eventName: 'Lead',
        state: 'sent',
        answer: expect.objectContaining({ eventsReceived: 1 }),
      }),
      expect.objectContaining({
        stage: String(NEGOTIATION),
        stageName: 'Negotiation',
        eventName: 'Negotiation',
        state: 'sent',
      }),
      expect.objectContaining({ stage: String(WON), eventName: 'Purchase', state: 'sent' }),
    ]);
    const stat = (await callAs(t, 'GET', '/api/conversions/statistic?days=7', alice)).json();
    expect(stat.sent).toBeGreaterThanOrEqual(3);
    expect((await callAs(t, 'GET', '/api/conversions/statistic?days=7', bob)).json()).toEqual({
      sent: 0,
      pending: 0,
      failed: 0,
      days: [],
    });
  });

  it('a stage mapped to null sends nothing; a switched-off source sends nothing', async () => {
    const source = await metaSource({
      enabled: true,
      datasetId: PIXEL,
      events: { '*': { lead: null, [String(NEGOTIATION)]: null } },
    });
    const { leadgenId, amoLeadId } = await metaLead(source);
    await runTask();
    await amoMove(amoLeadId, NEGOTIATION);
    await runTask();
    expect(eventsAt(leadgenId)).toEqual([]);

    const off = await metaSource({ enabled: false, datasetId: PIXEL });
    const second = await metaLead(off);
    await runTask();
    await amoMove(second.amoLeadId, WON);
    await runTask();
    expect(eventsAt(second.leadgenId)).toEqual([]);
    expect(await rowsOf(second.leadId)).toEqual([]);
  });

  it("Meta's 5xx is retried later and then sent, once", async () => {
    const source = await metaSource({ enabled: true, datasetId: PIXEL });
    const { leadgenId, leadId } = await metaLead(source);
    emu.setFault({ status: 500, times: 1 });
    await runTask();
    expect(eventsAt(leadgenId)).toEqual([]);
    const [waiting] = await rowsOf(leadId);
    expect(waiting).toMatchObject({ state: 'pending', attempts: 1, error: 'HTTP_5XX' });
    expect(waiting!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
    // Not before its time; then it goes.
    await runTask();
    expect(eventsAt(leadgenId)).toEqual([]);
    await later(leadId);
    await runTask();
    expect(eventsAt(leadgenId).map((e) => e.eventName)).toEqual(['Lead']);
    expect((await rowsOf(leadId))[0]).toMatchObject({ state: 'sent', attempts: 2, error: null });
  });

  it('a revoked permission marks the source with FACEBOOK_CAPI_PERMISSION and holds its events until saved again', async () => {
    const source = await metaSource({ enabled: true, datasetId: PIXEL });
    const { leadgenId, leadId } = await metaLead(source);
    emu.revokePermission(['ads_management']);
    const mails = t.outbox.length;
    {
      await runTask();
      expect(eventsAt(leadgenId)).toEqual([]);
      const [row] = await t.app.db.select().from(integrations).where(eq(integrations.id, source));
      expect(row).toMatchObject({ status: 'broken', statusReason: 'FACEBOOK_CAPI_PERMISSION' });
      const alerts = await t.app.db.select().from(guardianAlerts).where(eq(guardianAlerts.integrationId, source));
      expect(alerts.map((a) => a.kind)).toContain('access');
      expect((await rowsOf(leadId))[0]).toMatchObject({ state: 'pending', attempts: 0 });
      expect((await callAs(t, 'GET', `/api/integrations/${source}/capi`, alice)).json().heldReason).toBe(
        'FACEBOOK_CAPI_PERMISSION',
      );
      // The datasets list says so as a key.
      const datasets = await callAs(t, 'GET', `/api/integrations/${source}/capi/datasets`, alice);
      expect(datasets.statusCode).toBe(403);
      expect(datasets.json().code).toBe('FACEBOOK_CAPI_PERMISSION');
      // The account is told once, by mail (the browsers by UPDATE_INTEGRATION).
      expect(t.outbox.slice(mails).filter((m) => m.to === alice.login)).toHaveLength(1);
      // Held: a run before the hold ends sends nothing and marks nothing failed.
      await runTask();
      expect((await rowsOf(leadId))[0]).toMatchObject({ state: 'pending' });
    }
    // The permission given back and the settings saved: the event goes, the mark and the alert are lifted.
    emu.grantPermission(['ads_management']);
    const put = await callAs(t, 'PUT', `/api/integrations/${source}/capi`, alice, { enabled: true, datasetId: PIXEL });
    expect(put.json().heldReason).toBeNull();
    await runTask();
    expect(eventsAt(leadgenId).map((e) => e.eventName)).toEqual(['Lead']);
    const [row] = await t.app.db.select().from(integrations).where(eq(integrations.id, source));
    expect(row).toMatchObject({ status: 'ok', statusReason: null });
    const alerts = await t.app.db.select().from(guardianAlerts).where(eq(guardianAlerts.integrationId, source));
    expect(alerts.filter((a) => a.kind === 'access' && !a.closedAt)).toEqual([]);
  });

  it('the hourly access check tells of a lost permission or a dataset gone before any event needs it', async () => {
    const source = await metaSource({ enabled: true, datasetId: PIXEL });
    const state = async () => {
      const [row] = await t.app.db.select().from(integrations).where(eq(integrations.id, source));
      const open = await t.app.db.select().from(guardianAlerts).where(eq(guardianAlerts.integrationId, source));
      return { status: row!.status, reason: row!.statusReason, alerts: open.filter((a) => !a.closedAt).length };
    };
    await t.app.conversionSender.checkAccess([source]);
    expect(await state()).toEqual({ status: 'ok', reason: null, alerts: 0 });
    emu.revokePermission(['ads_management']);
    await t.app.conversionSender.checkAccess([source]);
    expect(await state()).toEqual({ status: 'broken', reason: 'FACEBOOK_CAPI_PERMISSION', alerts: 1 });
    // Given back: the next check lifts the mark and closes the alert.
    emu.grantPermission(['ads_management']);
    await t.app.conversionSender.checkAccess([source]);
    expect(await state()).toEqual({ status: 'ok', reason: null, alerts: 0 });
    // The dataset chosen is gone from the ad accounts the connection reaches.
    const other = '90000000000002';
    await callAs(t, 'PUT', `/api/integrations/${source}/capi`, alice, { enabled: true, datasetId: other });
    emu.removeDataset(other);
    await t.app.conversionSender.checkAccess([source]);
    expect(await state()).toMatchObject({ status: 'broken', reason: 'FACEBOOK_DATASET_NOT_FOUND' });
    expect((await callAs(t, 'GET', `/api/integrations/${source}/capi`, alice)).json().heldReason).toBe(
      'FACEBOOK_DATASET_NOT_FOUND',
    );
  });

  it('five failures in a row pause the source (the breaker); its events wait, then go', async () => {
    const source = await metaSource({ enabled: true, datasetId: PIXEL });
    const { leadgenId, leadId } = await metaLead(source);
    emu.setFault({ status: 503, times: 5 });
    for (let i = 0; i < 5; i++) {
      await later(leadId);
      await runTask();
    }
    const [settings] = await t.app.db
      .select()
      .from(conversionSettings)
      .where(eq(conversionSettings.integrationId, source));
    expect(settings).toMatchObject({ heldReason: null, pauses: 1, failures: 0 });
    expect(settings!.heldUntil!.getTime()).toBeGreaterThan(Date.now());
    // Paused: due events of the source wait for the pause, whatever their own time.
    await later(leadId);
    await runTask();
    expect(eventsAt(leadgenId)).toEqual([]);
    expect((await rowsOf(leadId))[0]).toMatchObject({ state: 'pending', attempts: 5 });
    await later(leadId, source);
    await runTask();
    expect(eventsAt(leadgenId).map((e) => e.eventName)).toEqual(['Lead']);
    const [after] = await t.app.db
      .select()
      .from(conversionSettings)
      .where(eq(conversionSettings.integrationId, source));
    expect(after).toMatchObject({ failures: 0, pauses: 0, heldUntil: null });
  });

  it("the dashboard's count is by calendar days of the account's time zone", async () => {
    const carol = await onUnlimitedPlan(t, await signUp(t));
    const [account] = await t.app.db
      .update(users)
      .set({ timeZone: 'Asia/Tokyo' })
      .where(eq(users.login, carol.login))
      .returning({ id: users.id });
    const source = await metaSource({ enabled: true, datasetId: PIXEL });
    const { leadId } = await metaLead(source);
    // Three of carol's sent events: one today in Tokyo, one just before Tokyo's midnight, one 3 days ago.
    const [{ midnight }] = rowsOfSql(
      await t.app.db.execute(
        sql`select (date_trunc('day', now() at time zone 'Asia/Tokyo') at time zone 'Asia/Tokyo') as midnight`,
      ),
    ) as [{ midnight: string }];
    const today = new Date(midnight);
    const sentAt = [
      new Date(today.getTime() + 1000),
      new Date(today.getTime() - 1000),
      new Date(today.getTime() - 3 * 86_400_000),
    ];
    for (const [i, at] of sentAt.entries()) {
      await t.app.db.insert(conversionEvents).values({
        accountId: account!.id,
        integrationId: source,
        leadId,
        stage: `s${i}`,
        eventName: 'Lead',
        externalLeadId: '1',
        eventId: `e${i}`,
        at,
        state: 'sent',
        sentAt: at,
      });
    }
    const stat = (days: number) =>
      callAs(t, 'GET', `/api/conversions/statistic?days=${days}`, carol).then((r) => r.json());
    expect(await stat(1)).toMatchObject({ sent: 1, days: [{ sent: 1 }] });
    expect((await stat(2)).sent).toBe(2);
    expect((await stat(4)).days.map((d: { sent: number }) => d.sent)).toEqual([1, 1, 1]);
    const bad = await callAs(t, 'GET', '/api/conversions/statistic?days=0', carol);
    expect(bad.statusCode).toBe(400);
  });
});
