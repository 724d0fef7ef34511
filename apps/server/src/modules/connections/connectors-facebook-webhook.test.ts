import { facebookVerifyToken, signBody } from '@leadrelay/connectors';
import type { HttpEmulator } from '@leadrelay/connectors/http/emulator';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { connectorConnections, connectorInboundEvents } from '../../db/schema';
import { call, connect, connectionRow, type FacebookTest, startFacebookTest } from '../../test/facebook-kit';
import {
  CONSULTATION,
  DENTAL,
  eventsOf,
  type LeadSetup,
  leadSetup,
  leadsOf,
  received,
  startReceiver,
  work,
} from '../../test/facebook-leads-kit';
import { accountIdOf } from '../../test/routing-fixtures';
import { type SignedInUser, signUp } from '../../test/test-app';
import { configOf } from './connection-deps';

let f: FacebookTest;
let receiver: HttpEmulator;
let alice: SignedInUser;
let setup: LeadSetup;
const URL = '/api/facebook/webhook';

beforeAll(async () => {
  f = await startFacebookTest();
  receiver = await startReceiver();
  alice = await signUp(f.t);
  setup = await leadSetup(f.t, alice, await connect(f.t, alice), receiver);
});
afterAll(async () => {
  await receiver?.close();
  await f?.close();
});
beforeEach(() => {
  f.emu.setDuplicates(1);
  f.emu.batch(1);
  f.emu.setWebhookDelivery('on');
});

const notification = (leadgenId: string, extra: Record<string, unknown> = {}) => ({
  object: 'page',
  entry: [
    {
      id: DENTAL.id,
      time: 1717236930,
      changes: [
        {
          field: 'leadgen',
          value: {
            leadgen_id: leadgenId,
            page_id: DENTAL.id,
            form_id: CONSULTATION,
            created_time: 1717236929,
            ...extra,
          },
        },
      ],
    },
  ],
});

/** JSON as Meta writes it: non-ASCII as \uXXXX and "/" as "\/". */
const metaJson = (value: unknown) =>
  JSON.stringify(value)
    .replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/\//g, '\\/');

const post = (raw: string, headers: Record<string, string> = {}) =>
  f.t.app.inject({
    method: 'POST',
    url: URL,
    payload: raw,
    headers: { 'content-type': 'application/json', ...headers },
  });

const allEvents = () => f.t.app.db.select().from(connectorInboundEvents);

/** A lead submitted on the consultation form; resolves once the emulator's webhook tries are over. */
async function submit(): Promise<string> {
  const id = f.emu.submitLead({ formId: CONSULTATION });
  await f.emu.idle();
  return id;
}

describe('GET /api/facebook/webhook (verification)', () => {
  const verify = (query: Record<string, string>) =>
    f.t.app.inject({ method: 'GET', url: `${URL}?${new URLSearchParams(query)}` });

  it('echoes hub.challenge as text when the mode is subscribe and the verify token is ours', async () => {
    const token = facebookVerifyToken(configOf(f.t.app.deps, 'facebook'))!;
    const res = await verify({ 'hub.mode': 'subscribe', 'hub.challenge': '1158201444', 'hub.verify_token': token });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toBe('1158201444');
  });

  it('answers 403 for another token, another mode or a missing challenge', async () => {
    const token = facebookVerifyToken(configOf(f.t.app.deps, 'facebook'))!;
    const wrong: Record<string, string>[] = [
      { 'hub.mode': 'subscribe', 'hub.challenge': '1', 'hub.verify_token': `${token}x` },
      { 'hub.mode': 'subscribe', 'hub.challenge': '1', 'hub.verify_token': '' },
      { 'hub.mode': 'unsubscribe', 'hub.challenge': '1', 'hub.verify_token': token },
      { 'hub.mode': 'subscribe', 'hub.verify_token': token },
      {},
    ];
    for (const query of wrong) {
      const res = await verify(query);
      expect(res.statusCode, JSON.stringify(query)).toBe(403);
      expect(res.body).not.toContain(token);
    }
  });
});

describe('POST /api/facebook/webhook (signature)', () => {
  it('refuses a missing, malformed or wrong signature and a re-serialised body with 401, storing nothing', async () => {
    const before = (await allEvents()).length;
    const fetches = f.emu.requests.length;
    // Meta escapes non-ASCII and "/": the bytes it signs are not what JSON.stringify writes.
    const raw = metaJson(notification('9100000000001', { ad_name: 'Знижка 20%/весна' }));
    const good = signBody(raw, f.emu.appSecret);
    const reserialised = JSON.stringify(JSON.parse(raw));
    expect(reserialised).not.toBe(raw);
    const cases: [string, Record<string, string>][] = [
      [raw, {}],
      [raw, { 'x-hub-signature-256': 'sha256=nothex' }],
      [raw, { 'x-hub-signature-256': good.replace('sha256=', 'sha1=') }],
      [raw, { 'x-hub-signature-256': signBody(raw, 'another-app-secret') }],
      [reserialised, { 'x-hub-signature-256': good }],
      [`${raw} `, { 'x-hub-signature-256': good }],
    ];
    for (const [body, headers] of cases) {
      const res = await post(body, headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(401);
      expect(res.json().code).toBe('UNAUTHORIZED');
    }
    expect(await allEvents()).toHaveLength(before);
    expect(f.emu.requests.length).toBe(fetches);
    expect(await eventsOf(f.t, '9100000000001')).toEqual([]);
  });

  it('acknowledges a body signed over its exact bytes and stores the notification', async () => {
    const raw = metaJson(notification('9100000000002', { ad_name: 'Знижка 20%/весна' }));
    const res = await post(raw, { 'x-hub-signature-256': signBody(raw, f.emu.appSecret) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    const [event] = await eventsOf(f.t, '9100000000002');
    expect(event).toMatchObject({ pageId: DENTAL.id, formId: CONSULTATION, origin: 'webhook', status: 'pending' });
    // Facebook does not know this id: the event fails with the reason, no lead is made.
    await work(f.t);
    const [failed] = await eventsOf(f.t, '9100000000002');
    expect(failed).toMatchObject({ status: 'failed' });
    expect(failed!.lastError).toMatch(/code 100/);
    expect(await leadsOf(f.t, setup.integrationId)).toHaveLength(0);
  });

  it('answers a signed body that is not JSON with 400 and stores nothing', async () => {
    const before = (await allEvents()).length;
    const raw = '{"object":"page",';
    const res = await post(raw, { 'x-hub-signature-256': signBody(raw, f.emu.appSecret) });
    expect(res.statusCode).toBe(400);
    expect(await allEvents()).toHaveLength(before);
  });
});

describe('Meta leads through the webhook', () => {
  it('a lead reaches the http destination once, and its hook holds the form answers and ad ids', async () => {
    const changed: { accountId: string; hookId: string }[] = [];
    const onChanged = (e: { accountId: string; hookId: string }) => changed.push(e);
    f.t.app.events.on('hook.changed', onChanged);
    const leadgenId = await submit();
    expect(f.emu.deliveries.filter((d) => d.leadgenIds.includes(leadgenId)).map((d) => d.status)).toEqual([200]);
    await work(f.t);

    const [hook] = (await call(f.t, 'GET', `/api/hook?integrationId=${setup.integrationId}`, alice)).json().data;
    expect(hook).toMatchObject({ status: 'delivered', integration: { type: 'facebook' } });
    const lead = f.emu.lead(leadgenId)!;
    const answer = (key: string) => lead.fieldData.find((q) => q.name === key)!.values.join(', ');
    expect(hook.lead).toMatchObject({
      name: answer('full_name'),
      email: answer('email'),
      utm: { source: 'facebook', campaign: lead.campaignName },
      custom: expect.objectContaining({ leadgen_id: leadgenId, fb_form_id: CONSULTATION, fb_ad_id: lead.adId }),
    });
    expect(hook.lead.phone).toMatch(/^\+\d+$/);
    expect(hook.deliveries).toMatchObject([{ status: 'delivered', destination: { _id: setup.destinationId } }]);
    const [sent] = received(receiver, leadgenId);
    expect(sent!.body).toMatchObject({ lead: { name: answer('full_name'), custom: { leadgen_id: leadgenId } } });
    // The hooks list hears of it live (the real-time channel sends HOOK_INFORMER for hook.changed).
    expect(changed).toContainEqual({ accountId: await accountIdOf(f.t.app.db, alice.login), hookId: hook._id });
    f.t.app.events.off('hook.changed', onChanged);
    const [event] = await eventsOf(f.t, leadgenId);
    expect(event).toMatchObject({ status: 'done' });
  });

  it('the same leadgen_id three times (Meta duplicates) makes one lead and one delivery', async () => {
    f.emu.setDuplicates(3);
    const before = (await leadsOf(f.t, setup.integrationId)).length;
    const leadgenId = await submit();
    expect(f.emu.deliveries.filter((d) => d.leadgenIds.includes(leadgenId) && d.status === 200)).toHaveLength(3);
    expect(await eventsOf(f.t, leadgenId)).toHaveLength(1);
    await work(f.t);
    // A late retry after the lead was made changes nothing either.
    const raw = metaJson(notification(leadgenId));
    expect((await post(raw, { 'x-hub-signature-256': signBody(raw, f.emu.appSecret) })).statusCode).toBe(200);
    await work(f.t);

    const made = (await leadsOf(f.t, setup.integrationId)).filter((l) => l.sourceId === leadgenId);
    expect(made).toHaveLength(1);
    expect((await leadsOf(f.t, setup.integrationId)).length).toBe(before + 1);
    expect(received(receiver, leadgenId)).toHaveLength(1);
  });

  it('a batched POST with two leads makes two leads', async () => {
    f.emu.batch(2);
    const first = f.emu.submitLead({ formId: CONSULTATION });
    const second = f.emu.submitLead({ formId: CONSULTATION });
    await f.emu.idle();
    const posts = f.emu.deliveries.filter((d) => d.leadgenIds.includes(first));
    expect(posts).toHaveLength(1);
    expect(posts[0]!.leadgenIds).toEqual([first, second]);
    await work(f.t);
    const sourceIds = (await leadsOf(f.t, setup.integrationId)).map((l) => l.sourceId);
    expect(sourceIds).toEqual(expect.arrayContaining([first, second]));
    expect(received(receiver, first)).toHaveLength(1);
    expect(received(receiver, second)).toHaveLength(1);
  });

  it('a lead of another form of the page, which no integration takes, is skipped', async () => {
    const leadgenId = f.emu.submitLead({ formId: '30000000000002' });
    await f.emu.idle();
    await work(f.t);
    const [event] = await eventsOf(f.t, leadgenId);
    expect(event).toMatchObject({ status: 'skipped' });
    expect((await leadsOf(f.t, setup.integrationId)).some((l) => l.sourceId === leadgenId)).toBe(false);
  });

  it('the same page connected by two accounts: each account’s integration gets the lead once', async () => {
    const bob = await signUp(f.t);
    const bobSetup = await leadSetup(f.t, bob, await connect(f.t, bob), receiver);
    f.emu.setDuplicates(2);
    const leadgenId = await submit();
    await work(f.t);
    for (const integrationId of [setup.integrationId, bobSetup.integrationId]) {
      expect((await leadsOf(f.t, integrationId)).filter((l) => l.sourceId === leadgenId)).toHaveLength(1);
    }
    const bobHooks = (await call(f.t, 'GET', '/api/hook', bob)).json().data;
    expect(bobHooks.map((h: { integrationId: string }) => h.integrationId)).toEqual([bobSetup.integrationId]);
    expect(received(receiver, leadgenId)).toHaveLength(2);
    // Bob's integration goes away so later tests see Alice's alone.
    expect(
      (await call(f.t, 'DELETE', `/api/legacy/api/admin/integration/${bobSetup.integrationId}`, bob)).statusCode,
    ).toBe(200);
  });
});

describe('health while fetching a lead', () => {
  it('an expired page token marks the connection broken once; after a reconnect the lead is ingested', async () => {
    const emit = vi.spyOn(f.t.app.realtime, 'emitToAccount');
    const alerts = () => f.t.outbox.filter((m) => m.to === alice.login && /Facebook/.test(m.subject));
    const mailsBefore = alerts().length;
    f.emu.expirePageTokens();
    const first = await submit();
    const second = await submit();
    await work(f.t);

    const conn = (await connectionRow(f.t, setup.connectionId))!;
    expect(conn.status).toBe('broken');
    expect(conn.statusReason).toMatch(/190/);
    const accountId = await accountIdOf(f.t.app.db, alice.login);
    // The live event carries the computed state (read after the change): reconnect Facebook.
    await vi.waitFor(() =>
      expect(emit).toHaveBeenCalledWith(accountId, 'UPDATE_INTEGRATION', {
        integrationId: setup.integrationId,
        status: 'broken',
        statusReason: conn.statusReason,
        state: expect.objectContaining({ code: 'broken_auth' }),
      }),
    );
    expect(alerts().slice(mailsBefore)).toHaveLength(1);
    for (const id of [first, second]) expect((await eventsOf(f.t, id))[0]).toMatchObject({ status: 'waiting' });
    expect((await leadsOf(f.t, setup.integrationId)).some((l) => l.sourceId === first)).toBe(false);
    // Nothing is due while the connection stays broken.
    expect(await f.t.app.inboundEvents.runOnce()).toBe(0);

    // The user reconnects (new page tokens): the waiting leads go through, the connection is ok.
    expect(await connect(f.t, alice)).toBe(setup.connectionId);
    await work(f.t);
    for (const id of [first, second]) {
      expect((await eventsOf(f.t, id))[0]).toMatchObject({ status: 'done' });
      expect(received(receiver, id)).toHaveLength(1);
    }
    const [row] = await f.t.app.db
      .select()
      .from(connectorConnections)
      .where(eq(connectorConnections.id, setup.connectionId));
    expect(row).toMatchObject({ status: 'ok', brokenNotifiedAt: null });
    expect(alerts().slice(mailsBefore)).toHaveLength(1);
    emit.mockRestore();
  });

  it('a Graph outage (5xx) keeps the event pending for a later try, then it goes through', async () => {
    const leadgenId = await submit();
    f.emu.setFault({ status: 503, times: 1 });
    await f.t.app.inboundEvents.runOnce();
    const [event] = await eventsOf(f.t, leadgenId);
    expect(event).toMatchObject({ status: 'pending', attempts: 1 });
    expect(event!.nextAt.getTime()).toBeGreaterThan(Date.now());
    expect((await connectionRow(f.t, setup.connectionId))!.status).toBe('ok');
    // Due again (as after its backoff): this time Facebook answers.
    await f.t.app.db
      .update(connectorInboundEvents)
      .set({ nextAt: new Date(Date.now() - 1000) })
      .where(eq(connectorInboundEvents.externalId, leadgenId));
    await work(f.t);
    expect((await eventsOf(f.t, leadgenId))[0]).toMatchObject({ status: 'done' });
    expect(received(receiver, leadgenId)).toHaveLength(1);
  });
});
