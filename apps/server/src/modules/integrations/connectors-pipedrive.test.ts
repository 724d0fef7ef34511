// Pipedrive end to end against its emulator, through the paths its definition declares (aliases of
// the generic routes) and the generic ones: state → start → consent → callback → the connect
// screen's code, the API token, the lists, the destination's webhooks and delivery.
import {
  PIPEDRIVE_SEED,
  type PipedriveEmulator,
  resetPipedriveState,
  startPipedriveEmulator,
} from '@leadrelay/connectors/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { integrations } from '../../db/schema';
import { watchIntegrationUpdates } from '../../test/realtime-kit';
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
let emu: PipedriveEmulator;
let alice: SignedInUser;
let bob: SignedInUser;
const F = PIPEDRIVE_SEED.dealFields;

beforeAll(async () => {
  emu = await startPipedriveEmulator();
  t = await createTestApp({
    allowPrivateDestinations: true,
    crm: {
      pipedrive: {
        clientId: emu.clientId,
        clientSecret: emu.clientSecret,
        oauthUrl: emu.url,
        apiUrl: emu.url,
        hosts: [`127.0.0.1:${emu.port}`],
      },
    },
  });
  alice = await onUnlimitedPlan(t, await signUp(t));
  bob = await onUnlimitedPlan(t, await signUp(t));
});
afterAll(async () => {
  await t?.close();
  await emu?.close();
});
beforeEach(() => {
  emu.reset();
  resetPipedriveState();
});

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, user: SignedInUser | null, body?: unknown) =>
  callAs(t, method, url, user, body);

async function pipedriveIntegration(user: SignedInUser, settings: Record<string, unknown> = {}): Promise<string> {
  const res = await call('POST', '/api/integrations', user, { type: 'pipedrive', name: 'Pipedrive', settings });
  expect(res.statusCode).toBe(201);
  return res.json()._id;
}

async function storedAuth(id: string) {
  const [row] = await t.app.db.select().from(integrations).where(eq(integrations.id, id));
  return row!.auth;
}

/** state → start → Pipedrive's consent (the emulator) → our callback: the connect screen's URL. */
async function consent(user: SignedInUser, integrationId: string, locale?: 'uk' | 'en'): Promise<URL> {
  const state = await call('POST', '/pipedrive/state', user, { integrationId, locale });
  expect(state.statusCode).toBe(200);
  const start = await call('POST', '/pipedrive/start', user, { state: state.json().state });
  expect(start.statusCode).toBe(200);
  const authUrl = new URL(start.json().authUrl);
  expect(authUrl.origin + authUrl.pathname).toBe(`${emu.url}/oauth/authorize`);
  expect(authUrl.searchParams.get('redirect_uri')).toBe('http://app.test/pipedrive/callback');
  const approved = await fetch(authUrl, { redirect: 'manual' });
  const back = new URL(approved.headers.get('location')!);
  const callback = await t.app.inject({ method: 'GET', url: back.pathname + back.search });
  expect(callback.statusCode).toBe(302);
  return new URL(callback.headers.location as string);
}

async function connectWithOAuth(user: SignedInUser, integrationId: string) {
  const screen = await consent(user, integrationId);
  return call('POST', '/api/legacy/api/pipedrive/connect', user, {
    code: screen.searchParams.get('code'),
    state: screen.searchParams.get('state'),
  });
}

async function connectWithToken(user: SignedInUser, integrationId: string, apiToken = emu.apiToken) {
  return call('POST', '/api/legacy/api/pipedrive/connect', user, { integrationId, apiToken });
}

describe('pipedrive connect', () => {
  it('an English user comes back to the English connect screen', async () => {
    const screen = await consent(alice, await pipedriveIntegration(alice), 'en');
    expect(screen.origin + screen.pathname).toBe('http://app.test/en/admin/integrations/pipedrive/connect');
  });

  it('goes state → start → consent → callback → connect and stores sealed tokens', async () => {
    const id = await pipedriveIntegration(alice);
    const screen = await consent(alice, id);
    expect(screen.origin + screen.pathname).toBe('http://app.test/admin/integrations/pipedrive/connect');
    expect(screen.searchParams.get('code')).toBeTruthy();

    const live = watchIntegrationUpdates(t);
    const res = await call('POST', '/api/legacy/api/pipedrive/connect', alice, {
      code: screen.searchParams.get('code'),
      state: screen.searchParams.get('state'),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ integrationId: id, type: 'pipedrive' });
    // The connect screen's tab (and every other) hears of the connection: UPDATE_INTEGRATION.
    expect(await live.about(id)).toMatchObject({ status: 'ok', statusReason: null });
    live.stop();
    const row = JSON.stringify(await storedAuth(id));
    expect(row).not.toMatch(/emu-at-|emu-rt-|oauth/);
    const integration = (await call('GET', `/api/integrations/${id}`, alice)).json();
    expect(integration).toMatchObject({ isConnected: true, status: 'ok' });
    expect(JSON.stringify(integration)).not.toMatch(/emu-at-|emu-rt-/);
    // The stored tokens work: Pipedrive answers through them.
    const users = await call('GET', `/api/integrations/${id}/pipedrive/users`, alice);
    expect(users.json()).toEqual([
      { id: '101', name: 'Anna Admin' },
      { id: '102', name: 'Borys Sales' },
    ]);
    expect(emu.calls('GET /api/v1/users')[0]!.auth).toBe('bearer');
  });

  it("refuses another account's state, a forged state and another account's integration", async () => {
    const alices = await pipedriveIntegration(alice);
    const bobs = await pipedriveIntegration(bob);
    expectError(await call('POST', '/pipedrive/state', alice, { integrationId: bobs }), 404, 'INTEGRATION_NOT_FOUND');
    const bobState = (await call('POST', '/pipedrive/state', bob, { integrationId: bobs })).json().state;
    expectError(await call('POST', '/pipedrive/start', alice, { state: bobState }), 400, 'OAUTH_STATE_INVALID');
    const screen = await consent(bob, bobs);
    const stolen = await call('POST', '/api/legacy/api/pipedrive/connect', alice, {
      code: screen.searchParams.get('code'),
      state: screen.searchParams.get('state'),
    });
    expectError(stolen, 400, 'OAUTH_STATE_INVALID');
    expectError(
      await call('POST', '/api/legacy/api/pipedrive/connect', alice, { code: 'x', state: `${bobState}x` }),
      400,
      'OAUTH_STATE_INVALID',
    );
    // An access token is not a state, nor a state an access token.
    expectError(
      await call('POST', '/api/legacy/api/pipedrive/connect', alice, { code: 'x', state: alice.accessToken }),
      400,
      'OAUTH_STATE_INVALID',
    );
    expect((await callAs(t, 'GET', '/api/integrations', { ...alice, accessToken: bobState })).statusCode).toBe(401);
    expect(await storedAuth(bobs)).toBeNull();
    expect(await storedAuth(alices)).toBeNull();
  });

  it('the callback sends errors to the connect screen, never a code with a bad state', async () => {
    const location = async (query: string) =>
      new URL((await t.app.inject({ method: 'GET', url: `/pipedrive/callback?${query}` })).headers.location as string);
    expect((await location('code=abc&state=forged')).searchParams.get('error')).toBe('OAUTH_STATE_INVALID');
    const id = await pipedriveIntegration(alice);
    const state = (await call('POST', '/pipedrive/state', alice, { integrationId: id })).json().state;
    const denied = await location(`error=access_denied&state=${state}`);
    expect(denied.searchParams.get('error')).toBe('OAUTH_EXCHANGE_FAILED');
    expect(denied.searchParams.get('code')).toBeNull();
  });

  it('refuses an api_domain outside the allowed hosts, and a used code', async () => {
    const id = await pipedriveIntegration(alice);
    const hosts = t.app.deps.config.crm.pipedrive!.hosts;
    t.app.deps.config.crm.pipedrive!.hosts = ['*.pipedrive.com'];
    try {
      expectError(await connectWithOAuth(alice, id), 400, 'CRM_HOST_NOT_ALLOWED');
    } finally {
      t.app.deps.config.crm.pipedrive!.hosts = hosts;
    }
    expect(await storedAuth(id)).toBeNull();
    const screen = await consent(alice, id);
    const body = { code: screen.searchParams.get('code'), state: screen.searchParams.get('state') };
    expect((await call('POST', '/api/legacy/api/pipedrive/connect', alice, body)).statusCode).toBe(200);
    expectError(await call('POST', '/api/legacy/api/pipedrive/connect', alice, body), 400, 'OAUTH_EXCHANGE_FAILED');
  });

  it('answers OAUTH_NOT_CONFIGURED without an app client', async () => {
    const id = await pipedriveIntegration(alice);
    const state = (await call('POST', '/pipedrive/state', alice, { integrationId: id })).json().state;
    const pd = t.app.deps.config.crm.pipedrive!;
    const saved = pd.clientSecret;
    pd.clientSecret = undefined;
    try {
      expectError(await call('POST', '/pipedrive/start', alice, { state }), 400, 'OAUTH_NOT_CONFIGURED');
    } finally {
      pd.clientSecret = saved;
    }
  });

  it('connects with an API token after Pipedrive accepts it; a bad token stores nothing', async () => {
    const id = await pipedriveIntegration(alice);
    // A token too short to be one is the spec's MIN_LENGTH_10, on its field (not the union's "invalid input").
    const short = await connectWithToken(alice, id, '  abc123   ');
    expectError(short, 400, 'MIN_LENGTH_10');
    expect(errorOf(short).errors).toEqual([{ field: 'apiToken', code: 'MIN_LENGTH_10' }]);
    expectError(await connectWithToken(alice, id, 'not-the-right-token'), 400, 'CONNECTION_FAILED');
    expect(await storedAuth(id)).toBeNull();
    const live = watchIntegrationUpdates(t);
    const res = await connectWithToken(alice, id);
    expect(res.json()).toEqual({ integrationId: id, type: 'pipedrive' });
    expect(await live.about(id)).toMatchObject({ status: 'ok', statusReason: null });
    live.stop();
    expect(JSON.stringify(await storedAuth(id))).not.toContain(emu.apiToken);
    expect(emu.calls('GET /v1/users/me').map((c) => c.auth)).toEqual(['token', 'token']);
    // Credentials come only from the connect flows.
    expectError(
      await call('PUT', `/api/admin/integration/${id}/connect`, alice, { auth: { apiToken: 'x' } }),
      400,
      'OPERATION_NOT_SUPPORTED',
    );
    const bobs = await pipedriveIntegration(bob);
    expectError(await connectWithToken(alice, bobs), 404, 'INTEGRATION_NOT_FOUND');
  });

  it('a pasted token that cannot go in a header is refused without being echoed, and stores nothing', async () => {
    const id = await pipedriveIntegration(alice);
    const pasted = `${emu.apiToken.slice(0, 20)}\n${emu.apiToken.slice(20)}`;
    const res = await connectWithToken(alice, id, pasted);
    expectError(res, 400, 'CONNECTION_FAILED');
    expect(res.body).not.toContain(emu.apiToken.slice(0, 20));
    expect(res.body).not.toContain(emu.apiToken.slice(20));
    expect(await storedAuth(id)).toBeNull();
  });
});

describe('pipedrive lists and webhooks', () => {
  it('answers fields, stages, activity types and webhooks from Pipedrive', async () => {
    const id = await pipedriveIntegration(alice);
    expectError(await call('GET', `/api/pipedrive/dealFields/${id}`, alice), 400, 'INTEGRATION_NOT_CONNECTED');
    await connectWithToken(alice, id);

    const deal = await call('GET', `/api/pipedrive/dealFields/${id}`, alice);
    expect(deal.json()).toContainEqual({
      id: 6,
      key: F.channel,
      name: 'Channel',
      field_type: 'enum',
      options: PIPEDRIVE_SEED.channelOptions,
    });
    const person = (await call('GET', `/api/pipedrive/personFields/${id}`, alice)).json();
    expect(person.map((f: { key: string }) => f.key)).toContain(PIPEDRIVE_SEED.personFields.source);
    const org = (await call('GET', `/api/pipedrive/organizationFields/${id}`, alice)).json();
    expect(org.map((f: { key: string }) => f.key)).toEqual(['name', 'address']);
    const stages = (await call('GET', `/api/pipedrive/getStages/${id}`, alice)).json();
    expect(stages.map((p: { name: string; stages: unknown[] }) => [p.name, p.stages.length])).toEqual([
      ['Sales', 3],
      ['Partners', 2],
    ]);
    expect((await call('GET', `/api/legacy/api/pipedrive/getActivityTypes/${id}`, alice)).json()).toEqual([
      { id: 1, key: 'call', name: 'Call' },
      { id: 2, key: 'meeting', name: 'Meeting' },
    ]);
    const fields = (await call('GET', `/api/integrations/${id}/pipedrive/fields`, alice)).json();
    expect(fields).toContainEqual(expect.objectContaining({ key: `deal.${F.cities}`, type: 'set' }));

    const hooks = `/api/pipedrive/webhooks/${id}`;
    // Ours, made on connect (speed to lead: a person's change to the lead is its first reaction), is listed too.
    const ours = (await call('GET', hooks, alice)).json();
    expect(ours).toEqual([
      { id: '1', url: expect.stringContaining(`/api/pipedrive/events/${id}/`), event: 'change.lead', active: true },
    ]);
    const created = await call('POST', hooks, alice, { url: 'https://app.test/in/pd', event: 'added.person' });
    expect(created.statusCode).toBe(200);
    expect(created.json()).toEqual({ id: '2', url: 'https://app.test/in/pd', event: 'create.person', active: true });
    expectError(
      await call('POST', hooks, alice, { url: 'https://app.test/in/pd', event: 'boom' }),
      400,
      'VALIDATION_ERROR',
    );
    expect((await call('GET', hooks, alice)).json()).toEqual([...ours, created.json()]);
    // The generic route registers one too; without a URL it is a validation error.
    const generic = `/api/integrations/${id}/pipedrive/webhooks`;
    expect((await call('POST', generic, alice, { url: 'https://app.test/in/all' })).json()).toEqual({ success: true });
    expectError(await call('POST', generic, alice, {}), 400, 'VALIDATION_ERROR');
    expect(emu.webhooks.map((w) => `${w.event_action}.${w.event_object}`)).toEqual([
      'change.lead',
      'create.person',
      '*.*',
    ]);
    expect((await call('DELETE', `${hooks}?id=2`, alice)).json()).toEqual({ success: true });
    expectError(await call('DELETE', `${hooks}?id=2`, alice), 400, 'CRM_REQUEST_FAILED');
    expect((await call('GET', hooks, alice)).json()).toHaveLength(2);
  });

  it("another account's integration, or another type, is not found", async () => {
    const bobs = await pipedriveIntegration(bob);
    await connectWithToken(bob, bobs);
    const http = await call('POST', '/api/integrations', alice, {
      type: 'http',
      name: 'Hook',
      settings: { url: 'https://example.com/hook' },
    });
    for (const id of [bobs, http.json()._id, 'not-a-uuid']) {
      for (const url of [
        `/api/pipedrive/dealFields/${id}`,
        `/api/pipedrive/personFields/${id}`,
        `/api/pipedrive/organizationFields/${id}`,
        `/api/pipedrive/getStages/${id}`,
        `/api/legacy/api/pipedrive/getActivityTypes/${id}`,
        `/api/pipedrive/webhooks/${id}`,
      ]) {
        expectError(await call('GET', url, alice), 404, 'INTEGRATION_NOT_FOUND');
      }
      expectError(
        await call('POST', `/api/pipedrive/webhooks/${id}`, alice, { url: 'https://a.test/x', event: '*.deal' }),
        404,
        'INTEGRATION_NOT_FOUND',
      );
      expectError(await call('DELETE', `/api/pipedrive/webhooks/${id}?id=1`, alice), 404, 'INTEGRATION_NOT_FOUND');
    }
    // Bob's own users/me and our webhook (speed to lead) on connect, nothing for alice.
    expect(emu.calls().map((c) => `${c.method} ${c.path}`)).toEqual(['GET /v1/users/me', 'POST /v1/webhooks']);
    expect((await call('GET', `/api/pipedrive/getStages/${bobs}`, null)).statusCode).toBe(401);
  });
});

describe('pipedrive through the generic routes', () => {
  it('connects with an API token at …/credentials, the integration from the path', async () => {
    const id = await pipedriveIntegration(alice);
    const bobs = await pipedriveIntegration(bob);
    const credentials = `/api/integrations/${id}/credentials`;
    const short = await call('POST', credentials, alice, { apiToken: 'abc' });
    expectError(short, 400, 'MIN_LENGTH_10');
    expect(errorOf(short).errors).toEqual([{ field: 'apiToken', code: 'MIN_LENGTH_10' }]);
    expectError(await call('POST', credentials, alice, { apiToken: 'not-the-right-token' }), 400, 'CONNECTION_FAILED');
    expectError(await call('POST', credentials, bob, { apiToken: emu.apiToken }), 404, 'INTEGRATION_NOT_FOUND');
    expect(await storedAuth(id)).toBeNull();
    // A body naming another integration connects the one in the path.
    const res = await call('POST', credentials, alice, { integrationId: bobs, apiToken: emu.apiToken });
    expect(res.json()).toEqual({ integrationId: id, type: 'pipedrive' });
    expect(await storedAuth(id)).not.toBeNull();
    expect(await storedAuth(bobs)).toBeNull();
    // Watched on connect, as through the spec's path.
    expect(emu.webhooks.map((w) => w.subscription_url)).toEqual([
      expect.stringContaining(`/api/pipedrive/events/${id}/`),
    ]);
  });

  it("lists, creates and removes the destination's webhooks at …/webhooks, as the spec path does", async () => {
    const id = await pipedriveIntegration(alice);
    await connectWithToken(alice, id);
    const hooks = `/api/integrations/${id}/webhooks`;
    const created = await call('POST', hooks, alice, { url: 'https://app.test/in/pd', event: 'added.person' });
    expect(created.json()).toEqual({ id: '2', url: 'https://app.test/in/pd', event: 'create.person', active: true });
    // The event in Pipedrive's notation, as its definition checks it.
    const boom = await call('POST', hooks, alice, { url: 'https://app.test/in/pd', event: 'boom' });
    expectError(boom, 400, 'VALIDATION_ERROR');
    expect(errorOf(boom).errors).toEqual([{ field: 'event', code: 'VALIDATION_ERROR' }]);
    expect((await call('GET', hooks, alice)).json()).toEqual(
      (await call('GET', `/api/pipedrive/webhooks/${id}`, alice)).json(),
    );
    expect((await call('DELETE', `${hooks}/2`, alice)).json()).toEqual({ success: true });
    expectError(await call('DELETE', `${hooks}/2`, alice), 400, 'CRM_REQUEST_FAILED');
    expectError(await call('GET', hooks, bob), 404, 'INTEGRATION_NOT_FOUND');
    expect((await call('GET', hooks, alice)).json()).toHaveLength(1);
    const http = await call('POST', '/api/integrations', alice, {
      type: 'http',
      name: 'Hook',
      settings: { url: 'https://example.com/hook' },
    });
    expectError(
      await call('GET', `/api/integrations/${http.json()._id}/webhooks`, alice),
      400,
      'OPERATION_NOT_SUPPORTED',
    );
  });

  it("answers a loader's list at …/pipedrive/lists/:list; Pipedrive's own refusal is CRM_REQUEST_FAILED, as on the spec path", async () => {
    const id = await pipedriveIntegration(alice);
    await connectWithToken(alice, id);
    const generic = `/api/integrations/${id}/pipedrive/lists/activityTypes`;
    expect((await call('GET', generic, alice)).json()).toEqual(
      (await call('GET', `/api/legacy/api/pipedrive/getActivityTypes/${id}`, alice)).json(),
    );
    emu.setFault({ status: 400, error: 'the filter is not valid', match: 'GET /v1/activityTypes' });
    for (const path of [generic, `/api/legacy/api/pipedrive/getActivityTypes/${id}`]) {
      const refused = await call('GET', path, alice);
      expectError(refused, 400, 'CRM_REQUEST_FAILED');
      expect(errorOf(refused).message).toContain('the filter is not valid');
    }
    // Revoked access is no refusal of the request: still CONNECTION_FAILED.
    emu.setFault({ status: 401, match: 'GET /v1/activityTypes' });
    expectError(await call('GET', generic, alice), 400, 'CONNECTION_FAILED');
  });

  it('starts the consent generically; the connect screen posts the code to /api/oauth/pipedrive/connect', async () => {
    const id = await pipedriveIntegration(alice);
    const start = await call('POST', `/api/integrations/${id}/oauth/start`, alice, {});
    expect(start.statusCode).toBe(200);
    // The callback hands the code to the screen: no browser binding is needed.
    expect(start.headers['set-cookie']).toBeUndefined();
    const authUrl = new URL(start.json().url);
    expect(authUrl.searchParams.get('redirect_uri')).toBe('http://app.test/pipedrive/callback');
    const approved = await fetch(authUrl, { redirect: 'manual' });
    const back = new URL(approved.headers.get('location')!);
    const screen = new URL(
      (await t.app.inject({ method: 'GET', url: back.pathname + back.search })).headers.location as string,
    );
    const body = { code: screen.searchParams.get('code'), state: screen.searchParams.get('state') };
    expectError(await call('POST', '/api/oauth/pipedrive/connect', bob, body), 400, 'OAUTH_STATE_INVALID');
    const res = await call('POST', '/api/oauth/pipedrive/connect', alice, body);
    expect(res.json()).toEqual({ integrationId: id, type: 'pipedrive' });
    expect(await storedAuth(id)).not.toBeNull();
    expect(emu.webhooks).toHaveLength(1);
  });
});

describe('pipedrive delivery', () => {
  it('the worker lands the lead with the right person, owner, pipeline and fields, once', async () => {
    const accountId = await accountIdOf(t.app.db, alice.login);
    const id = await pipedriveIntegration(alice, {
      target: 'deal',
      pipelineId: 2,
      stageId: 21,
      title: 'Site: {name}',
      fields: [
        { from: 'custom.channel', entity: 'deal', key: F.channel },
        { from: 'custom.budget', entity: 'deal', key: F.budget },
      ],
      activity: { type: 'call' },
    });
    await connectWithOAuth(alice, id);
    const managers = await createCollection(t.app.db, accountId, [{ id: '1', name: 'Borys', value: '102' }]);
    const source = await createSource(t.app.db, accountId, { destinationIds: [id], distributionId: managers });
    const res = await t.app.inject({
      method: 'POST',
      url: source.url,
      payload: { name: 'Olena', phone: '050 123 45 67', email: 'olena@example.com', channel: 'google', budget: '900' },
    });
    expect(res.statusCode).toBe(202);
    expect(await t.app.deliveryWorker.drain()).toBe(1);

    expect(emu.persons).toHaveLength(1);
    expect(emu.persons[0]).toMatchObject({ name: 'Olena', owner_id: 102, phones: [{ value: '+380501234567' }] });
    expect(emu.deals).toHaveLength(1);
    expect(emu.deals[0]).toMatchObject({
      // The title ends with the delivery's mark: a retry finds the deal by it (v2 deals take no origin_id).
      title: expect.stringMatching(/^Site: Olena · LR-[0-9a-f]{12}$/),
      person_id: emu.persons[0]!.id,
      owner_id: 102,
      pipeline_id: 2,
      stage_id: 21,
      custom_fields: { [F.channel]: 32, [F.budget]: 900 },
    });
    expect(emu.activities).toHaveLength(1);
    expect(emu.notes).toHaveLength(1);
  });

  it('two leads for the same phone at the same moment make one person', async () => {
    const accountId = await accountIdOf(t.app.db, alice.login);
    const id = await pipedriveIntegration(alice, { ownerId: 101 });
    await connectWithToken(alice, id);
    const source = await createSource(t.app.db, accountId, { destinationIds: [id] });
    for (const name of ['Ivan', 'Ivan Petrenko']) {
      const res = await t.app.inject({ method: 'POST', url: source.url, payload: { name, phone: '0671234567' } });
      expect(res.statusCode).toBe(202);
    }
    emu.setLatency(20);
    // One claim takes both: they are delivered at the same moment.
    expect(await t.app.deliveryWorker.runOnce()).toBe(2);
    expect(emu.persons).toHaveLength(1);
    expect(emu.persons[0]).toMatchObject({ owner_id: 101, phones: [{ value: '+380671234567' }] });
    expect(emu.leads).toHaveLength(2);
    expect(emu.leads.every((l) => l.person_id === emu.persons[0]!.id)).toBe(true);
  });
});
