import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app';

let t: TestApp;
let secure: TestApp;
beforeAll(async () => {
  [t, secure] = await Promise.all([
    createTestApp({
      payment: {
        provider: 'liqpay',
        publicKey: 'pk',
        privateKey: 'sk',
        checkoutUrl: 'https://www.liqpay.ua/api/3/checkout',
        apiUrl: 'https://www.liqpay.ua/api/request',
        sandbox: true,
      },
      supportChat: { scriptUrl: 'https://chat.example.com/widget.js', organization: 'lr', loadImmediately: false },
    }),
    createTestApp({ publicUrl: 'https://app.leadrelay.test' }),
  ]);
});
afterAll(() => Promise.all([t.close(), secure.close()]));

const csp = (res: { headers: Record<string, unknown> }) =>
  Object.fromEntries(
    String(res.headers['content-security-policy'])
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values]),
  ) as Record<string, string[]>;

describe('security headers', () => {
  it('send a content security policy that allows only our origin, the payment page, Facebook and the chat', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    const policy = csp(res);
    expect(policy['default-src']).toEqual(["'self'"]);
    expect(policy['object-src']).toEqual(["'none'"]);
    expect(policy['script-src']).toEqual(
      expect.arrayContaining(["'self'", 'https://connect.facebook.net', 'https://chat.example.com']),
    );
    expect(policy['script-src']).not.toContain("'unsafe-inline'");
    expect(policy['form-action']).toEqual(["'self'", 'https://www.liqpay.ua']);
    expect(policy['frame-src']).toContain('https://www.liqpay.ua');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBeUndefined();
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('let only ourselves frame the app, and Pipedrive the SendPulse widget', async () => {
    const app = await t.app.inject({ method: 'GET', url: '/admin' });
    expect(csp(app)['frame-ancestors']).toEqual(["'self'"]);
    const widget = await t.app.inject({ method: 'GET', url: '/widgets/pipedrive-sendpulse?x=1' });
    expect(csp(widget)['frame-ancestors']).toEqual(["'self'", 'https://*.pipedrive.com']);
  });

  it('ask for HTTPS from then on when the public address is https', async () => {
    const res = await secure.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['strict-transport-security']).toMatch(/max-age=15552000/);
    expect(csp(res)['upgrade-insecure-requests']).toEqual([]);
  });
});
