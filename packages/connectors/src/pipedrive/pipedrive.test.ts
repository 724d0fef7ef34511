import type { Lead } from '@leadrelay/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { describeConnectorContract, SAMPLE_LEAD } from '../kit/contract';
import { PermanentError, RetryableError } from '../kit/errors';
import { memoryAuthStore } from '../kit/memory-auth';
import { createSafeFetch } from '../kit/safe-fetch';
import type { ConnectorContext, ConnectorLogger, OAuthClient } from '../kit/types';
import { authorizeUrl, exchangeCode, type PipedriveAuth, pipedriveClient } from './client';
import { PIPEDRIVE_SEED, type PipedriveEmulator, startPipedriveEmulator } from './emulator';
import { pipedrive, resetPipedriveState } from './index';
import { dealMarker } from './mapping';
import type { PipedriveSettings } from './schema';

const noopLogger: ConnectorLogger = { debug() {}, info() {}, warn() {} };
const F = PIPEDRIVE_SEED.dealFields;
/** How many deal fields the emulator starts with (emulator-state.ts seedFields). */
const PIPEDRIVE_SEED_DEAL_FIELDS = 8;

function oauthOf(emulator: PipedriveEmulator): OAuthClient {
  return {
    clientId: emulator.clientId,
    clientSecret: emulator.clientSecret,
    authorizeUrl: `${emulator.url}/oauth/authorize`,
    tokenUrl: `${emulator.url}/oauth/token`,
    redirectUri: 'http://app.test/pipedrive/callback',
  };
}

const settingsOf = (s: Partial<PipedriveSettings> = {}): PipedriveSettings => ({
  target: 'lead',
  organization: false,
  note: true,
  ...s,
});

type Ctx = ConnectorContext<PipedriveAuth, PipedriveSettings>;

function ctxFor(
  emulator: PipedriveEmulator,
  opts: Partial<Pick<Ctx, 'auth' | 'rotateAuth' | 'withLock' | 'logger' | 'signal' | 'fetch'>> & {
    settings?: Partial<PipedriveSettings>;
  } = {},
): Ctx {
  return {
    auth: opts.auth ?? { kind: 'oauth', ...emulator.issueTokens() },
    settings: settingsOf(opts.settings),
    fetch: opts.fetch ?? createSafeFetch({ allowPrivate: true, timeoutMs: 5000 }),
    logger: opts.logger ?? noopLogger,
    signal: opts.signal ?? new AbortController().signal,
    oauth: oauthOf(emulator),
    rotateAuth: opts.rotateAuth,
    withLock: opts.withLock,
  };
}

describeConnectorContract('pipedrive', async () => {
  const emulator = await startPipedriveEmulator();
  // Long enough for a first request on a loaded two-core machine; the slow-destination test waits 4× this.
  const timeoutMs = 1000;
  const fetch = createSafeFetch({ allowPrivate: true, timeoutMs });
  // An API token: with OAuth a single 401 is (rightly) recovered by a refresh, see the tests below.
  const auth: PipedriveAuth = { kind: 'token', apiToken: emulator.apiToken, apiDomain: emulator.url };
  return {
    connector: pipedrive,
    ctx: ({ logger, signal }) => ctxFor(emulator, { auth, fetch, logger, signal }),
    emulator: {
      recordCount: () => emulator.leads.length + emulator.deals.length,
      setLatency: (ms) => emulator.setLatency(ms),
      setFault: (fault) => emulator.setFault(fault),
      reset: () => {
        emulator.reset();
        resetPipedriveState();
      },
      close: () => emulator.close(),
    },
    secrets: [emulator.apiToken],
    timeoutMs,
  };
});

describe('pipedrive destination', () => {
  let emulator: PipedriveEmulator;
  beforeAll(async () => {
    emulator = await startPipedriveEmulator();
  });
  afterAll(() => emulator.close());
  beforeEach(() => {
    emulator.reset();
    resetPipedriveState();
  });

  const deliver = (ctx: Ctx, lead: Lead = SAMPLE_LEAD, key = `k-${Math.random()}`, assignee?: { id: string }) =>
    pipedrive.deliver!(ctx, { lead, idempotencyKey: key, assignee, raw: { form: 'spring' } });

  it('makes a person and a lead with the owner from distribution, typed custom fields and a note', async () => {
    const ctx = ctxFor(emulator, {
      settings: {
        title: '{source}: {name}',
        ownerId: 101,
        fields: [
          { from: 'custom.budget', entity: 'deal', key: F.budget },
          { from: 'custom.channel', entity: 'deal', key: F.channel },
          { from: 'custom.cities', entity: 'deal', key: F.cities },
          { from: 'utm.campaign', entity: 'person', key: PIPEDRIVE_SEED.personFields.source },
        ],
      },
    });
    const lead: Lead = { ...SAMPLE_LEAD, custom: { budget: '1500', channel: 'Google', cities: 'Lviv,Odesa' } };
    const result = await deliver(ctx, lead, 'key-1', { id: '102' });

    expect(emulator.persons).toHaveLength(1);
    expect(emulator.persons[0]).toMatchObject({
      name: 'Olena Kovalenko',
      owner_id: 102,
      emails: [{ value: 'olena@example.com', primary: true }],
      phones: [{ value: '+380501234567', primary: true }],
      custom_fields: { [PIPEDRIVE_SEED.personFields.source]: 'spring' },
    });
    expect(emulator.leads).toHaveLength(1);
    expect(emulator.leads[0]).toMatchObject({
      id: result.externalId,
      title: 'facebook: Olena Kovalenko',
      person_id: emulator.persons[0]!.id,
      owner_id: 102,
      origin_id: 'key-1',
      [F.budget]: 1500,
      [F.channel]: 32,
      [F.cities]: [42, 43],
    });
    expect(emulator.deals).toHaveLength(0);
    expect(emulator.notes).toHaveLength(1);
    expect(emulator.notes[0]).toMatchObject({ lead_id: result.externalId });
    expect(String(emulator.notes[0]!.content)).toContain('utm_campaign:</b> spring');
    // OAuth calls go to {api_domain}/api/v1 and /api/v2 with a bearer token.
    expect(emulator.calls('POST /api/v1/leads')[0]!.auth).toBe('bearer');
    // The attempt record: the lead call, its token redacted.
    expect(result.request).toMatchObject({ method: 'POST', url: `${emulator.url}/api/v1/leads` });
    expect(result.request?.headers?.authorization).toBe('[redacted]');
    expect(result.response).toMatchObject({ status: 200, body: { success: true, data: { id: result.externalId } } });
    expect(JSON.stringify(result)).not.toContain((ctx.auth as { accessToken: string }).accessToken);
  });

  it('finds the person by e-mail, then by phone, instead of making another', async () => {
    const ctx = ctxFor(emulator);
    await deliver(ctx, SAMPLE_LEAD);
    await deliver(ctx, { ...SAMPLE_LEAD, email: undefined, name: 'Olena K.' });
    await deliver(ctx, { ...SAMPLE_LEAD, phone: '+380991112233' });
    expect(emulator.persons).toHaveLength(1);
    expect(emulator.leads).toHaveLength(3);
    expect(new Set(emulator.leads.map((l) => l.person_id))).toEqual(new Set([emulator.persons[0]!.id]));
    const searches = emulator.calls('GET /api/v2/persons/search');
    expect(searches[0]!.query).toMatchObject({ term: 'olena@example.com', fields: 'email', exact_match: 'true' });
    expect(searches.some((s) => s.query.fields === 'phone' && s.query.term === '+380501234567')).toBe(true);
  });

  it('two leads for the same phone at the same moment make one person', async () => {
    const store = memoryAuthStore<PipedriveAuth>({ kind: 'oauth', ...emulator.issueTokens() });
    emulator.setLatency(30);
    const lead: Lead = { name: 'Ivan', phone: '+380671234567', custom: {} };
    await Promise.all([
      deliver(ctxFor(emulator, { withLock: store.withLock }), lead, 'a'),
      deliver(ctxFor(emulator, { withLock: store.withLock }), { ...lead, name: 'Ivan P.' }, 'b'),
    ]);
    expect(emulator.persons).toHaveLength(1);
    expect(emulator.leads).toHaveLength(2);
  });

  it('locks the person by phone and e-mail together, so a lead with only one of them waits for the other', async () => {
    const locked: string[][] = [];
    const withLock = async <T>(keys: string | readonly string[], fn: () => Promise<T>) => {
      locked.push([...keys]);
      return fn();
    };
    await deliver(ctxFor(emulator, { withLock }), {
      name: 'Ivan',
      phone: '+380671234567',
      email: 'Ivan@Example.com',
      custom: {},
    });
    expect(locked).toEqual([['phone:380671234567', 'email:ivan@example.com']]);
  });

  it("finds the person it just made though Pipedrive's search does not show it yet", async () => {
    emulator.setSearchLag(60_000);
    const ctx = ctxFor(emulator);
    await deliver(ctx, { name: 'Ivan', phone: '+380671234567', custom: {} });
    await deliver(ctx, { name: 'Ivan', phone: '+380671234567', custom: {} });
    expect(emulator.persons).toHaveLength(1);
    expect(emulator.leads.map((l) => l.person_id)).toEqual([1, 1]);
    // A person merged away meanwhile is not reused.
    emulator.persons.length = 0;
    await deliver(ctx, { name: 'Ivan', phone: '+380671234567', custom: {} });
    expect(emulator.persons).toHaveLength(1);
    expect(emulator.leads.at(-1)!.person_id).toBe(2);
  });

  it('a retry after a crash finds the deal it already made (the mark in its title) and makes no second one', async () => {
    const ctx = ctxFor(emulator, { settings: { target: 'deal' } });
    const first = await deliver(ctx, SAMPLE_LEAD, 'same-key');
    const again = await deliver(ctx, SAMPLE_LEAD, 'same-key');
    expect(again.externalId).toBe(first.externalId);
    expect(emulator.deals).toHaveLength(1);
    expect(emulator.notes).toHaveLength(1);
    // POST /api/v2/deals takes no origin_id (the official AddDealRequest has none): the body has none.
    const body = emulator.calls('POST /api/v2/deals')[0]!.body as Record<string, unknown>;
    expect(body).not.toHaveProperty('origin_id');
    expect(body.title).toBe(`Lead: Olena Kovalenko · ${dealMarker('same-key')}`);
    // Another delivery for the same person is not taken for it.
    const other = await deliver(ctx, SAMPLE_LEAD, 'other-key');
    expect(other.externalId).not.toBe(first.externalId);
    expect(emulator.deals).toHaveLength(2);
  });

  it('the emulator refuses a v2 deal parameter the official request model lacks, as Pipedrive does', async () => {
    const res = await fetch(`${emulator.url}/api/v2/deals`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-token': emulator.apiToken },
      body: JSON.stringify({ title: 'T', origin_id: 'key-1' }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      success: false,
      error: "Validation failed: origin_id: Parameter 'origin_id' is not allowed for this request",
      code: 'ERR_SCHEMA_VALIDATION_FAILED',
    });
    expect(emulator.deals).toHaveLength(0);
  });

  it("a retry finds its deal among more of the person's deals than one v2 page holds (next_cursor)", async () => {
    const ctx = ctxFor(emulator, { settings: { target: 'deal' } });
    const first = await deliver(ctx, SAMPLE_LEAD, 'crash-key');
    const made = emulator.deals.pop()!;
    const personId = Number(made.person_id);
    for (let i = 0; i < 600; i++) {
      emulator.deals.push({ id: 10_000 + i, title: `Older ${i}`, person_id: personId, status: 'open' });
    }
    emulator.deals.push(made);
    const again = await pipedrive.deliver!(ctx, {
      lead: SAMPLE_LEAD,
      idempotencyKey: 'crash-key',
      outcomeUnknown: true,
    });
    expect(again.externalId).toBe(first.externalId);
    expect(emulator.deals).toHaveLength(601);
    expect(emulator.calls('GET /api/v2/deals').length).toBeGreaterThanOrEqual(2);
  });

  for (const shape of ['nested', 'flat'] as const) {
    it(`reads v1 lists longer than one page to the end (${shape} paging)`, async () => {
      emulator.setV1Paging(shape);
      emulator.addCustomFields('dealFields', 600);
      const ctx = ctxFor(emulator);
      const fields = (await pipedrive.loaders!.dealFields!(ctx)) as { name: string }[];
      expect(fields).toHaveLength(PIPEDRIVE_SEED_DEAL_FIELDS + 600);
      expect(fields.at(-1)).toMatchObject({ name: `Extra ${1000 + PIPEDRIVE_SEED_DEAL_FIELDS + 599}` });
      expect(emulator.calls('GET /api/v1/dealFields')).toHaveLength(2);

      // A lead's retry finds its lead among more of the person's leads than one page holds.
      const first = await deliver(ctx, SAMPLE_LEAD, 'lead-crash');
      const made = emulator.leads.pop()!;
      for (let i = 0; i < 600; i++) {
        emulator.leads.push({ id: `older-${i}`, title: `Older ${i}`, person_id: made.person_id, origin_id: null });
      }
      emulator.leads.push(made);
      const again = await pipedrive.deliver!(ctx, {
        lead: SAMPLE_LEAD,
        idempotencyKey: 'lead-crash',
        outcomeUnknown: true,
      });
      expect(again.externalId).toBe(first.externalId);
      expect(emulator.leads).toHaveLength(601);
    });
  }

  it('a repeat whose outcome is unknown, for a lead without phone or e-mail, finds its lead among the persons of that name', async () => {
    const ctx = ctxFor(emulator, { settings: { note: false } });
    const nameless = { name: 'Taras Shevchenko', custom: {} };
    // A namesake with a lead of its own, made earlier.
    await deliver(ctx, nameless, 'other-key');
    const first = await deliver(ctx, nameless, 'crash-key');
    expect(emulator.persons).toHaveLength(2);
    const again = await pipedrive.deliver!(ctx, { lead: nameless, idempotencyKey: 'crash-key', outcomeUnknown: true });
    expect(again.externalId).toBe(first.externalId);
    expect(emulator.leads).toHaveLength(2);
    expect(emulator.persons).toHaveLength(2);
    // A first attempt spends no search on it: nothing to find.
    const searches = emulator.calls('persons/search').length;
    await deliver(ctx, nameless, 'new-key');
    expect(emulator.calls('persons/search')).toHaveLength(searches);
    expect(emulator.leads).toHaveLength(3);
  });

  it('makes a deal in the chosen pipeline and stage, with an organization, activity and note', async () => {
    const ctx = ctxFor(emulator, {
      settings: {
        target: 'deal',
        pipelineId: 2,
        stageId: 22,
        organization: true,
        activity: { type: 'meeting', subject: 'Call back', dueInMinutes: 30 },
        fields: [
          { from: 'custom.visit', entity: 'deal', key: F.visitDate },
          { from: 'custom.budget', entity: 'deal', key: 'value' },
        ],
      },
    });
    const lead: Lead = { ...SAMPLE_LEAD, custom: { company: 'Acme LLC', visit: '07.04.2026', budget: '200' } };
    const result = await deliver(ctx, lead, 'deal-1', { id: '101' });
    await deliver(ctx, { ...lead, email: 'other@example.com', phone: '+380509999999' }, 'deal-2');

    expect(emulator.organizations).toHaveLength(1);
    expect(emulator.organizations[0]).toMatchObject({ name: 'Acme LLC' });
    expect(emulator.persons[0]).toMatchObject({ org_id: emulator.organizations[0]!.id });
    expect(emulator.deals[0]).toMatchObject({
      id: Number(result.externalId),
      pipeline_id: 2,
      stage_id: 22,
      org_id: emulator.organizations[0]!.id,
      owner_id: 101,
      value: 200,
      custom_fields: { [F.visitDate]: '2026-04-07' },
    });
    expect(emulator.leads).toHaveLength(0);
    expect(emulator.activities[0]).toMatchObject({
      type: 'meeting',
      subject: 'Call back',
      deal_id: Number(result.externalId),
      owner_id: 101,
    });
    expect(emulator.notes[0]).toMatchObject({ deal_id: Number(result.externalId) });
  });

  it('a refused activity is logged and the lead still counts as delivered', async () => {
    const warnings: string[] = [];
    const logger: ConnectorLogger = { ...noopLogger, warn: (_o, msg) => warnings.push(String(msg)) };
    const ctx = ctxFor(emulator, { logger, settings: { activity: { type: 'lunch', dueInMinutes: 60 } } });
    const result = await deliver(ctx);
    expect(result.externalId).toBe(emulator.leads[0]!.id);
    expect(emulator.activities).toHaveLength(0);
    expect(emulator.notes).toHaveLength(1);
    expect(warnings).toEqual(['pipedrive activity failed']);
  });

  it('refreshes an expired token once when two deliveries race on it', async () => {
    const store = memoryAuthStore<PipedriveAuth>({ kind: 'oauth', ...emulator.issueTokens() });
    emulator.expireTokens();
    const ctx = () =>
      ctxFor(emulator, { auth: store.current(), rotateAuth: store.rotateAuth, withLock: store.withLock });
    await Promise.all([
      deliver(ctx(), { name: 'A', phone: '+380500000001', custom: {} }),
      deliver(ctx(), { name: 'B', phone: '+380500000002', custom: {} }),
    ]);
    expect(emulator.refreshCount()).toBe(1);
    expect(store.refreshes()).toBe(1);
    expect(emulator.leads).toHaveLength(2);
    const stored = store.current();
    expect(stored.kind === 'oauth' && stored.expiresAt > Date.now()).toBe(true);
  });

  it('refreshes before the call when the stored expiry has passed, and keeps the api_domain', async () => {
    const store = memoryAuthStore<PipedriveAuth>({ kind: 'oauth', ...emulator.issueTokens(), expiresAt: 0 });
    await pipedrive.testConnection!(ctxFor(emulator, { auth: store.current(), rotateAuth: store.rotateAuth }));
    expect(emulator.refreshCount()).toBe(1);
    expect(store.current().apiDomain).toBe(emulator.url);
  });

  it('a 401 after the refresh is a PermanentError with code AUTH', async () => {
    emulator.setFault({ status: 401 });
    const auth = { kind: 'oauth' as const, ...emulator.issueTokens() };
    const err = await deliver(ctxFor(emulator, { auth })).catch((e) => e);
    expect(err).toBeInstanceOf(PermanentError);
    expect(err).toMatchObject({ code: 'AUTH', httpStatus: 401 });
    expect(err.message).toContain('unauthorized access');
    expect(emulator.refreshCount()).toBe(1);
    const text = JSON.stringify({ ...err, message: err.message });
    for (const secret of [auth.accessToken, auth.refreshToken, emulator.clientSecret])
      expect(text).not.toContain(secret);
    expect(err.trace.request.headers.authorization).toBe('[redacted]');
  });

  it('a refused refresh token is a PermanentError with code AUTH', async () => {
    emulator.expireTokens();
    const err = await deliver(
      ctxFor(emulator, { auth: { kind: 'oauth', ...emulator.issueTokens(), refreshToken: 'revoked', expiresAt: 0 } }),
    ).catch((e) => e);
    expect(err).toBeInstanceOf(PermanentError);
    expect(err).toMatchObject({ code: 'AUTH' });
    expect(JSON.stringify(err)).not.toContain(emulator.clientSecret);
  });

  it('backs off on 429 with the rate-limit headers, then succeeds', async () => {
    emulator.setBurstLimit(3);
    const ctx = ctxFor(emulator, { settings: { note: false } });
    // Each delivery makes 3-4 calls: the burst budget runs out mid-way and the client waits for the reset.
    await deliver(ctx, { name: 'A', phone: '+380500000011', custom: {} });
    await deliver(ctx, { name: 'B', phone: '+380500000012', custom: {} });
    expect(emulator.leads).toHaveLength(2);
    expect(emulator.calls().every((c) => c.status < 400)).toBe(true);

    // A 429 without warning (another app spent the budget): waited out inside the call, then done.
    emulator.setBurstLimit(400);
    resetPipedriveState();
    emulator.setFault({ status: 429, retryAfter: 1, times: 1, match: 'POST /api/v1/leads' });
    await deliver(ctx, { name: 'C', phone: '+380500000013', custom: {} });
    expect(emulator.leads).toHaveLength(3);
    expect(emulator.calls('POST /api/v1/leads').map((c) => c.status)).toEqual([200, 200, 429, 200]);
  }, 15_000);

  it('a 429 asking for a long wait is a RetryableError with retryAfterMs, and the company waits', async () => {
    emulator.setFault({ status: 429, retryAfter: 30, times: 1 });
    const err = await deliver(ctxFor(emulator)).catch((e) => e);
    expect(err).toBeInstanceOf(RetryableError);
    expect(err).toMatchObject({ httpStatus: 429, retryAfterMs: 30_000 });
    // The next call to the same company does not hit Pipedrive while its budget is spent.
    const before = emulator.calls().length;
    const second = await deliver(ctxFor(emulator)).catch((e) => e);
    expect(second).toBeInstanceOf(RetryableError);
    expect(second.retryAfterMs).toBeGreaterThan(25_000);
    expect(emulator.calls().length).toBe(before);
  });

  it("a permanent 400 is a PermanentError with Pipedrive's message", async () => {
    const err = await deliver(ctxFor(emulator, { settings: { target: 'deal', pipelineId: 1, stageId: 21 } })).catch(
      (e) => e,
    );
    expect(err).toBeInstanceOf(PermanentError);
    expect(err.httpStatus).toBe(400);
    expect(err.message).toContain('Stage does not belong to the pipeline');
  });

  it('works with an API token (x-api-token, /v1 paths)', async () => {
    const ctx = ctxFor(emulator, { auth: { kind: 'token', apiToken: emulator.apiToken, apiDomain: emulator.url } });
    const result = await deliver(ctx);
    expect(emulator.leads[0]!.id).toBe(result.externalId);
    expect(emulator.calls('POST /v1/leads')[0]!.auth).toBe('token');
    expect(JSON.stringify(result)).not.toContain(emulator.apiToken);
    const bad = ctxFor(emulator, { auth: { kind: 'token', apiToken: 'wrong-token-123', apiDomain: emulator.url } });
    await expect(pipedrive.testConnection!(bad)).rejects.toMatchObject({ code: 'AUTH', httpStatus: 401 });
  });

  it('loads users, fields, stages and activity types', async () => {
    const ctx = ctxFor(emulator);
    const loaders = pipedrive.loaders!;
    expect(await loaders.users!(ctx)).toEqual([
      { id: '101', name: 'Anna Admin' },
      { id: '102', name: 'Borys Sales' },
    ]);
    const fields = await loaders.fields!(ctx);
    expect(fields).toContainEqual({
      key: `deal.${F.channel}`,
      label: 'Channel',
      type: 'enum',
      options: [
        { value: '31', label: 'Facebook' },
        { value: '32', label: 'Google' },
      ],
    });
    expect(fields.some((f) => f.key === `person.${PIPEDRIVE_SEED.personFields.source}`)).toBe(true);
    expect(await loaders.dealFields!(ctx)).toContainEqual(
      expect.objectContaining({ key: F.cities, field_type: 'set', options: PIPEDRIVE_SEED.cityOptions }),
    );
    expect(await loaders.organizationFields!(ctx)).toContainEqual(expect.objectContaining({ key: 'address' }));
    expect(await loaders.stages!(ctx)).toEqual([
      {
        id: 1,
        name: 'Sales',
        stages: [
          { id: 11, name: 'New', order_nr: 1 },
          { id: 12, name: 'Qualified', order_nr: 2 },
          { id: 13, name: 'Won', order_nr: 3 },
        ],
      },
      {
        id: 2,
        name: 'Partners',
        stages: [
          { id: 21, name: 'Intro', order_nr: 1 },
          { id: 22, name: 'Signed', order_nr: 2 },
        ],
      },
    ]);
    expect(await loaders.activityTypes!(ctx)).toEqual([
      { id: 1, key: 'call', name: 'Call' },
      { id: 2, key: 'meeting', name: 'Meeting' },
    ]);
  });

  it('creates, lists and removes webhooks (version 2.0)', async () => {
    const ctx = ctxFor(emulator);
    const hooks = pipedrive.webhooks!;
    const created = await hooks.create(ctx, { url: 'https://app.test/in/pd', event: 'added.deal' });
    expect(created).toEqual({
      id: expect.any(String),
      url: 'https://app.test/in/pd',
      event: 'create.deal',
      active: true,
    });
    expect(emulator.webhooks[0]).toMatchObject({ event_action: 'create', event_object: 'deal', version: '2.0' });
    expect(await hooks.list(ctx)).toEqual([created]);
    await hooks.remove(ctx, created.id);
    expect(await hooks.list(ctx)).toEqual([]);
    await expect(hooks.remove(ctx, created.id)).rejects.toBeInstanceOf(PermanentError);
  });

  it('reads a person for the widget', async () => {
    await deliver(ctxFor(emulator));
    const person = await pipedriveClient(ctxFor(emulator)).getPerson(emulator.persons[0]!.id);
    expect(person).toEqual({
      id: emulator.persons[0]!.id,
      name: 'Olena Kovalenko',
      phones: ['+380501234567'],
      emails: ['olena@example.com'],
    });
  });

  it('goes through the OAuth consent and code exchange', async () => {
    const oauth = oauthOf(emulator);
    const consent = authorizeUrl(oauth, 'st-1');
    expect(new URL(consent).searchParams.get('client_id')).toBe(emulator.clientId);
    const res = await fetch(consent, { redirect: 'manual' });
    const back = new URL(res.headers.get('location')!);
    expect(back.origin + back.pathname).toBe(oauth.redirectUri);
    expect(back.searchParams.get('state')).toBe('st-1');
    const fetchFn = createSafeFetch({ allowPrivate: true });
    const tokens = await exchangeCode(fetchFn, oauth, back.searchParams.get('code')!);
    expect(tokens.apiDomain).toBe(emulator.url);
    await pipedrive.testConnection!(ctxFor(emulator, { auth: { kind: 'oauth', ...tokens } }));
    // A code works once.
    await expect(exchangeCode(fetchFn, oauth, back.searchParams.get('code')!)).rejects.toBeInstanceOf(PermanentError);
  });
});
