import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { describeConnectorContract, SAMPLE_LEAD } from '../kit/contract';
import { PermanentError, RetryableError } from '../kit/errors';
import { createSafeFetch, type LookupFn } from '../kit/safe-fetch';
import type { ConnectorContext, ConnectorLogger } from '../kit/types';
import type { HttpAuth, HttpSettings } from './client';
import { type HttpEmulator, startHttpEmulator } from './emulator';
import { http, ZHttpSettings } from './index';

const SECRET = 'whsec_contract_4f1d9c2b7a';
const noopLogger: ConnectorLogger = { debug() {}, info() {}, warn() {} };

function ctxFor(
  emulator: HttpEmulator,
  opts: { auth?: HttpAuth; settings?: Partial<HttpSettings>; fetch?: typeof fetch; logger?: ConnectorLogger } = {},
): ConnectorContext<HttpAuth, HttpSettings> {
  return {
    auth: opts.auth ?? { secret: SECRET },
    settings: { url: emulator.hookUrl, ...opts.settings },
    fetch: opts.fetch ?? createSafeFetch({ allowPrivate: true, timeoutMs: 2000 }),
    logger: opts.logger ?? noopLogger,
    signal: new AbortController().signal,
  };
}

describeConnectorContract('http', async () => {
  const emulator = await startHttpEmulator();
  // Long enough for a first request on a loaded two-core machine; the slow-destination test waits 4× this.
  const timeoutMs = 1000;
  const fetch = createSafeFetch({ allowPrivate: true, timeoutMs });
  return {
    connector: http,
    ctx: ({ logger, signal }) => ({ ...ctxFor(emulator, { fetch, logger }), signal }),
    emulator: {
      recordCount: () => emulator.records.length,
      setLatency: (ms) => emulator.setLatency(ms),
      setFault: (fault) => emulator.setFault(fault),
      reset: () => emulator.reset(),
      close: () => emulator.close(),
    },
    secrets: [SECRET],
    timeoutMs,
  };
});

describe('http destination', () => {
  let emulator: HttpEmulator;
  beforeAll(async () => {
    emulator = await startHttpEmulator();
  });
  afterAll(() => emulator.close());
  beforeEach(() => emulator.reset());

  it('signs the exact body bytes with HMAC-SHA256 and sends the idempotency key', async () => {
    const result = await http.deliver!(ctxFor(emulator), {
      lead: SAMPLE_LEAD,
      idempotencyKey: 'lead-1:dest-1',
      assignee: { id: 'u1', name: 'Ivan' },
    });
    const [req] = emulator.requests;
    expect(req).toBeDefined();
    const expected = `sha256=${createHmac('sha256', SECRET).update(req!.rawBody).digest('hex')}`;
    expect(req!.signature).toBe(expected);
    expect(req!.headers['x-leadrelay-timestamp']).toMatch(/^\d{10}$/);
    expect(req!.headers['idempotency-key']).toBe('lead-1:dest-1');
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.headers['user-agent']).toBe('LeadRelay/1.0');
    expect(req!.body).toMatchObject({
      id: 'lead-1:dest-1',
      lead: SAMPLE_LEAD,
      assignee: { id: 'u1', name: 'Ivan' },
    });
    expect(req!.body).not.toHaveProperty('raw');
    expect(Date.parse((req!.body as { sentAt: string }).sentAt)).toBeGreaterThan(0);
    expect(result.externalId).toBe(emulator.records[0]!.id);
    // The stored trace shows the signature header exists, not its value.
    expect(result.request?.headers?.['x-leadrelay-signature']).toBe('[redacted]');
    expect(result.response?.status).toBe(200);
    expect(result.response?.headers?.['content-type']).toMatch(/application\/json/);
    expect(result.response?.body).toEqual({ id: result.externalId });
  });

  it('sends no signature without a secret', async () => {
    await http.deliver!(ctxFor(emulator, { auth: {} }), { lead: SAMPLE_LEAD, idempotencyKey: 'k' });
    expect(emulator.requests[0]!.signature).toBeUndefined();
    expect(emulator.requests[0]!.headers['x-leadrelay-timestamp']).toBeUndefined();
  });

  it('adds extra headers, redacting credential-like ones in the trace', async () => {
    const result = await http.deliver!(
      ctxFor(emulator, { settings: { headers: { 'X-Tenant': 'acme', Authorization: 'Bearer s3cr3t-token' } } }),
      { lead: SAMPLE_LEAD, idempotencyKey: 'k2' },
    );
    const req = emulator.requests[0]!;
    expect(req.headers['x-tenant']).toBe('acme');
    expect(req.headers.authorization).toBe('Bearer s3cr3t-token');
    expect(result.request?.headers?.['x-tenant']).toBe('acme');
    expect(JSON.stringify(result)).not.toContain('s3cr3t-token');
  });

  it("format lead+raw adds the source's raw payload", async () => {
    const raw = { form_id: '123', field_data: [{ name: 'phone', values: ['+380501234567'] }] };
    await http.deliver!(ctxFor(emulator, { settings: { format: 'lead+raw' } }), {
      lead: SAMPLE_LEAD,
      idempotencyKey: 'k3',
      raw,
    });
    expect(emulator.requests[0]!.body).toMatchObject({ raw });
  });

  it('validates settings: https URL, at most 10 headers, no reserved headers', () => {
    expect(ZHttpSettings.safeParse({ url: 'https://example.com/hook' }).success).toBe(true);
    expect(ZHttpSettings.safeParse({ url: 'ftp://example.com/x' }).success).toBe(false);
    expect(ZHttpSettings.safeParse({ url: 'not a url' }).success).toBe(false);
    const eleven = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`X-H${i}`, 'v']));
    expect(ZHttpSettings.safeParse({ url: 'https://example.com', headers: eleven }).success).toBe(false);
    expect(ZHttpSettings.safeParse({ url: 'https://example.com', headers: { Host: 'evil' } }).success).toBe(false);
    expect(
      ZHttpSettings.safeParse({ url: 'https://example.com', headers: { 'X-LeadRelay-Signature': 'x' } }).success,
    ).toBe(false);
    expect(ZHttpSettings.safeParse({ url: 'https://example.com', headers: { 'X-A': 'a\r\nB: b' } }).success).toBe(
      false,
    );
    expect(ZHttpSettings.safeParse({ url: 'https://example.com', format: 'xml' }).success).toBe(false);
  });

  it('a 4xx carries the destination message as a PermanentError', async () => {
    emulator.setFault({ status: 422, body: { message: 'phone is required' } });
    const err = await http.deliver!(ctxFor(emulator), { lead: SAMPLE_LEAD, idempotencyKey: 'k4' }).catch((e) => e);
    expect(err).toBeInstanceOf(PermanentError);
    expect(err.message).toBe('HTTP 422: phone is required');
    expect(err.trace.response.status).toBe(422);
  });

  it('a connection refused is a RetryableError', async () => {
    const closed = await startHttpEmulator();
    const url = closed.hookUrl;
    await closed.close();
    const err = await http.deliver!(ctxFor(emulator, { settings: { url } }), {
      lead: SAMPLE_LEAD,
      idempotencyKey: 'k5',
    }).catch((e) => e);
    expect(err).toBeInstanceOf(RetryableError);
    expect(err.code).toBe('NETWORK');
    expect(err.trace.request.url).toBe(url);
  });

  it('refuses its own loopback URL without allowPrivate', async () => {
    const err = await http.deliver!(ctxFor(emulator, { fetch: createSafeFetch() }), {
      lead: SAMPLE_LEAD,
      idempotencyKey: 'k6',
    }).catch((e) => e);
    expect(err).toBeInstanceOf(PermanentError);
    expect(err.message).toMatch(/^URL_NOT_ALLOWED: .*private or reserved/);
    expect(emulator.requests).toHaveLength(0);
  });

  it('refuses a redirect into a private address (first hop explicitly allowed)', async () => {
    const lookup: LookupFn = async (name) =>
      name === 'crm.internal-looking.test' ? [{ address: '192.168.1.20', family: 4 }] : [];
    const fetch = createSafeFetch({ allowAddresses: ['127.0.0.1'], lookup });
    for (const location of [
      'http://10.0.0.7/hook',
      'http://169.254.169.254/latest/meta-data/',
      'http://crm.internal-looking.test/hook',
      `http://[::1]:${emulator.port}/hook`,
    ]) {
      emulator.reset();
      emulator.setRedirect({ location, status: 307 });
      const err = await http.deliver!(ctxFor(emulator, { fetch }), { lead: SAMPLE_LEAD, idempotencyKey: 'k7' }).catch(
        (e) => e,
      );
      expect(err, location).toBeInstanceOf(PermanentError);
      expect(err.message, location).toMatch(/^URL_NOT_ALLOWED: redirect to .* refused/);
      expect(emulator.requests, location).toHaveLength(1);
    }
  });

  it('follows a redirect to an allowed address, keeping POST and body on 307', async () => {
    const target = await startHttpEmulator();
    try {
      emulator.setRedirect({ location: `${target.url}/moved`, status: 307 });
      const result = await http.deliver!(ctxFor(emulator), { lead: SAMPLE_LEAD, idempotencyKey: 'k8' });
      expect(target.records).toHaveLength(1);
      expect(target.requests[0]!.method).toBe('POST');
      expect(target.requests[0]!.idempotencyKey).toBe('k8');
      expect(result.externalId).toBe(target.records[0]!.id);
    } finally {
      await target.close();
    }
  });

  describe('testConnection', () => {
    it('passes on 2xx and on a 4xx that only rejects the test body', async () => {
      await http.testConnection!(ctxFor(emulator));
      expect(emulator.requests[0]!.body).toMatchObject({ test: true });
      emulator.setFault({ status: 400 });
      await expect(http.testConnection!(ctxFor(emulator))).resolves.toBeUndefined();
    });

    it.each([401, 403, 404, 405, 410])('fails permanently on %i', async (status) => {
      emulator.setFault({ status });
      await expect(http.testConnection!(ctxFor(emulator))).rejects.toBeInstanceOf(PermanentError);
    });

    it('fails as retryable on 5xx', async () => {
      emulator.setFault({ status: 502 });
      await expect(http.testConnection!(ctxFor(emulator))).rejects.toBeInstanceOf(RetryableError);
    });
  });

  it('the emulator control API works over HTTP', async () => {
    await fetch(`${emulator.url}/__emulator/fault`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 503, retryAfter: 2, times: 1 }),
    });
    const err = await http.deliver!(ctxFor(emulator), { lead: SAMPLE_LEAD, idempotencyKey: 'k9' }).catch((e) => e);
    expect(err).toBeInstanceOf(RetryableError);
    expect(err.retryAfterMs).toBe(2000);
    await http.deliver!(ctxFor(emulator), { lead: SAMPLE_LEAD, idempotencyKey: 'k9' });
    const log = (await (await fetch(`${emulator.url}/__log`)).json()) as { records: unknown[]; requests: unknown[] };
    expect(log.records).toHaveLength(1);
    expect(log.requests).toHaveLength(2);
  });
});
