// Google Ads lead form webhooks (packages/connectors/src/googleads): the integration makes an address
// and a key, Google's lead POSTed there with that key becomes one lead however often Google retries
// it, a test lead is marked as one in the lead log, and a wrong key, a junk body or another account
// stores nothing.
import { type GoogleAdsEmulator, startGoogleAdsEmulator } from '@leadrelay/connectors/googleads/emulator';
import { type HttpEmulator, startHttpEmulator } from '@leadrelay/connectors/http/emulator';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectorSeen, hooks, leads } from '../../db/schema';
import { freePort } from '../../test/server-process';
import {
  callAs,
  createTestApp,
  expectError,
  onUnlimitedPlan,
  type SignedInUser,
  signUp,
  type TestApp,
} from '../../test/test-app';

let t: TestApp;
let google: GoogleAdsEmulator;
let crm: HttpEmulator;
let publicUrl: string;

beforeAll(async () => {
  google = await startGoogleAdsEmulator();
  crm = await startHttpEmulator();
  const port = await freePort();
  publicUrl = `http://127.0.0.1:${port}`;
  t = await createTestApp({ publicUrl, allowPrivateDestinations: true });
  await t.app.listen({ port, host: '127.0.0.1' });
});
afterAll(async () => {
  await t?.close();
  await google?.close();
  await crm?.close();
});

interface Setup {
  user: SignedInUser;
  id: string;
  webhookUrl: string;
  key: string;
}

/** A user with a Google Ads source sending to an http destination, its address and key made. */
async function connected(): Promise<Setup> {
  const user = await onUnlimitedPlan(t, await signUp(t));
  const destination = await callAs(t, 'POST', '/api/integrations', user, {
    type: 'http',
    name: 'CRM endpoint',
    settings: { url: crm.hookUrl },
  });
  expect(destination.statusCode, destination.body).toBe(201);
  const created = await callAs(t, 'POST', '/api/integrations', user, {
    type: 'googleads',
    name: 'Google Ads form',
    destination: [destination.json()._id],
  });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json()._id as string;
  const before = (await callAs(t, 'GET', `/api/integrations/${id}/googleads`, user)).json();
  expect(before).toEqual({ webhookUrl: null, key: null, leads: [] });
  const made = await callAs(t, 'POST', `/api/integrations/${id}/googleads/key`, user, {});
  expect(made.statusCode, made.body).toBe(200);
  const state = (await callAs(t, 'GET', `/api/integrations/${id}/googleads`, user)).json();
  return { user, id, webhookUrl: state.webhookUrl, key: state.key };
}

const leadsOf = (id: string) => t.app.db.select().from(leads).where(eq(leads.integrationId, id));
const seenOf = (id: string) => t.app.db.select().from(connectorSeen).where(eq(connectorSeen.integrationId, id));
const hooksOf = (id: string) => t.app.db.select().from(hooks).where(eq(hooks.integrationId, id));

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: new URL(url).pathname,
    payload: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...headers },
  });

describe('the address and the key', () => {
  it('are made on the integration, the address under the public URL, the key long and random', async () => {
    const a = await connected();
    const b = await connected();
    expect(a.webhookUrl).toMatch(new RegExp(`^${publicUrl}/api/googleads/webhook/[A-Za-z0-9_-]{40,}$`));
    expect(a.key).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(b.key).not.toBe(a.key);
    expect(b.webhookUrl).not.toBe(a.webhookUrl);
    // The generic state path answers the same reading.
    const generic = (await callAs(t, 'GET', `/api/integrations/${a.id}/source`, a.user)).json();
    expect(generic).toMatchObject({ webhookUrl: a.webhookUrl, key: a.key });
  });

  it('a new key replaces the old one at once: the old is refused, the address stays', async () => {
    const s = await connected();
    const again = await callAs(t, 'POST', `/api/integrations/${s.id}/googleads/key`, s.user, {});
    expect(again.statusCode, again.body).toBe(200);
    const state = (await callAs(t, 'GET', `/api/integrations/${s.id}/googleads`, s.user)).json();
    expect(state.webhookUrl).toBe(s.webhookUrl);
    expect(state.key).not.toBe(s.key);
    const old = await google.send({ webhookUrl: s.webhookUrl, key: s.key, name: 'Old key' });
    expect(old.answers.map((a) => a.status)).toEqual([403]);
    const fresh = await google.send({ webhookUrl: s.webhookUrl, key: state.key, name: 'New key' });
    expect(fresh.answers.map((a) => a.status)).toEqual([200]);
    expect((await leadsOf(s.id)).map((l) => l.fields.name)).toEqual(['New key']);
  });

  it('are another account\u2019s: 404, and PUT …/connect cannot set a key', async () => {
    const s = await connected();
    const other = await onUnlimitedPlan(t, await signUp(t));
    expectError(await callAs(t, 'GET', `/api/integrations/${s.id}/googleads`, other), 404, 'INTEGRATION_NOT_FOUND');
    expectError(
      await callAs(t, 'POST', `/api/integrations/${s.id}/googleads/key`, other, {}),
      404,
      'INTEGRATION_NOT_FOUND',
    );
    const put = await callAs(t, 'PUT', `/api/integrations/${s.id}/connect`, s.user, { auth: { key: 'x'.repeat(40) } });
    expect(put.statusCode).toBeGreaterThanOrEqual(400);
    expect(put.statusCode).toBeLessThan(500);
    expect((await callAs(t, 'GET', `/api/integrations/${s.id}/googleads`, s.user)).json().key).toBe(s.key);
  });
});

describe('a lead from Google', () => {
  it('sent twice (Google retries) makes one lead with its columns, answers and ids, delivered once', async () => {
    const s = await connected();
    const shot = await google.send({
      webhookUrl: s.webhookUrl,
      key: s.key,
      times: 2,
      columns: [
        { column_id: 'FIRST_NAME', column_name: 'First Name', string_value: 'Олена' },
        { column_id: 'LAST_NAME', column_name: 'Last Name', string_value: 'Коваль' },
        { column_id: 'PHONE_NUMBER', column_name: 'User Phone', string_value: '+380 50 123 45 67' },
        { column_id: 'EMAIL', column_name: 'User Email', string_value: 'olena@example.com' },
        { column_id: 'CITY', column_name: 'City', string_value: 'Київ' },
        { column_id: 'COMPANY_NAME', column_name: 'Company', string_value: 'Квіти' },
        { column_name: 'Коли вам зручно поговорити?', string_value: 'Після 18:00' },
      ],
    });
    expect(shot.answers.map((a) => [a.status, (a.body as { items: { status: string }[] }).items[0]!.status])).toEqual([
      [200, 'pending'],
      [200, 'repeat'],
    ]);
    const body = shot.body;
    const [lead, ...more] = await leadsOf(s.id);
    expect(more).toHaveLength(0);
    expect(lead!.sourceId).toBe(`googleads-lead:${body.lead_id}`);
    expect(lead!.fields).toMatchObject({
      name: 'Олена Коваль',
      phone: '+380501234567',
      email: 'olena@example.com',
      comment: 'Коли вам зручно поговорити?: Після 18:00',
      utm: { source: 'google', medium: 'lead_form', campaign: String(body.campaign_id) },
      custom: {
        city: 'Київ',
        company: 'Квіти',
        question_1: 'Коли вам зручно поговорити?',
        answer_1: 'Після 18:00',
        lead_id: body.lead_id,
        gcl_id: body.gcl_id,
        form_id: String(body.form_id),
        campaign_id: String(body.campaign_id),
        adgroup_id: String(body.adgroup_id),
        is_test: 'false',
      },
    });
    expect(await hooksOf(s.id)).toHaveLength(1);
    const [seen] = await seenOf(s.id);
    expect(seen).toMatchObject({ itemId: body.lead_id, timesSeen: 2 });

    await t.app.deliveryWorker.drain();
    expect(crm.requests.filter((r) => r.rawBody.includes(String(body.lead_id)))).toHaveLength(1);
    const state = (await callAs(t, 'GET', `/api/integrations/${s.id}/googleads`, s.user)).json();
    expect(state.leads).toEqual([
      expect.objectContaining({ leadId: body.lead_id, name: 'Олена Коваль', test: false, timesSeen: 2 }),
    ]);
    expect(state.leads[0].status).toBe('delivered');
  });

  it('sent as test data is taken and shown as a test lead in the lead log; a real one is not', async () => {
    const s = await connected();
    await google.send({ webhookUrl: s.webhookUrl, key: s.key, test: true });
    // A sender cannot mark a lead as a test itself: the header only the machinery sets is dropped.
    const real = await post(
      s.webhookUrl,
      {
        lead_id: 'real-1',
        google_key: s.key,
        user_column_data: [{ column_id: 'FULL_NAME', string_value: 'Справжній' }],
      },
      { 'x-leadrelay-test': 'true' },
    );
    expect(real.statusCode, real.body).toBe(200);
    const list = (await callAs(t, 'GET', '/api/hook', s.user)).json().data as {
      lead: { name?: string };
      warnings: string[];
    }[];
    const byName = new Map(list.map((h) => [h.lead.name, h.warnings]));
    expect(byName.get('FirstName LastName')).toEqual(['TEST_LEAD']);
    expect(byName.get('Справжній')).toEqual([]);
    const state = (await callAs(t, 'GET', `/api/integrations/${s.id}/googleads`, s.user)).json();
    expect(state.leads.map((l: { test: boolean }) => l.test).sort()).toEqual([false, true]);
  });
});

describe('a refused or hostile request', () => {
  it('with a wrong or missing key is 403 and stores nothing (no lead, no seen row, no hook)', async () => {
    const s = await connected();
    const lead = { lead_id: 'L-1', user_column_data: [{ column_id: 'FULL_NAME', string_value: 'Хтось' }] };
    expectError(await post(s.webhookUrl, { ...lead, google_key: `${s.key}x` }), 403, 'GOOGLEADS_KEY_INVALID');
    expectError(await post(s.webhookUrl, lead), 403, 'GOOGLEADS_KEY_INVALID');
    expectError(await post(s.webhookUrl, { ...lead, google_key: '' }), 403, 'GOOGLEADS_KEY_INVALID');
    expectError(await post(s.webhookUrl, { ...lead, google_key: 12345 }), 403, 'GOOGLEADS_KEY_INVALID');
    expectError(await post(s.webhookUrl, [lead]), 403, 'GOOGLEADS_KEY_INVALID');
    expect(await leadsOf(s.id)).toHaveLength(0);
    expect(await seenOf(s.id)).toHaveLength(0);
    expect(await hooksOf(s.id)).toHaveLength(0);
  });

  it('has no address to send to before a key is made', async () => {
    const user = await onUnlimitedPlan(t, await signUp(t));
    const created = await callAs(t, 'POST', '/api/integrations', user, { type: 'googleads', name: 'No key yet' });
    expect(created.statusCode, created.body).toBe(201);
    const state = (await callAs(t, 'GET', `/api/integrations/${created.json()._id}/source`, user)).json();
    expect(state.webhookUrl).toBeNull();
  });

  it('that is junk is a clear 4xx, never a 500, and makes no lead', async () => {
    const s = await connected();
    expectError(await post(s.webhookUrl, '{"lead_id": 1'), 400, 'INVALID_JSON');
    expectError(await post(s.webhookUrl, ''), 400, 'INVALID_JSON');
    expectError(await post(s.webhookUrl, { google_key: s.key }), 400, 'GOOGLEADS_NO_LEAD');
    expectError(await post(s.webhookUrl, { google_key: s.key, lead_id: { x: 1 } }), 400, 'GOOGLEADS_NO_LEAD');
    expectError(await post(s.webhookUrl, { google_key: s.key, lead_id: '' }), 400, 'GOOGLEADS_NO_LEAD');
    expectError(await post(s.webhookUrl, { google_key: s.key, lead_id: 'x'.repeat(201) }), 400, 'GOOGLEADS_NO_LEAD');
    const deep = `{"google_key":"${s.key}","lead_id":"d","x":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    expectError(await post(s.webhookUrl, deep), 400, 'BODY_TOO_DEEP');
    const huge = JSON.stringify({ google_key: s.key, lead_id: 'big', pad: 'x'.repeat(1024 * 1024) });
    expectError(await post(s.webhookUrl, huge), 413, 'PAYLOAD_TOO_LARGE');
    expect(await leadsOf(s.id)).toHaveLength(0);

    // Wrong types inside a lead are skipped, the rest is taken.
    const odd = await post(s.webhookUrl, {
      google_key: s.key,
      lead_id: 'odd-types',
      is_test: 'maybe',
      campaign_id: { nested: true },
      user_column_data: [
        'not a column',
        null,
        { column_id: 'FULL_NAME', string_value: ['Масив'] },
        { column_id: 'PHONE_NUMBER', string_value: 380501234567 },
        { column_id: 'EMAIL', string_value: 'ok@example.com' },
      ],
    });
    expect(odd.statusCode, odd.body).toBe(200);
    const [lead] = await leadsOf(s.id);
    expect(lead!.fields).toMatchObject({ phone: '+380501234567', email: 'ok@example.com' });
    expect(lead!.fields.name).toBeUndefined();
    expect(lead!.fields.custom).not.toHaveProperty('campaign_id');

    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await t.app.inject({ method, url: new URL(s.webhookUrl).pathname });
      expect([method, res.statusCode]).toEqual([method, 405]);
    }
    expectError(
      await post(`${publicUrl}/api/googleads/webhook/not-a-token`, { google_key: s.key }),
      404,
      'INTEGRATION_NOT_FOUND',
    );
  });

  it('naming a question __proto__ or constructor keeps it as data, polluting nothing', async () => {
    const s = await connected();
    const raw = `{"__proto__": {"isAdmin": true}, "google_key": "${s.key}", "lead_id": "proto-1", "user_column_data": [
      {"column_name": "__proto__", "string_value": "так"},
      {"column_id": "constructor", "column_name": "constructor", "string_value": "ні"},
      {"column_id": "FULL_NAME", "string_value": "Прото"}]}`;
    const res = await post(s.webhookUrl, raw);
    expect(res.statusCode, res.body).toBe(200);
    const [lead] = await leadsOf(s.id);
    expect(lead!.fields).toMatchObject({
      name: 'Прото',
      custom: { question_1: '__proto__', answer_1: 'так', question_2: 'constructor', answer_2: 'ні' },
    });
    expect(({} as { isAdmin?: boolean }).isAdmin).toBeUndefined();
  });
});
