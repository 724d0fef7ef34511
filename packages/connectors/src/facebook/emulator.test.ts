import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { graphClient } from './client';
import { GRAPH_SEED, type GraphEmulator, startGraphEmulator } from './emulator';
import { startTestReceiver, type TestReceiver } from './test-receiver';
import { parseLeadgenWebhook, verifySignature } from './webhook';

const [DENTAL, COFFEE] = GRAPH_SEED.pages;
const { consultation, course } = GRAPH_SEED.forms;

let em: GraphEmulator;
let receiver: TestReceiver;

const client = () =>
  graphClient({ graphUrl: em.graphUrl, dialogUrl: em.dialogUrl, appId: em.appId, appSecret: em.appSecret, fetch });

/** App webhook registered and pages installed, as the server does on connect and subscribe. */
async function subscribe(pageIds: string[] = [DENTAL.id]): Promise<void> {
  const c = client();
  await c.subscribeApp(receiver.url, 'verify-me');
  for (const id of pageIds) await c.subscribePage(id, em.pageToken(id));
}

const leadIdsOf = (raw: string) => parseLeadgenWebhook(JSON.parse(raw)).map((n) => n.leadgenId);

beforeAll(async () => {
  em = await startGraphEmulator({ retrySchedule: [20, 40, 80] });
  receiver = await startTestReceiver('verify-me');
});
afterAll(async () => {
  await em.close();
  await receiver.close();
});
beforeEach(() => {
  em.reset();
  receiver.received.length = 0;
  receiver.failNext(0);
});

describe('webhook delivery', () => {
  it('POSTs a signed leadgen notification for a subscribed page', async () => {
    await subscribe();
    const id = em.submitLead({ formId: consultation });
    await em.idle();
    expect(receiver.received).toHaveLength(1);
    const hook = receiver.received[0]!;
    expect(hook.headers['content-type']).toBe('application/json');
    expect(verifySignature(hook.rawBody, hook.headers['x-hub-signature-256'], em.appSecret)).toBe(true);
    const sha1 = `sha1=${createHmac('sha1', em.appSecret).update(hook.rawBody).digest('hex')}`;
    expect(hook.headers['x-hub-signature']).toBe(sha1);
    const [n] = parseLeadgenWebhook(JSON.parse(hook.rawBody));
    expect(n).toMatchObject({ leadgenId: id, pageId: DENTAL.id, formId: consultation });
    expect(n?.createdTime).toBe(em.lead(id)?.createdTime);
    expect(em.deliveries.map((d) => [d.attempt, d.status, d.outcome])).toEqual([[1, 200, 'ok']]);
  });

  it('sends nothing while the page or the app is not subscribed', async () => {
    await client().subscribeApp(receiver.url, 'verify-me');
    em.submitLead({ formId: consultation });
    await subscribe([COFFEE.id]);
    await client().unsubscribeApp();
    em.submitLead({ formId: course });
    await em.idle();
    expect(receiver.received).toHaveLength(0);
    expect(em.deliveries.map((d) => d.outcome)).toEqual(['not_subscribed', 'not_subscribed']);
  });

  it('retries after a 500 with the same signed body until the callback accepts', async () => {
    await subscribe();
    receiver.failNext(2, 500);
    const id = em.submitLead({ formId: consultation });
    await em.idle();
    expect(receiver.received.map((r) => r.status)).toEqual([500, 500, 200]);
    expect(new Set(receiver.received.map((r) => r.rawBody)).size).toBe(1);
    expect(leadIdsOf(receiver.received[2]!.rawBody)).toEqual([id]);
    expect(em.deliveries.map((d) => [d.attempt, d.status, d.outcome])).toEqual([
      [1, 500, 'failed'],
      [2, 500, 'failed'],
      [3, 200, 'ok'],
    ]);
  });

  it('gives up after the last try of the schedule', async () => {
    await subscribe();
    receiver.failNext(10, 503);
    em.submitLead({ formId: consultation });
    await em.idle();
    expect(receiver.received).toHaveLength(4);
    expect(em.deliveries.every((d) => d.outcome === 'failed')).toBe(true);
  });

  it('the duplicates switch sends the same notification n times', async () => {
    await subscribe();
    em.setDuplicates(3);
    const id = em.submitLead({ formId: consultation });
    await em.idle();
    expect(receiver.received).toHaveLength(3);
    for (const r of receiver.received) {
      expect(leadIdsOf(r.rawBody)).toEqual([id]);
      expect(verifySignature(r.rawBody, r.headers['x-hub-signature-256'], em.appSecret)).toBe(true);
    }
  });

  it('the drop switch never sends the webhook, but the lead can still be read from the form', async () => {
    await subscribe();
    em.setWebhookDelivery('drop');
    const id = em.submitLead({ formId: consultation });
    await em.idle();
    expect(receiver.received).toHaveLength(0);
    expect(em.deliveries.map((d) => d.outcome)).toEqual(['dropped']);
    const leads = await client().formLeads(consultation, em.pageToken(DENTAL.id), Math.floor(Date.now() / 1000) - 60);
    expect(leads.map((l) => l.id)).toEqual([id]);
  });

  it('batches several leads of several pages into one POST with one entry per page', async () => {
    await subscribe([DENTAL.id, COFFEE.id]);
    em.batch(3);
    const ids = [em.submitLead({ formId: consultation }), em.submitLead({ formId: course })];
    await em.idle();
    expect(receiver.received).toHaveLength(0);
    ids.push(em.submitLead({ formId: consultation }));
    await em.idle();
    expect(receiver.received).toHaveLength(1);
    const body = JSON.parse(receiver.received[0]!.rawBody) as { entry: { id: string; changes: unknown[] }[] };
    expect(body.entry.map((e) => [e.id, e.changes.length])).toEqual([
      [DENTAL.id, 2],
      [COFFEE.id, 1],
    ]);
    expect(leadIdsOf(receiver.received[0]!.rawBody).sort()).toEqual([...ids].sort());
  });

  it('a test lead made through the Graph API is delivered like a real one', async () => {
    await subscribe();
    const id = await client().testLead(consultation, em.pageToken(DENTAL.id));
    await em.idle();
    expect(receiver.received.map((r) => leadIdsOf(r.rawBody))).toEqual([[id]]);
  });
});

describe('custom callback transport', () => {
  it('verifies and delivers through the fetch it was given (e.g. app.inject in server tests)', async () => {
    const seen: { method: string; body?: string }[] = [];
    const inProcess = (async (input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(String(input));
      seen.push({ method: init?.method ?? 'GET', body: init?.body as string | undefined });
      if ((init?.method ?? 'GET') === 'GET') return new Response(url.searchParams.get('hub.challenge'));
      return new Response('ok');
    }) as typeof fetch;
    const own = await startGraphEmulator({ fetch: inProcess });
    try {
      const c = graphClient({
        graphUrl: own.graphUrl,
        dialogUrl: own.dialogUrl,
        appId: own.appId,
        appSecret: own.appSecret,
        fetch,
      });
      await c.subscribeApp('https://leadrelay.test/api/facebook/webhook', 'any');
      await c.subscribePage(DENTAL.id, own.pageToken(DENTAL.id));
      const id = own.submitLead({ formId: consultation });
      await own.idle();
      expect(seen.map((s) => s.method)).toEqual(['GET', 'POST']);
      expect(leadIdsOf(seen[1]?.body ?? '')).toEqual([id]);
    } finally {
      await own.close();
    }
  });
});

describe('control API over HTTP', () => {
  const control = (path: string, body?: unknown) =>
    fetch(`${em.url}/__emulator/${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it('submits leads, switches faults, shows state and resets', async () => {
    await subscribe();
    const submitted = await control('submit-lead', { formId: consultation, organic: true });
    const { leadgenId } = (await submitted.json()) as { leadgenId: string };
    await em.idle();
    expect(leadIdsOf(receiver.received[0]!.rawBody)).toEqual([leadgenId]);
    expect((await control('submit-lead', { formId: 'nope' })).status).toBe(404);

    await control('faults', { throttle: 17, duplicates: 2 });
    const throttled = await client()
      .leadForms(DENTAL.id, em.pageToken(DENTAL.id))
      .catch((e: { code: number }) => e.code);
    expect(throttled).toBe(17);

    const state = (await (await control('state')).json()) as {
      leads: { id: string; is_organic: boolean; ad_id?: string }[];
      pages: { id: string; isSubscribed: boolean }[];
      switches: { throttle: number; duplicates: number };
    };
    expect(state.leads).toEqual([expect.objectContaining({ id: leadgenId, is_organic: true })]);
    expect(state.leads[0]?.ad_id).toBeUndefined();
    expect(state.pages.find((p) => p.id === DENTAL.id)?.isSubscribed).toBe(true);
    expect(state.switches).toMatchObject({ throttle: 17, duplicates: 2 });

    await control('reset', {});
    expect(em.lead(leadgenId)).toBeUndefined();
    expect(em.appSubscription()).toBeNull();
    expect(await client().leadForms(DENTAL.id, em.pageToken(DENTAL.id))).toHaveLength(2);
  });

  it('logs requests without tokens or secrets', async () => {
    const c = client();
    await c.appToken();
    await fetch(`${em.graphUrl}/me?access_token=EAAvisible-in-query&fields=id`);
    const log = JSON.stringify(em.requests);
    expect(log).not.toContain(em.appSecret);
    expect(log).not.toContain('EAAvisible-in-query');
    expect(em.requests.map((r) => r.status)).toEqual([200, 400]);
  });
});
