// amoCRM end to end against its emulator, through the paths its definition declares (aliases of the
// generic routes) and the generic ones: the OAuth consent and callback (the state bound to the
// browser), the lists, the backups (an action kept as records, 20 per integration) and delivery.
import { type AmoEmulator, startAmoEmulator } from '@leadrelay/connectors/amocrm/emulator';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectorRecords, deliveries, errorRecords, integrations } from '../../db/schema';
import { watchIntegrationUpdates } from '../../test/realtime-kit';
import { accountIdOf, createSource } from '../../test/routing-fixtures';
import {
  callAs,
  createTestApp,
  expectError,
  onUnlimitedPlan,
  type SignedInUser,
  signUp,
  type TestApp,
} from '../../test/test-app';

const legacy = '/api/legacy/api/amocrm';
const CALLBACK = 'http://app.test/api/amocrm/callback';
let t: TestApp;
let em: AmoEmulator;
let alice: SignedInUser;
let bob: SignedInUser;

beforeAll(async () => {
  em = await startAmoEmulator({ redirectUri: CALLBACK });
  t = await createTestApp({
    allowPrivateDestinations: true,
    crm: { amocrm: { clientId: em.clientId, clientSecret: em.clientSecret, oauthUrl: em.oauthUrl, hosts: [em.host] } },
  });
  alice = await onUnlimitedPlan(t, await signUp(t));
  bob = await onUnlimitedPlan(t, await signUp(t));
});
afterAll(async () => {
  await t?.close();
  await em?.close();
});
beforeEach(() => em.reset());

async function amoIntegration(user: SignedInUser, settings: Record<string, unknown> = {}): Promise<string> {
  const res = await callAs(t, 'POST', '/api/integrations', user, { type: 'amocrm', name: 'amoCRM', settings });
  expect(res.statusCode).toBe(201);
  return res.json()._id;
}

/** The browser's trip: our consent URL → the emulator's consent page → back to our callback. */
/** The browser's cookie binding the last consent it started (lr_amo_oauth). */
let browserCookie: string | undefined;

async function consentReturn(user: SignedInUser, id: string, locale?: 'uk' | 'en'): Promise<URL> {
  const connect = await callAs(t, 'POST', `${legacy}/connect`, user, { integrationId: id, locale });
  expect(connect.statusCode).toBe(200);
  browserCookie = String(connect.headers['set-cookie']).split(';')[0];
  expect(browserCookie).toMatch(/^lr_amo_oauth=/);
  const consent = await fetch(connect.json().url, { redirect: 'manual' });
  expect(consent.status).toBe(302);
  return new URL(consent.headers.get('location')!);
}

async function callback(url: URL, cookie = browserCookie): Promise<string> {
  const res = await t.app.inject({
    method: 'GET',
    url: `${url.pathname}${url.search}`,
    headers: cookie ? { cookie } : {},
  });
  expect(res.statusCode).toBe(302);
  return res.headers.location as string;
}

async function connected(user: SignedInUser, settings: Record<string, unknown> = {}): Promise<string> {
  const id = await amoIntegration(user, settings);
  expect(await callback(await consentReturn(user, id))).toBe(
    `http://app.test/admin/integrations/amocrm/${id}?connected=1`,
  );
  return id;
}

async function rowOf(id: string) {
  const [row] = await t.app.db.select().from(integrations).where(eq(integrations.id, id));
  return row!;
}

describe('amoCRM connect', () => {
  it('a consent link finished in another browser is refused, and nothing is stored', async () => {
    const id = await amoIntegration(alice);
    const back = await consentReturn(alice, id);
    expect(await callback(back, '')).toBe('http://app.test/admin/integrations/amocrm?error=OAUTH_STATE_INVALID');
    expect((await rowOf(id)).auth).toBeNull();
  });

  it('an English user comes back to the English screen', async () => {
    const id = await amoIntegration(alice);
    expect(await callback(await consentReturn(alice, id, 'en'))).toBe(
      `http://app.test/en/admin/integrations/amocrm/${id}?connected=1`,
    );
  });

  it('consent → callback stores sealed tokens, and the loaders answer from the account', async () => {
    const id = await amoIntegration(alice);
    const back = await consentReturn(alice, id);
    expect(`${back.origin}${back.pathname}`).toBe(CALLBACK);
    expect(back.searchParams.get('referer')).toBe(em.host);
    const connectedAt = Date.now();
    const live = watchIntegrationUpdates(t);
    expect(await callback(back)).toBe(`http://app.test/admin/integrations/amocrm/${id}?connected=1`);
    expect(await live.about(id)).toMatchObject({ status: 'ok', statusReason: null });
    live.stop();

    const row = await rowOf(id);
    // The refresh token lives about 3 months unused: its end is kept in clear for the guardian's warnings.
    const days = (row.credentialExpiresAt!.getTime() - connectedAt) / 86_400_000;
    expect(days).toBeGreaterThan(89.9);
    expect(days).toBeLessThan(90.1);
    const opened = t.app.deps.secrets.open(row.auth!, row.id) as {
      accessToken: string;
      refreshToken: string;
      baseUrl: string;
    };
    expect(opened.baseUrl).toBe(em.url);
    const stored = JSON.stringify(row.auth);
    expect(stored).not.toContain(opened.accessToken);
    expect(stored).not.toContain(opened.refreshToken);
    expect(row.status).toBe('ok');
    const api = (await callAs(t, 'GET', `/api/integrations/${id}`, alice)).json();
    expect(api.isConnected).toBe(true);
    expect(JSON.stringify(api)).not.toContain(opened.accessToken);

    const users = await callAs(t, 'GET', `${legacy}/users/${id}`, alice);
    expect(users.json()).toEqual([
      { id: 5_000_001, name: 'Anna Manager', email: 'anna@acme.test' },
      { id: 5_000_002, name: 'Bohdan Sales', email: 'bohdan@acme.test' },
    ]);
    const pipelines = (await callAs(t, 'GET', `${legacy}/pipelines/${id}`, alice)).json();
    expect(pipelines.map((p: { name: string; isMain: boolean }) => [p.name, p.isMain])).toEqual([
      ['Sales', true],
      ['Wholesale', false],
    ]);
    const fields = (await callAs(t, 'GET', `${legacy}/fields/${id}`, alice)).json();
    expect(fields.lead.map((f: { type: string }) => f.type)).toEqual(['text', 'numeric', 'select', 'multiselect']);
    expect(fields.contact.map((f: { code: string }) => f.code)).toEqual(['PHONE', 'EMAIL', 'POSITION']);
    const parser = (await callAs(t, 'GET', `${legacy}/parser/${id}`, alice)).json();
    expect(parser).toContainEqual({
      key: 'contact.phone',
      label: 'Phone',
      entity: 'contact',
      fieldId: 810_001,
      type: 'multitext',
    });
    // The generic loaders use the same connection.
    const generic = await callAs(t, 'GET', `/api/integrations/${id}/amocrm/users`, alice);
    expect(generic.json()).toEqual([
      { id: '5000001', name: 'Anna Manager' },
      { id: '5000002', name: 'Bohdan Sales' },
    ]);
  });

  it('a forged or missing state is refused and nothing is stored', async () => {
    const id = await amoIntegration(alice);
    const back = await consentReturn(alice, id);
    back.searchParams.set('state', `${back.searchParams.get('state')}x`);
    expect(await callback(back)).toBe('http://app.test/admin/integrations/amocrm?error=OAUTH_STATE_INVALID');
    back.searchParams.delete('state');
    expect(await callback(back)).toBe('http://app.test/admin/integrations/amocrm?error=OAUTH_STATE_INVALID');
    expect((await rowOf(id)).auth).toBeNull();
    expect(em.requests.some((r) => r.path === '/oauth2/access_token')).toBe(false);
  });

  it('a referer outside the allowed hosts is refused before the secret is sent anywhere', async () => {
    const id = await amoIntegration(alice);
    for (const referer of ['evil.example.com', `${em.host}/x`, `user@${em.host}`, '']) {
      const back = await consentReturn(alice, id);
      back.searchParams.set('referer', referer);
      expect(await callback(back)).toBe(`http://app.test/admin/integrations/amocrm/${id}?error=CRM_HOST_NOT_ALLOWED`);
    }
    expect(em.requests.some((r) => r.path === '/oauth2/access_token')).toBe(false);
    expect((await rowOf(id)).auth).toBeNull();
  });

  it('a code amoCRM refuses ends in OAUTH_EXCHANGE_FAILED', async () => {
    const id = await amoIntegration(alice);
    const back = await consentReturn(alice, id);
    back.searchParams.set('code', 'not-a-code');
    expect(await callback(back)).toBe(`http://app.test/admin/integrations/amocrm/${id}?error=OAUTH_EXCHANGE_FAILED`);
    expect((await rowOf(id)).auth).toBeNull();
  });

  it("another account's integration, or one of another type, is not found", async () => {
    const id = await amoIntegration(alice);
    const http = await callAs(t, 'POST', '/api/integrations', alice, {
      type: 'http',
      name: 'hook',
      settings: { url: 'https://example.com/hook' },
    });
    for (const [user, target] of [
      [bob, id],
      [alice, http.json()._id],
      [alice, 'not-a-uuid'],
    ] as const) {
      expectError(await callAs(t, 'GET', `${legacy}/users/${target}`, user), 404, 'INTEGRATION_NOT_FOUND');
      expectError(await callAs(t, 'GET', `${legacy}/pipelines/${target}`, user), 404, 'INTEGRATION_NOT_FOUND');
      expectError(await callAs(t, 'GET', `${legacy}/backup/${target}`, user), 404, 'INTEGRATION_NOT_FOUND');
    }
    expectError(await callAs(t, 'POST', `${legacy}/connect`, bob, { integrationId: id }), 404, 'INTEGRATION_NOT_FOUND');
    expectError(await callAs(t, 'POST', `${legacy}/backup`, bob, { integrationId: id }), 404, 'INTEGRATION_NOT_FOUND');
    expectError(await callAs(t, 'POST', `${legacy}/connect`, alice, { integrationId: 'x' }), 400, 'VALIDATION_ERROR');
    expectError(await callAs(t, 'POST', `${legacy}/connect`, null, { integrationId: id }), 401, 'UNAUTHORIZED');
    // A state issued to alice cannot connect a row after it changed hands: it names her account.
    const back = await consentReturn(alice, id);
    await t.app.db
      .update(integrations)
      .set({ accountId: await accountIdOf(t.app.db, bob.login) })
      .where(eq(integrations.id, id));
    expect(await callback(back)).toBe(`http://app.test/admin/integrations/amocrm/${id}?error=INTEGRATION_NOT_FOUND`);
  });

  it('without the amoCRM app configured, connect answers OAUTH_NOT_CONFIGURED', async () => {
    const bare = await createTestApp();
    try {
      const carol = await signUp(bare);
      const created = await callAs(bare, 'POST', '/api/integrations', carol, { type: 'amocrm', name: 'amo' });
      const res = await callAs(bare, 'POST', `${legacy}/connect`, carol, { integrationId: created.json()._id });
      expectError(res, 400, 'OAUTH_NOT_CONFIGURED');
    } finally {
      await bare.close();
    }
  });

  it('loaders of an integration that is not connected, or whose tokens were revoked, say so', async () => {
    const id = await amoIntegration(alice);
    expectError(await callAs(t, 'GET', `${legacy}/users/${id}`, alice), 400, 'INTEGRATION_NOT_CONNECTED');
    const linked = await connected(alice);
    em.revokeTokens();
    const res = await callAs(t, 'GET', `${legacy}/fields/${linked}`, alice);
    expectError(res, 400, 'CONNECTION_FAILED');
    expect(res.json().message).toContain('AUTH');
    expect(res.json().message).not.toContain(em.clientSecret);
  });
});

describe('amoCRM backups', () => {
  it('snapshots settings, pipelines, users and fields; lists newest first; keeps 20', async () => {
    const id = await connected(alice, { pipelineId: 7_000_002, tags: ['fb'] });
    const first = await callAs(t, 'POST', `${legacy}/backup`, alice, { integrationId: id });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      integrationId: id,
      data: {
        settings: { pipelineId: 7_000_002, tags: ['fb'] },
        users: [{ id: 5_000_001 }, { id: 5_000_002 }],
        pipelines: [{ id: 7_000_001 }, { id: 7_000_002 }],
        fields: { lead: expect.any(Array), contact: expect.any(Array) },
      },
    });
    const second = (await callAs(t, 'POST', `${legacy}/backup`, alice, { integrationId: id })).json();
    const list = (await callAs(t, 'GET', `${legacy}/backup/${id}`, alice)).json();
    expect(list.total).toBe(2);
    expect(list.data.map((b: { _id: string }) => b._id)).toEqual([second._id, first.json()._id]);

    // 20 older ones already there: a new backup pushes the oldest out.
    const accountId = await accountIdOf(t.app.db, alice.login);
    await t.app.db.insert(connectorRecords).values(
      Array.from({ length: 19 }, (_, i) => ({
        accountId,
        integrationId: id,
        kind: 'backups',
        key: `older-${i}`,
        status: 'kept',
        data: second.data,
        createdAt: new Date(Date.now() - (i + 1) * 60_000),
      })),
    );
    await callAs(t, 'POST', `${legacy}/backup`, alice, { integrationId: id });
    const capped = (await callAs(t, 'GET', `${legacy}/backup/${id}`, alice)).json();
    expect(capped.total).toBe(20);
    expect(capped.data.map((b: { _id: string }) => b._id)).toContain(second._id);

    // Deleting the integration removes its backups.
    expect((await callAs(t, 'DELETE', `/api/legacy/api/admin/integration/${id}`, alice)).statusCode).toBe(200);
    const backups = and(eq(connectorRecords.integrationId, id), eq(connectorRecords.kind, 'backups'));
    expect(await t.app.db.select().from(connectorRecords).where(backups)).toHaveLength(0);
  });

  it('a backup of an integration amoCRM refuses is CONNECTION_FAILED and stores nothing', async () => {
    const id = await connected(alice);
    em.setFault({ status: 500 });
    expectError(await callAs(t, 'POST', `${legacy}/backup`, alice, { integrationId: id }), 400, 'CONNECTION_FAILED');
    expect((await callAs(t, 'GET', `${legacy}/backup/${id}`, alice)).json()).toEqual({ data: [], total: 0 });
  });
});

describe('amoCRM delivery through the worker', () => {
  async function pipeline(settings: Record<string, unknown> = {}) {
    const crm = await connected(alice, settings);
    const accountId = await accountIdOf(t.app.db, alice.login);
    const source = await createSource(t.app.db, accountId, { destinationIds: [crm] });
    return { crm, source };
  }
  const ingest = async (url: string, body: object) => {
    const res = await t.app.inject({ method: 'POST', url, payload: body });
    expect(res.statusCode).toBe(202);
    return res.json().hookId as string;
  };

  it('a lead arrives in amoCRM once, with its contact, owner, pipeline, fields and note', async () => {
    const { crm, source } = await pipeline({
      pipelineId: 7_000_001,
      statusId: 70_000_012,
      responsibleUserId: 5_000_002,
      tags: ['site'],
      fields: [{ from: 'comment', entity: 'lead', fieldId: 800_001 }],
    });
    await ingest(source.url, { name: 'Olena', phone: '0501234567', email: 'olena@example.com', comment: 'Call me' });
    await t.app.deliveryWorker.drain();
    expect(em.leads).toHaveLength(1);
    const lead = em.leads[0]!;
    expect(lead).toMatchObject({
      pipeline_id: 7_000_001,
      status_id: 70_000_012,
      responsible_user_id: 5_000_002,
      tags: [{ name: 'site' }],
      custom_fields_values: [
        { field_id: 800_001, values: [{ value: 'Call me' }] },
        // The delivery's marker in the field the connector made: a repeat after a crash finds the lead by it.
        { field_name: 'LeadRelay ID', values: [{ value: expect.stringMatching(/^lr[0-9a-f]{32}$/) }] },
      ],
    });
    expect(em.contacts).toHaveLength(1);
    expect(lead.contactIds).toEqual([em.contacts[0]!.id]);
    expect(em.contacts[0]!.custom_fields_values?.[0]?.values[0]?.value).toBe('+380501234567');
    expect(em.notes).toHaveLength(1);
    const [d] = await t.app.db.select().from(deliveries).where(eq(deliveries.destinationId, crm));
    expect(d).toMatchObject({ status: 'delivered', externalId: String(lead.id) });
  });

  it('two leads for the same phone at the same moment make one contact', async () => {
    const { source } = await pipeline({ note: false });
    await Promise.all([
      ingest(source.url, { name: 'Olena', phone: '+380501234567' }),
      ingest(source.url, { name: 'Olena again', phone: '0501234567' }),
    ]);
    await t.app.deliveryWorker.drain();
    expect(em.leads).toHaveLength(2);
    expect(em.contacts).toHaveLength(1);
    expect(em.leads.map((l) => l.contactIds)).toEqual([[em.contacts[0]!.id], [em.contacts[0]!.id]]);
  });

  it('two deliveries on a token amoCRM expired refresh it once; the new pair is stored sealed', async () => {
    const { crm, source } = await pipeline({ note: false });
    const before = t.app.deps.secrets.open((await rowOf(crm)).auth!, crm) as { refreshToken: string };
    // Connected 100 days ago, by the stored end: the refresh moves the end 90 days from now.
    await t.app.db
      .update(integrations)
      .set({ credentialExpiresAt: new Date(Date.now() - 10 * 86_400_000) })
      .where(eq(integrations.id, crm));
    em.expireTokens();
    await Promise.all([
      ingest(source.url, { name: 'A', phone: '+380501111111' }),
      ingest(source.url, { name: 'B', phone: '+380502222222' }),
    ]);
    await t.app.deliveryWorker.drain();
    expect(em.leads).toHaveLength(2);
    expect(em.refreshes()).toBe(1);
    const row = await rowOf(crm);
    const after = t.app.deps.secrets.open(row.auth!, crm) as { refreshToken: string };
    expect(after.refreshToken).not.toBe(before.refreshToken);
    expect(row.credentialExpiresAt!.getTime()).toBeGreaterThan(Date.now() + 89 * 86_400_000);
    expect(JSON.stringify(row.auth)).not.toContain(after.refreshToken);
    // The stored pair is the live one: the screens keep working without another refresh.
    expect((await callAs(t, 'GET', `${legacy}/users/${crm}`, alice)).statusCode).toBe(200);
    expect(em.refreshes()).toBe(1);
  });

  it("amoCRM's validation refusal becomes an error record carrying its message", async () => {
    const { crm, source } = await pipeline({ statusId: 999_999 });
    await ingest(source.url, { name: 'Olena', phone: '+380501234567' });
    await t.app.deliveryWorker.drain();
    expect(em.leads).toHaveLength(0);
    const [d] = await t.app.db.select().from(deliveries).where(eq(deliveries.destinationId, crm));
    expect(d!.status).toBe('failed');
    expect(d!.lastError).toContain('status_id: The value you selected is not a valid choice.');
    const [record] = await t.app.db.select().from(errorRecords).where(eq(errorRecords.deliveryId, d!.id));
    expect(record!.message).toContain('status_id: The value you selected is not a valid choice.');
  });
});

describe('the generic connector routes (the spec paths above are aliases of them)', () => {
  it('lists a loader by name, the same as the spec path; an unknown list, another account or a wrong type are refused', async () => {
    const id = await connected(alice);
    const generic = await callAs(t, 'GET', `/api/integrations/${id}/amocrm/lists/pipelines`, alice);
    expect(generic.statusCode).toBe(200);
    expect(generic.json()).toEqual((await callAs(t, 'GET', `${legacy}/pipelines/${id}`, alice)).json());
    expectError(
      await callAs(t, 'GET', `/api/integrations/${id}/amocrm/lists/nothing`, alice),
      400,
      'OPERATION_NOT_SUPPORTED',
    );
    expectError(
      await callAs(t, 'GET', `/api/integrations/${id}/amocrm/lists/pipelines`, bob),
      404,
      'INTEGRATION_NOT_FOUND',
    );
    expectError(
      await callAs(t, 'GET', `/api/integrations/${id}/pipedrive/lists/pipelines`, alice),
      404,
      'INTEGRATION_NOT_FOUND',
    );
  });

  it('starts the same consent as the spec path, bound to the same browser cookie, and the callback finishes it', async () => {
    const id = await amoIntegration(alice);
    expectError(await callAs(t, 'POST', `/api/integrations/${id}/oauth/start`, bob, {}), 404, 'INTEGRATION_NOT_FOUND');
    const start = await callAs(t, 'POST', `/api/integrations/${id}/oauth/start`, alice, { locale: 'en' });
    expect(start.statusCode).toBe(200);
    const cookie = String(start.headers['set-cookie']);
    // The cookie the definition names, sent only to its declared callback path.
    expect(cookie).toMatch(/^lr_amo_oauth=[^;]+;.*Path=\/api\/amocrm\/callback/);
    const viaSpec = await callAs(t, 'POST', `${legacy}/connect`, alice, { integrationId: id });
    const consent = (url: string) => {
      const u = new URL(url);
      return {
        at: `${u.origin}${u.pathname}`,
        client: u.searchParams.get('client_id'),
        mode: u.searchParams.get('mode'),
      };
    };
    expect(consent(start.json().url)).toEqual(consent(viaSpec.json().url));
    const approved = await fetch(start.json().url, { redirect: 'manual' });
    const back = new URL(approved.headers.get('location')!);
    expect(await callback(back, cookie.split(';')[0])).toBe(
      `http://app.test/en/admin/integrations/amocrm/${id}?connected=1`,
    );
    // Connected: amoCRM is asked to post its status changes to us, whichever door the connect came through.
    expect(em.webhooks.map((w) => w.destination)).toEqual([expect.stringContaining(`/api/amocrm/events/${id}/`)]);
  });

  it('sends a stray callback back with an error; a type from the URL is data', async () => {
    const stray = await t.app.inject({ method: 'GET', url: '/api/oauth/amocrm/callback?code=x&state=forged' });
    expect(stray.statusCode).toBe(302);
    expect(stray.headers.location).toMatch(
      /^http:\/\/app\.test\/admin\/integrations\/amocrm\?error=OAUTH_STATE_INVALID$/,
    );
    for (const type of ['nothing', 'webhook', 'constructor', '__proto__']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/oauth/${type}/callback?code=x&state=y` });
      expect(res.statusCode, type).toBeLessThan(500);
    }
    // amoCRM's return finishes at its callback: there is no code for the connect screen to post.
    for (const type of ['amocrm', 'nothing', 'constructor']) {
      expectError(
        await callAs(t, 'POST', `/api/oauth/${type}/connect`, alice, { code: 'x', state: 'y' }),
        400,
        'OPERATION_NOT_SUPPORTED',
      );
    }
  });

  it('backs up through the generic action and lists through the generic records; names from the URL are data', async () => {
    const id = await connected(alice, { pipelineId: 7_000_001 });
    const made = await callAs(t, 'POST', `/api/integrations/${id}/actions/backup`, alice, {});
    expect(made.statusCode).toBe(201);
    expect(made.json()).toMatchObject({ integrationId: id, data: { settings: { pipelineId: 7_000_001 } } });
    const listed = await callAs(t, 'GET', `/api/integrations/${id}/records/backups`, alice);
    expect(listed.json()).toEqual({ data: [made.json()], total: 1 });
    expect((await callAs(t, 'GET', `${legacy}/backup/${id}`, alice)).json()).toEqual(listed.json());
    for (const name of ['constructor', '__proto__', 'toString', 'nothing']) {
      expectError(
        await callAs(t, 'POST', `/api/integrations/${id}/actions/${name}`, alice, {}),
        400,
        'OPERATION_NOT_SUPPORTED',
      );
      expectError(
        await callAs(t, 'GET', `/api/integrations/${id}/records/${name}`, alice),
        400,
        'OPERATION_NOT_SUPPORTED',
      );
    }
    expectError(
      await callAs(t, 'POST', `/api/integrations/${id}/actions/backup`, bob, {}),
      404,
      'INTEGRATION_NOT_FOUND',
    );
    // amoCRM takes no typed-in credentials and describes no account.
    expectError(
      await callAs(t, 'POST', `/api/integrations/${id}/credentials`, alice, { apiToken: 'x'.repeat(20) }),
      400,
      'OPERATION_NOT_SUPPORTED',
    );
    expectError(await callAs(t, 'GET', `/api/integrations/${id}/account`, alice), 400, 'OPERATION_NOT_SUPPORTED');
  });
});
