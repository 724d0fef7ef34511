// Private stays private (issue 16): with EMULATORS=true and ALLOW_PRIVATE_DESTINATIONS=false a
// user's destination reaches no loopback or private address in any spelling; only the
// emulators' own endpoints are open. The app is built from the environment as `npm start` does.
import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { createSafeFetch, PermanentError } from '@leadrelay/connectors';
import { type HttpEmulator, startHttpEmulator } from '@leadrelay/connectors/http/emulator';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnv } from './app-modules';
import { appOptions } from './app-options';
import { destinationPolicy } from './config';
import { deliveries, deliveryAttempts } from './db/schema';
import { type DemoEmulators, startDemoEmulators } from './demo-emulators';
import { accountIdOf, createDestination, createSource } from './test/routing-fixtures';
import { createTestApp, signUp, type TestApp } from './test/test-app';

let emulators: DemoEmulators;

/** What the connectors' demos tell (GET /api/emulators), as these tests read it. */
type Demo = Record<'amocrm' | 'ga' | 'horoshop' | 'telegram', { url: string; [k: string]: string }> & {
  pipedrive: { url: string; apiToken: string };
  uspacy: { url: string; email: string; password: string; webhookUrl: string };
  alfasms: { url: string; apiKey: string; senders: string[] };
};
const demo = () => emulators.info as unknown as Demo;
/** A loopback service that is not an emulator: what an attacker would aim at (a database, an admin port). */
let receiver: HttpEmulator;
/** A loopback server allowed like an emulator, that redirects to the receiver. */
let redirector: HttpEmulator;
let t: TestApp;

const envOf = (allowPrivate: boolean) =>
  loadEnv({ EMULATORS: 'true', ALLOW_PRIVATE_DESTINATIONS: String(allowPrivate), LOG_LEVEL: 'silent' });

beforeAll(async () => {
  [receiver, redirector] = await Promise.all([startHttpEmulator(), startHttpEmulator()]);
  emulators = await startDemoEmulators('http://app.test');
  // The test's own database, not the environment's.
  const { databaseUrl: _url, dataDir: _dir, ...options } = appOptions(envOf(false), emulators);
  t = await createTestApp({
    ...options,
    publicUrl: 'http://app.test',
    allowedEndpoints: [...(options.allowedEndpoints ?? []), `127.0.0.1:${redirector.port}`],
    logger: false,
    worker: false,
  });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await emulators?.close();
  await Promise.all([receiver?.close(), redirector?.close()]);
});

/** `{p}` stands for the receiver's port, known once it listens. */
const spellings = () => {
  const p = '{p}';
  return [
    `http://127.0.0.1:${p}/hook`,
    `http://localhost:${p}/hook`,
    `http://localhost.:${p}/hook`,
    `http://LOCALHOST:${p}/hook`,
    `http://api.localhost:${p}/hook`,
    `http://${hostname()}:${p}/hook`,
    `http://2130706433:${p}/hook`,
    `http://0x7f000001:${p}/hook`,
    `http://0177.0.0.1:${p}/hook`,
    `http://0x7f.0.0.1:${p}/hook`,
    `http://127.1:${p}/hook`,
    `http://127.0.1:${p}/hook`,
    `http://127.0.0.2:${p}/hook`,
    `http://0.0.0.0:${p}/hook`,
    `http://0:${p}/hook`,
    `http://[::1]:${p}/hook`,
    `http://[::ffff:127.0.0.1]:${p}/hook`,
    `http://[::ffff:7f00:1]:${p}/hook`,
    `http://[0:0:0:0:0:ffff:127.0.0.1]:${p}/hook`,
    `http://[::127.0.0.1]:${p}/hook`,
    `http://10.0.0.1:${p}/hook`,
    `http://172.16.0.1:${p}/hook`,
    `http://192.168.1.1:${p}/hook`,
    `http://100.64.0.1:${p}/hook`,
    `http://169.254.169.254/latest/meta-data/`,
    `http://[fd00::1]:${p}/hook`,
    `http://[fe80::1]:${p}/hook`,
    // The emulators' own address on another port: PostgreSQL's, say.
    'http://127.0.0.1:5432/',
  ];
};

describe('EMULATORS=true with ALLOW_PRIVATE_DESTINATIONS=false', () => {
  it('the started app allows only the emulators’ own endpoints', () => {
    const options = appOptions(envOf(false), emulators);
    expect(options.allowPrivateDestinations).toBe(false);
    expect(options.allowedEndpoints!.length).toBeGreaterThanOrEqual(10);
    for (const endpoint of options.allowedEndpoints!) expect(endpoint).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(options.allowedEndpoints).toContain(new URL(demo().ga.url).host);
    expect(options.allowedEndpoints).not.toContain(`127.0.0.1:${receiver.port}`);
  });

  it('the name used below really resolves to loopback', async () => {
    expect((await lookup(hostname())).address).toMatch(/^127\./);
  });

  it.each(spellings().map((url) => [url]))('refuses %s without sending anything', async (url) => {
    const fetch = createSafeFetch({ ...destinationPolicy(t.app.deps.config), timeoutMs: 2000 });
    const before = receiver.requests.length;
    const err = await fetch(url.replace('{p}', String(receiver.port)), { method: 'POST', body: '{}' }).catch((e) => e);
    expect(err).toBeInstanceOf(PermanentError);
    expect(err.code).toBe('URL_NOT_ALLOWED');
    expect(receiver.requests.length).toBe(before);
  });

  it('refuses a redirect from an allowed endpoint to loopback', async () => {
    redirector.setRedirect({ location: receiver.hookUrl, status: 307 });
    const fetch = createSafeFetch(destinationPolicy(t.app.deps.config));
    const err = await fetch(redirector.hookUrl, { method: 'POST', body: '{}' }).catch((e) => e);
    expect(err).toBeInstanceOf(PermanentError);
    expect(err.message).toMatch(/redirect .* refused/);
    expect(receiver.requests).toHaveLength(0);
    redirector.setRedirect(null);
  });

  it('reaches the emulators', async () => {
    const fetch = createSafeFetch(destinationPolicy(t.app.deps.config));
    const res = await fetch(`${demo().horoshop.url}/`, { method: 'GET' });
    expect(res.status).toBeLessThan(500);
  });

  it('a user’s http destination on loopback fails for good as URL_NOT_ALLOWED, and the receiver hears nothing', async () => {
    const user = await signUp(t);
    const accountId = await accountIdOf(t.app.db, user.login);
    const destination = await createDestination(t.app.db, accountId, {
      type: 'http',
      name: 'Internal',
      settings: { url: `http://[::ffff:127.0.0.1]:${receiver.port}/hook` },
    });
    const source = await createSource(t.app.db, accountId, { destinationIds: [destination] });
    const res = await t.app.inject({
      method: 'POST',
      url: source.url,
      payload: { name: 'Olena', phone: '0501234567' },
    });
    expect(res.statusCode).toBe(202);
    await t.app.deliveryWorker.drain();
    const [delivery] = await t.app.db.select().from(deliveries).where(eq(deliveries.destinationId, destination));
    expect(delivery!.status).toBe('failed');
    const attempts = await t.app.db
      .select()
      .from(deliveryAttempts)
      .where(eq(deliveryAttempts.deliveryId, delivery!.id));
    expect(attempts).toHaveLength(1);
    expect(attempts[0]!.error).toMatch(/^URL_NOT_ALLOWED/);
    expect(receiver.requests).toHaveLength(0);
  });
});

describe('ALLOW_PRIVATE_DESTINATIONS=true', () => {
  it('opens loopback: the operator’s choice alone', async () => {
    const options = appOptions(envOf(true), emulators);
    const fetch = createSafeFetch({
      allowPrivate: options.allowPrivateDestinations,
      allowEndpoints: options.allowedEndpoints,
    });
    const res = await fetch(receiver.hookUrl, { method: 'POST', body: '{}' });
    expect(res.status).toBe(200);
    expect(receiver.requests).toHaveLength(1);
    receiver.reset();
  });
});
