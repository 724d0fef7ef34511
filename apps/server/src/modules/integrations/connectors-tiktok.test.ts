// TikTok lead forms through the server, against the TikTok emulator: the login (consent → code →
// token, bound to the browser that started it), the ad accounts and forms, the LEAD subscription to
// our receiver, the signed webhook stored and ingested into the form's integration once, a bad
// signature refused with nothing stored, another account's ids answered 404, a revoked token
// shown on the connection.
import { type HttpEmulator, startHttpEmulator } from '@leadrelay/connectors/http/emulator';
import { signBody, startTiktokEmulator, TIKTOK_SEED, type TiktokEmulator } from '@leadrelay/connectors/tiktok/emulator';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectorInboundEvents, leads } from '../../db/schema';
import { freePort } from '../../test/server-process';
import { callAs, createTestApp, type SignedInUser, signUp, type TestApp } from '../../test/test-app';

let emu: TiktokEmulator;
let t: TestApp;
let receiver: HttpEmulator;
let alice: SignedInUser;
let bob: SignedInUser;
let publicUrl: string;
const COOKIE = 'lr_tt_oauth';
const [DENTAL, COFFEE] = TIKTOK_SEED.advertisers;
const CONSULTATION = TIKTOK_SEED.forms.consultation;

beforeAll(async () => {
  emu = await startTiktokEmulator({ retrySchedule: [50, 50] });
  const port = await freePort();
  publicUrl = `http://127.0.0.1:${port}`;
  t = await createTestApp({
    publicUrl,
    allowPrivateDestinations: true,
    crm: { tiktok: { appId: emu.appId, appSecret: emu.appSecret, apiUrl: emu.apiUrl, authUrl: emu.authUrl } },
  });
  await t.app.listen({ port, host: '127.0.0.1' });
  receiver = await startHttpEmulator();
  alice = await signUp(t);
  bob = await signUp(t);
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
  await emu?.close();
});
beforeEach(() => {
  emu.setFault(null);
});

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, user: SignedInUser | null, payload?: unknown) =>
  callAs(t, method, url, user, payload);

/** start → TikTok's consent (the emulator grants at once) → our callback with the browser's cookie. */
async function connect(user: SignedInUser, cookieOverride?: string | null): Promise<URL> {
  const started = await call('POST', '/api/tiktok/start', user, { locale: 'en' });
  expect(started.statusCode, started.body).toBe(200);
  const cookie = started.cookies.find((c) => c.name === COOKIE);
  expect(cookie).toMatchObject({ httpOnly: true, path: '/api/tiktok/callback' });
  const consent = await fetch(started.json().authUrl, { redirect: 'manual' });
  expect(consent.status).toBe(302);
  const back = new URL(consent.headers.get('location') ?? '');
  expect(back.pathname).toBe('/api/tiktok/callback');
  const value = cookieOverride === undefined ? cookie!.value : cookieOverride;
  const res = await t.app.inject({
    method: 'GET',
    url: back.pathname + back.search,
    headers: value ? { cookie: `${COOKIE}=${value}` } : {},
  });
  expect(res.statusCode).toBe(302);
  return new URL(res.headers.location as string, publicUrl);
}

async function connectionId(user: SignedInUser): Promise<string> {
  const screen = await connect(user);
  const id = screen.searchParams.get('connected');
  expect(id, screen.toString()).toBeTruthy();
  return id!;
}

async function work(): Promise<void> {
  await emu.idle();
  await t.app.inboundEvents.drain();
  await t.app.deliveryWorker.drain();
}

const eventsOf = (leadId: string) =>
  t.app.db
    .select()
    .from(connectorInboundEvents)
    .where(and(eq(connectorInboundEvents.type, 'tiktok'), eq(connectorInboundEvents.externalId, leadId)));

describe('TikTok lead forms on the server', () => {
  let cid: string;
  let integrationId: string;

  it('connects with the consent of the browser that started it, with the ad accounts TikTok lists', async () => {
    // A consent link finished in another browser (no cookie) connects nothing.
    const stolen = await connect(alice, null);
    expect(stolen.searchParams.get('connected')).toBeNull();
    expect(stolen.searchParams.get('error')).toBeTruthy();

    cid = await connectionId(alice);
    const list = await call('GET', '/api/tiktok/connections', alice);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([
      expect.objectContaining({
        _id: cid,
        ttUserId: TIKTOK_SEED.user.id,
        status: 'ok',
        advertisers: [
          { id: DENTAL.id, name: DENTAL.name, isSubscribed: false },
          { id: COFFEE.id, name: COFFEE.name, isSubscribed: false },
        ],
      }),
    ]);
    // Bob sees none of it.
    expect((await call('GET', '/api/tiktok/connections', bob)).json()).toEqual([]);
  });

  it("reads an ad account's Instant Forms; another account's ids answer 404", async () => {
    const state = await call('GET', `/api/tiktok/connection/${cid}/advertiser/${DENTAL.id}`, alice);
    expect(state.statusCode, state.body).toBe(200);
    expect(state.json()).toMatchObject({ id: DENTAL.id, isSubscribed: false });
    expect(state.json().forms.map((f: { name: string }) => f.name)).toEqual(['Free consultation', 'Book a cleaning']);

    const notHers = await call('GET', `/api/tiktok/connection/${cid}/advertiser/${DENTAL.id}`, bob);
    expect(notHers.statusCode).toBe(404);
    expect(notHers.json().code).toBe('TIKTOK_CONNECTION_NOT_FOUND');
    const subscribeHers = await call('POST', `/api/tiktok/connection/${cid}/advertiser/${DENTAL.id}/subscribe`, bob);
    expect(subscribeHers.statusCode).toBe(404);
    const unknown = await call('GET', `/api/tiktok/connection/${cid}/advertiser/7999999999999999999`, alice);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('TIKTOK_ADVERTISER_NOT_FOUND');
    expect(emu.subscriptions()).toHaveLength(0);
  });

  it('subscribes the ad account to our receiver and makes one lead of each TikTok lead, delivered once', async () => {
    const destination = await call('POST', '/api/integrations', alice, {
      type: 'http',
      name: 'CRM endpoint',
      settings: { url: receiver.hookUrl },
    });
    expect(destination.statusCode, destination.body).toBe(201);
    const created = await call('POST', '/api/integrations', alice, {
      type: 'tiktok',
      name: 'TikTok consultation',
      settings: { ttConnectionId: cid, ttAdvertiserId: DENTAL.id, ttFormId: CONSULTATION },
      destination: [destination.json()._id],
    });
    expect(created.statusCode, created.body).toBe(201);
    integrationId = created.json()._id;

    const subscribed = await call('POST', `/api/tiktok/connection/${cid}/advertiser/${DENTAL.id}/subscribe`, alice);
    expect(subscribed.statusCode, subscribed.body).toBe(200);
    expect(emu.subscriptions().map((s) => [s.advertiserId, s.callbackUrl])).toEqual([
      [DENTAL.id, `${publicUrl}/api/tiktok/webhook`],
    ]);

    // TikTok's at-least-once delivery: the same lead twice.
    const lead = emu.submitLead({
      formId: CONSULTATION,
      answers: {
        name: 'Іван Франко',
        phone_number: '+380671112233',
        email: 'ivan@example.com',
        preferred_clinic: 'Поділ',
      },
      copies: 2,
    });
    await work();

    expect(await eventsOf(lead.id)).toHaveLength(1);
    const made = await t.app.db.select().from(leads).where(eq(leads.integrationId, integrationId));
    expect(made).toHaveLength(1);
    // Deduped by TikTok's lead id; the standard fields mapped by default, a custom question as data.
    expect(made[0]).toMatchObject({
      sourceId: lead.id,
      fields: {
        name: 'Іван Франко',
        phone: '+380671112233',
        email: 'ivan@example.com',
        utm: { source: 'tiktok', campaign: 'Spring promo' },
        custom: { preferred_clinic: 'Поділ' },
      },
    });
    const sent = receiver.requests.filter((r) => r.rawBody.includes(lead.id));
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body).toMatchObject({
      lead: { name: 'Іван Франко', phone: '+380671112233', email: 'ivan@example.com' },
    });
  });

  it("ignores a lead of another form of the ad account (the integration takes its own form's)", async () => {
    const other = emu.submitLead({ formId: TIKTOK_SEED.forms.booking, answers: { name: 'Other form' } });
    await work();
    expect(await eventsOf(other.id)).toHaveLength(1);
    const made = await t.app.db.select().from(leads).where(eq(leads.integrationId, integrationId));
    expect(made.map((l) => l.fields.name)).not.toContain('Other form');
  });

  it("sends TikTok's test lead on the integration's form; it comes back as a lead", async () => {
    const before = (await t.app.db.select().from(leads).where(eq(leads.integrationId, integrationId))).length;
    const sent = await call('POST', `/api/tiktok/integration/${integrationId}/test-lead`, alice, {});
    expect(sent.statusCode, sent.body).toBe(200);
    const { leadId } = sent.json();
    expect(leadId).toMatch(/^\d{19}$/);
    await work();
    const after = await t.app.db.select().from(leads).where(eq(leads.integrationId, integrationId));
    expect(after).toHaveLength(before + 1);
    expect(after.map((l) => l.sourceId)).toContain(leadId);
    // Not Bob's to test.
    expect((await call('POST', `/api/tiktok/integration/${integrationId}/test-lead`, bob, {})).statusCode).toBe(404);
  });

  it('refuses bad input with a 4xx and an error key, never a 500', async () => {
    const cases: [string, string, unknown][] = [
      ['POST', '/api/tiktok/start', { locale: 'fr' }],
      ['POST', `/api/tiktok/integration/${integrationId}/migrate`, { ttConnectionId: 'not-a-uuid' }],
      ['POST', `/api/tiktok/integration/${integrationId}/test-lead`, { answers: 'many' }],
      [
        'POST',
        '/api/integrations',
        { type: 'tiktok', name: 'x', settings: { ttConnectionId: cid, ttAdvertiserId: DENTAL.id } },
      ],
      [
        'POST',
        '/api/integrations',
        { type: 'tiktok', name: 'x', settings: { ttConnectionId: cid, ttAdvertiserId: 'a b', ttFormId: CONSULTATION } },
      ],
    ];
    for (const [method, url, body] of cases) {
      const res = await call(method as 'POST', url, alice, body);
      expect(res.statusCode, `${url} ${res.body}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, `${url} ${res.body}`).toBeLessThan(500);
      expect(res.json().code, url).toMatch(/^[A-Z_0-9]+$/);
    }
    // Moving Alice's integration to a connection she does not have.
    const moved = await call('POST', `/api/tiktok/integration/${integrationId}/migrate`, alice, {
      ttConnectionId: '00000000-0000-4000-8000-000000000000',
    });
    expect([400, 404]).toContain(moved.statusCode);
    const kept = await call('GET', `/api/integrations/${integrationId}`, alice);
    expect(kept.json().settings).toMatchObject({ ttConnectionId: cid });
  });

  it('refuses a webhook with a missing or forged signature with 401 and stores nothing', async () => {
    const body = JSON.stringify({
      object: 1,
      entry: [{ id: '7200000000000000999', advertiser_id: DENTAL.id, page_id: CONSULTATION, changes: [] }],
    });
    for (const headers of [{}, { 'x-open-signature': 'a'.repeat(64) }]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/tiktok/webhook',
        payload: body,
        headers: { 'content-type': 'application/json', ...headers },
      });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('UNAUTHORIZED');
    }
    expect(await eventsOf('7200000000000000999')).toHaveLength(0);
    // A signed body with a NUL in an answer (PostgreSQL's jsonb refuses it) is stored without it, never a 500.
    const nul =
      `{"object":1,"entry":[{"id":7200000000000000998,"advertiser_id":${DENTAL.id},"page_id":${CONSULTATION},` +
      '"changes":[{"field":"name","value":"Iv\\u0000an"}]}]}';
    const stored = await t.app.inject({
      method: 'POST',
      url: '/api/tiktok/webhook',
      payload: nul,
      headers: { 'content-type': 'application/json', 'x-open-signature': signBody(nul, emu.appSecret) },
    });
    expect(stored.statusCode, stored.body).toBe(200);
    const [event] = await eventsOf('7200000000000000998');
    expect(event?.data.name).toBe('Ivan');
    // TikTok verifies no callback: the GET answers 403.
    expect((await t.app.inject({ method: 'GET', url: '/api/tiktok/webhook' })).statusCode).toBe(403);
  });

  it('shows a revoked TikTok access on the connection, and asks to connect again', async () => {
    emu.revokeTokens();
    const state = await call('GET', `/api/tiktok/connection/${cid}/advertiser/${DENTAL.id}`, alice);
    expect(state.statusCode).toBeGreaterThanOrEqual(400);
    expect(state.statusCode).toBeLessThan(500);
    const [connection] = (await call('GET', '/api/tiktok/connections', alice)).json();
    expect(connection).toMatchObject({ _id: cid, status: 'broken' });
    expect(connection.statusReason).toMatch(/TikTok code 40105/);
    // The integration on it says so too, and the account is told once by mail.
    const integration = await call('GET', `/api/integrations/${integrationId}`, alice);
    expect(integration.json()).toMatchObject({ status: 'broken' });
    const mails = t.outbox.filter((m) => m.to === alice.login);
    expect(mails.filter((m) => m.subject.includes('TikTok'))).toHaveLength(1);

    // TikTok sends nothing while the subscription's token is revoked.
    const lost = emu.submitLead({ formId: CONSULTATION, answers: { name: 'While revoked' } });
    await work();
    expect(await eventsOf(lost.id)).toHaveLength(0);

    // Connecting the same TikTok login again mends it, and leads come again without another step:
    // the subscription is made again with the new token.
    expect(await connectionId(alice)).toBe(cid);
    const [mended] = (await call('GET', '/api/tiktok/connections', alice)).json();
    expect(mended).toMatchObject({ _id: cid, status: 'ok' });
    expect(emu.subscriptions()).toHaveLength(1);
    const again = emu.submitLead({ formId: CONSULTATION, answers: { name: 'After reconnecting' } });
    await work();
    const made = await t.app.db.select().from(leads).where(eq(leads.integrationId, integrationId));
    expect(made.map((l) => l.sourceId)).toContain(again.id);
  });
});
