// The contract every destination connector passes against its emulator (house style: creates, dedupes,
// 401 → permanent, 429/5xx → retryable, timeout honoured, secrets never logged). Imports vitest:
// reach it through '@leadrelay/connectors/testing' only, never from runtime code.
import type { Lead } from '@leadrelay/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DeferredError, PermanentError, RetryableError } from './errors';
import type { ConnectorContext, ConnectorDefinition, ConnectorLogger, DeliveryInput } from './types';

export interface ContractFault {
  status: number;
  /** Retry-After in seconds. */
  retryAfter?: number;
  times?: number;
}

/** The switches every emulator exposes to the suite. */
export interface ContractEmulator {
  /** Records the destination holds now (leads/contacts/deals made by deliveries). */
  recordCount(): number | Promise<number>;
  setLatency(ms: number): void | Promise<void>;
  /** 401 should look like the destination's own auth failure (expired token, bad key). */
  setFault(fault: ContractFault | null): void | Promise<void>;
  reset(): void | Promise<void>;
  close(): Promise<void>;
}

export interface ContractSetup<Auth, Settings> {
  connector: ConnectorDefinition<Auth, Settings>;
  /** A fresh context pointing at the emulator; use the suite's logger and signal. Its fetch must time out after timeoutMs. */
  ctx(parts: { logger: ConnectorLogger; signal: AbortSignal }): ConnectorContext<Auth, Settings>;
  emulator: ContractEmulator;
  /** Strings that must never show up in traces, errors or log calls (tokens, API keys, HMAC secrets). */
  secrets: string[];
  /** The ctx fetch's timeout; keep it short (e.g. 1 s: a first request on a loaded two-core machine can take a few hundred ms). */
  timeoutMs: number;
  /** A delivery input for a key; default: a sample lead. */
  input?: (idempotencyKey: string) => DeliveryInput;
  /** False when the destination cannot tell a repeat (the dedupe test is skipped). Default true. */
  dedupes?: boolean;
  /**
   * The HTTP status of the destination's own auth failure, which the emulator's 401 fault imitates:
   * 401 by default; 200 where it says so inside a 200 (an SMS API: {"success":false,"error":"Access denied"}).
   */
  authFailureStatus?: number;
  /**
   * What a 429 becomes: retry (default) a RetryableError carrying Retry-After; defer a DeferredError
   * until at least Retry-After from now (a destination with a published rate limit whose excess must not
   * burn the lead's attempts nor trip the breaker).
   */
  rateLimit?: 'retry' | 'defer';
}

export const SAMPLE_LEAD: Lead = {
  name: 'Olena Kovalenko',
  phone: '+380501234567',
  email: 'olena@example.com',
  comment: 'Call after 18:00',
  utm: { source: 'facebook', campaign: 'spring' },
  custom: { city: 'Kyiv' },
};

interface LogCall {
  level: string;
  obj: object;
  msg?: string;
}

function capturingLogger(calls: LogCall[]): ConnectorLogger {
  const at = (level: string) => (obj: object, msg?: string) => calls.push({ level, obj, msg });
  return { debug: at('debug'), info: at('info'), warn: at('warn') };
}

function serialise(value: unknown): string {
  const seen = new WeakSet<object>();
  return JSON.stringify(value, (_k, v: unknown) => {
    if (v instanceof Error) {
      return { ...v, name: v.name, message: v.message, stack: v.stack, cause: (v as { cause?: unknown }).cause };
    }
    if (v && typeof v === 'object') {
      if (seen.has(v)) return '[circular]';
      seen.add(v);
    }
    return v;
  });
}

/** Registers the contract tests for one connector; `setup` runs once (start the emulator there). */
export function describeConnectorContract<Auth, Settings>(
  name: string,
  setup: () => ContractSetup<Auth, Settings> | Promise<ContractSetup<Auth, Settings>>,
): void {
  describe(`connector contract: ${name}`, () => {
    let s: ContractSetup<Auth, Settings>;
    let logs: LogCall[] = [];
    let seq = 0;
    const exposed: unknown[] = [];

    const input = (key: string) => (s.input ? s.input(key) : { lead: SAMPLE_LEAD, idempotencyKey: key });
    const key = () => `contract-${name}-${Date.now()}-${++seq}`;
    const ctx = () => s.ctx({ logger: capturingLogger(logs), signal: new AbortController().signal });
    const deliver = async (k = key(), more: Partial<DeliveryInput> = {}) => {
      const deliverFn = s.connector.deliver;
      if (!deliverFn) throw new Error(`${name} has no deliver`);
      const result = await deliverFn(ctx(), { ...input(k), ...more });
      exposed.push(result);
      return result;
    };
    const failure = async (k = key()): Promise<unknown> => {
      try {
        await deliver(k);
      } catch (err) {
        exposed.push(err);
        return err;
      }
      throw new Error('expected the delivery to fail');
    };

    beforeAll(async () => {
      s = await setup();
    });
    afterAll(async () => {
      await s?.emulator.close();
    });
    beforeEach(async () => {
      await s.emulator.reset();
      logs = [];
    });

    it('is a destination with deliver', () => {
      expect(s.connector.kind).toBe('destination');
      expect(typeof s.connector.deliver).toBe('function');
    });

    it('a delivery creates exactly one record', async () => {
      const result = await deliver();
      expect(await s.emulator.recordCount()).toBe(1);
      expect(result).toBeTypeOf('object');
    });

    // A destination without an idempotency key cannot tell a retry after a crash from a new lead:
    // its suite states that limit (and fails if the connector learns to dedupe without saying so).
    // The repeat is what the engine sends after an attempt whose result was never stored.
    it('the same idempotency key twice makes one record, or two where the destination cannot tell (dedupes: false)', async () => {
      const k = key();
      const first = await deliver(k);
      const second = await deliver(k, { outcomeUnknown: true });
      if (s.dedupes === false) {
        expect(await s.emulator.recordCount()).toBe(2);
        return;
      }
      expect(await s.emulator.recordCount()).toBe(1);
      if (first.externalId !== undefined) expect(second.externalId).toBe(first.externalId);
    });

    // A CRM makes a contact of each lead: one nobody can be reached by would be an empty contact.
    it('a lead with no phone, e-mail or name is refused (LEAD_NO_CONTACT) by a destination that makes contacts, and nothing is made', async () => {
      const noContact: Lead = { comment: 'Call me', utm: { source: 'facebook' }, custom: { city: 'Kyiv' } };
      let refused: unknown;
      try {
        await deliver(key(), { lead: noContact });
      } catch (err) {
        refused = err;
      }
      if (s.connector.requiresContact) {
        expect(refused).toBeInstanceOf(PermanentError);
        expect((refused as PermanentError).code).toBe('LEAD_NO_CONTACT');
        expect(await s.emulator.recordCount()).toBe(0);
      } else {
        expect((refused as { code?: string } | undefined)?.code).not.toBe('LEAD_NO_CONTACT');
      }
    });

    it("401 (or the destination's own auth failure) is a PermanentError AUTH", async () => {
      await s.emulator.setFault({ status: 401 });
      const err = await failure();
      expect(err).toBeInstanceOf(PermanentError);
      expect((err as PermanentError).httpStatus).toBe(s.authFailureStatus ?? 401);
      expect((err as PermanentError).code).toBe('AUTH');
      expect(await s.emulator.recordCount()).toBe(0);
    });

    it('429 is a RetryableError carrying Retry-After, or a DeferredError until then (rateLimit: defer)', async () => {
      await s.emulator.setFault({ status: 429, retryAfter: 7 });
      const asked = Date.now();
      const err = await failure();
      if (s.rateLimit === 'defer') {
        expect(err).toBeInstanceOf(DeferredError);
        expect((err as DeferredError).until.getTime()).toBeGreaterThanOrEqual(asked + 7000);
        expect(await s.emulator.recordCount()).toBe(0);
        return;
      }
      expect(err).toBeInstanceOf(RetryableError);
      expect((err as RetryableError).httpStatus).toBe(429);
      expect((err as RetryableError).retryAfterMs).toBe(7000);
    });

    it.each([500, 502, 503])('%i is a RetryableError', async (status) => {
      await s.emulator.setFault({ status });
      const err = await failure();
      expect(err).toBeInstanceOf(RetryableError);
      expect((err as RetryableError).httpStatus).toBe(status);
    });

    it('recovers after a transient fault', async () => {
      await s.emulator.setFault({ status: 503, times: 1 });
      const k = key();
      await failure(k);
      await deliver(k);
      expect(await s.emulator.recordCount()).toBe(1);
    });

    it('a destination slower than the timeout is a RetryableError within the timeout', async () => {
      await s.emulator.setLatency(s.timeoutMs * 4 + 500);
      const started = performance.now();
      const err = await failure();
      const elapsed = performance.now() - started;
      expect(err).toBeInstanceOf(RetryableError);
      expect(elapsed).toBeLessThan(s.timeoutMs + 1000);
      await s.emulator.setLatency(0);
    });

    it('secrets never appear in results, errors, traces or log calls', async () => {
      await deliver();
      await s.emulator.setFault({ status: 401, times: 1 });
      await failure();
      await s.emulator.setFault({ status: 500, times: 1 });
      await failure();
      const text = serialise({ exposed, logs });
      expect(exposed.length).toBeGreaterThan(0);
      for (const secret of s.secrets) {
        expect(secret.length).toBeGreaterThan(3);
        expect(text).not.toContain(secret);
      }
    });
  });
}
