// Bitrix24 stage changes as the lead's first reaction (issue 32, speed to lead), end to end against
// its emulator: the destination's page gives our address, the person makes the portal's outgoing
// webhook with it and pastes back the token Bitrix24 shows; a delivered deal moved by a manager in
// the portal is posted to this app (listening on a loopback port, its public URL) and recorded.
import { type Bitrix24Emulator, startBitrix24Emulator } from '@leadrelay/connectors/bitrix24/emulator';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { crmWatches, deliveries, hooks, leadReactions } from '../../db/schema';
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
import { destinationsToWatch } from '../crm-events/crm-watch.service';

let t: TestApp;
let em: Bitrix24Emulator;
let alice: SignedInUser;
let bob: SignedInUser;
let publicUrl: string;

beforeAll(async () => {
  const port = await freePort();
  publicUrl = `http://127.0.0.1:${port}`;
  em = await startBitrix24Emulator();
  t = await createTestApp({ publicUrl, allowPrivateDestinations: true, crm: { bitrix24: { hosts: [em.host] } } });
  await t.app.listen({ port, host: '127.0.0.1' });
  alice = await onUnlimitedPlan(t, await signUp(t));
  bob = await onUnlimitedPlan(t, await signUp(t));
});
afterAll(async () => {
  await t?.close();
  await em?.close();
});
beforeEach(() => em.reset());

const watchPath = (id: string) => `/api/integrations/${id}/crm-watch`;
const reactionsOf = (leadId: string) => t.app.db.select().from(leadReactions).where(eq(leadReactions.leadId, leadId));
const formType = 'application/x-www-form-urlencoded';
const post = (url: string, payload: string, type = formType) =>
  t.app.inject({ method: 'POST', url, headers: { 'content-type': type }, payload });
const eventForm = (id: string, token: string, event = 'ONCRMDEALUPDATE') =>
  new URLSearchParams({
    event,
    'data[FIELDS][ID]': id,
    ts: String(Math.floor(Date.now() / 1000)),
    'auth[domain]': em.host,
    'auth[application_token]': token,
  }).toString();

async function connected(user: SignedInUser, settings: Record<string, unknown> = { target: 'deal' }) {
  const made = await callAs(t, 'POST', '/api/integrations', user, { type: 'bitrix24', name: 'Bitrix24', settings });
  const id = made.json()._id as string;
  const res = await callAs(t, 'POST', '/api/bitrix24/connect', user, { integrationId: id, webhookUrl: em.webhookUrl });
  expect(res.statusCode).toBe(200);
  return id;
}

/** What the person does: reads our address, makes the outgoing webhook with it, pastes its token back. */
async function watched(user: SignedInUser, settings?: Record<string, unknown>) {
  const id = await connected(user, settings);
  const state = (await callAs(t, 'GET', watchPath(id), user)).json();
  expect(state).toMatchObject({ state: 'pending', setup: 'pasted', tokenSet: false });
  const hook = em.addOutgoingWebhook({ url: state.address });
  const saved = await callAs(t, 'POST', `${watchPath(id)}/token`, user, { token: hook.token });
  expect(saved.statusCode).toBe(200);
  expect(saved.json()).toMatchObject({ state: 'watching', tokenSet: true, address: state.address });
  return { id, address: state.address as string, token: hook.token, path: new URL(state.address).pathname };
}

async function deliveredLead(destinationId: string, user = alice) {
  const accountId = await accountIdOf(t.app.db, user.login);
  const collection = await createCollection(t.app.db, accountId, [{ id: 'i1', name: 'Богдан М.', value: '2' }]);
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
  return { leadId, sourceId: source.id, externalId: delivery!.externalId! };
}

describe('Bitrix24: a stage change reaches us through the outgoing webhook the person made', () => {
  it('the page gives our address once connected; the token is stored sealed; a delivered deal moved records taken via crm, once', async () => {
    const made = await callAs(t, 'POST', '/api/integrations', alice, { type: 'bitrix24', name: 'Later', settings: {} });
    // Not connected: nothing to paste yet, and no token is taken.
    expect((await callAs(t, 'GET', watchPath(made.json()._id), alice)).json()).toEqual({
      state: 'off',
      since: null,
      reason: null,
      nextTryAt: null,
      setup: 'pasted',
      address: null,
      tokenSet: false,
    });
    expectError(
      await callAs(t, 'POST', `${watchPath(made.json()._id)}/token`, alice, { token: 'a'.repeat(32) }),
      400,
      'INTEGRATION_NOT_CONNECTED',
    );

    const { id, address, token } = await watched(alice);
    expect(address).toMatch(new RegExp(`^${publicUrl}/api/bitrix24/events/${id}/[\\w-]{32}$`));
    // The same address every time it is read; the token and the secret are sealed at rest.
    expect((await callAs(t, 'GET', watchPath(id), alice)).json().address).toBe(address);
    const [row] = await t.app.db.select().from(crmWatches).where(eq(crmWatches.integrationId, id));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(JSON.stringify(row)).not.toContain(address.split('/').at(-1));
    // Nothing for the periodic subscriber to do: there is nothing to subscribe by API.
    expect((await destinationsToWatch(t.app.db, new Date(Date.now() + 86_400_000))).map((r) => r.id)).not.toContain(id);

    const { leadId, sourceId, externalId } = await deliveredLead(id);
    expect(em.deals.map((d) => d.ID)).toEqual([externalId]);

    // An edit that is no stage move: posted, read back, nothing recorded.
    const [renamed] = await em.updateRecord('deal', externalId, { title: 'Перейменовано', userId: 2 });
    expect(renamed).toMatchObject({ status: 200 });
    expect(await reactionsOf(leadId)).toEqual([]);

    const before = Date.now();
    const [moved] = await em.updateRecord('deal', externalId, { stage: 'PREPARATION', userId: 2 });
    expect(moved).toMatchObject({ status: 200, event: 'ONCRMDEALUPDATE' });
    const [reaction] = await reactionsOf(leadId);
    // Who moved it (MOVED_BY_ID), named from our distribution.
    expect(reaction).toMatchObject({ kind: 'taken', via: 'crm', byId: '2', byName: 'Богдан М.' });
    expect(Math.abs(reaction!.at.getTime() - before)).toBeLessThan(5000);
    // A later move records nothing: the first reaction stands.
    await em.updateRecord('deal', externalId, { stage: 'EXECUTING', userId: 1 });
    expect(await reactionsOf(leadId)).toEqual([reaction]);

    // Speed to lead counts it.
    const report = (await callAs(t, 'GET', `/api/report/speed-to-lead?integrationId=${sourceId}`, alice)).json();
    expect(report.rows.reduce((n: number, r: { reacted: number }) => n + r.reacted, 0)).toBe(1);
  });

  it('an event with another token is refused 403 with its key and reads nothing; no token pasted refuses alike', async () => {
    const id = await connected(alice);
    const { address } = (await callAs(t, 'GET', watchPath(id), alice)).json();
    const path = new URL(address).pathname;
    const { externalId, leadId } = await deliveredLead(id);
    await em.updateRecord('deal', externalId, { stage: 'PREPARATION', userId: 2 });
    const reads = em.calls('crm.deal.get').length;
    // No token pasted yet.
    const early = await post(path, eventForm(externalId, 'f'.repeat(32)));
    expect([early.statusCode, errorOf(early).code]).toEqual([403, 'BITRIX24_EVENT_TOKEN_REFUSED']);

    const hook = em.addOutgoingWebhook({ url: address });
    await callAs(t, 'POST', `${watchPath(id)}/token`, alice, { token: hook.token });
    // Its last character changed (the token is random: never "changed" to the same one), none, another case.
    const last = hook.token.slice(-1) === '0' ? '1' : '0';
    for (const wrong of [`${hook.token.slice(0, -1)}${last}`, '', hook.token.toUpperCase()]) {
      const res = await post(path, eventForm(externalId, wrong));
      expect([wrong, res.statusCode, errorOf(res).code]).toEqual([wrong, 403, 'BITRIX24_EVENT_TOKEN_REFUSED']);
    }
    const none = await post(path, `event=ONCRMDEALUPDATE&data%5BFIELDS%5D%5BID%5D=${externalId}`);
    expect([none.statusCode, errorOf(none).code]).toEqual([403, 'BITRIX24_EVENT_TOKEN_REFUSED']);
    expect(em.calls('crm.deal.get')).toHaveLength(reads);
    expect(await reactionsOf(leadId)).toEqual([]);

    // The right one records it.
    const ok = await post(path, eventForm(externalId, hook.token));
    expect([ok.statusCode, ok.json()]).toEqual([200, { ok: true, recorded: 1 }]);
  });

  it('a record we never delivered is 200 with nothing read; a body not Bitrix24’s is 400; a wrong secret or another account 404', async () => {
    const { id, token, path } = await watched(alice);
    const before = (await t.app.db.select().from(leadReactions)).length;
    const reads = em.calls('crm.deal.get').length;
    const stranger = await post(path, eventForm('987654', token));
    expect([stranger.statusCode, stranger.json()]).toEqual([200, { ok: true, recorded: 0 }]);
    const contact = await post(path, eventForm('7', token, 'ONCRMCONTACTUPDATE'));
    expect([contact.statusCode, contact.json()]).toEqual([200, { ok: true, recorded: 0 }]);
    expect(em.calls('crm.deal.get')).toHaveLength(reads);
    expect(await t.app.db.select().from(leadReactions)).toHaveLength(before);

    for (const bad of [
      'hello=1',
      '',
      `event=ONCRMDEALUPDATE&data%5BFIELDS%5D%5BID%5D=abc&auth%5Bapplication_token%5D=${token}`,
      `event=ONCRMDEALUPDATE&event=ONCRMLEADUPDATE&auth%5Bapplication_token%5D=${token}`,
      `__proto__%5Bevent%5D=ONCRMDEALUPDATE&auth%5Bapplication_token%5D=${token}`,
    ]) {
      const res = await post(path, bad);
      expect([bad, res.statusCode, errorOf(res).code]).toEqual([bad, 400, 'VALIDATION_ERROR']);
    }
    const broken = await post(path, '{"event":', 'application/json');
    expect([broken.statusCode, errorOf(broken).code]).toEqual([400, 'INVALID_JSON']);

    const secret = path.split('/').at(-1)!;
    const bobs = await connected(bob);
    for (const wrong of [
      `/api/bitrix24/events/${id}/${'x'.repeat(32)}`,
      `/api/bitrix24/events/${bobs}/${secret}`,
      `/api/bitrix24/events/not-a-uuid/${secret}`,
      `/api/amocrm/events/${id}/${secret}`,
    ]) {
      const res = await post(wrong, eventForm('1', token));
      expect([wrong, res.statusCode, res.body]).toEqual([wrong, 404, '']);
    }
  });

  it('a portal that cannot be read costs this reaction only: 200, nothing recorded, the next event counts', async () => {
    const { path, token, id } = await watched(alice);
    const { externalId, leadId } = await deliveredLead(id);
    await em.updateRecord('deal', externalId, { stage: 'PREPARATION', userId: 2 });
    // A second lead, moved while the portal fails our read of it.
    const second = await deliveredLead(id);
    em.setFault({ method: 'crm.deal.get', status: 500 });
    const [sent] = await em.updateRecord('deal', second.externalId, { stage: 'PREPARATION', userId: 1 });
    expect(sent).toMatchObject({ status: 200 });
    expect(await reactionsOf(second.leadId)).toEqual([]);
    em.setFault(null);
    // Bitrix24's next event about it (any update) finds the move.
    const again = await post(path, eventForm(second.externalId, token));
    expect([again.statusCode, again.json()]).toEqual([200, { ok: true, recorded: 1 }]);
    expect(await reactionsOf(second.leadId)).toEqual([expect.objectContaining({ via: 'crm', byId: '1' })]);
    expect(await reactionsOf(leadId)).toHaveLength(1);
  });

  it('the token is checked before it is kept; another account’s integration is 404', async () => {
    const id = await connected(alice);
    for (const [token, code] of [
      ['short', 'BITRIX24_OUTGOING_TOKEN_INVALID'],
      ['with spaces in it and more', 'BITRIX24_OUTGOING_TOKEN_INVALID'],
      ['', 'REQUIRED'],
      [42, 'INVALID_TYPE'],
    ] as const) {
      const res = await callAs(t, 'POST', `${watchPath(id)}/token`, alice, { token });
      expectError(res, 400, 'VALIDATION_ERROR');
      expect(res.json().errors).toEqual([{ field: 'token', code }]);
    }
    expect((await callAs(t, 'GET', watchPath(id), alice)).json()).toMatchObject({ state: 'pending', tokenSet: false });
    expect((await callAs(t, 'GET', watchPath(id), bob)).statusCode).toBe(404);
    expect((await callAs(t, 'POST', `${watchPath(id)}/token`, bob, { token: 'a'.repeat(32) })).statusCode).toBe(404);
    expect((await callAs(t, 'POST', `${watchPath(id)}/token`, null, { token: 'a'.repeat(32) })).statusCode).toBe(401);
    // A CRM subscribed by API takes no token.
    const http = await callAs(t, 'POST', '/api/integrations', alice, { type: 'http', name: 'Hook' });
    expect(
      (await callAs(t, 'POST', `${watchPath(http.json()._id)}/token`, alice, { token: 'a'.repeat(32) })).statusCode,
    ).toBe(404);
  });
});
