// Issue 27, item 2: one mapping rule used to empty every lead. Through the real routes: the options
// saved with PUT …/update, a lead posted to the webhook, the worker delivering to the http
// destination's emulator. What the preview shows (shared mapLead, which the web's preview runs) is
// what the destination receives.
import { createSafeFetch, defineConnector, getConnector } from '@leadrelay/connectors';
import { type HttpEmulator, startHttpEmulator } from '@leadrelay/connectors/http/emulator';
import { type Hook, mapLead, ZSourceOptions } from '@leadrelay/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryAttempts } from '../../db/schema';
import { DeliveryWorker } from '../../delivery/worker';
import { accountIdOf, createDestination, createSource } from '../../test/routing-fixtures';
import { createTestApp, errorOf, signUp, type TestApp } from '../../test/test-app';
import { testDestination } from '../../test/test-destination';

let t: TestApp;
let accessToken: string;
let accountId: string;
let emulator: HttpEmulator;

beforeAll(async () => {
  t = await createTestApp({ allowPrivateDestinations: true });
  const user = await signUp(t);
  accessToken = user.accessToken;
  accountId = await accountIdOf(t.app.db, user.login);
  emulator = await startHttpEmulator();
});
afterAll(async () => {
  await emulator.close();
  await t.close();
});

const auth = () => ({ authorization: `Bearer ${accessToken}` });

/** A webhook source made and configured through the API, sending to the given destinations. */
async function webhookSource(options: Record<string, unknown>, destination: string[]) {
  const made = await t.app.inject({
    method: 'POST',
    url: '/api/integrations',
    headers: auth(),
    payload: { type: 'webhook', name: 'Site form', destination },
  });
  expect(made.statusCode).toBe(201);
  const id = made.json()._id as string;
  const saved = await t.app.inject({
    method: 'PUT',
    url: `/api/integrations/${id}/update`,
    headers: auth(),
    payload: { options },
  });
  expect(saved.statusCode).toBe(200);
  const hook = await t.app.inject({ method: 'GET', url: `/api/integrations/${id}/generateHook`, headers: auth() });
  return { id, path: new URL(hook.json().url as string).pathname };
}

async function hooksOf(integrationId: string): Promise<Hook[]> {
  const res = await t.app.inject({ method: 'GET', url: `/api/hook?integrationId=${integrationId}`, headers: auth() });
  expect(res.statusCode).toBe(200);
  return res.json().data as Hook[];
}

const FORM = {
  name: 'Олена Коваленко',
  phone: '(067) 123-45-67',
  Email: 'Olena@Example.COM',
  message: 'Передзвоніть після 18:00',
  utm_source: 'facebook',
  utm_campaign: 'spring',
  city: 'Львів',
  form: { id: 'contact-footer' },
};

describe('the preview is what the http destination receives (issue 27)', () => {
  let http: string;
  beforeAll(async () => {
    http = await createDestination(t.app.db, accountId, {
      type: 'http',
      name: 'Webhook out',
      settings: { url: emulator.hookUrl },
    });
  });

  it.each([
    ['the default mapping', {}],
    ['one rule on a custom field (city → custom.city)', { mapping: [{ from: 'city', to: 'custom.city' }] }],
    [
      'rules that replace defaults',
      {
        mapping: [
          { from: 'form.id', to: 'comment' },
          { from: ['city', 'utm_source'], to: 'utm.source', separator: '/', transform: ['lower'] },
          { from: 'phone', to: 'custom.raw_phone' },
        ],
      },
    ],
    ['defaults off but e-mail', { mapping: [{ from: 'Email', to: 'email' }], defaults: false }],
    [
      'some defaults off',
      { mapping: [{ from: 'city', to: 'custom.city' }], defaults: { off: ['utm.campaign', 'custom'] } },
    ],
    ['a filter that keeps it', { filters: [{ field: 'phone', op: 'regex', value: '^\\+380' }] }],
  ])('%s', async (_name, options) => {
    const source = await webhookSource(options, [http]);
    const preview = mapLead(FORM, ZSourceOptions.parse(options));
    expect(preview.verdict.kept).toBe(true);

    const res = await t.app.inject({ method: 'POST', url: source.path, payload: FORM });
    expect(res.statusCode).toBe(202);
    emulator.reset();
    expect(await t.app.deliveryWorker.drain()).toBe(1);
    expect(emulator.records).toHaveLength(1);
    const received = emulator.records[0]!.body as { lead: unknown };
    expect(received.lead).toEqual(preview.lead);
  });

  it('one rule on a custom field keeps name, phone, e-mail, message and UTM in what is delivered', async () => {
    const source = await webhookSource({ mapping: [{ from: 'city', to: 'custom.city' }] }, [http]);
    emulator.reset();
    await t.app.inject({ method: 'POST', url: source.path, payload: FORM });
    await t.app.deliveryWorker.drain();
    expect((emulator.records[0]!.body as { lead: unknown }).lead).toEqual({
      name: 'Олена Коваленко',
      phone: '+380671234567',
      email: 'olena@example.com',
      comment: 'Передзвоніть після 18:00',
      utm: { source: 'facebook', campaign: 'spring' },
      custom: { city: 'Львів' },
    });
    const [hook] = await hooksOf(source.id);
    expect(hook).toMatchObject({ status: 'delivered', warnings: [] });
  });

  it('refuses defaults it does not know with 400 and the field key on options.defaults', async () => {
    const source = await webhookSource({}, []);
    for (const defaults of [{ off: ['address'] }, 'no', { off: ['name'], also: 1 }]) {
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/integrations/${source.id}/update`,
        headers: auth(),
        payload: { options: { defaults } },
      });
      expect(res.statusCode).toBe(400);
      const error = errorOf(res);
      expect(error.errors?.[0]?.field).toMatch(/^options\.defaults/);
      // The answer's code is the field's own key (item 8: zodAppError keeps it).
      expect(error.code).toBe(error.errors?.[0]?.code);
    }
  });
});

describe('a lead with no contact (issue 27)', () => {
  // A destination that makes contacts, as amoCRM, Pipedrive, Uspacy and SendPulse declare.
  const crm = testDestination('contact-crm');
  const contactCrm = defineConnector({ ...crm.connector, requiresContact: true });
  const worker = () =>
    new DeliveryWorker({
      db: t.app.db,
      events: t.app.events,
      log: t.app.log,
      getConnector: (slug) => (slug === 'contact-crm' ? contactCrm : getConnector(slug)),
      fetch: createSafeFetch({ allowPrivate: true }),
      breaker: { threshold: 1_000 },
    });

  it('is flagged NO_CONTACT on its hook; a CRM refuses it for good (LEAD_NO_CONTACT), the http webhook still gets it', async () => {
    const crmId = await createDestination(t.app.db, accountId, { type: 'contact-crm', name: 'CRM' });
    const http = await createDestination(t.app.db, accountId, {
      type: 'http',
      name: 'Webhook out',
      settings: { url: emulator.hookUrl },
    });
    // The mapping names only the city, and no default is left. (The test CRM's type is not in the
    // catalogue, so the source is written directly.)
    const source = await createSource(t.app.db, accountId, {
      destinationIds: [crmId, http],
      options: { mapping: [{ from: 'city', to: 'custom.city' }], defaults: false },
    });
    expect(mapLead(FORM, { mapping: [{ from: 'city', to: 'custom.city' }], defaults: false }).warnings).toEqual([
      'NO_CONTACT',
    ]);
    const res = await t.app.inject({ method: 'POST', url: source.url, payload: FORM });
    expect(res.statusCode).toBe(202);
    emulator.reset();
    expect(await worker().drain()).toBe(2);

    expect(crm.calls).toHaveLength(0);
    expect(emulator.records).toHaveLength(1);
    expect((emulator.records[0]!.body as { lead: unknown }).lead).toEqual({ custom: { city: 'Львів' } });

    const [hook] = await hooksOf(source.id);
    expect(hook).toMatchObject({ status: 'partial', warnings: ['NO_CONTACT'] });
    const refused = hook!.deliveries.find((d) => d.destination._id === crmId);
    expect(refused).toMatchObject({ status: 'failed', attempts: 1, lastError: 'LEAD_NO_CONTACT' });
    const attempts = await t.app.db
      .select()
      .from(deliveryAttempts)
      .where(eq(deliveryAttempts.deliveryId, refused!._id));
    expect(attempts).toMatchObject([{ outcome: 'permanent', error: 'LEAD_NO_CONTACT' }]);
  });

  it('a lead with a name only is a contact: delivered, no warning', async () => {
    const crmId = await createDestination(t.app.db, accountId, { type: 'contact-crm', name: 'CRM' });
    const source = await createSource(t.app.db, accountId, { destinationIds: [crmId] });
    await t.app.inject({ method: 'POST', url: source.url, payload: { name: 'Olena', city: 'Kyiv' } });
    expect(await worker().drain()).toBe(1);
    const [hook] = await hooksOf(source.id);
    expect(hook).toMatchObject({ status: 'delivered', warnings: [] });
    expect(crm.received.at(-1)?.lead).toEqual({ name: 'Olena', custom: { city: 'Kyiv' } });
  });
});
