// EMULATORS=true as main.ts runs it: the emulators start on loopback, the app's CRM settings point at
// them, and a demo user can connect a CRM with the credentials GET /api/emulators tells.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DemoEmulators, startDemoEmulators } from './demo-emulators';
import { createPaymentProvider } from './modules/payments/providers';
import { callAs, createTestApp, type SignedInUser, signUp, type TestApp } from './test/test-app';

let emulators: DemoEmulators;

/** What the connectors' demos tell (GET /api/emulators), as these tests read it. */
type Demo = Record<'amocrm' | 'facebook' | 'ga' | 'horoshop' | 'telegram', { url: string; [k: string]: string }> & {
  pipedrive: { url: string; apiToken: string };
  uspacy: { url: string; email: string; password: string; webhookUrl: string };
  bitrix24: { url: string; webhookUrl: string };
  alfasms: { url: string; apiKey: string; senders: string[] };
};
const demo = () => emulators.info as unknown as Demo;
let t: TestApp;
let plain: TestApp;
let user: SignedInUser;

beforeAll(async () => {
  emulators = await startDemoEmulators('http://app.test');
  t = await createTestApp({
    allowPrivateDestinations: true,
    crm: emulators.crm,
    emulators: emulators.info,
    nbuRatesUrl: emulators.nbuRatesUrl,
    payment: emulators.payment,
  });
  plain = await createTestApp();
  user = await signUp(t);
});
afterAll(async () => {
  await t?.close();
  await plain?.close();
  await emulators?.close();
});

describe('EMULATORS=true', () => {
  it('prices in hryvnias get a rate from the NBU emulator, not the built-in one', async () => {
    expect(await t.app.periodic.runNow('refresh-currency-rates')).toBe('ran');
    const rates = (await t.app.inject({ method: 'GET', url: '/api/legacy/api/currency' })).json();
    expect(rates).toMatchObject({ USD: 41.5, UAH: 1, source: 'nbu' });
  });

  it('tells where the emulators are and the credentials to type in', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/emulators' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(emulators.info);
    expect(res.json().pipedrive.apiToken).toBe('demo-pipedrive-api-token');
  });

  it('a Pipedrive integration connects with the emulator API token, and amoCRM consent points at the emulator', async () => {
    const created = await callAs(t, 'POST', '/api/integrations', user, { type: 'pipedrive', name: 'Demo Pipedrive' });
    const id = created.json()._id;
    const connect = await callAs(t, 'POST', '/api/legacy/api/pipedrive/connect', user, {
      integrationId: id,
      apiToken: demo().pipedrive.apiToken,
    });
    expect(connect.statusCode).toBe(200);
    const stages = await callAs(t, 'GET', `/api/pipedrive/getStages/${id}`, user);
    expect(stages.statusCode).toBe(200);
    expect(stages.json().length).toBeGreaterThan(0);

    const amo = await callAs(t, 'POST', '/api/integrations', user, { type: 'amocrm', name: 'Demo amoCRM' });
    const url = await callAs(t, 'POST', '/api/legacy/api/amocrm/connect', user, { integrationId: amo.json()._id });
    expect(url.statusCode).toBe(200);
    expect(url.json().url.startsWith(demo().amocrm.url)).toBe(true);

    const fb = await callAs(t, 'POST', '/facebook/start', user, {});
    expect(fb.statusCode).toBe(200);
    expect(fb.json().authUrl.startsWith(demo().facebook.url)).toBe(true);
  });

  it('a Uspacy integration connects to the emulator, by signing in and by its incoming webhook', async () => {
    const { uspacy } = demo();
    for (const body of [
      { mode: 'password', portal: uspacy.url, email: uspacy.email, password: uspacy.password },
      { mode: 'webhook', webhookUrl: uspacy.webhookUrl },
    ]) {
      const created = await callAs(t, 'POST', '/api/integrations', user, { type: 'uspacy', name: 'Demo Uspacy' });
      const id = created.json()._id;
      const connect = await callAs(t, 'POST', '/api/uspacy/connect', user, { integrationId: id, ...body });
      expect(connect.json()).toEqual({ integrationId: id, type: 'uspacy', mode: body.mode });
      const funnels = await callAs(t, 'GET', `/api/uspacy/leadFunnels/${id}`, user);
      expect(funnels.json().length).toBeGreaterThan(0);
    }
  });

  it('a Bitrix24 integration connects to the emulator by its inbound webhook address', async () => {
    const created = await callAs(t, 'POST', '/api/integrations', user, { type: 'bitrix24', name: 'Demo Bitrix24' });
    const id = created.json()._id;
    const connect = await callAs(t, 'POST', '/api/bitrix24/connect', user, {
      integrationId: id,
      webhookUrl: demo().bitrix24.webhookUrl,
    });
    expect(connect.json()).toEqual({ integrationId: id, type: 'bitrix24' });
    const pipelines = await callAs(t, 'GET', `/api/bitrix24/pipelines/${id}`, user);
    expect(pipelines.json().length).toBeGreaterThan(0);
  });

  it('payments go to the LiqPay emulator: its checkout page opens for a form the app signs', async () => {
    const payment = t.app.deps.config.payment;
    expect(payment).toEqual(emulators.payment);
    expect(payment).toMatchObject({ provider: 'liqpay', sandbox: true });
    expect(payment?.checkoutUrl.startsWith(emulators.info.liqpay.url)).toBe(true);
    const checkout = createPaymentProvider(payment!).checkout({
      orderId: 'LR-demo-1',
      amount: 29,
      currency: 'USD',
      description: 'Demo plan',
      language: 'en',
      resultUrl: 'http://app.test/admin/plan',
      callbackUrl: 'http://app.test/api/payment/callback',
      saveCard: true,
    });
    const page = await fetch(checkout.action, { method: 'POST', body: new URLSearchParams(checkout.fields) });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('data-testid="liqpay-pay"');
    expect(plain.app.deps.config.payment).toBeNull();
  });

  it('AlphaSMS and GA4 connect with the credentials /api/emulators tells, and their leads reach the emulators', async () => {
    const { alfasms, ga } = demo();
    const sms = await callAs(t, 'POST', '/api/integrations', user, { type: 'alfasms', name: 'Demo SMS' });
    const smsConnect = await callAs(t, 'PUT', `/api/admin/integration/${sms.json()._id}/connect`, user, {
      auth: { apiKey: alfasms.apiKey },
      settings: {
        sender: alfasms.senders[0],
        leadTemplate: '{name}, дякуємо!',
        quietHours: { enabled: false, from: '21:00', to: '09:00' },
      },
    });
    expect(smsConnect.json()).toMatchObject({ ok: true, status: 'ok' });
    const balance = await callAs(t, 'GET', `/api/alfasms/balance/${sms.json()._id}`, user);
    expect(balance.json()).toEqual({ amount: 500, currency: 'UAH' });

    const analytics = await callAs(t, 'POST', '/api/integrations', user, { type: 'ga', name: 'Demo GA4' });
    const gaConnect = await callAs(t, 'PUT', `/api/admin/integration/${analytics.json()._id}/connect`, user, {
      auth: { apiSecret: ga.apiSecret },
      settings: { measurementId: ga.measurementId },
    });
    expect(gaConnect.json()).toMatchObject({ ok: true, status: 'ok' });
    const test = await callAs(t, 'POST', `/api/ga/debug/${analytics.json()._id}`, user, {});
    expect(test.json()).toMatchObject({ valid: true, validationMessages: [] });
  });

  it('a Horoshop source connects to the emulated shop with the address and login GET /api/emulators tells', async () => {
    const created = await callAs(t, 'POST', '/api/integrations', user, { type: 'horoshop', name: 'Demo shop' });
    expect(created.statusCode).toBe(201);
    const { url, login, password } = demo().horoshop;
    const auth = await callAs(t, 'POST', `/api/integrations/${created.json()._id}/horoshop/auth`, user, {
      domain: url,
      login,
      password,
    });
    expect(auth.statusCode).toBe(200);
    expect(auth.json().data.integration).toMatchObject({ isConnected: true, settings: { shopUrl: url } });
  });

  it('a Telegram integration connects the demo bot by its token, or the emulated platform bot', async () => {
    for (const body of [{ mode: 'own', botToken: demo().telegram.botToken }, { mode: 'platform' }]) {
      const created = await callAs(t, 'POST', '/api/integrations', user, { type: 'telegram', name: 'Demo bot' });
      const id = created.json()._id;
      const connect = await callAs(t, 'POST', '/api/telegram/connect', user, { integrationId: id, ...body });
      expect(connect.json()).toMatchObject({ connected: true, mode: body.mode, botUsername: expect.any(String) });
    }
  });

  it('without EMULATORS there is no /api/emulators', async () => {
    expect((await plain.app.inject({ method: 'GET', url: '/api/emulators' })).statusCode).toBe(404);
  });
});
