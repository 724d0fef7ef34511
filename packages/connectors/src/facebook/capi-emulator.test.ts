// The Conversions API client against the Graph emulator: the datasets a connection reaches, CRM
// stage events sent and read back, Meta's dedupe, and every refusal as the kit's error with our code.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PermanentError, RetryableError } from '../kit/errors';
import { CAPI_INITIAL_STAGE, type CapiClient, type CrmEvent, capiClient, capiFailure, capiOf, crmEvent } from './capi';
import { graphClient } from './client';
import { CAPI_SEED_DATASETS, GRAPH_SEED, type GraphEmulator, startGraphEmulator } from './emulator';

const [PIXEL, CRM_DATASET, FOREIGN] = CAPI_SEED_DATASETS;
const AD_ACCOUNT = GRAPH_SEED.adAccount;

let em: GraphEmulator;
let token: string;
let capi: CapiClient;

const cfg = () => ({ graphUrl: em.graphUrl, dialogUrl: em.dialogUrl, appId: em.appId, appSecret: em.appSecret, fetch });

/** A lead Meta knows (the emulator refuses a lead_id it never issued, as Meta does). */
const newLead = () => em.submitLead({ formId: GRAPH_SEED.forms.consultation });

const stages = (leadgenId: string, at = Date.now() - 60_000): CrmEvent[] => [
  crmEvent({ leadgenId, stage: CAPI_INITIAL_STAGE, at }),
  crmEvent({ leadgenId, stage: '142', eventName: 'Успішно реалізовано', at: at + 1000 }),
];

async function failure(promise: Promise<unknown>): Promise<Error> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(Error);
  return err as Error;
}

async function control(path: string, body?: unknown) {
  const res = await fetch(`${em.url}/__emulator${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  em = await startGraphEmulator();
});
afterAll(async () => {
  await em.close();
});
beforeEach(() => {
  em.reset();
  token = em.userToken();
  capi = capiClient(cfg());
});

describe('datasets', () => {
  it("lists an ad account's datasets, and every dataset the connection reaches once with its ad accounts", async () => {
    expect(await capi.listDatasets(token, AD_ACCOUNT.id)).toEqual([
      { id: PIXEL.id, name: PIXEL.name },
      { id: CRM_DATASET.id, name: CRM_DATASET.name },
    ]);
    // The bare number of the ad account works too (act_ is added).
    expect(await capi.listDatasets(token, AD_ACCOUNT.id.replace('act_', ''))).toHaveLength(2);
    const all = await capi.connectionDatasets(token);
    expect(all.map((d) => d.id)).toEqual([PIXEL.id, CRM_DATASET.id]);
    expect(all[0]?.adAccounts).toEqual([{ id: AD_ACCOUNT.id, name: AD_ACCOUNT.name }]);
    expect(all.some((d) => d.id === FOREIGN.id)).toBe(false);
  });

  it('answers the lost ad management permission with its code, and an ad account it cannot reach likewise', async () => {
    expect((await control('/capi/revoke', {})).status).toBe(200);
    for (const call of [capi.listDatasets(token, AD_ACCOUNT.id), capi.connectionDatasets(token)]) {
      const err = await failure(call);
      expect(err).toBeInstanceOf(PermanentError);
      expect((err as PermanentError).code).toBe('FACEBOOK_CAPI_PERMISSION');
    }
    em.reset();
    const other = await failure(capi.listDatasets(em.userToken(), 'act_49999999999999'));
    expect((other as PermanentError).code).toBe('FACEBOOK_CAPI_PERMISSION');
    const junk = await failure(capi.listDatasets(token, 'act_1/../me'));
    expect((junk as PermanentError).code).toBe('FACEBOOK_CAPI_PERMISSION');
  });
});

describe('sending CRM stages', () => {
  it("delivers each stage to the dataset as Meta documents it, with Meta's answer for the log", async () => {
    const lead = newLead();
    const events = stages(lead);
    const answer = await capi.sendCrmEvents(token, PIXEL.id, events);
    expect(answer).toMatchObject({ eventsReceived: 2, messages: [], tooOld: [] });
    expect(answer.fbtraceId).toMatch(/^A/);
    expect(answer.sent).toEqual(events.map((e) => e.event_id));

    const received = em.capiEvents(PIXEL.id);
    expect(received.map((e) => [e.eventName, e.leadId, e.leadIdType, e.isDuplicate])).toEqual([
      ['Lead', lead, 'number', false],
      ['Успішно реалізовано', lead, 'number', false],
    ]);
    expect(received[0]).toMatchObject({
      actionSource: 'system_generated',
      eventSource: 'crm',
      leadEventSource: 'LeadRelay',
      eventTime: events[0]?.event_time,
      eventId: events[0]?.event_id,
    });
    expect(em.capiEvents(CRM_DATASET.id)).toEqual([]);

    // The log keeps what was sent and what Meta said, never the token or the app's proof.
    expect(answer.trace.response).toMatchObject({ status: 200, body: { events_received: 2 } });
    expect(answer.trace.request).toMatchObject({ method: 'POST', body: { data: events } });
    const trace = JSON.stringify(answer.trace);
    expect(trace).not.toContain(token);
    expect(trace).not.toContain('appsecret_proof');
  });

  it('is deduplicated by Meta when the same stage is sent again (a retry of ours)', async () => {
    const lead = newLead();
    await capi.sendCrmEvents(token, PIXEL.id, stages(lead));
    const again = await capi.sendCrmEvents(token, PIXEL.id, stages(lead, Date.now() - 30_000));
    expect(again.eventsReceived).toBe(2);
    const received = em.capiEvents(PIXEL.id);
    expect(received).toHaveLength(4);
    expect(received.filter((e) => !e.isDuplicate)).toHaveLength(2);
    // A stage the lead reaches later is no duplicate.
    await capi.sendCrmEvents(token, PIXEL.id, [
      crmEvent({ leadgenId: lead, stage: '143', eventName: 'Закрито', at: Date.now() }),
    ]);
    expect(
      em
        .capiEvents(PIXEL.id)
        .filter((e) => !e.isDuplicate)
        .map((e) => e.eventName),
    ).toEqual(['Lead', 'Успішно реалізовано', 'Закрито']);
  });

  it("can be read back over the emulator's control API, with the Test Events code", async () => {
    const lead = newLead();
    await capi.sendCrmEvents(token, CRM_DATASET.id, stages(lead).slice(0, 1), { testEventCode: 'TEST123' });
    const { json } = await control(`/capi/events?dataset=${CRM_DATASET.id}`);
    expect(json.events).toEqual([
      expect.objectContaining({ leadId: lead, eventName: 'Lead', testEventCode: 'TEST123' }),
    ]);
    expect(((await control('/capi/events?dataset=1')).json.events as unknown[]).length).toBe(0);
  });

  it('leaves out the stages older than 7 days instead of failing the whole request', async () => {
    const lead = newLead();
    const old = crmEvent({ leadgenId: lead, stage: '141', eventName: 'Old', at: Date.now() - 8 * 24 * 3600_000 });
    const fresh = crmEvent({ leadgenId: lead, stage: '142', eventName: 'Fresh', at: Date.now() - 1000 });
    const answer = await capi.sendCrmEvents(token, PIXEL.id, [old, fresh]);
    expect(answer).toMatchObject({ eventsReceived: 1, sent: [fresh.event_id], tooOld: [old.event_id] });
    const calls = em.requests.length;
    const none = await capi.sendCrmEvents(token, PIXEL.id, [old]);
    expect(none).toMatchObject({ eventsReceived: 0, sent: [], tooOld: [old.event_id] });
    expect(em.requests.length).toBe(calls);
    expect(em.capiEvents().map((e) => e.eventName)).toEqual(['Fresh']);
  });

  it('sends a hostile stage name as a clean one-line name, and the request still goes through', async () => {
    const lead = newLead();
    const name = `Won\u0000\r\n"},{"event_name":"x${'я'.repeat(200_000)}`;
    const answer = await capi.sendCrmEvents(token, PIXEL.id, [
      crmEvent({ leadgenId: lead, stage: '9', eventName: name, at: Date.now() }),
    ]);
    expect(answer.eventsReceived).toBe(1);
    const [stored] = em.capiEvents(PIXEL.id);
    expect(stored?.eventName.startsWith('Won "},{"event_name":"xяяя')).toBe(true);
    expect(Array.from(stored?.eventName ?? '')).toHaveLength(100);
    expect(stored?.leadId).toBe(lead);
  });

  it('refuses more than 1,000 events, or a dataset id that is no id, before calling Meta', async () => {
    const lead = newLead();
    const many = Array.from({ length: 1001 }, (_, i) => crmEvent({ leadgenId: lead, stage: `s${i}`, at: Date.now() }));
    const calls = em.requests.length;
    expect(await failure(capi.sendCrmEvents(token, PIXEL.id, many))).toBeInstanceOf(RangeError);
    const junk = await failure(capi.sendCrmEvents(token, '../me/accounts', stages(lead)));
    expect((junk as PermanentError).code).toBe('FACEBOOK_DATASET_NOT_FOUND');
    expect(em.requests.length).toBe(calls);
    // 1,000 go in one request.
    const answer = await capi.sendCrmEvents(token, PIXEL.id, many.slice(0, 1000));
    expect(answer.eventsReceived).toBe(1000);
  });
});

describe("the connector's configuration", () => {
  it('reaches the Graph the FACEBOOK_* keys name (the demo and e2e point them at the emulator)', async () => {
    const config = {
      FACEBOOK_APP_ID: em.appId,
      FACEBOOK_APP_SECRET: em.appSecret,
      FACEBOOK_GRAPH_URL: em.graphUrl,
      FACEBOOK_DIALOG_URL: em.dialogUrl,
    };
    const viaConfig = capiOf({ config, fetch, timeoutMs: 5_000 });
    const lead = newLead();
    expect((await viaConfig.sendCrmEvents(token, PIXEL.id, stages(lead))).eventsReceived).toBe(2);
    expect(await viaConfig.listDatasets(token, AD_ACCOUNT.id)).toHaveLength(2);
  });
});

describe('refusals', () => {
  it('a revoked ads_management is permanent FACEBOOK_CAPI_PERMISSION, and nothing is stored', async () => {
    const lead = newLead();
    await control('/capi/revoke', {});
    const err = await failure(capi.sendCrmEvents(token, PIXEL.id, stages(lead)));
    expect(err).toBeInstanceOf(PermanentError);
    expect((err as PermanentError).code).toBe('FACEBOOK_CAPI_PERMISSION');
    expect((err as PermanentError).trace.response?.body).toMatchObject({ error: { code: 200 } });
    expect(em.capiEvents()).toEqual([]);
  });

  it('a removed dataset, or another business’s, is permanent FACEBOOK_DATASET_NOT_FOUND', async () => {
    const lead = newLead();
    expect((await control('/capi/remove-dataset', { datasetId: PIXEL.id })).status).toBe(200);
    expect((await control('/capi/remove-dataset', { datasetId: PIXEL.id })).status).toBe(404);
    for (const id of [PIXEL.id, FOREIGN.id]) {
      const err = await failure(capi.sendCrmEvents(token, id, stages(lead)));
      expect((err as PermanentError).code, id).toBe('FACEBOOK_DATASET_NOT_FOUND');
    }
    expect(await capi.listDatasets(token, AD_ACCOUNT.id)).toEqual([{ id: CRM_DATASET.id, name: CRM_DATASET.name }]);
  });

  it('an expired token is FACEBOOK_TOKEN (connect again)', async () => {
    const lead = newLead();
    em.expireUserTokens();
    const err = await failure(capi.sendCrmEvents(token, PIXEL.id, stages(lead)));
    expect((err as PermanentError).code).toBe('FACEBOOK_TOKEN');
  });

  it("Meta's 5xx and throttling are retryable, and the next try goes through", async () => {
    const lead = newLead();
    em.setFault({ status: 503, times: 1 });
    const down = await failure(capi.sendCrmEvents(token, PIXEL.id, stages(lead)));
    expect(down).toBeInstanceOf(RetryableError);
    expect((down as RetryableError).code).toBe('HTTP_5XX');
    em.setThrottle(17);
    const slow = await failure(capi.sendCrmEvents(token, PIXEL.id, stages(lead)));
    expect((slow as RetryableError).code).toBe('RATE_LIMITED');
    em.setThrottle(null);
    expect((await capi.sendCrmEvents(token, PIXEL.id, stages(lead))).eventsReceived).toBe(2);
    expect(em.capiEvents()).toHaveLength(2);
  });
});

describe('the emulator is as strict as the payload specification', () => {
  const graph = () => graphClient(cfg());
  const post = (events: unknown[]) => graph().postEvents(PIXEL.id, token, JSON.stringify(events));
  const valid = (lead: string) => JSON.parse(JSON.stringify(stages(lead)[0])) as Record<string, unknown>;

  it.each([
    ['a wrong action_source', (e: Record<string, unknown>) => ({ ...e, action_source: 'website' })],
    ['event_time in milliseconds', (e: Record<string, unknown>) => ({ ...e, event_time: Date.now() })],
    ['event_time as text', (e: Record<string, unknown>) => ({ ...e, event_time: String(e.event_time) })],
    ['no lead_id', (e: Record<string, unknown>) => ({ ...e, user_data: {} })],
    ['a hashed lead_id', (e: Record<string, unknown>) => ({ ...e, user_data: { lead_id: 'a'.repeat(64) } })],
    ['a lead Meta never issued', (e: Record<string, unknown>) => ({ ...e, user_data: { lead_id: 5555 } })],
    ['no event_source crm', (e: Record<string, unknown>) => ({ ...e, custom_data: { lead_event_source: 'X' } })],
    ['no lead_event_source', (e: Record<string, unknown>) => ({ ...e, custom_data: { event_source: 'crm' } })],
    ['no event_name', (e: Record<string, unknown>) => ({ ...e, event_name: '' })],
  ])('refuses %s, the whole batch with it', async (_what, spoil) => {
    const lead = newLead();
    const err = await failure(post([valid(lead), spoil(valid(lead))]));
    const classified = capiFailure(err, 'FACEBOOK_DATASET_NOT_FOUND');
    expect((classified as PermanentError).code).toBe('FACEBOOK_CAPI_REJECTED');
    expect(classified.message).toContain('data[1]');
    expect(em.capiEvents()).toEqual([]);
  });

  it('refuses more than 1,000 events, no data, and data that is not an array', async () => {
    const lead = newLead();
    const one = valid(lead);
    for (const data of [JSON.stringify(Array.from({ length: 1001 }, () => one)), '[]', '{"a":1}', 'not json']) {
      const err = await failure(graph().postEvents(PIXEL.id, token, data));
      expect((capiFailure(err, 'FACEBOOK_DATASET_NOT_FOUND') as PermanentError).code).toBe('FACEBOOK_CAPI_REJECTED');
    }
    expect(em.capiEvents()).toEqual([]);
  });

  it('takes lead_id as text too (the Business SDK sends it so), and tells which form came', async () => {
    const lead = newLead();
    await post([{ ...valid(lead), user_data: { lead_id: lead } }]);
    expect(em.capiEvents().map((e) => e.leadIdType)).toEqual(['string']);
  });
});
