// KeyCRM status changes as the lead's first reaction and its stage (issue 33; speed to lead), end to
// end against its emulator: the destination's page gives our address, the person makes a trigger's
// webhook with it in KeyCRM (nothing is pasted back: KeyCRM's webhook carries no token); a delivered
// card moved by a manager is posted to this app (listening on a loopback port, its public URL), read
// back from KeyCRM and recorded; for a Meta lead, its stage goes back as a conversion event.
import { KEYCRM_EMULATOR_KEY, type KeycrmEmulator, startKeycrmEmulator } from '@leadrelay/connectors/keycrm/emulator';
import { type GraphEmulator, startGraphEmulator } from '@leadrelay/connectors/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { conversionEvents, crmWatches, deliveries, hooks, leadReactions, leads } from '../../db/schema';
import { connect as connectFacebook } from '../../test/facebook-kit';
import { CONSULTATION, DENTAL, work } from '../../test/facebook-leads-kit';
import { freePort } from '../../test/free-port';
import { accountIdOf, createCollection, createSource } from '../../test/routing-fixtures';
import {
  callAs,
  createTestApp,
  errorOf,
  expectError,
  onUnlimitedPlan,
  type SignedInUser,
  signUp,
  type TestApp,
} from '../../test/test-app';

let t: TestApp;
let em: KeycrmEmulator;
let graph: GraphEmulator;
let alice: SignedInUser;
let bob: SignedInUser;
let publicUrl: string;

beforeAll(async () => {
  const port = await freePort();
  publicUrl = `http://127.0.0.1:${port}`;
  em = await startKeycrmEmulator();
  graph = await startGraphEmulator();
  t = await createTestApp({
    publicUrl,
    allowPrivateDestinations: true,
    crm: {
      keycrm: { apiUrl: em.url },
      facebook: {
        appId: graph.appId,
        appSecret: graph.appSecret,
        graphUrl: graph.graphUrl,
        dialogUrl: graph.dialogUrl,
      },
    },
  });
  await t.app.listen({ port, host: '127.0.0.1' });
  alice = await onUnlimitedPlan(t, await signUp(t));
  bob = await onUnlimitedPlan(t, await signUp(t));
});
afterAll(async () => {
  await t?.close();
  await em?.close();
  await graph?.close();
});
beforeEach(() => em.reset());

const watchPath = (id: string) => `/api/integrations/${id}/crm-watch`;
const reactionsOf = (leadId: string) => t.app.db.select().from(leadReactions).where(eq(leadReactions.leadId, leadId));
const post = (url: string, payload: string, type = 'application/json') =>
  t.app.inject({ method: 'POST', url, headers: { 'content-type': type }, payload });
const until = async (what: string, ok: () => boolean | Promise<boolean>, ms = 8000) => {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

/** A KeyCRM destination connected with the emulator's key; new cards go to pipeline 1, status 12. */
async function connected(user: SignedInUser, settings: Record<string, unknown> = { pipelineId: 1, statusId: 12 }) {
  const made = await callAs(t, 'POST', '/api/integrations', user, { type: 'keycrm', name: 'KeyCRM' });
  const id = made.json()._id as string;
  const res = await callAs(t, 'PUT', `/api/admin/integration/${id}/connect`, user, {
    auth: { apiKey: KEYCRM_EMULATOR_KEY },
    settings,
  });
  expect(res.statusCode).toBe(200);
  return id;
}

/** What the person does: reads our address and makes a trigger's webhook with it in KeyCRM. */
async function watched(user: SignedInUser, settings?: Record<string, unknown>) {
  const id = await connected(user, settings);
  const state = (await callAs(t, 'GET', watchPath(id), user)).json();
  expect(state).toMatchObject({ state: 'pending', setup: 'pasted', tokenSet: false, since: null });
  em.addWebhook(state.address);
  return { id, address: state.address as string, path: new URL(state.address).pathname };
}

async function deliveredLead(destinationId: string, user = alice) {
  const accountId = await accountIdOf(t.app.db, user.login);
  const collection = await createCollection(t.app.db, accountId, [{ id: 'i1', name: 'Оксана П.', value: '5' }]);
  const source = await createSource(t.app.db, accountId, {
    destinationIds: [destinationId],
    distributionId: collection,
  });
  const res = await t.app.inject({ method: 'POST', url: source.url, payload: { name: 'Олена', phone: '0501234567' } });
  expect(res.statusCode).toBe(202);
  const [hook] = await t.app.db.select({ leadId: hooks.leadId }).from(hooks).where(eq(hooks.id, res.json().hookId));
  await t.app.deliveryWorker.drain();
  const leadId = hook!.leadId!;
  const [delivery] = await t.app.db.select().from(deliveries).where(eq(deliveries.leadId, leadId));
  expect(delivery).toMatchObject({ status: 'delivered' });
  return { leadId, sourceId: source.id, cardId: Number(delivery!.externalId) };
}

/** A card moved by a manager in KeyCRM: the trigger's webhook posted to us and answered. */
async function moved(cardId: number, statusId: number) {
  const sent = await em.moveCard(cardId, statusId);
  expect(sent).toEqual([expect.objectContaining({ status: 200 })]);
}

describe('KeyCRM: a status change reaches us through the trigger webhook the person made', () => {
  it('the page gives our address once connected; a delivered card moved records taken via crm, once; our own move does not count', async () => {
    const made = await callAs(t, 'POST', '/api/integrations', alice, { type: 'keycrm', name: 'Later' });
    // Not connected: nothing to paste yet.
    expect((await callAs(t, 'GET', watchPath(made.json()._id), alice)).json()).toEqual({
      state: 'off',
      since: null,
      reason: null,
      nextTryAt: null,
      setup: 'pasted',
      address: null,
      tokenSet: false,
    });

    const { id, address } = await watched(alice);
    expect(address).toMatch(new RegExp(`^${publicUrl}/api/keycrm/events/${id}/[\\w-]{32}$`));
    expect((await callAs(t, 'GET', watchPath(id), alice)).json().address).toBe(address);
    // KeyCRM shows no token: there is none to paste.
    expectError(
      await callAs(t, 'POST', `${watchPath(id)}/token`, alice, { token: 'a'.repeat(32) }),
      400,
      'OPERATION_NOT_SUPPORTED',
    );
    const [row] = await t.app.db.select().from(crmWatches).where(eq(crmWatches.integrationId, id));
    expect(JSON.stringify(row)).not.toContain(address.split('/').at(-1));

    const { leadId, sourceId, cardId } = await deliveredLead(id);
    // The delivery moved its new card into status 12: KeyCRM's trigger reports that move too; read
    // back, the card is where we put it, so it is no reaction. The call shows the webhook works.
    await until('our own move to be posted', () => em.sent.some((s) => s.cardId === cardId && s.status === 200));
    expect(em.cards.find((c) => c.id === cardId)).toMatchObject({ status_id: 12 });
    expect(await reactionsOf(leadId)).toEqual([]);
    const watching = (await callAs(t, 'GET', watchPath(id), alice)).json();
    expect(watching).toMatchObject({ state: 'watching', tokenSet: false, address });
    expect(Date.parse(watching.since)).toBeGreaterThan(Date.now() - 60_000);

    const before = Date.now();
    await moved(cardId, 13);
    const [reaction] = await reactionsOf(leadId);
    expect(reaction).toMatchObject({ kind: 'taken', via: 'crm' });
    // KeyCRM keeps times to the second.
    expect(Math.abs(reaction!.at.getTime() - before)).toBeLessThan(5000);
    // The card read back: with its status and pipeline (include=status).
    expect(
      em.requests.filter((r) => r.method === 'GET' && r.path.startsWith(`/pipelines/cards/${cardId}`)).at(-1),
    ).toMatchObject({ path: `/pipelines/cards/${cardId}?include=status`, status: 200 });
    // A later move records nothing: the first reaction stands.
    await moved(cardId, 11);
    expect(await reactionsOf(leadId)).toEqual([reaction]);

    const report = (await callAs(t, 'GET', `/api/report/speed-to-lead?integrationId=${sourceId}`, alice)).json();
    expect(report.rows.reduce((n: number, r: { reacted: number }) => n + r.reacted, 0)).toBe(1);
  });

  it('a Meta lead moved in KeyCRM sends its status, by id, pipeline and name, back as a conversion event', async () => {
    const { id } = await watched(alice);
    const fb = await connectFacebook(t, alice);
    const res = await callAs(t, 'POST', '/api/integrations', alice, {
      type: 'facebook',
      name: 'Meta leads',
      settings: { fbConnectionId: fb, fbPageId: DENTAL.id, fbFormId: CONSULTATION },
      destination: [id],
    });
    expect(res.statusCode, res.body).toBe(201);
    const source = res.json()._id as string;
    const sub = await callAs(t, 'POST', `/api/facebook/connection/${fb}/account/${DENTAL.id}/subscribe`, alice);
    expect(sub.statusCode, sub.body).toBe(200);
    const capi = await callAs(t, 'PUT', `/api/integrations/${source}/capi`, alice, {
      enabled: true,
      datasetId: '90000000000001',
    });
    expect(capi.statusCode, capi.body).toBe(200);
    graph.submitLead({ formId: CONSULTATION });
    await graph.idle();
    await work(t);
    const [lead] = await t.app.db.select().from(leads).where(eq(leads.integrationId, source));
    const [delivery] = await t.app.db.select().from(deliveries).where(eq(deliveries.leadId, lead!.id));
    expect(delivery).toMatchObject({ status: 'delivered' });

    await moved(Number(delivery!.externalId), 13);
    const events = await t.app.db.select().from(conversionEvents).where(eq(conversionEvents.leadId, lead!.id));
    expect(events.filter((e) => e.stage !== 'lead')).toEqual([
      expect.objectContaining({ stage: '13', pipelineId: '1', stageName: 'Успішно' }),
    ]);
  });

  it('a card we never delivered is 200 with nothing read; a body naming no card is 400; a wrong secret or another account 404', async () => {
    const { id, path } = await watched(alice);
    const before = (await t.app.db.select().from(leadReactions)).length;
    const reads = () => em.requests.filter((r) => r.path.startsWith('/pipelines/cards/')).length;
    const read = reads();
    for (const body of [
      '{"event":"pipelines.card.status_changed","context":{"id":987654,"status_id":13}}',
      '{"card_id":"987654"}',
      '{"data":[{"id":987654},{"card_id":"987655"}]}',
    ]) {
      const res = await post(path, body);
      expect([body, res.statusCode, res.json()]).toEqual([body, 200, { ok: true, recorded: 0 }]);
    }
    // Form fields, as KeyCRM may send them.
    const form = await post(
      path,
      'context%5Bid%5D=987654&context%5Bstatus_id%5D=13',
      'application/x-www-form-urlencoded',
    );
    expect([form.statusCode, form.json()]).toEqual([200, { ok: true, recorded: 0 }]);
    expect(reads()).toBe(read);
    expect(await t.app.db.select().from(leadReactions)).toHaveLength(before);

    // No card named (or only ids no card can have): refused without a word about why.
    for (const bad of [
      '{}',
      '{"event":"pipelines.card.status_changed"}',
      '{"context":{"status_id":13}}',
      '{"id":"abc"}',
      '{"id":-4}',
      '{"id":1.5}',
      '{"id":0}',
      '{"id":123456789012345678901234567890}',
      '{"id":"1234567890123456789"}',
      '{"__proto__":{"id":5},"constructor":{"id":6}}',
      '{"context":{"__proto__":{"id":5}}}',
      '[{"id":5}]',
      '"5"',
      'null',
    ]) {
      const res = await post(path, bad);
      expect([bad, res.statusCode, errorOf(res).code]).toEqual([bad, 400, 'VALIDATION_ERROR']);
    }
    const broken = await post(path, '{"id":', 'application/json');
    expect([broken.statusCode, errorOf(broken).code]).toEqual([400, 'INVALID_JSON']);
    expect(reads()).toBe(read);

    const secret = path.split('/').at(-1)!;
    const bobs = await connected(bob);
    for (const wrong of [
      `/api/keycrm/events/${id}/${'x'.repeat(32)}`,
      `/api/keycrm/events/${id}/${secret.slice(0, -1)}`,
      `/api/keycrm/events/${bobs}/${secret}`,
      `/api/keycrm/events/not-a-uuid/${secret}`,
      `/api/bitrix24/events/${id}/${secret}`,
    ]) {
      const res = await post(wrong, '{"id":1}');
      expect([wrong, res.statusCode, res.body]).toEqual([wrong, 404, '']);
    }
    // Another account's watch is not even said to exist.
    expect((await callAs(t, 'GET', watchPath(id), bob)).statusCode).toBe(404);
  });

  it('a card KeyCRM cannot read costs this reaction only: 200, nothing recorded, the next call counts', async () => {
    const { id, path } = await watched(alice, { pipelineId: 1 });
    // No status chosen: a card stays in the pipeline's first (11), and no move is posted.
    const { leadId, cardId } = await deliveredLead(id);
    expect(em.cards.find((c) => c.id === cardId)).toMatchObject({ status_id: 11 });
    em.setFault({ status: 500, path: `/pipelines/cards/${cardId}`, method: 'GET', times: 1 });
    await moved(cardId, 12);
    expect(await reactionsOf(leadId)).toEqual([]);
    // KeyCRM's next call about the card finds the move.
    const again = await post(path, JSON.stringify({ context: { id: cardId } }));
    expect([again.statusCode, again.json()]).toEqual([200, { ok: true, recorded: 1 }]);
    expect(await reactionsOf(leadId)).toEqual([expect.objectContaining({ kind: 'taken', via: 'crm' })]);
  });
});
