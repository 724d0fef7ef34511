import type { Lead } from '@leadrelay/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { describeConnectorContract, SAMPLE_LEAD } from '../kit/contract';
import { PermanentError, RetryableError } from '../kit/errors';
import { type MemoryAuthStore, memoryAuthStore } from '../kit/memory-auth';
import { createSafeFetch } from '../kit/safe-fetch';
import type { ConnectorContext, ConnectorLogger } from '../kit/types';
import { signIn, type UspacyAuth } from './client';
import { startUspacyEmulator, type UspacyEmulator } from './emulator';
import { markerOf, uspacy } from './index';
import { type UspacySettings, ZUspacySettings } from './schema';

const noopLogger: ConnectorLogger = { debug() {}, info() {}, warn() {} };
type Ctx = ConnectorContext<UspacyAuth, UspacySettings>;
const settingsOf = (s: Partial<UspacySettings> = {}): UspacySettings => ZUspacySettings.parse(s);

async function passwordAuth(emulator: UspacyEmulator): Promise<UspacyAuth> {
  const t = await emulator.issueTokens();
  return { kind: 'password', portal: emulator.url, email: emulator.email, ...t, userId: 1 };
}
const webhookAuth = (emulator: UspacyEmulator): UspacyAuth => ({ kind: 'webhook', webhookUrl: emulator.webhookUrl });

function ctxOf(
  auth: UspacyAuth,
  opts: Partial<Pick<Ctx, 'rotateAuth' | 'withLock' | 'logger' | 'signal' | 'fetch'>> & {
    settings?: Partial<UspacySettings>;
  } = {},
): Ctx {
  return {
    auth,
    settings: settingsOf(opts.settings),
    fetch: opts.fetch ?? createSafeFetch({ allowPrivate: true, timeoutMs: 5000 }),
    logger: opts.logger ?? noopLogger,
    signal: opts.signal ?? new AbortController().signal,
    rotateAuth: opts.rotateAuth,
    withLock: opts.withLock,
  };
}

// ---- The shared contract, in both ways of connecting ----

for (const mode of ['password', 'webhook'] as const) {
  describeConnectorContract(`uspacy (${mode})`, async () => {
    const emulator = await startUspacyEmulator();
    // Long enough for a first request on a loaded two-core machine; the slow-destination test waits 4× this.
    const timeoutMs = 1000;
    const fetch = createSafeFetch({ allowPrivate: true, timeoutMs });
    const secrets = [emulator.password, emulator.webhookKey];
    let store: MemoryAuthStore<UspacyAuth>;
    const fresh = async () => {
      const auth = mode === 'password' ? await passwordAuth(emulator) : webhookAuth(emulator);
      if (auth.kind === 'password') secrets.push(auth.jwt, auth.refreshToken);
      store = memoryAuthStore(auth);
    };
    await fresh();
    return {
      connector: uspacy,
      ctx: ({ logger, signal }) =>
        ctxOf(store.current(), { fetch, logger, signal, rotateAuth: store.rotateAuth, withLock: store.withLock }),
      emulator: {
        recordCount: () => emulator.leads.length + emulator.deals.length,
        setLatency: (ms) => emulator.setLatency(ms),
        // Uspacy's own auth failure: the session was ended (the refresh is refused too), or the webhook deleted.
        setFault: (fault) => {
          if (fault?.status !== 401) return emulator.setFault(fault);
          if (mode === 'password') emulator.revokeTokens();
          else emulator.revokeWebhook();
        },
        reset: async () => {
          emulator.reset();
          await fresh();
        },
        close: () => emulator.close(),
      },
      secrets,
      timeoutMs,
    };
  });
}

// ---- Behaviour against the emulator ----

describe('uspacy destination', () => {
  let emulator: UspacyEmulator;
  beforeAll(async () => {
    emulator = await startUspacyEmulator({ twoFactorCode: '123456' });
  });
  afterAll(() => emulator.close());
  beforeEach(() => emulator.reset());

  const deliver = (ctx: Ctx, lead: Lead = SAMPLE_LEAD, key = `k-${Math.random()}`, assignee?: { id: string }) =>
    uspacy.deliver!(ctx, { lead, idempotencyKey: key, assignee, raw: { form: 'spring', answers: { city: 'Kyiv' } } });

  it('signs in once with the password (and two-factor code) and keeps only tokens; a wrong password says so without echoing it', async () => {
    const call = { fetch: createSafeFetch({ allowPrivate: true, timeoutMs: 5000 }) };
    const { auth, domain } = await signIn(call, emulator.url, {
      email: emulator.email,
      password: emulator.password,
      code: '123456',
    });
    expect(domain).toBe(emulator.host);
    expect(auth).toMatchObject({ kind: 'password', portal: emulator.url, email: emulator.email, userId: 1 });
    expect(JSON.stringify(auth)).not.toContain(emulator.password);
    expect(auth.expiresAt).toBeGreaterThan(Date.now() + 3_000_000);

    for (const wrong of [
      { email: emulator.email, password: 'not-the-password-9f3', code: '123456' },
      { email: emulator.email, password: emulator.password },
    ]) {
      const err = await signIn(call, emulator.url, wrong).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PermanentError);
      expect(err).toMatchObject({ code: 'AUTH', httpStatus: 401 });
      expect((err as Error).message).toBe('USPACY_SIGN_IN_FAILED: HTTP 401');
      expect(JSON.stringify({ ...(err as object), message: (err as Error).message })).not.toContain(wrong.password);
    }
  });

  it('makes the contact and a lead in the chosen funnel and stage, with owner, UTM, mapped fields and a comment', async () => {
    const ctx = ctxOf(await passwordAuth(emulator), {
      settings: {
        funnelId: 2,
        stageId: 202,
        title: '{source}: {name}',
        ownerId: 1,
        fields: [
          { from: 'custom.city', entity: 'lead', code: 'city' },
          { from: 'custom.budget', entity: 'lead', code: 'budget' },
          { from: 'custom.product', entity: 'lead', code: 'product' },
          { from: 'custom.channels', entity: 'lead', code: 'channels' },
          { from: 'custom.position', entity: 'contact', code: 'position' },
          { from: 'custom.promo', entity: 'deal', code: 'promo' },
        ],
      },
    });
    const lead: Lead = {
      ...SAMPLE_LEAD,
      custom: {
        city: 'Kyiv',
        budget: '1 500',
        product: 'Професійний',
        channels: 'telegram; Viber, fax',
        position: 'CEO',
        promo: 'X',
      },
    };
    const result = await deliver(ctx, lead, 'key-1', { id: '2' });

    expect(emulator.contacts).toHaveLength(1);
    expect(emulator.contacts[0]).toMatchObject({
      title: 'Olena Kovalenko',
      first_name: 'Olena',
      last_name: 'Kovalenko',
      phone: [{ value: '+380501234567', type: 'work' }],
      email: [{ value: 'olena@example.com', type: 'work' }],
      owner: 2,
      position: 'CEO',
    });
    expect(emulator.leads).toHaveLength(1);
    const made = emulator.leads[0]!;
    expect(made).toMatchObject({
      title: 'facebook: Olena Kovalenko',
      funnel_id: 2,
      kanban_stage_id: 202,
      owner: 2,
      contacts: [emulator.contacts[0]!.id],
      utm_source: 'facebook',
      utm_campaign: 'spring',
      city: 'Kyiv',
      budget: 1500,
      product: 'pro',
      channels: ['telegram', 'viber'],
      comments: `Call after 18:00\n\nLeadRelay · ${markerOf('key-1')}`,
    });
    // A deal's field is not written into a lead.
    expect(made.promo).toBeUndefined();
    expect(result.externalId).toBe(String(made.id));
    expect(result.request?.url).toBe(`${emulator.url}/crm/v1/entities/leads`);
    expect(result.response?.status).toBe(201);
    // The comment, by the signed-in user, in Ukrainian, with the raw lead.
    expect(emulator.comments).toHaveLength(1);
    expect(emulator.comments[0]).toMatchObject({ entityType: 'lead', entityId: made.id, authorId: 1 });
    expect(emulator.comments[0]!.message).toContain('Телефон: +380501234567');
    expect(emulator.comments[0]!.message).toContain('UTM: utm_source=facebook, utm_campaign=spring');
    expect(emulator.comments[0]!.message).toContain('"form": "spring"');
  });

  it('a second lead of the same person (same phone, other spelling) goes to the contact already there', async () => {
    const ctx = ctxOf(webhookAuth(emulator));
    await deliver(ctx, { name: 'Olena', phone: '+380501234567', email: 'o@example.com', custom: {} });
    await deliver(ctx, { name: 'Olena K', phone: '050 123 45 67', custom: {} });
    await deliver(ctx, { name: 'Olena', email: ' O@Example.com', custom: {} });
    expect(emulator.contacts).toHaveLength(1);
    expect(emulator.leads.map((l) => l.contacts)).toEqual([[1], [1], [1]]);
    expect(emulator.calls('GET /crm/v1/entities/contacts')[0]?.query).toMatchObject({ phone: '501234567' });
  });

  it('two leads for one phone at the same moment make one contact (under the person lock)', async () => {
    const store = memoryAuthStore(webhookAuth(emulator));
    const ctx = ctxOf(store.current(), { withLock: store.withLock, settings: { note: false } });
    emulator.setLatency(30);
    await Promise.all([
      deliver(ctx, { name: 'Ivan', phone: '+380671234567', custom: {} }),
      deliver(ctx, { name: 'Ivan P', phone: '+380671234567', custom: {} }),
    ]);
    expect(emulator.contacts).toHaveLength(1);
    expect(emulator.leads).toHaveLength(2);
  });

  it('a deal in the chosen sales funnel, its contact linked, deal fields mapped', async () => {
    const ctx = ctxOf(webhookAuth(emulator), {
      settings: {
        target: 'deal',
        funnelId: 4,
        stageId: 402,
        fields: [
          { from: 'custom.sum', entity: 'deal', code: 'amount_of_the_deal' },
          { from: 'custom.date', entity: 'deal', code: 'delivery_date' },
        ],
      },
    });
    const result = await deliver(ctx, { ...SAMPLE_LEAD, custom: { sum: '12 500,50 USD', date: '05.03.2026' } });
    expect(emulator.leads).toHaveLength(0);
    expect(emulator.deals).toHaveLength(1);
    expect(emulator.deals[0]).toMatchObject({
      title: 'Заявка: Olena Kovalenko',
      funnel_id: 4,
      kanban_stage_id: 402,
      contacts: [emulator.contacts[0]!.id],
      amount_of_the_deal: { currency: 'USD', value: '12500.5' },
      delivery_date: Date.UTC(2026, 2, 5) / 1000,
    });
    expect(emulator.deals[0]!.first_name).toBeUndefined();
    expect(result.externalId).toBe(String(emulator.deals[0]!.id));
    // Through the webhook the comment's author is the responsible user, else the webhook's own user.
    expect(emulator.comments[0]).toMatchObject({ entityType: 'deal', authorId: 1 });
  });

  it('a retry after the answer was lost finds the lead the first attempt made: one lead, one comment', async () => {
    const ctx = ctxOf(await passwordAuth(emulator));
    emulator.setFault({ isAnswerLost: true, match: 'POST /crm/v1/entities/leads', times: 1 });
    const first = await deliver(ctx, SAMPLE_LEAD, 'lost-1').catch((e: unknown) => e);
    expect(first).toBeInstanceOf(RetryableError);
    expect(emulator.leads).toHaveLength(1);
    expect(emulator.comments).toHaveLength(0);

    const again = await deliver(ctx, SAMPLE_LEAD, 'lost-1');
    expect(emulator.leads).toHaveLength(1);
    expect(again.externalId).toBe(String(emulator.leads[0]!.id));
    // The comment the lost attempt never got is added once; a third try adds nothing.
    expect(emulator.comments).toHaveLength(1);
    await deliver(ctx, SAMPLE_LEAD, 'lost-1');
    expect(emulator.leads).toHaveLength(1);
    expect(emulator.comments).toHaveLength(1);
    // Another delivery of the same person is another lead.
    await deliver(ctx, SAMPLE_LEAD, 'lost-2');
    expect(emulator.leads).toHaveLength(2);
  });

  it('an expired token is refreshed once for two deliveries at once; the new pair replaces the stored one', async () => {
    const store = memoryAuthStore(await passwordAuth(emulator));
    const before = store.current();
    emulator.expireTokens();
    const ctx = () =>
      ctxOf(store.current(), { rotateAuth: store.rotateAuth, withLock: store.withLock, settings: { note: false } });
    await Promise.all([
      deliver(ctx(), { name: 'A', phone: '+380501111111', custom: {} }),
      deliver(ctx(), { name: 'B', phone: '+380502222222', custom: {} }),
    ]);
    expect(emulator.leads).toHaveLength(2);
    expect(emulator.refreshes()).toBe(1);
    expect(store.refreshes()).toBe(1);
    const after = store.current() as Extract<UspacyAuth, { kind: 'password' }>;
    expect(after.jwt).not.toBe((before as typeof after).jwt);
    expect(after.refreshToken).not.toBe((before as typeof after).refreshToken);
  });

  it('a refresh Uspacy refuses is a permanent AUTH failure the web translates (USPACY_REFRESH_FAILED)', async () => {
    const ctx = ctxOf(await passwordAuth(emulator));
    emulator.revokeTokens();
    const err = await deliver(ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermanentError);
    expect(err).toMatchObject({ code: 'AUTH', httpStatus: 401, message: 'USPACY_REFRESH_FAILED: HTTP 401' });
    expect(emulator.leads).toHaveLength(0);
  });

  it('a deleted incoming webhook is USPACY_WEBHOOK_REFUSED, and its key never shows in the trace', async () => {
    emulator.revokeWebhook();
    const err = (await deliver(ctxOf(webhookAuth(emulator))).catch((e: unknown) => e)) as PermanentError;
    expect(err).toBeInstanceOf(PermanentError);
    expect(err).toMatchObject({ code: 'AUTH', httpStatus: 401, message: 'USPACY_WEBHOOK_REFUSED: HTTP 401' });
    expect(err.trace.request?.url).toContain('/company/v1/incoming_webhooks/run/[redacted]/crm/v1/entities/contacts');
    expect(JSON.stringify(err.trace)).not.toContain(emulator.webhookKey);
  });

  it("Uspacy's validation refusal keeps its words; an error inside a 200 is refused too", async () => {
    const ctx = ctxOf(webhookAuth(emulator), { settings: { funnelId: 1, stageId: 202 } });
    const invalid = (await deliver(ctx).catch((e: unknown) => e)) as PermanentError;
    expect(invalid).toBeInstanceOf(PermanentError);
    expect(invalid).toMatchObject({ code: 'HTTP_4XX', httpStatus: 422 });
    expect(invalid.message).toBe('USPACY_VALIDATION: kanban_stage_id: The selected kanban stage id is invalid.');

    emulator.setFault({ status: 200, message: 'Portal is read-only', match: 'POST /crm/v1/entities/leads' });
    const inside = (await deliver(ctxOf(webhookAuth(emulator))).catch((e: unknown) => e)) as PermanentError;
    expect(inside).toBeInstanceOf(PermanentError);
    expect(inside).toMatchObject({ code: 'HTTP_UNEXPECTED', httpStatus: 200 });
    expect(inside.message).toBe('USPACY_REFUSED: Portal is read-only');
    expect(emulator.leads).toHaveLength(0);
  });

  it('a short 429 is waited out in the call; a long one is retried later with its Retry-After', async () => {
    const ctx = ctxOf(webhookAuth(emulator), { settings: { note: false } });
    emulator.setFault({ status: 429, retryAfter: 1, times: 1 });
    await deliver(ctx);
    expect(emulator.leads).toHaveLength(1);
    emulator.setFault({ status: 429, retryAfter: 30, times: 1 });
    const err = await deliver(ctx).catch((e: unknown) => e);
    expect(err).toMatchObject({ httpStatus: 429, retryAfterMs: 30_000, code: 'RATE_LIMITED' });
  });

  it('a comment Uspacy refuses does not fail the delivery', async () => {
    const warnings: string[] = [];
    const logger = { ...noopLogger, warn: (_o: object, msg?: string) => void warnings.push(msg ?? '') };
    emulator.setFault({ status: 500, match: 'POST /comments/v1/comments' });
    const result = await deliver(ctxOf(webhookAuth(emulator), { logger }));
    expect(result.externalId).toBe(String(emulator.leads[0]!.id));
    expect(warnings).toEqual(['Uspacy comment not added']);
  });

  it('a lead with neither phone nor e-mail is a lead without a contact', async () => {
    await deliver(ctxOf(webhookAuth(emulator)), { name: 'Anonymous', comment: 'Call me', custom: {} });
    expect(emulator.contacts).toHaveLength(0);
    expect(emulator.leads[0]).toMatchObject({ title: 'Заявка: Anonymous', first_name: 'Anonymous' });
    expect(emulator.leads[0]!.contacts).toBeUndefined();
  });
});

describe('uspacy lists and connection check', () => {
  let emulator: UspacyEmulator;
  beforeAll(async () => {
    emulator = await startUspacyEmulator();
  });
  afterAll(() => emulator.close());
  beforeEach(() => emulator.reset());

  it('funnels with their stages in order, whether Uspacy lists them with the funnel or per funnel', async () => {
    const ctx = ctxOf(webhookAuth(emulator));
    const listed = await uspacy.loaders!.leadFunnels!(ctx);
    emulator.setFunnelsWithStages(false);
    const perFunnel = await uspacy.loaders!.leadFunnels!(ctx);
    expect(perFunnel).toEqual(listed);
    expect(listed).toEqual([
      {
        id: 1,
        title: 'Вхідні заявки',
        isDefault: true,
        stages: [
          { id: 101, title: 'Нова', sort: 10, code: 'stage_101', isSystem: false },
          { id: 102, title: 'Кваліфікація', sort: 20, code: 'stage_102', isSystem: false },
          { id: 198, title: 'Успішно', sort: 1000, code: 'SUCCESS', isSystem: true },
          { id: 199, title: 'Провалено', sort: 1010, code: 'FAIL', isSystem: true },
        ],
      },
      expect.objectContaining({ id: 2, title: 'Партнери', isDefault: false }),
    ]);
    expect(emulator.calls('GET /crm/v1/entities/leads/kanban/stage').map((c) => c.query.funnel_id)).toEqual(['1', '2']);
    const deals = (await uspacy.loaders!.dealFunnels!(ctx)) as { title: string }[];
    expect(deals.map((f) => f.title)).toEqual(['Продажі', 'Опт']);
  });

  it("the portal's fields a value can go into: not hidden, not the ones the connector fills, of a type it writes", async () => {
    const fields = await uspacy.loaders!.uspacyFields!(ctxOf(webhookAuth(emulator)));
    const codes = (
      fields as { lead: { code: string }[]; deal: { code: string }[]; contact: { code: string }[] }
    ).lead.map((f) => f.code);
    expect(codes).toEqual(['source', 'company_name', 'city', 'budget', 'product', 'channels', 'call_at']);
    expect((fields as { deal: { code: string }[] }).deal.map((f) => f.code)).toEqual([
      'amount_of_the_deal',
      'delivery_date',
      'promo',
    ]);
    const generic = await uspacy.loaders!.fields!(ctxOf(webhookAuth(emulator)));
    expect(generic).toContainEqual({
      key: 'lead.product',
      label: 'Продукт',
      type: 'list',
      options: [
        { value: 'basic', label: 'Базовий' },
        { value: 'pro', label: 'Професійний' },
      ],
    });
  });

  it('users are the active ones, by name', async () => {
    expect(await uspacy.loaders!.uspacyUsers!(ctxOf(await passwordAuth(emulator)))).toEqual([
      { id: 1, name: 'Анна Коваль', email: 'anna@demo.test' },
      { id: 2, name: 'Богдан Мельник', email: 'bohdan@demo.test' },
    ]);
  });

  it('the check fails on a funnel or stage the portal no longer has', async () => {
    const check = (settings: Partial<UspacySettings>) =>
      uspacy.testConnection!(ctxOf(webhookAuth(emulator), { settings })).then(
        () => 'ok',
        (e: Error) => e.message,
      );
    expect(await check({})).toBe('ok');
    expect(await check({ funnelId: 2, stageId: 201 })).toBe('ok');
    expect(await check({ funnelId: 9 })).toBe('USPACY_FUNNEL_NOT_FOUND');
    expect(await check({ funnelId: 1, stageId: 201 })).toBe('USPACY_STAGE_NOT_FOUND');
    expect(await check({ target: 'deal', funnelId: 3, stageId: 301 })).toBe('ok');
    emulator.revokeWebhook();
    expect(await check({})).toBe('USPACY_WEBHOOK_REFUSED: HTTP 401');
  });
});
