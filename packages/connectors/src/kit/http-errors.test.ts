import { describe, expect, it } from 'vitest';
import { PermanentError, RetryableError } from './errors';
import { classifyResponse, parseRetryAfter, redact, redactUrl } from './http-errors';

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

describe('classifyResponse', () => {
  it('returns the parsed body on 2xx with the response in the trace', async () => {
    const out = await classifyResponse(json(201, { id: 7 }, { 'set-cookie': 'sid=abc' }), {
      request: { method: 'POST', url: 'https://x.test/' },
    });
    expect(out.body).toEqual({ id: 7 });
    expect(out.trace.request?.method).toBe('POST');
    expect(out.trace.response).toMatchObject({ status: 201, body: { id: 7 } });
    expect(out.trace.response?.headers?.['set-cookie']).toBe('[redacted]');
  });

  it.each([408, 425, 500, 502, 504])('%i is retryable', async (status) => {
    await expect(classifyResponse(json(status, {}))).rejects.toBeInstanceOf(RetryableError);
  });

  it('429 and 503 carry Retry-After in seconds or as a date', async () => {
    const e1 = await classifyResponse(json(429, {}, { 'retry-after': '30' })).catch((e) => e);
    expect(e1).toBeInstanceOf(RetryableError);
    expect(e1.retryAfterMs).toBe(30_000);
    expect(e1.code).toBe('RATE_LIMITED');
    const date = new Date(Date.now() + 60_000).toUTCString();
    const e2 = await classifyResponse(json(503, {}, { 'retry-after': date })).catch((e) => e);
    expect(e2.retryAfterMs).toBeGreaterThan(55_000);
    expect(e2.retryAfterMs).toBeLessThanOrEqual(60_000);
  });

  it('other 4xx are permanent with the destination message', async () => {
    const e = await classifyResponse(json(400, { error: { message: 'bad phone' } })).catch((e) => e);
    expect(e).toBeInstanceOf(PermanentError);
    expect(e.message).toBe('HTTP 400: bad phone');
    const t = await classifyResponse(new Response('  Not   found here \n', { status: 404 })).catch((e) => e);
    expect(t.message).toBe('HTTP 404: Not found here');
    const a = await classifyResponse(json(401, { message: 'token expired' })).catch((e) => e);
    expect(a.code).toBe('AUTH');
  });
});

describe('redact', () => {
  it('keeps a header the remote named __proto__ or constructor as a header', () => {
    const out = redact(
      new Headers([
        ['__proto__', 'a'],
        ['constructor', 'b'],
      ]),
    );
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.entries(out).sort()).toEqual([
      ['__proto__', 'a'],
      ['constructor', 'b'],
    ]);
  });

  it('hides credentials, keeps the rest', () => {
    expect(
      redact({
        Authorization: 'Bearer x',
        Cookie: 'a=b',
        'X-LeadRelay-Signature': 'sha256=1',
        'X-Hub-Signature-256': 'sha256=2',
        'X-Api-Key': 'k',
        api_key: 'k',
        'X-Access-Token': 't',
        'Content-Type': 'application/json',
        'Idempotency-Key': 'lead-1',
      }),
    ).toEqual({
      authorization: '[redacted]',
      cookie: '[redacted]',
      'x-leadrelay-signature': '[redacted]',
      'x-hub-signature-256': '[redacted]',
      'x-api-key': '[redacted]',
      api_key: '[redacted]',
      'x-access-token': '[redacted]',
      'content-type': 'application/json',
      'idempotency-key': 'lead-1',
    });
  });

  it('redacts credential query parameters in URLs', () => {
    expect(redactUrl('https://api.test/v1/leads?api_token=abc&x=1')).toBe(
      'https://api.test/v1/leads?api_token=%5Bredacted%5D&x=1',
    );
  });

  it('parses Retry-After', () => {
    expect(parseRetryAfter('0')).toBe(0);
    expect(parseRetryAfter('garbage')).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });
});
