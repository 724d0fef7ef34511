import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { describeConnectorContract, SAMPLE_LEAD } from '../kit/contract';
import { PermanentError, RetryableError } from '../kit/errors';
import { memoryAuthStore } from '../kit/memory-auth';
import { createSafeFetch } from '../kit/safe-fetch';
import type { ConnectorLogger } from '../kit/types';
import { clearTokenCache, type SendpulseContext } from './client';
import { SENDPULSE_BOT, SENDPULSE_CLIENT, type SendpulseEmulator, startSendpulseEmulator } from './emulator';
import { sendpulse, sendpulseChat } from './index';
import { samePhone } from './mapping';

const noopLogger: ConnectorLogger = { debug() {}, info() {}, warn() {} };
type Settings = SendpulseContext['settings'];

function ctxFor(
  emulator: SendpulseEmulator,
  opts: { auth?: SendpulseContext['auth']; settings?: Partial<Settings>; fetch?: typeof fetch } = {},
): SendpulseContext {
  return {
    auth: opts.auth ?? { clientId: SENDPULSE_CLIENT.id, clientSecret: SENDPULSE_CLIENT.secret },
    settings: { channel: 'telegram', matchVariable: 'phone', ...opts.settings },
    baseUrl: emulator.url,
    fetch: opts.fetch ?? createSafeFetch({ allowPrivate: true, timeoutMs: 2000 }),
    logger: noopLogger,
    signal: new AbortController().signal,
  };
}

describeConnectorContract('sendpulse', async () => {
  const emulator = await startSendpulseEmulator({ rateLimitPerSecond: 1000 });
  // Long enough for a first request on a loaded two-core machine; the slow-destination test waits 4× this.
  const timeoutMs = 1000;
  const fetch = createSafeFetch({ allowPrivate: true, timeoutMs });
  return {
    connector: sendpulse,
    ctx: ({ logger, signal }) => ({ ...ctxFor(emulator, { fetch }), logger, signal }),
    emulator: {
      recordCount: () => emulator.crmContacts.length,
      setLatency: (ms) => emulator.setLatency(ms),
      // One 401 is an expired token, which the client renews and retries; SendPulse's auth failure
      // (revoked app, wrong secret) is a 401 that stays, token endpoint included.
      setFault: (fault) => emulator.setFault(fault?.status === 401 ? { ...fault, times: undefined } : fault),
      reset: () => {
        emulator.reset();
        emulator.setRateLimit(1000);
        clearTokenCache();
      },
      close: () => emulator.close(),
    },
    secrets: [SENDPULSE_CLIENT.secret],
    timeoutMs,
  };
});

describe('sendpulse destination', () => {
  let emulator: SendpulseEmulator;
  beforeAll(async () => {
    emulator = await startSendpulseEmulator();
  });
  afterAll(() => emulator.close());
  beforeEach(() => {
    emulator.reset();
    clearTokenCache();
  });

  it('makes a CRM contact with the phone and e-mail, and finds it again by phone', async () => {
    const first = await sendpulse.deliver!(ctxFor(emulator), { lead: SAMPLE_LEAD, idempotencyKey: 'lead-1:sp' });
    expect(emulator.crmContacts).toHaveLength(1);
    expect(emulator.crmContacts[0]).toMatchObject({
      firstName: 'Olena',
      lastName: 'Kovalenko',
      externalContactId: 'lead-1:sp',
      phones: [{ phone: '+380501234567' }],
      emails: [{ email: 'olena@example.com' }],
    });
    expect(first.externalId).toBe(String(emulator.crmContacts[0]!.id));
    // Another lead of the same person (phone written differently) lands on the same contact.
    const second = await sendpulse.deliver!(ctxFor(emulator), {
      lead: { ...SAMPLE_LEAD, phone: '380501234567', email: undefined },
      idempotencyKey: 'lead-2:sp',
    });
    expect(second.externalId).toBe(first.externalId);
    expect(emulator.crmContacts).toHaveLength(1);
  });

  it('falls back to the e-mail when the phone is unknown', async () => {
    await sendpulse.deliver!(ctxFor(emulator), { lead: { ...SAMPLE_LEAD, phone: undefined }, idempotencyKey: 'a' });
    const again = await sendpulse.deliver!(ctxFor(emulator), {
      lead: { ...SAMPLE_LEAD, phone: '+380990000000', email: 'OLENA@example.com' },
      idempotencyKey: 'b',
    });
    expect(emulator.crmContacts).toHaveLength(1);
    expect(again.externalId).toBe(String(emulator.crmContacts[0]!.id));
  });

  it('a retry after the phone failed completes the half-made contact instead of making a second', async () => {
    emulator.setFault({ status: 500, path: '/crm/v1/contacts/1/phones', times: 1 });
    await expect(
      sendpulse.deliver!(ctxFor(emulator), { lead: SAMPLE_LEAD, idempotencyKey: 'retry-1' }),
    ).rejects.toBeInstanceOf(RetryableError);
    expect(emulator.crmContacts).toHaveLength(1);
    expect(emulator.crmContacts[0]!.phones).toHaveLength(0);
    await sendpulse.deliver!(ctxFor(emulator), { lead: SAMPLE_LEAD, idempotencyKey: 'retry-1' });
    expect(emulator.crmContacts).toHaveLength(1);
    expect(emulator.crmContacts[0]!.phones.map((p) => p.phone)).toEqual(['+380501234567']);
  });

  it('two deliveries of one person at once make one contact under ctx.withLock', async () => {
    const store = memoryAuthStore({});
    const ctx = { ...ctxFor(emulator), withLock: store.withLock };
    await Promise.all([
      sendpulse.deliver!(ctx, { lead: SAMPLE_LEAD, idempotencyKey: 'x1' }),
      sendpulse.deliver!(ctx, { lead: SAMPLE_LEAD, idempotencyKey: 'x2' }),
    ]);
    expect(emulator.crmContacts).toHaveLength(1);
  });

  it('makes a deal in the pipeline and step when both are set', async () => {
    const result = await sendpulse.deliver!(ctxFor(emulator, { settings: { pipelineId: 101, stepId: 1002 } }), {
      lead: SAMPLE_LEAD,
      idempotencyKey: 'deal-1',
    });
    expect(emulator.deals).toEqual([
      expect.objectContaining({
        pipelineId: 101,
        stepId: 1002,
        name: 'Lead: Olena Kovalenko',
        contact: [emulator.crmContacts[0]!.id],
      }),
    ]);
    expect(result.externalId).toBe(String(emulator.deals[0]!.id));
  });

  it('a deal in a step that does not exist fails permanently', async () => {
    const err = await sendpulse.deliver!(ctxFor(emulator, { settings: { pipelineId: 101, stepId: 9 } }), {
      lead: SAMPLE_LEAD,
      idempotencyKey: 'deal-2',
    }).catch((e) => e);
    expect(err).toBeInstanceOf(PermanentError);
    expect(err.httpStatus).toBe(422);
  });

  it('caches the token across calls and contexts, and gets a new one once when it stops working', async () => {
    await sendpulse.testConnection!(ctxFor(emulator));
    await sendpulse.deliver!(ctxFor(emulator), { lead: SAMPLE_LEAD, idempotencyKey: 't1' });
    expect(emulator.tokensIssued()).toBe(1);
    emulator.revokeTokens();
    await sendpulse.deliver!(ctxFor(emulator), { lead: SAMPLE_LEAD, idempotencyKey: 't2' });
    expect(emulator.tokensIssued()).toBe(2);
    // Expired by the clock: the cached token is still used once, refused, and replaced.
    emulator.advance(3600_000);
    await sendpulse.testConnection!(ctxFor(emulator));
    expect(emulator.tokensIssued()).toBe(3);
  });

  it('concurrent first calls share one token request', async () => {
    await Promise.all([1, 2, 3, 4].map(() => sendpulse.testConnection!(ctxFor(emulator))));
    expect(emulator.tokensIssued()).toBe(1);
  });

  it('a 401 that persists after a new token is a PermanentError AUTH', async () => {
    await sendpulse.testConnection!(ctxFor(emulator));
    emulator.setFault({ status: 401, path: '/user/info' });
    const err = await sendpulse.testConnection!(ctxFor(emulator)).catch((e) => e);
    expect(err).toBeInstanceOf(PermanentError);
    expect(err).toMatchObject({ code: 'AUTH', httpStatus: 401 });
    expect(emulator.tokensIssued()).toBe(2);
  });

  it('wrong credentials fail the connection check permanently, without the secret anywhere', async () => {
    const err = await sendpulse.testConnection!(
      ctxFor(emulator, { auth: { clientId: SENDPULSE_CLIENT.id, clientSecret: 'wrong-secret-value' } }),
    ).catch((e) => e);
    expect(err).toBeInstanceOf(PermanentError);
    expect(err).toMatchObject({ code: 'AUTH', httpStatus: 401 });
    expect(err.message).toContain('Client authentication failed');
    expect(JSON.stringify({ ...err, trace: err.trace })).not.toContain('wrong-secret-value');
  });

  it('over 10 requests a second is a RetryableError (SendPulse error 2020202020)', async () => {
    const ctx = ctxFor(emulator);
    const results = await Promise.allSettled(Array.from({ length: 14 }, () => sendpulse.testConnection!(ctx)));
    const failed = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
    expect(failed.length).toBeGreaterThan(0);
    expect(failed[0]!.reason).toBeInstanceOf(RetryableError);
    expect(failed[0]!.reason.httpStatus).toBe(429);
  });

  it('loads bots and pipelines', async () => {
    const bots = await sendpulse.loaders!.bots!(ctxFor(emulator));
    expect(bots).toContainEqual({ id: SENDPULSE_BOT.id, name: SENDPULSE_BOT.name, channel: 'telegram' });
    expect(await sendpulse.loaders!.pipelines!(ctxFor(emulator))).toEqual([
      { id: 101, name: 'Sales', steps: [expect.objectContaining({ id: 1001 }), expect.objectContaining({ id: 1002 })] },
    ]);
  });

  it('validates settings: channel, variable name, numeric pipeline', () => {
    expect(sendpulse.settings.parse({})).toEqual({ channel: 'telegram', matchVariable: 'phone' });
    expect(sendpulse.settings.safeParse({ channel: 'sms' }).success).toBe(false);
    expect(sendpulse.settings.safeParse({ matchVariable: 'a b' }).success).toBe(false);
    expect(sendpulse.settings.safeParse({ pipelineId: '101' }).success).toBe(false);
    expect(sendpulse.auth.safeParse({ clientId: 'x' }).success).toBe(false);
  });
});

describe('sendpulse chatbot (widget)', () => {
  let emulator: SendpulseEmulator;
  beforeAll(async () => {
    emulator = await startSendpulseEmulator();
  });
  afterAll(() => emulator.close());
  beforeEach(() => {
    emulator.reset();
    clearTokenCache();
  });

  it('finds the bot contact whose phone variable matches, whatever the phone format', async () => {
    const chat = sendpulseChat(ctxFor(emulator, { settings: { botId: SENDPULSE_BOT.id } }));
    const contacts = await chat.findContacts({ phones: ['+38 (050) 123-45-67'], emails: [] });
    expect(contacts).toEqual([
      {
        id: 'tg-contact-olena',
        name: 'Olena Kovalenko',
        username: 'olena_k',
        channel: 'telegram',
        lastActivityAt: '2026-11-20T09:15:00Z',
        conversationUrl: expect.stringContaining('contact_id=tg-contact-olena'),
      },
    ]);
    // Stored without "+": found by the digits form.
    expect((await chat.findContacts({ phones: ['+380671112233'], emails: [] })).map((c) => c.id)).toEqual([
      'tg-contact-taras',
    ]);
  });

  it('falls back to the email variable, searches every bot of the channel without a bot id', async () => {
    const chat = sendpulseChat(ctxFor(emulator));
    expect(
      (await chat.findContacts({ phones: ['+380991234567'], emails: ['iryna@example.com'] })).map((c) => c.id),
    ).toEqual(['tg-contact-iryna']);
    const wa = sendpulseChat(ctxFor(emulator, { settings: { channel: 'whatsapp' } }));
    expect((await wa.findContacts({ phones: ['+380501234567'], emails: [] })).map((c) => c.id)).toEqual([
      'wa-contact-olena',
    ]);
  });

  it('finds nobody for an unknown person', async () => {
    const chat = sendpulseChat(ctxFor(emulator, { settings: { botId: SENDPULSE_BOT.id } }));
    expect(await chat.findContacts({ phones: ['+12025550100'], emails: ['nobody@example.com'] })).toEqual([]);
  });

  it('sends a text; an unknown contact (success:false inside HTTP 200) is a PermanentError', async () => {
    const chat = sendpulseChat(ctxFor(emulator, { settings: { botId: SENDPULSE_BOT.id } }));
    await chat.sendText('tg-contact-olena', 'Hello from Pipedrive');
    expect(emulator.messages).toEqual([
      expect.objectContaining({ channel: 'telegram', contactId: 'tg-contact-olena', text: 'Hello from Pipedrive' }),
    ]);
    const err = await chat.sendText('nope', 'Hi').catch((e) => e);
    expect(err).toBeInstanceOf(PermanentError);
    expect(err.message).toContain('Contact not found');
    expect(emulator.messages).toHaveLength(1);
  });
});

describe('phone matching', () => {
  it('compares digits, and a national number with its international form', () => {
    expect(samePhone('+38 050 123 45 67', '380501234567')).toBe(true);
    expect(samePhone('0501234567', '+380501234567')).toBe(true);
    expect(samePhone('+380501234567', '+380501234568')).toBe(false);
    expect(samePhone('1234', '991234')).toBe(false);
  });
});
