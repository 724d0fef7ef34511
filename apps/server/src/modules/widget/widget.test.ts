import {
  clearSendpulseTokenCache,
  type PipedriveEmulator,
  SENDPULSE_BOT,
  SENDPULSE_CLIENT,
  type SendpulseEmulator,
  startPipedriveEmulator,
  startSendpulseEmulator,
} from '@leadrelay/connectors/testing';
import { eq } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CRM_CONFIG } from '../../config';
import { integrations } from '../../db/schema';
import { sealAuth } from '../../delivery/stored-auth';
import {
  callAs,
  createTestApp,
  expectError,
  type Method,
  type SignedInUser,
  signUp,
  type TestApp,
} from '../../test/test-app';

let t: TestApp;
let pd: PipedriveEmulator;
let sp: SendpulseEmulator;
let alice: SignedInUser;
let bob: SignedInUser;
let pipedriveId: string;
let sendpulseId: string;
let token: string;

const DATA = '/api/legacy/api/pipedrive/sendpulse';
const MESSAGE = `${DATA}/message`;
const call = (method: Method, url: string, user: SignedInUser | null, payload?: unknown) =>
  callAs(t, method, url, user, payload);
const dataUrl = (personId: number | string, tok = token) =>
  `${DATA}?token=${encodeURIComponent(tok)}&personId=${personId}`;

// People in Pipedrive whose phones and e-mails match the SendPulse emulator's seeded bot contacts.
const OLENA = 1;
const IRYNA = 2;
const STRANGER = 3;
const TARAS = 4;

function seedPersons() {
  const person = (id: number, name: string, phones: string[], emails: string[]) => ({
    id,
    name,
    phones: phones.map((value, i) => ({ value, primary: i === 0, label: 'work' })),
    emails: emails.map((value, i) => ({ value, primary: i === 0, label: 'work' })),
    owner_id: 101,
    org_id: null,
  });
  pd.persons.push(
    person(OLENA, 'Olena Kovalenko', ['+38 (050) 123-45-67'], ['olena@example.com']),
    person(IRYNA, 'Iryna Bondar', [], ['iryna@example.com']),
    person(STRANGER, 'No Chat', ['+12025550100'], ['nobody@example.com']),
    person(TARAS, 'Taras Shevchuk', ['+380671112233'], []),
  );
}

async function create(user: SignedInUser, body: Record<string, unknown>): Promise<string> {
  const res = await call('POST', '/api/integrations', user, body);
  if (res.statusCode !== 201) throw new Error(`create failed: ${res.body}`);
  return res.json()._id;
}

/** A Pipedrive integration connected with an API token (as the API-token connect flow stores it). */
async function pipedriveOf(user: SignedInUser): Promise<string> {
  const id = await create(user, { type: 'pipedrive', name: 'Pipedrive' });
  await t.app.db
    .update(integrations)
    .set({ auth: sealAuth(t.app.deps.secrets, id, { kind: 'token', apiToken: pd.apiToken, apiDomain: pd.url }) })
    .where(eq(integrations.id, id));
  return id;
}

async function sendpulseOf(user: SignedInUser, settings: Record<string, unknown> = { botId: SENDPULSE_BOT.id }) {
  const id = await create(user, { type: 'sendpulse', name: 'SendPulse bot' });
  const res = await call('PUT', `/api/admin/integration/${id}/connect`, user, {
    auth: { clientId: SENDPULSE_CLIENT.id, clientSecret: SENDPULSE_CLIENT.secret },
    settings,
  });
  expect(res.json()).toMatchObject({ ok: true });
  return id;
}

const link = (user: SignedInUser, pdId: string, spId: string | undefined) =>
  call('PUT', `/api/admin/integration/${pdId}/connect`, user, { settings: { sendpulseIntegrationId: spId } });

async function widgetToken(user: SignedInUser, pdId: string): Promise<string> {
  const res = await call('GET', `/api/pipedrive/widget/${pdId}`, user);
  expect(res.statusCode).toBe(200);
  return new URL(res.json().url).searchParams.get('token')!;
}

beforeAll(async () => {
  pd = await startPipedriveEmulator();
  sp = await startSendpulseEmulator({ rateLimitPerSecond: 1000 });
  t = await createTestApp({
    allowPrivateDestinations: true,
    crm: {
      pipedrive: { ...DEFAULT_CRM_CONFIG.pipedrive, apiUrl: pd.url, hosts: [new URL(pd.url).host] },
      sendpulse: { apiUrl: sp.url },
    },
  });
  alice = await signUp(t);
  bob = await signUp(t);
  pipedriveId = await pipedriveOf(alice);
  sendpulseId = await sendpulseOf(alice);
  expect((await link(alice, pipedriveId, sendpulseId)).statusCode).toBe(200);
  token = await widgetToken(alice, pipedriveId);
});
afterAll(async () => {
  await t.close();
  await pd.close();
  await sp.close();
});
beforeEach(() => {
  pd.reset();
  sp.reset();
  sp.setRateLimit(1000);
  clearSendpulseTokenCache();
  seedPersons();
});

describe('GET /api/pipedrive/widget/:integrationId', () => {
  it('gives the panel URL of the widget page with a signed token', async () => {
    const res = await call('GET', `/api/pipedrive/widget/${pipedriveId}`, alice);
    expect(res.statusCode).toBe(200);
    const url = new URL(res.json().url);
    expect(`${url.origin}${url.pathname}`).toBe('http://app.test/widgets/pipedrive-sendpulse');
    expect(url.searchParams.get('token')).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(res.body).not.toContain(SENDPULSE_CLIENT.secret);
  });

  it('needs a session, and only the caller’s own Pipedrive integration', async () => {
    expectError(await call('GET', `/api/pipedrive/widget/${pipedriveId}`, null), 401, 'UNAUTHORIZED');
    expectError(await call('GET', `/api/pipedrive/widget/${pipedriveId}`, bob), 404, 'INTEGRATION_NOT_FOUND');
    expectError(await call('GET', `/api/pipedrive/widget/${sendpulseId}`, alice), 404, 'INTEGRATION_NOT_FOUND');
    expectError(await call('GET', '/api/pipedrive/widget/not-a-uuid', alice), 404, 'INTEGRATION_NOT_FOUND');
  });

  it('refuses while no SendPulse integration is chosen', async () => {
    const other = await pipedriveOf(alice);
    expectError(await call('GET', `/api/pipedrive/widget/${other}`, alice), 400, 'INTEGRATION_NOT_CONNECTED');
  });

  it('will not link another account’s SendPulse integration', async () => {
    const bobs = await pipedriveOf(bob);
    expect((await link(bob, bobs, sendpulseId)).statusCode).toBe(200);
    expectError(await call('GET', `/api/pipedrive/widget/${bobs}`, bob), 400, 'INTEGRATION_NOT_CONNECTED');
  });
});

describe('GET /api/legacy/api/pipedrive/sendpulse', () => {
  it('shows the Pipedrive person and the chatbot contact matched by phone, with a conversation link', async () => {
    const res = await call('GET', dataUrl(OLENA), null);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      person: { id: OLENA, name: 'Olena Kovalenko', phones: ['+38 (050) 123-45-67'], emails: ['olena@example.com'] },
      channel: 'telegram',
      contacts: [
        {
          id: 'tg-contact-olena',
          name: 'Olena Kovalenko',
          username: 'olena_k',
          channel: 'telegram',
          lastActivityAt: '2026-11-20T09:15:00Z',
          conversationUrl: expect.stringMatching(/^https:\/\/login\.sendpulse\.com\/.*contact_id=tg-contact-olena/),
        },
      ],
    });
    // The SendPulse token was asked for once and sent as a Bearer token, never in a URL.
    expect(sp.tokensIssued()).toBe(1);
    expect(sp.requests.every((r) => !r.path.includes(SENDPULSE_CLIENT.secret))).toBe(true);
  });

  it('falls back to the e-mail, and answers an empty list for a person nobody chats as', async () => {
    expect((await call('GET', dataUrl(IRYNA), null)).json().contacts.map((c: { id: string }) => c.id)).toEqual([
      'tg-contact-iryna',
    ]);
    const none = await call('GET', dataUrl(STRANGER), null);
    expect(none.statusCode).toBe(200);
    expect(none.json().contacts).toEqual([]);
  });

  it('uses the SendPulse integration’s channel', async () => {
    const whatsapp = await sendpulseOf(alice, { channel: 'whatsapp' });
    const pdId = await pipedriveOf(alice);
    await link(alice, pdId, whatsapp);
    const res = await call('GET', dataUrl(OLENA, await widgetToken(alice, pdId)), null);
    expect(res.json()).toMatchObject({
      channel: 'whatsapp',
      contacts: [{ id: 'wa-contact-olena', channel: 'whatsapp' }],
    });
  });

  it('a person Pipedrive does not have is NOT_FOUND', async () => {
    expectError(await call('GET', dataUrl(999), null), 404, 'NOT_FOUND');
  });

  it('any problem with the token is WIDGET_NOT_FOUND', async () => {
    const secret = new TextEncoder().encode(t.app.deps.config.jwtSecret);
    const forged = await new SignJWT({ purpose: 'widget', integrationId: pipedriveId, accountId: pipedriveId })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('another-secret-entirely-0123456789'));
    const wrongAccount = await new SignJWT({ purpose: 'widget', integrationId: pipedriveId, accountId: sendpulseId })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(secret);
    for (const bad of ['garbage', forged, wrongAccount, alice.accessToken, `${token}x`]) {
      expectError(await call('GET', dataUrl(OLENA, bad), null), 404, 'WIDGET_NOT_FOUND');
    }
    expect(sp.requests).toHaveLength(0);
    expect(pd.calls()).toHaveLength(0);
  });

  it('bad query parameters are 400, not a lookup', async () => {
    expectError(await call('GET', `${DATA}?token=${encodeURIComponent(token)}`, null), 400, 'REQUIRED');
    expectError(await call('GET', dataUrl('abc'), null), 400, 'INVALID_TYPE');
    expectError(await call('GET', `${DATA}?personId=1`, null), 400, 'REQUIRED');
    expectError(await call('GET', dataUrl(-5), null), 400, 'INVALID_TYPE');
    expectError(
      await call('POST', MESSAGE, null, { token, personId: '1', contactId: 'x', text: 'Hi' }),
      400,
      'INVALID_TYPE',
    );
    expect(sp.requests).toHaveLength(0);
  });

  it('the token stops working when SendPulse is unset or the integration is deleted', async () => {
    const pdId = await pipedriveOf(alice);
    await link(alice, pdId, sendpulseId);
    const own = await widgetToken(alice, pdId);
    expect((await call('GET', dataUrl(OLENA, own), null)).statusCode).toBe(200);
    await link(alice, pdId, undefined);
    expectError(await call('GET', dataUrl(OLENA, own), null), 404, 'WIDGET_NOT_FOUND');
    await link(alice, pdId, sendpulseId);
    expect((await call('GET', dataUrl(OLENA, own), null)).statusCode).toBe(200);
    await call('DELETE', `/api/legacy/api/admin/integration/${pdId}`, alice);
    expectError(await call('GET', dataUrl(OLENA, own), null), 404, 'WIDGET_NOT_FOUND');
  });

  it('SendPulse failures are a clear error, its rate limit a 429', async () => {
    sp.setFault({ status: 500, path: '/telegram/' });
    expectError(await call('GET', dataUrl(OLENA), null), 400, 'CONNECTION_FAILED');
    sp.setFault({ status: 429, path: '/telegram/' });
    expectError(await call('GET', dataUrl(OLENA), null), 429, 'TOO_MANY_REQUESTS');
  });
});

describe('POST /api/legacy/api/pipedrive/sendpulse/message', () => {
  it('sends the text to the person’s chatbot contact', async () => {
    const res = await call('POST', MESSAGE, null, {
      token,
      personId: OLENA,
      contactId: 'tg-contact-olena',
      text: 'Вітаю! Ваше замовлення готове.',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect(sp.messages).toEqual([
      expect.objectContaining({
        channel: 'telegram',
        contactId: 'tg-contact-olena',
        text: 'Вітаю! Ваше замовлення готове.',
      }),
    ]);
  });

  it('refuses a contact that is not this person’s, sending nothing', async () => {
    expectError(
      await call('POST', MESSAGE, null, { token, personId: OLENA, contactId: 'tg-contact-taras', text: 'Hi' }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await call('POST', MESSAGE, null, { token, personId: STRANGER, contactId: 'tg-contact-olena', text: 'Hi' }),
      404,
      'NOT_FOUND',
    );
    expect(sp.messages).toHaveLength(0);
  });

  it('checks the text and the token before anything is sent', async () => {
    const base = { token, personId: OLENA, contactId: 'tg-contact-olena' };
    expectError(await call('POST', MESSAGE, null, { ...base, text: '   ' }), 400, 'REQUIRED');
    expectError(await call('POST', MESSAGE, null, base), 400, 'REQUIRED');
    expectError(await call('POST', MESSAGE, null, { ...base, text: 'x'.repeat(4097) }), 400, 'MAX_LENGTH_4096');
    expectError(await call('POST', MESSAGE, null, { ...base, token: 'garbage', text: 'Hi' }), 404, 'WIDGET_NOT_FOUND');
    expect(sp.messages).toHaveLength(0);
    expect((await call('POST', MESSAGE, null, { ...base, text: 'x'.repeat(4096) })).statusCode).toBe(200);
  });

  it('a contact SendPulse no longer knows is a failure, not a success', async () => {
    // Found by phone, then removed in SendPulse before the message went out: success:false inside HTTP 200.
    const original = sp.chatContacts.find((c) => c.id === 'tg-contact-taras')!;
    const get = await call('GET', dataUrl(TARAS), null);
    expect(get.json().contacts.map((c: { id: string }) => c.id)).toEqual(['tg-contact-taras']);
    sp.setFault({
      status: 200,
      path: '/telegram/contacts/sendText',
      body: { success: false, errors: { contact_id: ['Contact not found'] } },
    });
    const res = await call('POST', MESSAGE, null, { token, personId: TARAS, contactId: original.id, text: 'Hi' });
    expectError(res, 400, 'CONNECTION_FAILED');
    expect(res.json().message).toContain('Contact not found');
    expect(sp.messages).toHaveLength(0);
  });
});
