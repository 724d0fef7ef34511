// Speed to lead from the CRM (issue 19, ADR 010): a lead we delivered to amoCRM or Pipedrive, moved
// to another stage by a manager there, gets its first reaction via 'crm'. The emulators post their
// real webhooks to this app, which listens on a loopback port (its public URL) for the purpose.
import { type AmoEmulator, startAmoEmulator } from '@leadrelay/connectors/amocrm/emulator';
import {
  PIPEDRIVE_SEED,
  type PipedriveEmulator,
  resetPipedriveState,
  startPipedriveEmulator,
} from '@leadrelay/connectors/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { crmWatches, deliveries, hooks, leadReactions } from '../../db/schema';
import { freePort } from '../../test/free-port';
import { accountIdOf, createCollection, createSource } from '../../test/routing-fixtures';
import {
  callAs,
  createTestApp,
  errorOf,
  onUnlimitedPlan,
  type SignedInUser,
  signUp,
  type TestApp,
} from '../../test/test-app';
import { destinationsToWatch, RETRY_AFTER_MS, watchIntegration } from './crm-watch.service';

let t: TestApp;
let amo: AmoEmulator;
let pd: PipedriveEmulator;
let alice: SignedInUser;
let bob: SignedInUser;
let publicUrl: string;

beforeAll(async () => {
  const port = await freePort();
  publicUrl = `http://127.0.0.1:${port}`;
  amo = await startAmoEmulator({ redirectUri: `${publicUrl}/api/amocrm/callback` });
  pd = await startPipedriveEmulator();
  t = await createTestApp({
    publicUrl,
    allowPrivateDestinations: true,
    crm: {
      amocrm: { clientId: amo.clientId, clientSecret: amo.clientSecret, oauthUrl: amo.oauthUrl, hosts: [amo.host] },
      pipedrive: {
        clientId: pd.clientId,
        clientSecret: pd.clientSecret,
        oauthUrl: pd.url,
        apiUrl: pd.url,
        hosts: [`127.0.0.1:${pd.port}`],
      },
    },
  });
  await t.app.listen({ port, host: '127.0.0.1' });
  alice = await onUnlimitedPlan(t, await signUp(t));
  bob = await onUnlimitedPlan(t, await signUp(t));
});
afterAll(async () => {
  await t?.close();
  await amo?.close();
  await pd?.close();
});
beforeEach(() => {
  amo.reset();
  pd.reset();
  resetPipedriveState();
});

const until = async (what: string, ok: () => boolean | Promise<boolean>, ms = 8000) => {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};
const watchOf = async (id: string) =>
  (await t.app.db.select().from(crmWatches).where(eq(crmWatches.integrationId, id)))[0];
const reactionsOf = (leadId: string) => t.app.db.select().from(leadReactions).where(eq(leadReactions.leadId, leadId));
const ingest = async (url: string, body: object) => {
  const res = await t.app.inject({ method: 'POST', url, payload: body });
  expect(res.statusCode).toBe(202);
  const hookId = res.json().hookId as string;
  const [hook] = await t.app.db.select({ leadId: hooks.leadId }).from(hooks).where(eq(hooks.id, hookId));
  return hook!.leadId!;
};
const externalIdOf = async (leadId: string) =>
  (await t.app.db.select().from(deliveries).where(eq(deliveries.leadId, leadId)))[0]!.externalId!;
const post = (url: string, body: string | object, type = 'application/json') =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': type },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });

// ---- amoCRM ----

async function amoConnected(user: SignedInUser): Promise<string> {
  const made = await callAs(t, 'POST', '/api/integrations', user, { type: 'amocrm', name: 'amoCRM', settings: {} });
  const id = made.json()._id as string;
  const connect = await callAs(t, 'POST', '/api/legacy/api/amocrm/connect', user, { integrationId: id });
  const cookie = String(connect.headers['set-cookie']).split(';')[0]!;
  const consent = await fetch(connect.json().url, { redirect: 'manual' });
  const back = new URL(consent.headers.get('location')!);
  const done = await t.app.inject({ method: 'GET', url: back.pathname + back.search, headers: { cookie } });
  expect(done.headers.location).toBe(`${publicUrl}/admin/integrations/amocrm/${id}?connected=1`);
  // The subscription is made in the background after the connect.
  await until('the amoCRM subscription', async () => !!(await watchOf(id))?.remoteId);
  return id;
}

const amoMove = async (leadId: number, statusId: number, userId?: number) => {
  const sent = amo.sent.length;
  const res = await fetch(`${amo.url}/__emulator/leads/${leadId}/status`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ status_id: statusId, ...(userId ? { user_id: userId } : {}) }),
  });
  expect(res.status).toBe(200);
  await until('amoCRM to hear back', () => amo.sent.length > sent);
  return amo.sent.at(-1)!;
};

describe('amoCRM: a status change is the first reaction', () => {
  it('connect subscribes status_lead once at our URL; a move of a delivered lead records taken via crm, once', async () => {
    const crm = await amoConnected(alice);
    expect(amo.webhooks).toEqual([
      expect.objectContaining({
        destination: expect.stringMatching(new RegExp(`^${publicUrl}/api/amocrm/events/${crm}/[\\w-]{32}$`)),
        settings: ['status_lead'],
      }),
    ]);
    // The secret is sealed at rest.
    const secret = amo.webhooks[0]!.destination.split('/').at(-1)!;
    expect(JSON.stringify(await watchOf(crm))).not.toContain(secret);
    // The periodic task has nothing left to do for it, and a second try makes nothing new.
    expect((await destinationsToWatch(t.app.db, new Date())).map((r) => r.id)).not.toContain(crm);

    const accountId = await accountIdOf(t.app.db, alice.login);
    const collection = await createCollection(t.app.db, accountId, [{ id: 'i1', name: 'Bohdan S.', value: '5000002' }]);
    const source = await createSource(t.app.db, accountId, { destinationIds: [crm], distributionId: collection });
    const leadId = await ingest(source.url, { name: 'Olena', phone: '0501234567' });
    await t.app.deliveryWorker.drain();
    const amoLeadId = Number(await externalIdOf(leadId));
    expect(amo.leads.map((l) => l.id)).toEqual([amoLeadId]);
    expect(await reactionsOf(leadId)).toEqual([]);

    const movedAt = Date.now();
    expect((await amoMove(amoLeadId, 70_000_012, 5_000_002)).status).toBe(200);
    const [reaction] = await reactionsOf(leadId);
    // The manager's name from our distribution (amoCRM sends only the user's id).
    expect(reaction).toMatchObject({ kind: 'taken', via: 'crm', byId: '5000002', byName: 'Bohdan S.' });
    expect(Math.abs(reaction!.at.getTime() - movedAt)).toBeLessThan(5000);

    // A second move records nothing: the first reaction stands.
    expect((await amoMove(amoLeadId, 142)).status).toBe(200);
    expect(await reactionsOf(leadId)).toEqual([reaction]);

    // The lead log and the speed-to-lead report count it.
    const report = (await callAs(t, 'GET', `/api/report/speed-to-lead?integrationId=${source.id}`, alice)).json();
    expect(report.rows.reduce((n: number, r: { reacted: number }) => n + r.reacted, 0)).toBe(1);
    const log = (await callAs(t, 'GET', `/api/hook?integrationId=${source.id}`, alice)).json();
    expect(JSON.stringify(log)).toContain('"via":"crm"');
  });

  it('a record moved before our delivery finished storing it waits for it, and counts', async () => {
    const crm = await amoConnected(alice);
    const accountId = await accountIdOf(t.app.db, alice.login);
    const source = await createSource(t.app.db, accountId, { destinationIds: [crm] });
    const leadId = await ingest(source.url, { name: 'Taras', phone: '0501234568' });
    await t.app.deliveryWorker.drain();
    const amoLeadId = await externalIdOf(leadId);
    // As it is while our delivery still makes the contact and the note: running, its record's id not stored.
    const [delivery] = await t.app.db
      .update(deliveries)
      .set({ status: 'running', externalId: null })
      .where(eq(deliveries.leadId, leadId))
      .returning();
    const stored = new Promise<void>((resolve) =>
      setTimeout(() => {
        void t.app.db
          .update(deliveries)
          .set({ status: 'delivered', externalId: amoLeadId })
          .where(eq(deliveries.id, delivery!.id))
          .then(() => resolve());
      }, 600),
    );
    expect((await amoMove(Number(amoLeadId), 70_000_012)).status).toBe(200);
    await stored;
    expect(await reactionsOf(leadId)).toEqual([expect.objectContaining({ kind: 'taken', via: 'crm' })]);
  });

  it('a lead we never delivered is answered 200 and records nothing; bad calls get 404 or 400, never 500', async () => {
    const crm = await amoConnected(alice);
    const url = amo.webhooks[0]!.destination;
    const path = new URL(url).pathname;
    // A lead made by hand in amoCRM.
    const made = await fetch(`${amo.url}/api/v4/leads/complex`, {
      method: 'POST',
      headers: { authorization: `Bearer ${amo.issueTokens().accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify([{ name: 'By hand' }]),
    });
    const handMade = ((await made.json()) as { id: number }[])[0]!.id;
    const before = (await t.app.db.select().from(leadReactions)).length;
    expect((await amoMove(handMade, 143)).status).toBe(200);
    expect(await t.app.db.select().from(leadReactions)).toHaveLength(before);

    const form =
      'leads%5Bstatus%5D%5B0%5D%5Bid%5D=1&leads%5Bstatus%5D%5B0%5D%5Bstatus_id%5D=2&account%5Bsubdomain%5D=acme';
    const formType = 'application/x-www-form-urlencoded';
    const ok = await post(path, form, formType);
    expect([ok.statusCode, ok.json()]).toEqual([200, { ok: true, recorded: 0 }]);
    // A wrong secret, an unknown or malformed id, another type's path: a bare 404.
    for (const wrong of [
      `/api/amocrm/events/${crm}/${'x'.repeat(32)}`,
      `/api/amocrm/events/${crypto.randomUUID()}/${path.split('/').at(-1)}`,
      `/api/amocrm/events/not-a-uuid/${path.split('/').at(-1)}`,
      `/api/pipedrive/events/${crm}/${path.split('/').at(-1)}`,
    ]) {
      const res = await post(wrong, form, formType);
      expect([wrong, res.statusCode, res.body]).toEqual([wrong, 404, '']);
    }
    // Not amoCRM's shape: 400 with an error key.
    for (const bad of [
      'leads%5Bstatus%5D%5B0%5D%5Bid%5D=abc&leads%5Bstatus%5D%5B0%5D%5Bstatus_id%5D=2',
      'hello=1',
      '',
    ]) {
      const res = await post(path, bad, formType);
      expect([bad, res.statusCode, errorOf(res).code]).toEqual([bad, 400, 'VALIDATION_ERROR']);
    }
    const json = await post(path, { leads: { status: [{ id: 1 }] } });
    expect([json.statusCode, errorOf(json).code]).toEqual([400, 'VALIDATION_ERROR']);
    const broken = await post(path, '{"leads":', 'application/json');
    expect([broken.statusCode, errorOf(broken).code]).toEqual([400, 'INVALID_JSON']);
  });

  it('the destination page reads whether the CRM tells us of stage changes; no other account or type does', async () => {
    const made = await callAs(t, 'POST', '/api/integrations', alice, { type: 'amocrm', name: 'Later', settings: {} });
    const later = made.json()._id as string;
    const state = async (id: string, user = alice) => callAs(t, 'GET', `/api/integrations/${id}/crm-watch`, user);
    // Not connected: nothing to watch.
    expect((await state(later)).json()).toEqual({ state: 'off', since: null, reason: null, nextTryAt: null });
    const crm = await amoConnected(alice);
    expect((await state(crm)).json()).toEqual({
      state: 'watching',
      since: expect.any(String),
      reason: null,
      nextTryAt: null,
    });
    expect((await state(crm, bob)).statusCode).toBe(404);
    const http = await callAs(t, 'POST', '/api/integrations', alice, { type: 'http', name: 'Hook' });
    expect(errorOf(await state(http.json()._id)).code).toBe('INTEGRATION_NOT_FOUND');
    expect((await state('not-a-uuid')).statusCode).toBe(404);
    expect((await callAs(t, 'GET', `/api/integrations/${crm}/crm-watch`, null)).statusCode).toBe(401);
  });

  it("another account's destination answers 404 with this one's secret", async () => {
    const alices = await amoConnected(alice);
    const bobs = await amoConnected(bob);
    const aliceUrl = new URL(amo.webhooks.find((w) => w.destination.includes(alices))!.destination).pathname;
    const res = await post(
      aliceUrl.replace(alices, bobs),
      'leads%5Bstatus%5D%5B0%5D%5Bid%5D=1&leads%5Bstatus%5D%5B0%5D%5Bstatus_id%5D=2',
      'application/x-www-form-urlencoded',
    );
    expect(res.statusCode).toBe(404);
  });

  it('deleting the destination removes our webhook from amoCRM', async () => {
    const crm = await amoConnected(alice);
    expect(amo.webhooks).toHaveLength(1);
    const res = await callAs(t, 'DELETE', `/api/legacy/api/admin/integration/${crm}`, alice);
    expect(res.statusCode).toBe(200);
    expect(amo.webhooks).toEqual([]);
    expect(await watchOf(crm)).toBeUndefined();
  });
});

// ---- Pipedrive ----

async function pipedriveConnected(user: SignedInUser, settings: Record<string, unknown>): Promise<string> {
  const made = await callAs(t, 'POST', '/api/integrations', user, { type: 'pipedrive', name: 'Pipedrive', settings });
  const id = made.json()._id as string;
  const res = await callAs(t, 'POST', '/api/legacy/api/pipedrive/connect', user, {
    integrationId: id,
    apiToken: pd.apiToken,
  });
  expect(res.statusCode).toBe(200);
  await until('the Pipedrive subscription', async () => !!(await watchOf(id))?.remoteId);
  return id;
}

const pdMove = async (path: string, body: object) => {
  const sent = pd.sent.length;
  const res = await fetch(`${pd.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  await until('Pipedrive to hear back', () => pd.sent.length > sent);
  return pd.sent.at(-1)!;
};

describe('Pipedrive: a deal stage change is the first reaction', () => {
  const [, BORYS] = PIPEDRIVE_SEED.users;

  it('connect subscribes change.deal v2 once; a delivered deal moved records taken via crm, once', async () => {
    const crm = await pipedriveConnected(alice, { target: 'deal', pipelineId: 1, stageId: 11 });
    expect(pd.webhooks).toEqual([
      expect.objectContaining({
        event_action: 'change',
        event_object: 'deal',
        version: '2.0',
        subscription_url: expect.stringMatching(new RegExp(`^${publicUrl}/api/pipedrive/events/${crm}/[\\w-]{32}$`)),
      }),
    ]);
    // Ours shows in the user's webhook list, as Pipedrive shows it.
    const listed = (await callAs(t, 'GET', `/api/pipedrive/webhooks/${crm}`, alice)).json();
    expect(listed).toHaveLength(1);
    // A second try (the periodic task) makes nothing new.
    const [row] = await destinationsToWatch(t.app.db, new Date(Date.now() + 7 * 3_600_000));
    expect(row?.id).not.toBe(crm);

    const accountId = await accountIdOf(t.app.db, alice.login);
    const source = await createSource(t.app.db, accountId, { destinationIds: [crm] });
    const leadId = await ingest(source.url, { name: 'Olena', phone: '0501234567' });
    await t.app.deliveryWorker.drain();
    const dealId = await externalIdOf(leadId);
    expect(pd.deals.map((d) => String(d.id))).toEqual([dealId]);

    // Our own follow-ups do not count; a stage change by a user does.
    expect((await pdMove(`/__emulator/deals/${dealId}/change`, { title: 'Renamed' })).status).toBe(200);
    expect(await reactionsOf(leadId)).toEqual([]);
    expect((await pdMove(`/__emulator/deals/${dealId}/change`, { stage_id: 12, user_id: BORYS.id })).status).toBe(200);
    const [reaction] = await reactionsOf(leadId);
    expect(reaction).toMatchObject({ kind: 'taken', via: 'crm', byId: String(BORYS.id) });

    expect((await pdMove(`/__emulator/deals/${dealId}/change`, { status: 'won' })).status).toBe(200);
    expect(await reactionsOf(leadId)).toEqual([reaction]);
    const report = (await callAs(t, 'GET', `/api/report/speed-to-lead?integrationId=${source.id}`, alice)).json();
    expect(report.rows.reduce((n: number, r: { reacted: number }) => n + r.reacted, 0)).toBe(1);
  });

  it('a deal we never delivered: 200, nothing; a wrong secret 404; a body that is not Pipedrive’s 400', async () => {
    const crm = await pipedriveConnected(alice, { target: 'deal', pipelineId: 1, stageId: 11 });
    const path = new URL(String(pd.webhooks[0]!.subscription_url)).pathname;
    const before = (await t.app.db.select().from(leadReactions)).length;
    const change = {
      meta: { action: 'change', entity: 'deal', entity_id: '999', user_id: '101', timestamp: new Date().toISOString() },
      data: { id: 999, stage_id: 12 },
      previous: { stage_id: 11 },
    };
    const ok = await post(path, change);
    expect([ok.statusCode, ok.json()]).toEqual([200, { ok: true, recorded: 0 }]);
    expect(await t.app.db.select().from(leadReactions)).toHaveLength(before);
    expect((await post(`/api/pipedrive/events/${crm}/${'y'.repeat(32)}`, change)).statusCode).toBe(404);
    expect((await post(path.replace('/pipedrive/', '/amocrm/'), change)).statusCode).toBe(404);
    for (const bad of [{ data: {} }, { meta: { action: 'change' } }, [1, 2]]) {
      const res = await post(path, bad);
      expect([res.statusCode, errorOf(res).code]).toEqual([400, 'VALIDATION_ERROR']);
    }
  });

  /** Alice's Pipedrive deal of a delivered lead, and the path its stage changes are posted to. */
  async function deliveredDeal() {
    const crm = await pipedriveConnected(alice, { target: 'deal', pipelineId: 1, stageId: 11 });
    const path = new URL(String(pd.webhooks[0]!.subscription_url)).pathname;
    const accountId = await accountIdOf(t.app.db, alice.login);
    const source = await createSource(t.app.db, accountId, { destinationIds: [crm] });
    const leadId = await ingest(source.url, { name: 'Olena', phone: '0501234567' });
    await t.app.deliveryWorker.drain();
    const dealId = await externalIdOf(leadId);
    return { path, leadId, dealId };
  }

  it('a change holding a NUL or half a UTF-16 pair is taken, cleaned: 200 and the reaction, never refused', async () => {
    const { path, leadId, dealId } = await deliveredDeal();
    const meta = { action: 'change', entity: 'deal', entity_id: dealId, timestamp: new Date().toISOString() };
    const res = await post(path, {
      meta: { ...meta, user_id: '10\u00001' },
      data: { id: Number(dealId), stage_id: 12, title: 'Ole\u0000na \ud800', 'cu\u0000stom': 'x' },
      previous: { stage_id: 11 },
    });
    expect([res.statusCode, res.json()]).toEqual([200, { ok: true, recorded: 1 }]);
    expect((await reactionsOf(leadId))[0]).toMatchObject({ kind: 'taken', via: 'crm', byId: '101' });
  });

  it('a change whose body has keys named __proto__ or constructor.prototype is taken: 200 and the reaction', async () => {
    const { path, leadId, dealId } = await deliveredDeal();
    const meta = {
      action: 'change',
      entity: 'deal',
      entity_id: dealId,
      user_id: '101',
      timestamp: new Date().toISOString(),
    };
    // Written as text: an object literal's `__proto__` would set its prototype, not add a key.
    const res = await post(
      path,
      `{"meta":${JSON.stringify(meta)},"data":{"id":${Number(dealId)},"stage_id":12,"__proto__":{"x":1},` +
        `"constructor":{"prototype":{"y":2}}},"previous":{"stage_id":11,"__proto__":{"x":0}}}`,
    );
    expect([res.statusCode, res.json()]).toEqual([200, { ok: true, recorded: 1 }]);
    expect((await reactionsOf(leadId))[0]).toMatchObject({ kind: 'taken', via: 'crm', byId: '101' });
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('a Pipedrive lead opened in the app is the reaction for a lead target', async () => {
    const crm = await pipedriveConnected(bob, { target: 'lead' });
    expect(pd.webhooks.map((w) => w.event_object)).toEqual(['lead']);
    const accountId = await accountIdOf(t.app.db, bob.login);
    const source = await createSource(t.app.db, accountId, { destinationIds: [crm] });
    const leadId = await ingest(source.url, { name: 'Taras', email: 'taras@example.com' });
    await t.app.deliveryWorker.drain();
    const pdLeadId = await externalIdOf(leadId);
    expect((await pdMove(`/__emulator/leads/${pdLeadId}/change`, { was_seen: true })).status).toBe(200);
    expect(await reactionsOf(leadId)).toEqual([expect.objectContaining({ kind: 'taken', via: 'crm' })]);
  });

  it('deleting the destination removes our webhook; the periodic task subscribes a destination connected before', async () => {
    const crm = await pipedriveConnected(alice, { target: 'deal', pipelineId: 1, stageId: 11 });
    expect((await callAs(t, 'DELETE', `/api/legacy/api/admin/integration/${crm}`, alice)).statusCode).toBe(200);
    expect(pd.webhooks).toEqual([]);

    // Connected before this feature: no watch row. The task finds it and subscribes once.
    const old = await pipedriveConnected(alice, { target: 'deal', pipelineId: 1, stageId: 11 });
    await t.app.db.delete(crmWatches).where(eq(crmWatches.integrationId, old));
    pd.webhooks.length = 0;
    const due = await destinationsToWatch(t.app.db, new Date());
    expect(due.map((r) => r.id)).toContain(old);
    expect(await watchIntegration(t.app.deps, due.find((r) => r.id === old)!)).toBe('subscribed');
    expect(await watchIntegration(t.app.deps, due.find((r) => r.id === old)!)).toBe('exists');
    expect(pd.webhooks).toHaveLength(1);
  });

  it('a CRM that refuses the subscription is tried again later, not at once', async () => {
    pd.setFault({ status: 403, match: 'POST /v1/webhooks' });
    const made = await callAs(t, 'POST', '/api/integrations', alice, { type: 'pipedrive', name: 'P', settings: {} });
    const id = made.json()._id as string;
    // The connect succeeds all the same: the subscription is best effort.
    const connect = await callAs(t, 'POST', '/api/legacy/api/pipedrive/connect', alice, {
      integrationId: id,
      apiToken: pd.apiToken,
    });
    expect(connect.statusCode).toBe(200);
    expect((await watchOf(id))?.lastError).toMatch(/403|forbidden|emulated/i);
    // Its page is told why and when it is tried again.
    const told = (await callAs(t, 'GET', `/api/integrations/${id}/crm-watch`, alice)).json();
    expect(told).toEqual({
      state: 'failed',
      since: expect.any(String),
      reason: expect.stringMatching(/403/),
      nextTryAt: expect.any(String),
    });
    expect(Date.parse(told.nextTryAt) - Date.parse(told.since)).toBe(RETRY_AFTER_MS);
    pd.setFault(null);
    expect((await destinationsToWatch(t.app.db, new Date())).map((r) => r.id)).not.toContain(id);
    const later = await destinationsToWatch(t.app.db, new Date(Date.now() + 7 * 3_600_000), 1000);
    expect(later.map((r) => r.id)).toContain(id);
  });
});
