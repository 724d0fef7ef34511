import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSafeFetch } from '../kit/safe-fetch';
import { startTestReceiver, type TestReceiver } from '../kit/test-receiver';
import type { ConnectorContext, ConnectorLogger } from '../kit/types';
import type { PipedriveAuth } from './client';
import { PIPEDRIVE_SEED, type PipedriveEmulator, startPipedriveEmulator } from './emulator';
import { isReaction, parsePipedriveWebhook, pipedrive } from './index';
import { type PipedriveSettings, ZPipedriveSettings } from './schema';

const noopLogger: ConnectorLogger = { debug() {}, info() {}, warn() {} };
const [ANNA, BORYS] = PIPEDRIVE_SEED.users;

// A v2 change.deal as Pipedrive documents it (guide for webhooks v2; a captured payload at prismatic.io
// carries the same meta with numbers for ids and Unix seconds for the timestamp).
const DEAL_MOVED = {
  meta: {
    action: 'change',
    entity: 'deal',
    entity_id: '17',
    company_id: '12882925',
    user_id: 18487521,
    id: 'a8c2c64e-6a0b-4d1b-9a2d-6e1f3f9d2e11',
    timestamp: 1727447128,
    version: '2.0',
    change_source: 'app',
    attempt: 1,
  },
  data: {
    id: 17,
    title: 'test deal',
    status: 'open',
    stage_id: 2,
    pipeline_id: 1,
    update_time: '2024-09-27T14:25:28Z',
  },
  previous: { stage_id: 1, update_time: '2024-09-27T14:25:27Z' },
};

describe('reading the v2 webhook', () => {
  const read = (body: unknown) => pipedrive.stageWatch!.read(body);

  it('a deal moved to another stage is a reaction: its id, the user and the time', () => {
    expect(read(DEAL_MOVED)).toEqual([
      { externalId: '17', at: new Date(1727447128 * 1000), byId: '18487521', stage: { id: '2', pipelineId: '1' } },
    ]);
    const iso = { ...DEAL_MOVED, meta: { ...DEAL_MOVED.meta, timestamp: '2025-01-02T03:04:05Z' } };
    expect(read(iso)?.[0]?.at).toEqual(new Date('2025-01-02T03:04:05Z'));
  });

  it('won or lost is a reaction; a rename, a create or a delete is not', () => {
    const won = {
      ...DEAL_MOVED,
      data: { ...DEAL_MOVED.data, stage_id: 1, status: 'won' },
      previous: { status: 'open' },
    };
    expect(read(won)).toHaveLength(1);
    // A won deal is a stage of its own for conversion events (issue 33): Meta's purchase.
    expect(read(won)?.[0]?.stage).toMatchObject({ id: 'won', name: 'Won' });
    const renamed = { ...DEAL_MOVED, data: { ...DEAL_MOVED.data, stage_id: 1 }, previous: { title: 'old' } };
    expect(read(renamed)).toEqual([]);
    expect(read({ ...DEAL_MOVED, meta: { ...DEAL_MOVED.meta, action: 'create' }, previous: null })).toEqual([]);
    expect(read({ ...DEAL_MOVED, meta: { ...DEAL_MOVED.meta, action: 'delete' } })).toEqual([]);
    // `previous` naming the stage it still has is no move.
    expect(read({ ...DEAL_MOVED, previous: { stage_id: 2 } })).toEqual([]);
  });

  it('a lead a person opened or labelled in the app is a reaction; our own API calls and bookkeeping are not', () => {
    const lead = (source: string, previous: Record<string, unknown>, data: Record<string, unknown>) => ({
      meta: { action: 'change', entity: 'lead', entity_id: 'b3d2', user_id: '7', change_source: source },
      data: { id: 'b3d2', ...data },
      previous,
    });
    expect(read(lead('app', { was_seen: false }, { was_seen: true }))).toEqual([{ externalId: 'b3d2', byId: '7' }]);
    expect(read(lead('app', { label_ids: [] }, { label_ids: ['x'] }))).toHaveLength(1);
    expect(read(lead('api', { was_seen: false }, { was_seen: true }))).toEqual([]);
    expect(read(lead('app', { next_activity_id: null, update_time: 'a' }, { next_activity_id: 4 }))).toEqual([]);
  });

  it('refuses what is not a v2 webhook body', () => {
    for (const bad of [
      null,
      [],
      'x',
      {},
      { meta: 'x' },
      { meta: { action: 1, entity: 'deal' } },
      { meta: { action: 'change', entity: 'deal' }, data: [] },
    ]) {
      expect(parsePipedriveWebhook(bad), JSON.stringify(bad)).toBeNull();
    }
    expect(
      isReaction(parsePipedriveWebhook({ meta: { action: 'change', entity: 'person' }, previous: { name: 'a' } })!),
    ).toBe(false);
  });
});

describe('the emulator: v2 webhooks for changed deals and leads', () => {
  let em: PipedriveEmulator;
  let hooks: TestReceiver;
  let hookUrl: string;
  // What the emulator posted, its JSON read.
  const received = () =>
    hooks.received.map((r) => ({ headers: r.headers, body: JSON.parse(r.body) as Record<string, unknown> }));
  const ctx = (settings: Partial<PipedriveSettings> = {}): ConnectorContext<PipedriveAuth, PipedriveSettings> => ({
    auth: { kind: 'token', apiToken: em.apiToken, apiDomain: em.url },
    settings: ZPipedriveSettings.parse(settings),
    fetch: createSafeFetch({ allowPrivate: true, timeoutMs: 5000 }),
    logger: noopLogger,
    signal: AbortSignal.timeout(5000),
  });
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${em.url}${path}`, {
      method,
      headers: { 'x-api-token': em.apiToken, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as { data: Record<string, unknown> } };
  };
  const control = (path: string, body: unknown) =>
    fetch(`${em.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const settle = async (n: number) => {
    for (let i = 0; i < 100 && em.sent.length < n; i++) await new Promise((r) => setTimeout(r, 20));
  };
  const newDeal = async () => {
    const person = await call('POST', '/api/v2/persons', { name: 'Olena' });
    return (await call('POST', '/api/v2/deals', { title: 'Olena', person_id: person.body.data.id, stage_id: 11 })).body
      .data;
  };

  beforeAll(async () => {
    em = await startPipedriveEmulator();
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

  it('subscribes change.deal (target deal) or change.lead, named so the user knows it, and removes it', async () => {
    const watch = pipedrive.stageWatch!;
    const deal = await watch.subscribe(ctx({ target: 'deal' }), hookUrl);
    const lead = await watch.subscribe(ctx(), `${hookUrl}/lead`);
    expect(em.webhooks.map((w) => [w.event_action, w.event_object, w.version, w.name])).toEqual([
      ['change', 'deal', '2.0', 'LeadRelay: speed to lead'],
      ['change', 'lead', '2.0', 'LeadRelay: speed to lead'],
    ]);
    await watch.unsubscribe(ctx(), deal);
    await watch.unsubscribe(ctx(), deal);
    expect(em.webhooks.map((w) => String(w.id))).toEqual([lead.id]);
  });

  it('a user moving a deal in the app posts change.deal with previous, and our reader takes it', async () => {
    await pipedrive.stageWatch!.subscribe(ctx({ target: 'deal' }), hookUrl);
    const deal = await newDeal();
    const moved = await control(`/__emulator/deals/${deal.id}/change`, { stage_id: 12, user_id: BORYS.id });
    expect(moved.status).toBe(200);
    await settle(1);
    expect(received()).toHaveLength(1);
    const { headers, body } = received()[0]!;
    expect(headers['content-type']).toBe('application/json');
    expect(headers.authorization).toBeUndefined();
    expect(body).toMatchObject({
      meta: {
        action: 'change',
        entity: 'deal',
        entity_id: String(deal.id),
        user_id: String(BORYS.id),
        version: '2.0',
        change_source: 'app',
      },
      data: { id: deal.id, stage_id: 12 },
      previous: { stage_id: 11 },
    });
    expect(pipedrive.stageWatch!.read(body)).toEqual([
      {
        externalId: String(deal.id),
        at: expect.any(Date),
        byId: String(BORYS.id),
        stage: { id: '12', pipelineId: '1' },
      },
    ]);
  });

  it('PATCH through the API announces too, with Basic auth when the subscription has it; nothing changed, nothing sent', async () => {
    await call('POST', '/v1/webhooks', {
      subscription_url: hookUrl,
      event_action: 'change',
      event_object: '*',
      version: '2.0',
      http_auth_user: 'lr',
      http_auth_password: 'pw',
    });
    await call('POST', '/v1/webhooks', {
      subscription_url: `${hookUrl}/created`,
      event_action: 'create',
      event_object: 'deal',
    });
    const deal = await newDeal();
    expect((await call('PATCH', `/api/v2/deals/${deal.id}`, { status: 'won' })).status).toBe(200);
    await settle(1);
    expect(received()[0]!.headers.authorization).toBe(`Basic ${Buffer.from('lr:pw').toString('base64')}`);
    expect(received()[0]!.body).toMatchObject({
      meta: { change_source: 'api', user_id: String(ANNA.id) },
      previous: { status: 'open' },
    });
    expect((await call('PATCH', `/api/v2/deals/${deal.id}`, { status: 'won' })).status).toBe(200);
    expect((await call('PATCH', `/api/v2/deals/${deal.id}`, { stage_id: 999 })).status).toBe(400);
    await new Promise((r) => setTimeout(r, 100));
    expect(em.sent.map((s) => s.url)).toEqual([hookUrl]);
  });

  it('a lead opened in the app posts change.lead', async () => {
    await pipedrive.stageWatch!.subscribe(ctx(), hookUrl);
    const person = await call('POST', '/api/v2/persons', { name: 'Olena' });
    const lead = (await call('POST', '/v1/leads', { title: 'Olena', person_id: person.body.data.id })).body.data;
    expect((await control(`/__emulator/leads/${lead.id}/change`, { was_seen: true })).status).toBe(200);
    await settle(1);
    expect(pipedrive.stageWatch!.read(received()[0]!.body)).toEqual([
      { externalId: String(lead.id), at: expect.any(Date), byId: String(ANNA.id) },
    ]);
    expect((await control('/__emulator/leads/nope/change', { was_seen: true })).status).toBe(404);
  });
});
