import type { Lead } from '@leadrelay/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { describeConnectorContract, SAMPLE_LEAD } from '../kit/contract';
import { DeferredError, PermanentError, RetryableError } from '../kit/errors';
import { createSafeFetch } from '../kit/safe-fetch';
import type { ConnectorContext, ConnectorLogger } from '../kit/types';
import { ALPHASMS_EMULATOR_KEY, type AlphaEmulator, startAlphaSmsEmulator } from './emulator';
import { alfasms, alphaSmsBalance, alphaSmsStatuses, type SentSms, ZAlphaSmsConnectorSettings } from './index';
import { alphaError, messageId, planMessages, quietUntil, smsPhone, smsStatusOf } from './mapping';
import type { AlphaSmsAuth, AlphaSmsSettings } from './schema';

const noopLogger: ConnectorLogger = { debug() {}, info() {}, warn() {} };
const SETTINGS: AlphaSmsSettings = {
  sender: 'LeadRelay',
  recipients: 'lead',
  leadTemplate: '{name}, дякуємо за заявку!',
  viber: false,
  international: false,
  quietHours: { enabled: false, from: '21:00', to: '09:00' },
};

function ctxFor(
  emulator: AlphaEmulator,
  opts: { settings?: Partial<AlphaSmsSettings>; apiKey?: string; fetch?: typeof fetch; logger?: ConnectorLogger } = {},
): ConnectorContext<AlphaSmsAuth, AlphaSmsSettings> {
  return {
    auth: { apiKey: opts.apiKey ?? ALPHASMS_EMULATOR_KEY },
    settings: { ...SETTINGS, ...opts.settings },
    baseUrl: emulator.url,
    fetch: opts.fetch ?? createSafeFetch({ allowPrivate: true, timeoutMs: 2000 }),
    logger: opts.logger ?? noopLogger,
    signal: new AbortController().signal,
  };
}

describeConnectorContract('alfasms', async () => {
  const emulator = await startAlphaSmsEmulator();
  const timeoutMs = 1000;
  const fetch = createSafeFetch({ allowPrivate: true, timeoutMs });
  return {
    connector: alfasms,
    ctx: ({ logger, signal }) => ({ ...ctxFor(emulator, { fetch, logger }), signal }),
    emulator: {
      recordCount: () => emulator.messages.length,
      setLatency: (ms) => emulator.setLatency(ms),
      setFault: (fault) => emulator.setFault(fault),
      reset: () => emulator.reset(),
      close: () => emulator.close(),
    },
    secrets: [ALPHASMS_EMULATOR_KEY],
    timeoutMs,
    // AlphaSMS cannot be asked whether an id was sent before (docs/connectors/alphasms.md): a retry
    // after a crash between its answer and our commit texts again.
    dedupes: false,
    // AlphaSMS refuses a key inside a 200.
    authFailureStatus: 200,
  };
});

describe('AlphaSMS phones', () => {
  it('takes Ukrainian mobiles in any usual spelling as 380XXXXXXXXX', () => {
    for (const raw of ['+380501234567', '380501234567', '0501234567', '+38 (067) 123-45-67', '0931234567']) {
      expect(smsPhone(raw)).toMatchObject({ ok: true, phone: expect.stringMatching(/^380\d{9}$/) });
    }
    expect(smsPhone('+38 (067) 123-45-67')).toEqual({ ok: true, phone: '380671234567' });
  });

  it('skips a landline, a non-number, a missing phone and (unless allowed) a foreign mobile', () => {
    expect(smsPhone('+380442345678')).toEqual({ ok: false, reason: 'SMS_PHONE_NOT_MOBILE' });
    expect(smsPhone('0800123456')).toEqual({ ok: false, reason: 'SMS_PHONE_NOT_MOBILE' });
    expect(smsPhone('call me')).toEqual({ ok: false, reason: 'SMS_PHONE_INVALID' });
    expect(smsPhone('+38050123')).toEqual({ ok: false, reason: 'SMS_PHONE_INVALID' });
    expect(smsPhone(undefined)).toEqual({ ok: false, reason: 'SMS_NO_PHONE' });
    expect(smsPhone('+48501234567')).toEqual({ ok: false, reason: 'SMS_PHONE_FOREIGN' });
    expect(smsPhone('+48501234567', true)).toEqual({ ok: true, phone: '48501234567' });
  });
});

describe('AlphaSMS quiet hours (Kyiv time)', () => {
  const quiet = { enabled: true, from: '21:00', to: '09:00' };
  // 2026-01-15: winter, Kyiv is UTC+2. 2026-07-15: summer, UTC+3.
  it('a lead at 03:00 Kyiv waits until 09:00 Kyiv, in winter and in summer', () => {
    expect(quietUntil(new Date('2026-01-15T01:00:00Z'), quiet)?.toISOString()).toBe('2026-01-15T07:00:00.000Z');
    expect(quietUntil(new Date('2026-07-15T00:00:00Z'), quiet)?.toISOString()).toBe('2026-07-15T06:00:00.000Z');
  });

  it('a lead at 22:30 waits for the next morning; 12:00 and the first minute after the window go at once', () => {
    expect(quietUntil(new Date('2026-01-15T20:30:45Z'), quiet)?.toISOString()).toBe('2026-01-16T07:00:00.000Z');
    expect(quietUntil(new Date('2026-01-15T10:00:00Z'), quiet)).toBeNull();
    expect(quietUntil(new Date('2026-01-15T07:00:00Z'), quiet)).toBeNull();
    expect(quietUntil(new Date('2026-01-15T18:59:59Z'), quiet)).toBeNull();
    expect(quietUntil(new Date('2026-01-15T19:00:00Z'), quiet)).not.toBeNull();
  });

  it('a window within one day (13:00–14:00), and off', () => {
    const lunch = { enabled: true, from: '13:00', to: '14:00' };
    expect(quietUntil(new Date('2026-01-15T11:20:00Z'), lunch)?.toISOString()).toBe('2026-01-15T12:00:00.000Z');
    expect(quietUntil(new Date('2026-01-15T01:00:00Z'), lunch)).toBeNull();
    expect(quietUntil(new Date('2026-01-15T01:00:00Z'), { ...quiet, enabled: false })).toBeNull();
  });

  it('lands on 09:00 when the clocks change in the night (29 March 2026: 03:00 → 04:00)', () => {
    // 00:30 Kyiv winter time (22:30 UTC); 09:00 that morning is summer time, 06:00 UTC.
    expect(quietUntil(new Date('2026-03-28T22:30:00Z'), quiet)?.toISOString()).toBe('2026-03-29T06:00:00.000Z');
  });
});

describe('AlphaSMS messages', () => {
  const lead: Lead = { ...SAMPLE_LEAD, name: 'Олена', phone: '0501234567' };

  it('plans the lead and the manager (the responsible user when theirs is a mobile)', () => {
    const both = {
      ...SETTINGS,
      recipients: 'both' as const,
      managerTemplate: 'Заявка: {name} {phone}',
      managerPhone: '+380671112233',
    };
    const plan = planMessages(both, lead, 'lead-1:dest-1', '+380931234567');
    expect(plan.skipped).toEqual([]);
    expect(plan.messages).toEqual([
      {
        recipient: 'lead',
        phone: '380501234567',
        text: 'Олена, дякуємо за заявку!',
        id: messageId('lead-1:dest-1', 'lead'),
        parts: 1,
      },
      {
        recipient: 'manager',
        phone: '380931234567',
        text: 'Заявка: Олена 0501234567',
        id: messageId('lead-1:dest-1', 'manager'),
        parts: 1,
      },
    ]);
    // A responsible user whose value is not a phone: the integration's manager phone.
    expect(planMessages(both, lead, 'k', 'user-17').messages[1]?.phone).toBe('380671112233');
    expect(planMessages({ ...both, managerPhone: undefined }, lead, 'k').skipped).toEqual([
      { recipient: 'manager', reason: 'SMS_MANAGER_NO_PHONE' },
    ]);
  });

  it('ids are stable per delivery and recipient, and safe integers', () => {
    expect(messageId('a:b', 'lead')).toBe(messageId('a:b', 'lead'));
    expect(messageId('a:b', 'lead')).not.toBe(messageId('a:b', 'manager'));
    expect(Number.isSafeInteger(messageId('x', 'lead'))).toBe(true);
  });

  it("reads AlphaSMS's error texts", () => {
    expect(alphaError('Access denied')).toEqual({ code: 'ALPHASMS_ACCESS_DENIED', kind: 'auth' });
    expect(alphaError('Error in Alpha-name')).toEqual({ code: 'ALPHASMS_SENDER_INVALID', kind: 'configuration' });
    expect(alphaError('Insufficient funds on balance')).toEqual({
      code: 'ALPHASMS_LOW_BALANCE',
      kind: 'configuration',
    });
    expect(alphaError('Invalid phone number')).toEqual({ code: 'ALPHASMS_PHONE_REJECTED', kind: 'phone' });
    expect(alphaError('Gateway busy')).toEqual({ code: 'ALPHASMS_ERROR', kind: 'transient' });
  });

  it("reads AlphaSMS's statuses: delivered, read, failed for good, still on its way", () => {
    expect(smsStatusOf('DELIVERED')).toBe('delivered');
    expect(smsStatusOf('read')).toBe('read');
    expect(smsStatusOf('UNDELIVERABLE')).toBe('undelivered');
    expect(smsStatusOf('INVALID_DESTINATION_ADDRESS')).toBe('undelivered');
    expect(smsStatusOf('EXPIRED')).toBe('expired');
    expect(smsStatusOf('ACCEPTED')).toBeUndefined();
    expect(smsStatusOf(undefined)).toBeUndefined();
  });

  it('settings never saved are allowed (the key can be checked first); a delivery with them asks for the setup', async () => {
    expect(ZAlphaSmsConnectorSettings.parse({})).toEqual({});
    const err = await alfasms.deliver!(
      { ...ctxFor({ url: 'http://127.0.0.1:9' } as AlphaEmulator), settings: {} as AlphaSmsSettings },
      { lead: SAMPLE_LEAD, idempotencyKey: 'k' },
    ).catch((e: unknown) => e);
    expect(err).toMatchObject({ message: 'INTEGRATION_SETTINGS_INVALID', code: 'CONFIGURATION' });
  });

  it('the server refuses a manager phone that is not a mobile', () => {
    const parsed = ZAlphaSmsConnectorSettings.safeParse({
      ...SETTINGS,
      recipients: 'both',
      managerTemplate: 'x',
      managerPhone: '0442345678',
    });
    expect(parsed.error?.issues.map((i) => `${i.path.join('.')}:${i.message}`)).toEqual([
      'managerPhone:SMS_PHONE_NOT_MOBILE',
    ]);
  });
});

describe('AlphaSMS destination against its emulator', () => {
  let emulator: AlphaEmulator;
  beforeAll(async () => {
    emulator = await startAlphaSmsEmulator({ statusDelayMs: 1000 });
  });
  afterAll(() => emulator.close());
  beforeEach(() => emulator.reset());
  const deliver = (
    ctx: ReturnType<typeof ctxFor>,
    lead: Lead = SAMPLE_LEAD,
    key = 'lead-1:dest-1',
    assignee?: { id: string },
  ) => alfasms.deliver!(ctx, { lead, idempotencyKey: key, assignee });
  const failure = (p: Promise<unknown>) =>
    p.then(
      () => {
        throw new Error('expected a failure');
      },
      (e: unknown) => e,
    );

  it('sends the rendered text from the alpha-name to the lead, as JSON, and reports it for the SMS log', async () => {
    const result = await deliver(ctxFor(emulator));
    const [req] = emulator.requests;
    expect(req?.contentType).toBe('application/json');
    expect(req?.body).toEqual({
      auth: '[redacted]',
      data: [
        {
          type: 'sms',
          id: messageId('lead-1:dest-1', 'lead'),
          phone: 380501234567,
          sms_signature: 'LeadRelay',
          sms_message: 'Olena Kovalenko, дякуємо за заявку!',
        },
      ],
    });
    const [message] = emulator.messages;
    expect(result.externalId).toBe(String(message!.msgId));
    expect(result.records).toEqual([
      {
        recipient: 'lead',
        phone: '380501234567',
        channel: 'sms',
        text: 'Olena Kovalenko, дякуємо за заявку!',
        msgId: String(message!.msgId),
        parts: 1,
      } satisfies SentSms,
    ]);
    expect(result.note).toBeUndefined();
    expect(JSON.stringify(result)).not.toContain(ALPHASMS_EMULATOR_KEY);
  });

  it('goes Viber first with SMS fallback when Viber is on, and texts both recipients in one call', async () => {
    await deliver(
      ctxFor(emulator, {
        settings: {
          viber: true,
          recipients: 'both',
          managerTemplate: 'Нова заявка {phone}',
          managerPhone: '0671112233',
        },
      }),
    );
    expect(emulator.requests).toHaveLength(1);
    expect(emulator.messages.map((m) => [m.type, m.phone, m.text])).toEqual([
      ['viber+sms', 380501234567, 'Olena Kovalenko, дякуємо за заявку!'],
      ['viber+sms', 380671112233, 'Нова заявка +380501234567'],
    ]);
    const body = emulator.requests[0]!.body as { data: Record<string, unknown>[] };
    expect(body.data[0]).toMatchObject({
      viber_type: 'text',
      viber_signature: 'LeadRelay',
      viber_message: 'Olena Kovalenko, дякуємо за заявку!',
    });
  });

  it('skips a landline without calling AlphaSMS, with the reason as the note', async () => {
    const result = await deliver(ctxFor(emulator), { ...SAMPLE_LEAD, phone: '+380442345678' });
    expect(result).toEqual({ note: 'SMS_PHONE_NOT_MOBILE: +380442345678' });
    expect(emulator.requests).toHaveLength(0);
  });

  it('a customer text in quiet hours is deferred to their end; a manager-only integration is not', async () => {
    const always = { enabled: true, from: '00:00', to: '23:59' };
    const err = await failure(deliver(ctxFor(emulator, { settings: { quietHours: always } })));
    expect(err).toBeInstanceOf(DeferredError);
    expect((err as DeferredError).message).toBe('SMS_QUIET_HOURS');
    expect((err as DeferredError).until.getTime()).toBeGreaterThan(Date.now());
    expect(emulator.requests).toHaveLength(0);
    await deliver(
      ctxFor(emulator, {
        settings: {
          quietHours: always,
          recipients: 'manager',
          managerTemplate: 'x {name}',
          managerPhone: '0671112233',
        },
      }),
    );
    expect(emulator.messages).toHaveLength(1);
  });

  it('an error inside HTTP 200 is a delivery error: a refused key or alpha-name or an empty balance for good, others again', async () => {
    const denied = await failure(deliver(ctxFor(emulator, { apiKey: 'wrong-key-123' })));
    expect(denied).toBeInstanceOf(PermanentError);
    expect(denied).toMatchObject({ message: 'ALPHASMS_ACCESS_DENIED', code: 'AUTH', httpStatus: 200 });

    const sender = await failure(deliver(ctxFor(emulator, { settings: { sender: 'Unknown' } })));
    expect(sender).toMatchObject({ message: 'ALPHASMS_SENDER_INVALID', code: 'CONFIGURATION' });
    expect((sender as PermanentError).trace.response?.body).toMatchObject({
      data: [{ success: false, error: 'Error in Alpha-name' }],
    });

    emulator.setBalance(0.5);
    const broke = await failure(deliver(ctxFor(emulator)));
    expect(broke).toMatchObject({ message: 'ALPHASMS_LOW_BALANCE', code: 'CONFIGURATION' });
    emulator.setBalance(500);

    emulator.setFault({ error: 'Service temporarily unavailable', times: 1 });
    const top = await failure(deliver(ctxFor(emulator)));
    expect(top).toBeInstanceOf(RetryableError);
    expect((top as RetryableError).message).toBe('ALPHASMS_ERROR: Service temporarily unavailable');

    emulator.setFault({ itemError: 'Gateway busy', times: 1 });
    const item = await failure(deliver(ctxFor(emulator)));
    expect(item).toBeInstanceOf(RetryableError);
    expect(emulator.messages).toHaveLength(0);
    await deliver(ctxFor(emulator));
    expect(emulator.messages).toHaveLength(1);
  });

  it('a number AlphaSMS refuses is skipped, and what went out to the other recipient stays sent', async () => {
    emulator.setFault({ itemError: 'Invalid phone number', times: 1 });
    expect(await deliver(ctxFor(emulator))).toMatchObject({ note: 'ALPHASMS_PHONE_REJECTED: 380501234567' });
  });

  it('the balance and message statuses, which move on over time', async () => {
    expect(await alphaSmsBalance(ctxFor(emulator))).toEqual({ amount: 500, currency: 'UAH' });
    await deliver(ctxFor(emulator, { settings: { viber: true } }));
    const msgId = String(emulator.messages[0]!.msgId);
    expect(await alphaSmsStatuses(ctxFor(emulator), [msgId, '1'])).toEqual([
      { msgId, status: 'ACCEPTED' },
      { msgId: '1' },
    ]);
    emulator.advance(1000);
    expect((await alphaSmsStatuses(ctxFor(emulator), [msgId]))[0]?.status).toBe('DELIVERED');
    emulator.advance(1000);
    expect((await alphaSmsStatuses(ctxFor(emulator), [msgId]))[0]?.status).toBe('READ');
    expect((await alphaSmsBalance(ctxFor(emulator))).amount).toBeLessThan(500);
    await expect(alphaSmsBalance(ctxFor(emulator, { apiKey: 'nope-nope-nope' }))).rejects.toMatchObject({
      message: 'ALPHASMS_ACCESS_DENIED',
      code: 'AUTH',
    });
  });

  it('the emulator refuses JSON under another Content-Type, as AlphaSMS does', async () => {
    const res = await fetch(`${emulator.url}/api/json.php`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ auth: ALPHASMS_EMULATOR_KEY, data: [{ type: 'balance' }] }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: false, error: 'Invalid request' });
  });
});
