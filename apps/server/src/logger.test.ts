import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggerOptions } from './logger';
import { createTestApp, type TestApp } from './test/test-app';

// The request log (Fastify's "incoming request" lines) must not keep credentials that arrive in a
// query string: the widget's lasting token, OAuth codes and states.
describe('request log', () => {
  let t: TestApp;
  const lines: string[] = [];
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const { transport: _pretty, ...options } = loggerOptions('info') as Record<string, unknown>;
    t = await createTestApp({ logger: { ...options, stream } as never });
  });
  afterAll(() => t?.close());

  it('keeps the path but not the widget token, OAuth code or state of a request', async () => {
    const secret = 'eyJhbGciOiJIUzI1NiJ9.widget-secret-value';
    await t.app.inject({
      method: 'GET',
      url: `/api/legacy/api/pipedrive/sendpulse?token=${secret}&personId=1`,
    });
    await t.app.inject({
      method: 'GET',
      url: '/api/amocrm/callback?code=oauth-code-value&state=state-value&referer=x',
    });
    const log = lines.join('\n');
    expect(log).toContain('/api/legacy/api/pipedrive/sendpulse');
    expect(log).toContain('personId=1');
    expect(log).toContain('/api/amocrm/callback');
    expect(log).not.toContain('widget-secret-value');
    expect(log).not.toContain('oauth-code-value');
    expect(log).not.toContain('state-value');
  });

  it('keeps the path but not the secret of a CRM stage-change webhook', async () => {
    const id = '2b1f6a56-7c1e-4a43-9a4c-3c4f1f0e9d11';
    for (const crm of ['amocrm', 'pipedrive']) {
      await t.app.inject({ method: 'POST', url: `/api/${crm}/events/${id}/crm-secret-value?x=1`, payload: {} });
    }
    const log = lines.join('\n');
    expect(log).toContain(`/api/amocrm/events/${id}/[redacted]?x=1`);
    expect(log).toContain(`/api/pipedrive/events/${id}/[redacted]?x=1`);
    expect(log).not.toContain('crm-secret-value');
  });
});

describe('log format', () => {
  it('is readable on a terminal and JSON lines anywhere else', () => {
    expect(loggerOptions('info', true, () => true)).toMatchObject({ transport: { target: 'pino-pretty' } });
    expect(loggerOptions('info', false, () => true)).not.toHaveProperty('transport');
  });

  it('falls back to JSON lines on a terminal when pino-pretty is not installed', () => {
    expect(loggerOptions('info', true, () => false)).not.toHaveProperty('transport');
  });
});
