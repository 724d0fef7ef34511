import type { Lead } from '@leadrelay/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { describeConnectorContract, SAMPLE_LEAD } from '../kit/contract';
import { PermanentError, RetryableError } from '../kit/errors';
import { memoryAuthStore } from '../kit/memory-auth';
import { createSafeFetch } from '../kit/safe-fetch';
import type { ConnectorContext, ConnectorLogger } from '../kit/types';
import type { Bitrix24Auth } from './client';
import { bitrix24ConnectForTest } from './connect-test-helpers';
import { type Bitrix24Emulator, startBitrix24Emulator } from './emulator';
import { bitrix24, bitrix24Pipelines, bitrix24Users, originIdOf } from './index';
import { type Bitrix24Settings, ZBitrix24Settings } from './schema';

const noopLogger: ConnectorLogger = { debug() {}, info() {}, warn() {} };
type Ctx = ConnectorContext<Bitrix24Auth, Bitrix24Settings>;

function ctxOf(
  em: Bitrix24Emulator,
  opts: Partial<Pick<Ctx, 'withLock' | 'logger' | 'signal' | 'fetch'>> & { settings?: Partial<Bitrix24Settings> } = {},
): Ctx {
  return {
    auth: { kind: 'webhook', webhookUrl: em.webhookUrl },
    settings: ZBitrix24Settings.parse(opts.settings ?? {}),
    fetch: opts.fetch ?? createSafeFetch({ allowPrivate: true, timeoutMs: 5000 }),
    logger: opts.logger ?? noopLogger,
    signal: opts.signal ?? new AbortController().signal,
    withLock: opts.withLock,
  };
}

// ---- The shared contract, for deals and for leads ----

for (const target of ['deal', 'lead'] as const) {
  describeConnectorContract(`bitrix24 (${target})`, async () => {
    const emulator = await startBitrix24Emulator();
    // Long enough for a first request on a loaded two-core machine; the slow-destination test waits 4× this.
    const timeoutMs = 1000;
    const fetch = createSafeFetch({ allowPrivate: true, timeoutMs });
    const store = memoryAuthStore<Bitrix24Auth>({ kind: 'webhook', webhookUrl: emulator.webhookUrl });
    return {
      connector: bitrix24,
      ctx: ({ logger, signal }) =>
        ctxOf(emulator, {
          fetch,
          logger,
          signal,
          withLock: store.withLock,
          settings: { target, categoryId: 1, stageId: 203 },
        }),
      emulator: {
        recordCount: () => emulator.leads.length + emulator.deals.length,
        setLatency: (ms) => emulator.setLatency(ms),
        // Bitrix24's own auth failure: the inbound webhook was deleted (NO_AUTH_FOUND, 401).
        setFault: (fault) => (fault?.status === 401 ? emulator.revokeWebhook() : emulator.setFault(fault)),
        reset: () => emulator.reset(),
        close: () => emulator.close(),
      },
      secrets: [emulator.webhookCode],
      timeoutMs,
    };
  });
}

// ---- Behaviour against the emulator ----

describe('bitrix24 destination', () => {
  let em: Bitrix24Emulator;
  beforeAll(async () => {
    em = await startBitrix24Emulator();
  });
  afterAll(() => em.close());
  beforeEach(() => em.reset());

  const deliver = (
    ctx: Ctx,
    lead: Lead = SAMPLE_LEAD,
    key = `k-${Math.random()}`,
    more: { assignee?: { id: string }; outcomeUnknown?: boolean } = {},
  ) => bitrix24.deliver!(ctx, { lead, idempotencyKey: key, ...more });

  it('makes the contact and a deal in the chosen pipeline and stage, with UTM, source, comment and the assignee', async () => {
    const ctx = ctxOf(em, { settings: { target: 'deal', categoryId: 1, stageId: 203, title: '{source}: {name}' } });
    const result = await deliver(
      ctx,
      { ...SAMPLE_LEAD, utm: { source: 'facebook', medium: 'cpc', campaign: 'spring' } },
      'key-1',
      {
        assignee: { id: '2' },
      },
    );
    expect(em.contacts).toHaveLength(2);
    const contact = em.contacts[1]!;
    expect(contact).toMatchObject({
      NAME: 'Olena',
      LAST_NAME: 'Kovalenko',
      PHONE: [expect.objectContaining({ VALUE: '+380501234567' })],
      EMAIL: [expect.objectContaining({ VALUE: 'olena@example.com' })],
      ASSIGNED_BY_ID: 2,
    });
    expect(em.deals).toHaveLength(1);
    expect(em.deals[0]).toMatchObject({
      ID: result.externalId,
      TITLE: 'facebook: Olena Kovalenko',
      CATEGORY_ID: 1,
      STAGE_ID: 'C1:PREPARATION',
      CONTACT_IDS: [Number(contact.ID)],
      ASSIGNED_BY_ID: 2,
      UTM_SOURCE: 'facebook',
      UTM_MEDIUM: 'cpc',
      UTM_CAMPAIGN: 'spring',
      SOURCE_DESCRIPTION: 'facebook',
      COMMENTS: 'Call after 18:00\n\ncity: Kyiv',
      ORIGINATOR_ID: 'leadrelay',
      ORIGIN_ID: originIdOf('key-1'),
    });
    // The record's trace has no webhook code.
    expect(JSON.stringify(result)).not.toContain(em.webhookCode);
  });

  it('finds the customer the CRM has by phone, else by e-mail, instead of making a second contact', async () => {
    const ctx = ctxOf(em, { settings: { target: 'deal' } });
    await deliver(ctx, { name: 'Марія', phone: '0671112233', custom: {} });
    await deliver(ctx, { name: 'Марія', email: 'MARIA@example.com', custom: {} });
    expect(em.contacts).toHaveLength(1);
    expect(em.deals.map((d) => d.CONTACT_IDS)).toEqual([[7], [7]]);
    // The general pipeline's first stage when none is chosen (Bitrix24's default).
    expect(em.deals[0]!.STAGE_ID).toBe('NEW');
    expect(em.calls('crm.duplicate.findbycomm').map((c) => (c.params as { type: string }).type)).toEqual([
      'PHONE',
      'EMAIL',
    ]);
  });

  it('a lead carries the person and links a contact the CRM has, but makes none (the manager converts it)', async () => {
    const ctx = ctxOf(em, { settings: { target: 'lead' } });
    await deliver(ctx, { ...SAMPLE_LEAD });
    await deliver(ctx, { name: 'Марія', phone: '+380671112233', custom: {} });
    expect(em.contacts).toHaveLength(1);
    expect(em.leads[0]).toMatchObject({
      TITLE: 'Заявка: Olena Kovalenko',
      NAME: 'Olena',
      LAST_NAME: 'Kovalenko',
      UTM_SOURCE: 'facebook',
    });
    expect(em.leads[0]!.CONTACT_ID).toBeUndefined();
    expect(em.leads[1]).toMatchObject({ CONTACT_ID: 7, PHONE: [expect.objectContaining({ VALUE: '+380671112233' })] });
  });

  it('a webhook without the Users scope still delivers, to the chosen responsible user; its users list says why it is empty', async () => {
    em.setScopes(['crm']);
    const ctx = ctxOf(em, { settings: { target: 'deal', ownerId: 1 } });
    await deliver(ctx, SAMPLE_LEAD, 'u', { assignee: { id: '2' } });
    expect(em.deals.map((d) => d.ASSIGNED_BY_ID)).toEqual([1]);
    await expect(bitrix24Users(ctx)).rejects.toThrow(/^BITRIX24_NO_USER_SCOPE/);
  });

  it('an assignee the portal does not have (or has fired) falls back to the chosen responsible user', async () => {
    const ctx = ctxOf(em, { settings: { target: 'deal', ownerId: 1 } });
    await deliver(ctx, SAMPLE_LEAD, 'a', { assignee: { id: '3' } });
    await deliver(ctx, SAMPLE_LEAD, 'b', { assignee: { id: 'manager-uuid' } });
    expect(em.deals.map((d) => d.ASSIGNED_BY_ID)).toEqual([1, 1]);
  });

  it('a retry after an unknown outcome answers the deal made before; a new key makes a new one', async () => {
    const ctx = ctxOf(em, { settings: { target: 'deal' } });
    const first = await deliver(ctx, SAMPLE_LEAD, 'same');
    const again = await deliver(ctx, SAMPLE_LEAD, 'same', { outcomeUnknown: true });
    expect(again.externalId).toBe(first.externalId);
    expect(em.deals).toHaveLength(1);
    await deliver(ctx, SAMPLE_LEAD, 'other', { outcomeUnknown: true });
    expect(em.deals).toHaveLength(2);
    expect(em.contacts).toHaveLength(2);
  });

  it("a portal ignoring the list's filter never makes a retry answer another delivery's deal", async () => {
    const ctx = ctxOf(em, { settings: { target: 'deal' } });
    const first = await deliver(ctx, SAMPLE_LEAD, 'first');
    em.setListFilterIgnored(true);
    const retried = await deliver(ctx, { ...SAMPLE_LEAD, name: 'Other' }, 'second', { outcomeUnknown: true });
    expect(retried.externalId).not.toBe(first.externalId);
    expect(em.deals).toHaveLength(2);
    const again = await deliver(ctx, SAMPLE_LEAD, 'first', { outcomeUnknown: true });
    expect(again.externalId).toBe(first.externalId);
  });

  it('two deliveries of one person at once make one contact', async () => {
    const ctx = ctxOf(em, { settings: { target: 'deal' } });
    await Promise.all([deliver(ctx, SAMPLE_LEAD, 'x'), deliver(ctx, { ...SAMPLE_LEAD, email: undefined }, 'y')]);
    expect(em.contacts).toHaveLength(2);
    expect(em.deals).toHaveLength(2);
  });

  it('QUERY_LIMIT_EXCEEDED is waited out once; when it persists, the delivery is retried later with nothing made', async () => {
    const ctx = ctxOf(em, { settings: { target: 'deal' } });
    em.setFault({ status: 503, error: 'QUERY_LIMIT_EXCEEDED', times: 1 });
    await deliver(ctx);
    expect(em.deals).toHaveLength(1);
    em.reset();
    em.setFault({ status: 503, error: 'QUERY_LIMIT_EXCEEDED' });
    const err = await deliver(ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RetryableError);
    expect(err).toMatchObject({ code: 'RATE_LIMITED', httpStatus: 503, retryAfterMs: 1000 });
    expect((err as Error).message).toMatch(/^RATE_LIMITED: /);
    expect(em.deals).toHaveLength(0);
  });

  it('the leaky bucket (2 requests a second) does not lose a lead in a burst', async () => {
    em.setRateLimit(4);
    const ctx = ctxOf(em, { settings: { target: 'deal' } });
    const results = await Promise.allSettled(
      [1, 2, 3].map((n) => deliver(ctx, { name: `N${n}`, phone: `+38050000000${n}`, custom: {} })),
    );
    // Each delivery either made its deal or failed as retryable (the engine tries it again): none is lost as permanent.
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(RetryableError);
    expect(em.deals.length).toBe(results.filter((r) => r.status === 'fulfilled').length);
  });

  it("the portal's refusals say what to do: no CRM scope, a deleted webhook, a closed portal, a stage gone", async () => {
    const ctx = ctxOf(em, { settings: { target: 'deal' } });
    em.setScopes(['user']);
    let err = await deliver(ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermanentError);
    expect(err).toMatchObject({ code: 'AUTH', httpStatus: 403 });
    expect((err as Error).message).toMatch(/^BITRIX24_NO_CRM_SCOPE: insufficient_scope/);

    em.reset();
    em.revokeWebhook();
    err = await deliver(ctx).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'AUTH', httpStatus: 401, message: 'BITRIX24_WEBHOOK_REFUSED: HTTP 401' });

    em.reset();
    em.setFault({ status: 500, error: 'PORTAL_DELETED' });
    err = await deliver(ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermanentError);
    expect((err as Error).message).toMatch(/^BITRIX24_PORTAL_GONE/);

    em.reset();
    err = await deliver(ctxOf(em, { settings: { target: 'deal', categoryId: 1, stageId: 103 } })).catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: 'BITRIX24_STAGE_NOT_FOUND' });
    expect(em.deals).toHaveLength(0);
    expect(em.contacts).toHaveLength(1);
  });

  it('lists pipelines with their stages and the active users; the check refuses a pipeline or stage gone', async () => {
    const ctx = ctxOf(em);
    const pipelines = await bitrix24Pipelines(ctx);
    expect(pipelines.map((p) => [p.id, p.name, p.isDefault, p.stages.map((s) => s.statusId)])).toEqual([
      [0, 'Загальна', true, ['NEW', 'PREPARATION', 'EXECUTING', 'WON', 'LOSE']],
      [1, 'Опт', false, ['C1:NEW', 'C1:PREPARATION', 'C1:WON', 'C1:LOSE']],
    ]);
    expect(await bitrix24Users(ctx)).toEqual([
      { id: 1, name: 'Анна Коваль', email: 'anna@demo.test' },
      { id: 2, name: 'Богдан Мельник', email: 'bohdan@demo.test' },
    ]);
    await expect(
      bitrix24.testConnection!(ctxOf(em, { settings: { target: 'deal', categoryId: 1, stageId: 203 } })),
    ).resolves.toBeUndefined();
    await expect(
      bitrix24.testConnection!(ctxOf(em, { settings: { target: 'deal', categoryId: 9 } })),
    ).rejects.toMatchObject({
      code: 'BITRIX24_PIPELINE_NOT_FOUND',
    });
    await expect(
      bitrix24.testConnection!(ctxOf(em, { settings: { target: 'deal', categoryId: 0, stageId: 203 } })),
    ).rejects.toMatchObject({ code: 'BITRIX24_STAGE_NOT_FOUND' });
  });

  it('connect takes only an inbound webhook address on an allowed https host, and keeps its code out of the account', async () => {
    const { credentials, account } = bitrix24ConnectForTest(['acme.bitrix24.ua']);
    await expect(credentials('https://acme.bitrix24.ua/rest/1/abcdef123456/')).resolves.toEqual({
      kind: 'webhook',
      webhookUrl: 'https://acme.bitrix24.ua/rest/1/abcdef123456/',
    });
    // As Bitrix24's examples show it: a method after the address.
    await expect(credentials('https://acme.bitrix24.ua/rest/1/abcdef123456/profile.json')).resolves.toMatchObject({
      webhookUrl: 'https://acme.bitrix24.ua/rest/1/abcdef123456/',
    });
    for (const [url, code] of [
      ['https://acme.bitrix24.ua/rest/1/', 'BITRIX24_WEBHOOK_URL_INVALID'],
      ['https://acme.bitrix24.ua/rest/0/abcdef123456/', 'BITRIX24_WEBHOOK_URL_INVALID'],
      ['https://user:pw@acme.bitrix24.ua/rest/1/abcdef123456/', 'BITRIX24_WEBHOOK_URL_INVALID'],
      ['https://acme.bitrix24.ua/rest/1/abcdef123456/?x=1', 'BITRIX24_WEBHOOK_URL_INVALID'],
      ['not a url', 'BITRIX24_WEBHOOK_URL_INVALID'],
      ['https://evil.example.com/rest/1/abcdef123456/', 'BITRIX24_HOST_NOT_ALLOWED'],
      ['http://acme.bitrix24.ua/rest/1/abcdef123456/', 'BITRIX24_HOST_NOT_ALLOWED'],
    ] as const) {
      await expect(credentials(url), url).rejects.toMatchObject({ code, field: 'webhookUrl' });
    }
    expect(account({ kind: 'webhook', webhookUrl: 'https://acme.bitrix24.ua/rest/1/abcdef123456/' })).toEqual({
      connected: true,
      portal: 'acme.bitrix24.ua',
      userId: 1,
      webhook: 'https://acme.bitrix24.ua/rest/1/••••/',
    });
  });
});
