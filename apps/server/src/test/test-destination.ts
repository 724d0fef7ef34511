// Our own test double of a destination: a connector that records what reached it (once per
// idempotency key, as a destination that dedupes would) and fails on demand.

import type { ConnectorDefinition, DeliveryInput } from '@leadrelay/connectors';
import { defineConnector, PermanentError, RetryableError } from '@leadrelay/connectors';
import { z } from 'zod';

export type Fault =
  | { kind: 'retryable'; retryAfterMs?: number; status?: number }
  /** code: the kit's reason, e.g. AUTH for revoked credentials. */
  | { kind: 'permanent'; status?: number; code?: string }
  | { kind: 'throw' };

export function testDestination(slug = 'test-crm') {
  const received: DeliveryInput[] = [];
  const calls: string[] = [];
  /** Every call's input, repeats included. */
  const inputs: DeliveryInput[] = [];
  const faults: Fault[] = [];
  let always: Fault | undefined;
  let delayMs = 0;
  const connector = defineConnector({
    slug,
    kind: 'destination',
    auth: z.object({}).passthrough(),
    settings: z.object({}).passthrough(),
    async deliver(_ctx, input) {
      calls.push(input.idempotencyKey);
      inputs.push(input);
      if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
      const fault = faults.shift() ?? always;
      const request = {
        method: 'POST',
        url: 'https://crm.test/leads',
        headers: { authorization: '[redacted]' },
        body: input.lead,
      };
      if (fault?.kind === 'retryable') {
        throw new RetryableError(`HTTP ${fault.status ?? 503}`, {
          httpStatus: fault.status ?? 503,
          retryAfterMs: fault.retryAfterMs,
          request,
          response: { status: fault.status ?? 503, body: 'down' },
        });
      }
      if (fault?.kind === 'permanent') {
        throw new PermanentError(`HTTP ${fault.status ?? 422}`, {
          httpStatus: fault.status ?? 422,
          code: fault.code,
          request,
          response: { status: fault.status ?? 422, body: 'bad' },
        });
      }
      if (fault?.kind === 'throw') throw new TypeError('fetch failed');
      if (!received.some((r) => r.idempotencyKey === input.idempotencyKey)) received.push(input);
      return { externalId: `ext-${received.length}`, request, response: { status: 201, body: { ok: true } } };
    },
  });
  return {
    connector: connector as ConnectorDefinition<unknown, unknown>,
    /** The app's connector lookup with only this destination: `delivery: { getConnector }`. */
    getConnector: (type: string) => (type === slug ? (connector as ConnectorDefinition<unknown, unknown>) : undefined),
    received,
    calls,
    inputs,
    failNext(...f: Fault[]) {
      faults.push(...f);
    },
    failAlways(f: Fault | undefined) {
      always = f;
    },
    setDelay(ms: number) {
      delayMs = ms;
    },
  };
}
