import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSafeFetch } from '../kit/safe-fetch';
import { startTestReceiver, type TestReceiver } from '../kit/test-receiver';
import type { ConnectorContext, ConnectorLogger } from '../kit/types';
import type { AmoAuth } from './client';
import { AMO_SEED, type AmoEmulator, startAmoEmulator } from './emulator';
import { amocrm, amoStatusWebhookForm, parseAmoStatusWebhook } from './index';
import { ZAmoSettings } from './schema';

const noopLogger: ConnectorLogger = { debug() {}, info() {}, warn() {} };
const [SALES] = AMO_SEED.pipelines;
const [ANNA, BOHDAN] = AMO_SEED.users;
/** What @fastify/formbody gives for a form: the bracket names as flat keys. */
const flat = (form: string) => Object.fromEntries(new URLSearchParams(form));

// The body from amoCRM's webhooks page and a captured status_lead call (Bolid1/zapier_build), flattened.
const CAPTURED = {
  'leads[status][0][id]': '31926520',
  'leads[status][0][name]': 'Some test lead',
  'leads[status][0][status_id]': '10216994',
  'leads[status][0][old_status_id]': '10216995',
  'leads[status][0][price]': '1000',
  'leads[status][0][responsible_user_id]': '938348',
  'leads[status][0][last_modified]': '1456820780',
  'leads[status][0][modified_user_id]': '102525',
  'leads[status][0][created_user_id]': '102525',
  'leads[status][0][date_create]': '1456808154',
  'leads[status][0][pipeline_id]': '2116',
  'leads[status][0][account_id]': '10216991',
  'leads[status][0][custom_fields][0][id]': '1119321',
  'leads[status][0][custom_fields][0][name]': 'Some text field',
  'leads[status][0][custom_fields][0][values][0][value]': 'some text',
  'account[subdomain]': 'test000002',
};

describe('reading the status_lead webhook', () => {
  it('reads the captured form: the lead, its statuses, who moved it and when', () => {
    expect(parseAmoStatusWebhook(CAPTURED)).toEqual([
      {
        id: '31926520',
        statusId: '10216994',
        oldStatusId: '10216995',
        pipelineId: '2116',
        modifiedUserId: '102525',
        lastModified: 1456820780,
      },
    ]);
    expect(amocrm.stageWatch?.read(CAPTURED)).toEqual([
      // The status it moved to, for conversion events (issue 33); its name comes from stageName.
      {
        externalId: '31926520',
        at: new Date(1456820780 * 1000),
        byId: '102525',
        stage: { id: '10216994', pipelineId: '2116' },
      },
    ]);
  });

  it('reads several leads in index order, and what our own form builder writes', () => {
    const form = amoStatusWebhookForm(
      [
        { id: '5', statusId: '142', oldStatusId: '70' },
        { id: '6', statusId: '143' },
      ],
      { subdomain: 'acme' },
    );
    expect(parseAmoStatusWebhook(flat(form))?.map((c) => [c.id, c.statusId])).toEqual([
      ['5', '142'],
      ['6', '143'],
    ]);
  });

  it('a form of other events only gives no changes; a status that did not change is no reaction', () => {
    expect(
      parseAmoStatusWebhook({ 'leads[add][0][id]': '1', 'leads[add][0][status_id]': '2', 'account[subdomain]': 'a' }),
    ).toEqual([]);
    const same = { ...CAPTURED, 'leads[status][0][old_status_id]': '10216994' };
    expect(amocrm.stageWatch?.read(same)).toEqual([]);
  });

  it('refuses what amoCRM would not send', () => {
    for (const bad of [
      null,
      'leads[status][0][id]=1',
      [],
      {},
      { 'leads[status][0][id]': 'abc', 'leads[status][0][status_id]': '2' },
      { 'leads[status][0][id]': '1' },
      { 'leads[status][0][id]': ['1', '2'], 'leads[status][0][status_id]': '2' },
      { '<script>': '1' },
      { hello: '1' },
      { 'leads[status][0][id]': '1', 'leads[status][0][status_id]': '2', 'a b': 'c' },
    ]) {
      expect(parseAmoStatusWebhook(bad), JSON.stringify(bad)).toBeNull();
    }
  });
});

describe('the emulator: webhooks and status changes', () => {
  let em: AmoEmulator;
  let hooks: TestReceiver;
  let hookUrl: string;
  const ctx = (): ConnectorContext<AmoAuth, ReturnType<typeof ZAmoSettings.parse>> => ({
    auth: em.issueTokens(),
    settings: ZAmoSettings.parse({}),
    fetch: createSafeFetch({ allowPrivate: true, timeoutMs: 5000 }),
    logger: noopLogger,
    signal: AbortSignal.timeout(5000),
  });
  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${em.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${em.issueTokens().accessToken}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const lead = async () => {
    const res = await call('POST', '/api/v4/leads/complex', [{ name: 'Olena', pipeline_id: SALES.id }]);
    return ((await res.json()) as { id: number }[])[0]!.id;
  };
  const settle = async (n: number) => {
    for (let i = 0; i < 100 && em.sent.length < n; i++) await new Promise((r) => setTimeout(r, 20));
  };

  beforeAll(async () => {
    // amoCRM waits 2 s for a subscriber; the emulator here 1 s, so a silent one is given up on sooner.
    em = await startAmoEmulator({ webhookTimeoutMs: 1_000 });
    hooks = await startTestReceiver();
    hookUrl = `${hooks.url}/hook/secret`;
  });
  afterAll(async () => {
    await em?.close();
    await hooks?.close();
  });
  beforeEach(() => {
    em.reset();
    hooks.received.length = 0;
  });

  it('subscribes through the connector, once per URL, lists and removes the subscription', async () => {
    const watch = amocrm.stageWatch!;
    const made = await watch.subscribe(ctx(), hookUrl);
    expect(made).toEqual({ id: expect.stringMatching(/^\d+$/), url: hookUrl });
    // amoCRM updates the webhook of a known URL instead of adding one.
    await watch.subscribe(ctx(), hookUrl);
    expect(em.webhooks).toEqual([expect.objectContaining({ destination: hookUrl, settings: ['status_lead'] })]);
    const res = await call('GET', `/api/v4/webhooks?filter[destination]=${encodeURIComponent(hookUrl)}`);
    const list = (await res.json()) as { _embedded: { webhooks: unknown[] } };
    expect(list._embedded.webhooks).toHaveLength(1);
    await watch.unsubscribe(ctx(), made);
    expect(em.webhooks).toEqual([]);
    // Gone already: not an error.
    await watch.unsubscribe(ctx(), made);
    expect((await call('DELETE', '/api/v4/webhooks', { destination: hookUrl })).status).toBe(404);
  });

  it('refuses a subscription without a URL or with an unknown event, and needs the token', async () => {
    expect((await call('POST', '/api/v4/webhooks', { destination: 'nope', settings: ['status_lead'] })).status).toBe(
      400,
    );
    expect((await call('POST', '/api/v4/webhooks', { destination: hookUrl, settings: ['moved'] })).status).toBe(400);
    const anonymous = await fetch(`${em.url}/api/v4/webhooks`, { method: 'GET' });
    expect(anonymous.status).toBe(401);
  });

  it('a manager moving the lead posts status_lead to the subscriber, as amoCRM does', async () => {
    await amocrm.stageWatch!.subscribe(ctx(), hookUrl);
    const id = await lead();
    const before = em.leads.find((l) => l.id === id)!.status_id;
    const moved = await fetch(`${em.url}/__emulator/leads/${id}/status`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status_id: 70_000_012, user_id: BOHDAN.id }),
    });
    expect(moved.status).toBe(200);
    await settle(1);
    expect(em.sent).toEqual([expect.objectContaining({ destination: hookUrl, status: 200 })]);
    expect(hooks.received).toHaveLength(1);
    expect(hooks.received[0]!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(hooks.received[0]!.headers['user-agent']).toBe('amoCRM-WebHook-client/1.0');
    const form = flat(hooks.received[0]!.body);
    expect(form['account[subdomain]']).toBe(AMO_SEED.account.subdomain);
    expect(parseAmoStatusWebhook(form)).toEqual([
      expect.objectContaining({
        id: String(id),
        statusId: '70000012',
        oldStatusId: String(before),
        pipelineId: String(SALES.id),
        modifiedUserId: String(BOHDAN.id),
      }),
    ]);
  });

  it('PATCH through the API announces too; the same status again, or another subscription event, does not', async () => {
    await call('POST', '/api/v4/webhooks', { destination: `${hookUrl}/other`, settings: ['add_lead'] });
    await amocrm.stageWatch!.subscribe(ctx(), hookUrl);
    const id = await lead();
    expect((await call('PATCH', '/api/v4/leads', [{ id, status_id: 142 }])).status).toBe(200);
    await settle(1);
    expect(em.leads.find((l) => l.id === id)!.status_id).toBe(142);
    expect(parseAmoStatusWebhook(flat(hooks.received[0]!.body))?.[0]?.modifiedUserId).toBe(String(ANNA.id));
    expect((await call('PATCH', `/api/v4/leads/${id}`, { status_id: 142 })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 100));
    expect(hooks.received).toHaveLength(1);
    expect(em.sent.map((s) => s.destination)).toEqual([hookUrl]);
    // An unknown status is amoCRM's validation error, and moves nothing.
    expect((await call('PATCH', `/api/v4/leads/${id}`, { status_id: 1 })).status).toBe(400);
  });

  it('a subscriber that does not answer is given up on; the move stands', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`;
      await call('POST', '/api/v4/webhooks', { destination: url, settings: ['status_lead'] });
      const id = await lead();
      const res = await fetch(`${em.url}/__emulator/leads/${id}/status`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ status_id: 143 }),
      });
      // Fire and forget: the move answers before the subscriber is given up on.
      expect(res.status).toBe(200);
      expect(em.sent).toEqual([]);
      for (let i = 0; i < 200 && !em.sent.length; i++) await new Promise((r) => setTimeout(r, 20));
      expect(em.sent).toEqual([expect.objectContaining({ destination: url, status: 0 })]);
    } finally {
      silent.closeAllConnections();
      await new Promise((r) => silent.close(r));
    }
  });
});
