import type { Lead } from '@leadrelay/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createConnectorCache } from '../kit/cache';
import { describeConnectorContract, SAMPLE_LEAD } from '../kit/contract';
import { DeferredError, PermanentError, RetryableError } from '../kit/errors';
import { memoryAuthStore } from '../kit/memory-auth';
import { createSafeFetch } from '../kit/safe-fetch';
import type { ConnectorLogger, DeliveryInput, DeliveryResult } from '../kit/types';
import type { KeycrmContext } from './client';
import { KEYCRM_EMULATOR_KEY, type KeycrmEmulator, startKeycrmEmulator } from './emulator';
import { keycrm, MAX_DEFERRALS } from './index';
import { PACE_KEY, type Pace } from './pace';
import { type KeycrmSettings, ZKeycrmSettings } from './schema';

const noopLogger: ConnectorLogger = { debug() {}, info() {}, warn() {} };

function ctxFor(
  emulator: KeycrmEmulator,
  opts: { apiKey?: string; settings?: KeycrmSettings; fetch?: typeof fetch; pace?: Pace } = {},
): KeycrmContext<KeycrmSettings> {
  const cache = createConnectorCache();
  if (opts.pace) cache.get(PACE_KEY, () => opts.pace);
  return {
    auth: { apiKey: opts.apiKey ?? KEYCRM_EMULATOR_KEY },
    settings: opts.settings ?? { pipelineId: 1, statusId: 12 },
    baseUrl: emulator.url,
    // The engine's own deadline: a 100-lead burst on a busy CI machine took the emulator over 2 s to
    // answer some calls, a timeout these tests are not about (the contract's own tests time out).
    fetch: opts.fetch ?? createSafeFetch({ allowPrivate: true, timeoutMs: 20_000 }),
    logger: noopLogger,
    signal: new AbortController().signal,
    cache,
  };
}

describeConnectorContract('keycrm', async () => {
  // The contract is about classes of failure, not the pace: a limit it never reaches.
  const emulator = await startKeycrmEmulator({ rateLimit: 10_000 });
  const timeoutMs = 1000;
  const fetch = createSafeFetch({ allowPrivate: true, timeoutMs });
  return {
    connector: keycrm,
    ctx: ({ logger, signal }) => ({ ...ctxFor(emulator, { fetch }), logger, signal }),
    emulator: {
      recordCount: () => emulator.cards.length,
      setLatency: (ms) => emulator.setLatency(ms),
      setFault: (fault) => emulator.setFault(fault),
      reset: () => emulator.reset(),
      close: () => emulator.close(),
    },
    secrets: [KEYCRM_EMULATOR_KEY],
    timeoutMs,
    rateLimit: 'defer',
  };
});

/** What the engine does with a deferral: calls again at `until`, without counting a failure. */
async function deliverLikeTheEngine(ctx: KeycrmContext<KeycrmSettings>, input: DeliveryInput) {
  let deferrals = 0;
  for (;;) {
    try {
      return { result: await keycrm.deliver!(ctx, input), deferrals };
    } catch (err) {
      if (!(err instanceof DeferredError)) throw err;
      deferrals++;
      await new Promise((r) => setTimeout(r, Math.max(0, err.until.getTime() - Date.now())));
    }
  }
}

describe('keycrm destination', () => {
  let emulator: KeycrmEmulator;
  beforeAll(async () => {
    emulator = await startKeycrmEmulator();
  });
  afterAll(() => emulator.close());
  beforeEach(() => emulator.reset());

  it('makes a card in the chosen pipeline and status for the buyer found by phone, with source, UTM, comment and the manager', async () => {
    const lead: Lead = {
      name: 'Тарас Шевчук',
      phone: '0671112233',
      comment: 'Передзвонити після 18:00',
      utm: { source: 'instagram', medium: 'cpc', campaign: 'spring', term: 'сукні', content: 'banner-2' },
      custom: { city: 'Львів' },
    };
    const settings: KeycrmSettings = { pipelineId: 1, statusId: 12, sourceId: 4, title: 'Заявка: {name}' };
    const result = await keycrm.deliver!(ctxFor(emulator, { settings }), {
      lead,
      idempotencyKey: 'lead-1:keycrm',
      assignee: { id: '6', name: 'Андрій Коваль' },
    });
    expect(emulator.cards).toHaveLength(1);
    const card = emulator.cards[0]!;
    expect(result.externalId).toBe(String(card.id));
    expect(card).toMatchObject({
      title: 'Заявка: Тарас Шевчук',
      pipeline_id: 1,
      status_id: 12,
      source_id: 4,
      manager_id: 6,
      client_id: 900,
      utm_source: 'instagram',
      utm_medium: 'cpc',
      utm_campaign: 'spring',
      utm_term: 'сукні',
      utm_content: 'banner-2',
    });
    expect(card.manager_comment).toContain('Коментар: Передзвонити після 18:00');
    expect(card.manager_comment).toContain('city: Львів');
    // No second buyer for a known phone.
    expect(emulator.buyers).toHaveLength(1);
  });

  it('a new person becomes a buyer; their next lead by e-mail alone lands on the same buyer', async () => {
    await keycrm.deliver!(ctxFor(emulator), { lead: SAMPLE_LEAD, idempotencyKey: 'a' });
    expect(emulator.buyers).toHaveLength(2);
    const made = emulator.buyers[1]!;
    expect(made).toMatchObject({
      full_name: 'Olena Kovalenko',
      phone: ['+380501234567'],
      email: ['olena@example.com'],
    });
    await keycrm.deliver!(ctxFor(emulator), {
      lead: { name: 'Olena', email: 'OLENA@example.com', custom: {} },
      idempotencyKey: 'b',
    });
    expect(emulator.buyers).toHaveLength(2);
    expect(emulator.cards.map((c) => c.client_id)).toEqual([made.id, made.id]);
  });

  it('two leads of one person at once make one buyer under ctx.withLock', async () => {
    const store = memoryAuthStore({});
    const ctx = () => ({ ...ctxFor(emulator), withLock: store.withLock });
    await Promise.all([
      keycrm.deliver!(ctx(), { lead: SAMPLE_LEAD, idempotencyKey: 'x' }),
      keycrm.deliver!(ctx(), { lead: SAMPLE_LEAD, idempotencyKey: 'y' }),
    ]);
    expect(emulator.cards).toHaveLength(2);
    expect(emulator.buyers).toHaveLength(2);
  });

  it('an assignee KeyCRM does not have (or a blocked one) is not sent; the settings manager stands in', async () => {
    await keycrm.deliver!(ctxFor(emulator), { lead: SAMPLE_LEAD, idempotencyKey: 'm1', assignee: { id: '77' } });
    await keycrm.deliver!(ctxFor(emulator, { settings: { pipelineId: 1, managerId: 5 } }), {
      lead: SAMPLE_LEAD,
      idempotencyKey: 'm2',
      assignee: { id: '7' },
    });
    expect(emulator.cards.map((c) => c.manager_id)).toEqual([null, 5]);
  });

  it("KeyCRM's 422 is refused with its own field messages, and nothing is made", async () => {
    emulator.setFault({
      status: 422,
      path: '/pipelines/cards',
      method: 'POST',
      body: {
        message: 'The given data was invalid.',
        errors: { 'contact.phone': ['The contact.phone format is invalid.'], title: ['The title is too long.'] },
      },
    });
    const err = await keycrm.deliver!(ctxFor(emulator), { lead: SAMPLE_LEAD, idempotencyKey: 'bad' }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(PermanentError);
    expect((err as PermanentError).message).toBe(
      'KEYCRM_VALIDATION: contact.phone: The contact.phone format is invalid.; title: The title is too long.',
    );
    expect(emulator.cards).toHaveLength(0);
  });

  it('a malformed e-mail does not cost the lead its card: it stays in the comment (or names a buyer who has nothing else)', async () => {
    await keycrm.deliver!(ctxFor(emulator), {
      lead: { name: 'Ірина', phone: '+380931112233', email: 'irina@@mail', custom: {} },
      idempotencyKey: 'e1',
    });
    await keycrm.deliver!(ctxFor(emulator), { lead: { email: 'not-an-email', custom: {} }, idempotencyKey: 'e2' });
    expect(emulator.cards).toHaveLength(2);
    expect(emulator.cards[0]!.manager_comment).toContain('E-mail: irina@@mail');
    const buyerOf = (i: number) => emulator.buyers.find((b) => b.id === emulator.cards[i]!.client_id);
    expect(buyerOf(0)).toMatchObject({ full_name: 'Ірина', phone: ['+380931112233'], email: [] });
    expect(buyerOf(1)).toMatchObject({ full_name: 'not-an-email', email: [] });
  });

  it('a status without its pipeline is refused by the settings schema', () => {
    const parsed = ZKeycrmSettings.safeParse({ statusId: 12 });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['pipelineId', 'REQUIRED']]);
    expect(ZKeycrmSettings.safeParse({ pipelineId: 1, statusId: 12, sourceId: 4 }).success).toBe(true);
    expect(ZKeycrmSettings.safeParse({ pipelineId: -1 }).success).toBe(false);
  });

  it('a pipeline deleted in KeyCRM: the check and the delivery say so, and nothing is made', async () => {
    emulator.removePipeline(2);
    const settings: KeycrmSettings = { pipelineId: 2, statusId: 22 };
    await expect(keycrm.testConnection!(ctxFor(emulator, { settings }))).rejects.toThrow('KEYCRM_PIPELINE_NOT_FOUND');
    const err = await keycrm.deliver!(ctxFor(emulator, { settings }), {
      lead: SAMPLE_LEAD,
      idempotencyKey: 'gone',
    }).catch((e: unknown) => e);
    expect((err as PermanentError).message).toBe('KEYCRM_PIPELINE_NOT_FOUND');
    // Without a status chosen, KeyCRM's own 422 on pipeline_id says the same.
    const err2 = await keycrm.deliver!(ctxFor(emulator, { settings: { pipelineId: 2 } }), {
      lead: SAMPLE_LEAD,
      idempotencyKey: 'gone-2',
    }).catch((e: unknown) => e);
    expect((err2 as PermanentError).message).toMatch(/^KEYCRM_PIPELINE_NOT_FOUND: pipeline_id: /);
    expect(emulator.cards).toHaveLength(0);
  });

  it('a status not in the pipeline is refused before a card is made', async () => {
    const settings: KeycrmSettings = { pipelineId: 1, statusId: 22 };
    await expect(keycrm.testConnection!(ctxFor(emulator, { settings }))).rejects.toThrow('KEYCRM_STATUS_NOT_FOUND');
    await expect(
      keycrm.deliver!(ctxFor(emulator, { settings }), { lead: SAMPLE_LEAD, idempotencyKey: 's' }),
    ).rejects.toThrow('KEYCRM_STATUS_NOT_FOUND');
    expect(emulator.cards).toHaveLength(0);
  });

  it('a wrong key is KEYCRM_KEY_REJECTED (connect again), and the check fails with it', async () => {
    const ctx = ctxFor(emulator, { apiKey: 'kcrm-not-a-real-key-000' });
    const err = await keycrm.deliver!(ctx, { lead: SAMPLE_LEAD, idempotencyKey: 'k' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermanentError);
    expect((err as PermanentError).message).toBe('KEYCRM_KEY_REJECTED');
    expect((err as PermanentError).code).toBe('AUTH');
    await expect(keycrm.testConnection!(ctxFor(emulator, { apiKey: 'kcrm-not-a-real-key-000' }))).rejects.toThrow(
      'KEYCRM_KEY_REJECTED',
    );
    expect(keycrm.codes?.reconnect).toContain('KEYCRM_KEY_REJECTED');
  });

  it('lists pipelines with their statuses, sources and active users for the screen', async () => {
    const ctx = ctxFor(emulator);
    expect(await keycrm.loaders!.pipelines!(ctx)).toEqual([
      {
        id: 1,
        name: 'Ліди з реклами',
        stages: [
          { id: 11, name: 'Новий' },
          { id: 12, name: 'Взяти в роботу' },
          { id: 13, name: 'Успішно' },
        ],
      },
      {
        id: 2,
        name: 'Оптові клієнти',
        stages: [
          { id: 21, name: 'Новий' },
          { id: 22, name: 'Переговори' },
        ],
      },
    ]);
    expect(await keycrm.loaders!.users!(ctx)).toEqual([
      { id: '5', name: 'Оксана Петренко' },
      { id: '6', name: 'Андрій Коваль' },
    ]);
    expect(await keycrm.loaders!.sources!(ctx)).toEqual([
      { id: 3, name: 'Таргетована реклама' },
      { id: 4, name: 'Сайт' },
    ]);
  });

  it('a 429 between the card and its move defers; the next call moves the same card instead of making another', async () => {
    const ctx = ctxFor(emulator);
    emulator.setFault({ status: 429, retryAfter: 1, times: 1, method: 'PUT' });
    const first = await keycrm.deliver!(ctx, { lead: SAMPLE_LEAD, idempotencyKey: 'p' }).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(DeferredError);
    expect((first as DeferredError).message).toBe('KEYCRM_RATE_LIMITED');
    expect(emulator.cards).toHaveLength(1);
    expect(emulator.cards[0]!.status_id).toBe(11);
    const { result } = await deliverLikeTheEngine(ctx, { lead: SAMPLE_LEAD, idempotencyKey: 'p' });
    expect(emulator.cards).toHaveLength(1);
    expect(emulator.cards[0]!.status_id).toBe(12);
    expect(result.externalId).toBe(String(emulator.cards[0]!.id));
  });

  it(`a key KeyCRM keeps refusing is deferred ${MAX_DEFERRALS} times, then retried as a failure (the lead reaches a state a person sees)`, async () => {
    const ctx = ctxFor(emulator);
    emulator.setFault({ status: 429, retryAfter: 30 });
    for (let i = 0; i < MAX_DEFERRALS; i++) {
      await expect(keycrm.deliver!(ctx, { lead: SAMPLE_LEAD, idempotencyKey: 'stuck' })).rejects.toBeInstanceOf(
        DeferredError,
      );
    }
    const last = await keycrm.deliver!(ctx, { lead: SAMPLE_LEAD, idempotencyKey: 'stuck' }).catch((e: unknown) => e);
    expect(last).toBeInstanceOf(RetryableError);
    expect((last as RetryableError).httpStatus).toBe(429);
    // The window KeyCRM asked for is kept: one request, not one per deferral.
    expect(emulator.requests).toHaveLength(1);
  });

  describe('60 requests a minute per key (the window scaled down: 60 per 800 ms)', () => {
    // Our pace keeps a margin under KeyCRM's 60, as KEYCRM_PACE does.
    const pace: Pace = { limit: 55, windowMs: 800, maxWaitMs: 200 };
    const leads = (n: number): DeliveryInput[] =>
      Array.from({ length: n }, (_, i) => ({
        lead: { name: `Покупець ${i}`, phone: `+38050${String(1_000_000 + i).slice(1)}`, custom: {} },
        idempotencyKey: `burst-${i}`,
      }));

    it('100 leads at once for one key all arrive as cards, each once, none failed', async () => {
      emulator.setRateLimit(60, 800);
      const ctx = ctxFor(emulator, { pace });
      const outcomes = await Promise.allSettled(leads(100).map((input) => deliverLikeTheEngine(ctx, input)));
      expect(outcomes.filter((o) => o.status === 'rejected')).toEqual([]);
      expect(emulator.cards).toHaveLength(100);
      expect(new Set(emulator.cards.map((c) => c.title)).size).toBe(100);
      expect(emulator.cards.every((c) => c.status_id === 12)).toBe(true);
      // The pace deferred part of the burst rather than waiting it out in one call.
      const deferred = outcomes.map((o) => (o.status === 'fulfilled' ? o.value.deferrals : 0));
      expect(deferred.some((d) => d > 0)).toBe(true);
    }, 60_000);

    it('when the key is shared (KeyCRM lets fewer through than we pace for), its 429s defer the leads and all still arrive', async () => {
      emulator.setRateLimit(25, 800);
      const ctx = ctxFor(emulator, { pace });
      const results: DeliveryResult[] = [];
      await Promise.all(leads(40).map(async (input) => results.push((await deliverLikeTheEngine(ctx, input)).result)));
      expect(emulator.rateLimited()).toBeGreaterThan(0);
      expect(emulator.cards).toHaveLength(40);
      expect(new Set(results.map((r) => r.externalId)).size).toBe(40);
    }, 60_000);
  });
});
