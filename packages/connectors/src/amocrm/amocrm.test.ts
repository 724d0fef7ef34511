import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { describeConnectorContract, SAMPLE_LEAD } from '../kit/contract';
import { PermanentError, RetryableError } from '../kit/errors';
import { type MemoryAuthStore, memoryAuthStore } from '../kit/memory-auth';
import { createSafeFetch } from '../kit/safe-fetch';
import type { ConnectorContext, ConnectorLogger, OAuthClient } from '../kit/types';
import { type AmoAuth, AmoClient, setAmoWaitsForTests } from './client';
import { AMO_SEED, type AmoEmulator, startAmoEmulator } from './emulator';
import {
  amoAccountOrigin,
  amoAuthorizeUrl,
  amocrm,
  amoExchangeCode,
  amoMarkerOf,
  amoMessage,
  contactFields,
  fieldValue,
  leadName,
  MARKER_FIELD_NAME,
  matchContact,
  noteText,
  phoneQuery,
  responsibleUserId,
  samePhone,
  toComplexLead,
} from './index';
import { type AmoSettings, ZAmoSettings } from './schema';

const REDIRECT = 'http://app.test/api/amocrm/callback';
const noopLogger: ConnectorLogger = { debug() {}, info() {}, warn() {} };
const [SALES, WHOLESALE] = AMO_SEED.pipelines;
const [ANNA, BOHDAN] = AMO_SEED.users;
const settingsOf = (s: Partial<AmoSettings> = {}): AmoSettings => ZAmoSettings.parse(s);

function oauthOf(em: AmoEmulator): OAuthClient {
  return { clientId: em.clientId, clientSecret: em.clientSecret, authorizeUrl: em.oauthUrl, redirectUri: REDIRECT };
}

// Against the emulators amoCRM's pace runs ten times faster: its "second" is 100 ms (still 7 calls
// in it) and a 429 without Retry-After is tried again after 100 ms, then 200 ms. The client's calls
// start 25 ms apart: the 8th call after the 1st comes 175 ms later, 75 ms of slack for a late call on
// a busy machine (amoCRM's own 150 ms in 1 s leave 50). The real waits have tests of their own
// ("amoCRM's pace", below).
const FAST_LIMITER = { rateWindowMs: 100 };
const FAST_WAITS = { spacingMs: 25, backoff429Ms: 100 };

// ---- The shared contract ----

describeConnectorContract('amocrm', async () => {
  const undoWaits = setAmoWaitsForTests(FAST_WAITS);
  const emulator = await startAmoEmulator({ redirectUri: REDIRECT, ...FAST_LIMITER });
  // Long enough for a first request on a loaded two-core machine; the slow-destination test waits 4× this.
  const timeoutMs = 1000;
  const fetch = createSafeFetch({ allowPrivate: true, timeoutMs });
  const secrets = [emulator.clientSecret];
  const fresh = () => {
    const tokens = emulator.issueTokens();
    secrets.push(tokens.accessToken, tokens.refreshToken);
    return memoryAuthStore<AmoAuth>(tokens);
  };
  let store = fresh();
  return {
    connector: amocrm,
    ctx: ({ logger, signal }) => ({
      auth: store.current(),
      settings: settingsOf({ tags: ['contract'] }),
      fetch,
      logger,
      signal,
      oauth: oauthOf(emulator),
      rotateAuth: store.rotateAuth,
      withLock: store.withLock,
    }),
    emulator: {
      recordCount: () => emulator.leads.length,
      setLatency: (ms) => emulator.setLatency(ms),
      // amoCRM's own auth failure: the integration was revoked, so even the refresh is refused.
      setFault: (fault) => (fault?.status === 401 ? emulator.revokeTokens() : emulator.setFault(fault)),
      reset: () => {
        emulator.reset();
        store = fresh();
      },
      close: () => {
        undoWaits();
        return emulator.close();
      },
    },
    secrets,
    timeoutMs,
    // amoCRM has no idempotency key: the lead's marker field, searched on a repeat, stands in for one.
  };
});

// ---- Pure mapping ----

describe('amoCRM mapping', () => {
  const lead = { ...SAMPLE_LEAD, custom: { city: 'Kyiv', product: 'pro', channels: 'Phone, telegram, fax' } };

  it('names the lead from the template, falling back to the phone', () => {
    expect(leadName(undefined, lead)).toBe('Lead: Olena Kovalenko');
    expect(leadName('{name} / {source} / {phone}', lead)).toBe('Olena Kovalenko / facebook / +380501234567');
    expect(leadName(undefined, { phone: '+380671112233', custom: {} })).toBe('Lead: +380671112233');
    expect(leadName(undefined, { custom: {} })).toBe('Lead');
    expect(leadName('x'.repeat(300), lead)).toHaveLength(255);
  });

  it('maps select values to one enum id and multiselect values to several, skipping unknown ones', () => {
    const enums = { Basic: 900_001, PRO: 900_002 };
    expect(fieldValue({ from: 'custom.product', entity: 'lead', fieldId: 800_003, enums }, lead)).toEqual({
      field_id: 800_003,
      values: [{ enum_id: 900_002 }],
    });
    const channels = { phone: 900_011, email: 900_012, Telegram: 900_013 };
    expect(fieldValue({ from: 'custom.channels', entity: 'lead', fieldId: 800_004, enums: channels }, lead)).toEqual({
      field_id: 800_004,
      values: [{ enum_id: 900_011 }, { enum_id: 900_013 }],
    });
    expect(fieldValue({ from: 'custom.city', entity: 'lead', fieldId: 800_003, enums }, lead)).toBeUndefined();
    expect(fieldValue({ from: 'utm.campaign', entity: 'lead', fieldId: 800_001 }, lead)).toEqual({
      field_id: 800_001,
      values: [{ value: 'spring' }],
    });
    expect(fieldValue({ from: 'custom.missing', entity: 'lead', fieldId: 800_001 }, lead)).toBeUndefined();
  });

  it('gives the contact PHONE and EMAIL as WORK values plus its mapped fields', () => {
    const settings = settingsOf({ fields: [{ from: 'custom.city', entity: 'contact', fieldId: 810_003 }] });
    expect(contactFields(lead, settings)).toEqual([
      { field_code: 'PHONE', values: [{ value: '+380501234567', enum_code: 'WORK' }] },
      { field_code: 'EMAIL', values: [{ value: 'olena@example.com', enum_code: 'WORK' }] },
      { field_id: 810_003, values: [{ value: 'Kyiv' }] },
    ]);
  });

  it('takes the responsible user from distribution when it is an amoCRM id, else from the settings', () => {
    const settings = settingsOf({ responsibleUserId: BOHDAN.id });
    expect(responsibleUserId({ id: String(ANNA.id) }, settings)).toBe(ANNA.id);
    expect(responsibleUserId({ id: 'u-anna' }, settings)).toBe(BOHDAN.id);
    expect(responsibleUserId(undefined, settings)).toBe(BOHDAN.id);
    expect(responsibleUserId(undefined, settingsOf())).toBeUndefined();
  });

  it('builds a leads/complex item: pipeline, status, owner, fields, tags, new or linked contact', () => {
    const settings = settingsOf({
      pipelineId: WHOLESALE.id,
      statusId: 70_000_021,
      tags: ['facebook', ' facebook ', 'vip'],
      fields: [
        { from: 'custom.product', entity: 'lead', fieldId: 800_003, enums: { pro: 900_002 } },
        { from: 'comment', entity: 'lead', fieldId: 800_001 },
      ],
    });
    const withNew = toComplexLead({ lead, settings, responsibleUserId: ANNA.id });
    expect(withNew).toEqual({
      name: 'Lead: Olena Kovalenko',
      pipeline_id: WHOLESALE.id,
      status_id: 70_000_021,
      responsible_user_id: ANNA.id,
      custom_fields_values: [
        { field_id: 800_003, values: [{ enum_id: 900_002 }] },
        { field_id: 800_001, values: [{ value: 'Call after 18:00' }] },
      ],
      _embedded: {
        tags: [{ name: 'facebook' }, { name: 'vip' }],
        contacts: [
          {
            name: 'Olena Kovalenko',
            responsible_user_id: ANNA.id,
            custom_fields_values: contactFields(lead, settings),
          },
        ],
      },
    });
    const linked = toComplexLead({ lead, settings: settingsOf(), contactId: 42 });
    expect(linked._embedded.contacts).toEqual([{ id: 42, is_main: true }]);
    expect(linked).not.toHaveProperty('pipeline_id');
    expect(linked).not.toHaveProperty('responsible_user_id');
  });

  it('writes a note with the lead, its UTM and the raw payload', () => {
    const text = noteText(lead, { form_id: 'f-1', field_data: [{ name: 'phone' }] });
    expect(text).toContain('Phone: +380501234567');
    expect(text).toContain('UTM: utm_source=facebook, utm_campaign=spring');
    expect(text).toContain('city: Kyiv');
    expect(text).toContain('"form_id": "f-1"');
    expect(noteText(lead, { big: 'x'.repeat(20_000) }).length).toBeLessThanOrEqual(15_000);
  });

  it('matches phones across spellings and e-mails case-insensitively', () => {
    expect(phoneQuery('+380501234567')).toBe('501234567');
    expect(samePhone('+380 (50) 123-45-67', '0501234567')).toBe(true);
    expect(samePhone('+380501234567', '+380501234568')).toBe(false);
    const contacts = [
      { id: 9, custom_fields_values: [{ field_code: 'PHONE', values: [{ value: '050 123 45 67' }] }] },
      { id: 3, custom_fields_values: [{ field_code: 'PHONE', values: [{ value: '+380501234567' }] }] },
      { id: 1, custom_fields_values: [{ field_code: 'PHONE', values: [{ value: '+1501234567999' }] }] },
      { id: 2, custom_fields_values: [{ field_code: 'EMAIL', values: [{ value: 'Olena@Example.com' }] }] },
    ];
    expect(matchContact(contacts, { phone: '+380501234567' })?.id).toBe(3);
    expect(matchContact(contacts, { email: 'olena@example.com' })?.id).toBe(2);
    expect(matchContact(contacts, { email: 'other@example.com' })).toBeUndefined();
  });

  it("reads amoCRM's validation errors into one message", () => {
    const body = {
      'validation-errors': [
        {
          request_id: '0',
          errors: [
            { code: 'NotSupportedChoice', path: 'status_id', detail: 'The value you selected is not a valid choice.' },
          ],
        },
      ],
      title: 'Bad Request',
      status: 400,
      detail: 'Request validation failed',
    };
    expect(amoMessage(body)).toBe('Bad Request: status_id: The value you selected is not a valid choice.');
    expect(amoMessage({ title: 'Unauthorized', detail: 'Unauthorized' })).toBe('Unauthorized');
  });
});

// ---- amoCRM's pace, on a fake clock ----

describe("amoCRM's pace", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A client of the account at `origin` whose every call answers with `answer()`; records when each started. */
  function clientOf(origin: string, answer: () => Response, starts: number[]) {
    const fetch = (async () => {
      starts.push(Date.now());
      return answer();
    }) as typeof globalThis.fetch;
    const auth = { accessToken: 'a', refreshToken: 'r', expiresAt: Date.now() + 86_400_000, baseUrl: origin };
    return new AmoClient({
      auth,
      settings: settingsOf(),
      fetch,
      logger: noopLogger,
      signal: new AbortController().signal,
    });
  }
  const ok = () => Response.json({});
  const tooMany = () => Response.json({ title: 'Too Many Requests', status: 429 }, { status: 429 });

  it('calls to one account start at least 150 ms apart (amoCRM allows 7 a second); another account is not held back', async () => {
    vi.useFakeTimers();
    const t0 = Date.now();
    const one: number[] = [];
    const other: number[] = [];
    const a = clientOf('https://pace-one.amocrm.ru', ok, one);
    const b = clientOf('https://pace-other.amocrm.ru', ok, other);
    const calls = Promise.all([
      a.get('/api/v4/account'),
      a.get('/api/v4/users'),
      a.get('/api/v4/leads'),
      b.get('/api/v4/account'),
    ]);
    await vi.advanceTimersByTimeAsync(1_000);
    await calls;
    expect(one.map((t) => t - t0)).toEqual([0, 150, 300]);
    expect(other.map((t) => t - t0)).toEqual([0]);
  });

  it('a 429 without Retry-After is tried again after 1 s, then after 2 s more', async () => {
    vi.useFakeTimers();
    const t0 = Date.now();
    const starts: number[] = [];
    const answers = [tooMany, tooMany, ok];
    const client = clientOf('https://pace-backoff.amocrm.ru', () => (answers.shift() ?? ok)(), starts);
    const call = client.get('/api/v4/account');
    await vi.advanceTimersByTimeAsync(5_000);
    await expect(call).resolves.toMatchObject({ status: 200 });
    expect(starts.map((t) => t - t0)).toEqual([0, 1_000, 3_000]);
  });
});

// ---- Against the emulator ----

describe('amoCRM destination', () => {
  let em: AmoEmulator;
  let store: MemoryAuthStore<AmoAuth>;
  const fetch = createSafeFetch({ allowPrivate: true, timeoutMs: 5000 });

  let undoWaits: () => void;

  beforeAll(async () => {
    undoWaits = setAmoWaitsForTests(FAST_WAITS);
    em = await startAmoEmulator({ redirectUri: REDIRECT, ...FAST_LIMITER });
  });
  afterAll(() => {
    undoWaits();
    return em.close();
  });
  beforeEach(() => {
    em.reset();
    store = memoryAuthStore(em.issueTokens());
  });

  const ctx = (settings: Partial<AmoSettings> = {}, auth?: AmoAuth): ConnectorContext<AmoAuth, AmoSettings> => ({
    auth: auth ?? store.current(),
    settings: settingsOf(settings),
    fetch,
    logger: noopLogger,
    signal: new AbortController().signal,
    oauth: oauthOf(em),
    rotateAuth: store.rotateAuth,
    withLock: store.withLock,
  });
  const deliver = (
    settings: Partial<AmoSettings> = {},
    lead = SAMPLE_LEAD,
    extra: { assignee?: { id: string } } = {},
  ) =>
    amocrm.deliver!(ctx(settings), { lead, idempotencyKey: `k-${Math.random()}`, raw: { form: 'spring' }, ...extra });

  async function existingContact(values: { phone?: string; email?: string }): Promise<number> {
    const cf = [
      ...(values.phone ? [{ field_code: 'PHONE', values: [{ value: values.phone, enum_code: 'MOB' }] }] : []),
      ...(values.email ? [{ field_code: 'EMAIL', values: [{ value: values.email, enum_code: 'PRIV' }] }] : []),
    ];
    const res = await fetch(`${em.url}/api/v4/contacts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${store.current().accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify([{ name: 'Existing', custom_fields_values: cf }]),
    });
    return ((await res.json()) as { _embedded: { contacts: { id: number }[] } })._embedded.contacts[0]!.id;
  }

  it('delivers a lead with its contact, owner, pipeline, status, fields, tags and note', async () => {
    const result = await deliver(
      {
        pipelineId: SALES.id,
        statusId: 70_000_012,
        tags: ['facebook'],
        leadName: '{name} ({source})',
        fields: [
          { from: 'custom.city', entity: 'lead', fieldId: 800_001 },
          { from: 'custom.qty', entity: 'lead', fieldId: 800_002 },
          { from: 'custom.product', entity: 'lead', fieldId: 800_003, enums: { pro: 900_002 } },
          { from: 'custom.channels', entity: 'lead', fieldId: 800_004, enums: { phone: 900_011, telegram: 900_013 } },
        ],
      },
      { ...SAMPLE_LEAD, custom: { city: 'Kyiv', qty: '3', product: 'Pro', channels: 'telegram;phone' } },
      { assignee: { id: String(BOHDAN.id) } },
    );
    expect(em.leads).toHaveLength(1);
    const lead = em.leads[0]!;
    expect(result.externalId).toBe(String(lead.id));
    expect(lead).toMatchObject({
      name: 'Olena Kovalenko (facebook)',
      pipeline_id: SALES.id,
      status_id: 70_000_012,
      responsible_user_id: BOHDAN.id,
      tags: [{ name: 'facebook' }],
    });
    const marked = em.leadFields.find((f) => f.name === MARKER_FIELD_NAME)!.id;
    expect(lead.custom_fields_values?.map((f) => [f.field_id, f.values])).toEqual([
      [800_001, [{ value: 'Kyiv' }]],
      [800_002, [{ value: '3' }]],
      [800_003, [{ value: 'Pro', enum_id: 900_002 }]],
      [
        800_004,
        [
          { value: 'Telegram', enum_id: 900_013 },
          { value: 'Phone', enum_id: 900_011 },
        ],
      ],
      // Last, the delivery's marker (a repeat after a crash finds the lead by it).
      [marked, [{ value: expect.stringMatching(/^lr[0-9a-f]{32}$/) }]],
    ]);
    expect(em.contacts).toHaveLength(1);
    const contact = em.contacts[0]!;
    expect(lead.contactIds).toEqual([contact.id]);
    expect(contact).toMatchObject({ name: 'Olena Kovalenko', responsible_user_id: BOHDAN.id });
    expect(
      contact.custom_fields_values?.map((f) => [f.field_code, f.values[0]?.value, f.values[0]?.enum_code]),
    ).toEqual([
      ['PHONE', '+380501234567', 'WORK'],
      ['EMAIL', 'olena@example.com', 'WORK'],
    ]);
    expect(em.notes).toHaveLength(1);
    expect(em.notes[0]).toMatchObject({ entity_id: lead.id, note_type: 'common' });
    expect(em.notes[0]!.params.text).toContain('utm_source=facebook');
    expect(em.notes[0]!.params.text).toContain('"form": "spring"');
    // The stored trace never holds the bearer token.
    expect(JSON.stringify(result)).not.toContain(store.current().accessToken);
  });

  it('marks each lead with its delivery, and a repeat whose earlier outcome is unknown finds it instead of making a second', async () => {
    const key = 'lead-1:dest-1';
    const input = { lead: SAMPLE_LEAD, idempotencyKey: key };
    const c = ctx({ note: false });
    const first = await amocrm.deliver!(c, input);
    // The marker field is made once per account (API-only text), found by name afterwards.
    const marker = em.leadFields.filter((f) => f.name === MARKER_FIELD_NAME);
    expect(marker).toMatchObject([{ type: 'text', is_api_only: true }]);
    expect(em.leads[0]!.custom_fields_values).toContainEqual(
      expect.objectContaining({ field_id: marker[0]!.id, values: [{ value: amoMarkerOf(key) }] }),
    );
    // The normal path spends no search.
    const searches = () => em.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/api/v4/leads?')).length;
    expect(searches()).toBe(0);

    // A takeover after a crash: the lead is found by its marker, nothing is made.
    const again = await amocrm.deliver!(ctx({ note: false }), { ...input, outcomeUnknown: true });
    expect(again.externalId).toBe(first.externalId);
    expect(em.leads).toHaveLength(1);
    expect(searches()).toBe(1);

    // Another delivery whose first attempt was lost before it reached amoCRM is made once.
    const other = await amocrm.deliver!(ctx({ note: false }), {
      ...input,
      idempotencyKey: 'lead-2:dest-1',
      outcomeUnknown: true,
    });
    expect(other.externalId).not.toBe(first.externalId);
    expect(em.leads).toHaveLength(2);
    // One marker field for the account, however many connections deliver.
    expect(em.leadFields.filter((f) => f.name === MARKER_FIELD_NAME)).toHaveLength(1);
    // …and it is not offered for mapping.
    const fields = (await amocrm.loaders!.customFields!(c)) as { lead: { name: string }[] };
    expect(fields.lead.map((f) => f.name)).not.toContain(MARKER_FIELD_NAME);
  });

  it('the search matches substrings, so only a lead whose marker is exactly ours counts; 204 is nothing found', async () => {
    const key = 'lead-3:dest-1';
    em.setRateLimit(null);
    await amocrm.deliver!(ctx({ note: false }), {
      lead: { ...SAMPLE_LEAD, name: `Named ${amoMarkerOf(key)}x` },
      idempotencyKey: 'other:key',
    });
    expect(em.leads).toHaveLength(1);
    const res = await amocrm.deliver!(ctx({ note: false }), {
      lead: SAMPLE_LEAD,
      idempotencyKey: key,
      outcomeUnknown: true,
    });
    expect(em.leads).toHaveLength(2);
    expect(res.externalId).toBe(String(em.leads[1]!.id));
    const none = await fetch(`${em.url}/api/v4/leads?query=nothing-like-this`, {
      headers: { authorization: `Bearer ${store.current().accessToken}` },
    });
    expect(none.status).toBe(204);
  });

  it('without settings the lead lands in the main pipeline, first stage, with no note when notes are off', async () => {
    await deliver({ note: false });
    expect(em.leads[0]).toMatchObject({ pipeline_id: SALES.id, status_id: 70_000_011 });
    expect(em.notes).toHaveLength(0);
  });

  it('policy attach links the contact found by phone in another spelling, and makes no new one', async () => {
    const id = await existingContact({ phone: '0501234567' });
    await deliver();
    expect(em.contacts).toHaveLength(1);
    expect(em.leads[0]!.contactIds).toEqual([id]);
    expect(em.contacts[0]!.leadIds).toEqual([em.leads[0]!.id]);
    // The found contact is linked as it is, not overwritten.
    expect(em.contacts[0]!.name).toBe('Existing');
  });

  it('policy attach falls back to the e-mail when no contact has the phone', async () => {
    await existingContact({ phone: '+380671112233' });
    const byEmail = await existingContact({ email: 'OLENA@example.com' });
    await deliver();
    expect(em.contacts).toHaveLength(2);
    expect(em.leads[0]!.contactIds).toEqual([byEmail]);
  });

  it('policy create always makes a new contact', async () => {
    const id = await existingContact({ phone: '+380501234567' });
    await deliver({ contactPolicy: 'create' });
    expect(em.contacts).toHaveLength(2);
    expect(em.leads[0]!.contactIds).not.toEqual([id]);
    // No search was made.
    expect(em.requests.some((r) => r.path.startsWith('/api/v4/contacts?'))).toBe(false);
  });

  it('two leads for the same phone at the same moment make one contact with both leads', async () => {
    await Promise.all([deliver(), deliver({}, { ...SAMPLE_LEAD, name: 'Olena K.' })]);
    expect(em.leads).toHaveLength(2);
    expect(em.contacts).toHaveLength(1);
    expect(em.contacts[0]!.leadIds.sort()).toEqual(em.leads.map((l) => l.id).sort());
  });

  it('locks the person by phone and e-mail together, so a lead with only one of them waits for the other', async () => {
    const locked: string[][] = [];
    const spy = {
      ...ctx({}),
      withLock: async <T>(keys: string | readonly string[], fn: () => Promise<T>) => {
        locked.push([...keys]);
        return fn();
      },
    };
    await amocrm.deliver!(spy, { lead: SAMPLE_LEAD, idempotencyKey: 'k-lock' });
    // The first delivery of a connection also finds (or makes) the marker field under a lock of its own.
    expect(locked).toEqual([['amocrm:marker-field'], ['phone:380501234567', 'email:olena@example.com']]);
  });

  it('two deliveries racing on a token the CRM expired refresh it once, and both succeed', async () => {
    em.expireTokens();
    const before = store.current();
    const results = await Promise.all([
      deliver({ note: false }),
      deliver({ note: false }, { ...SAMPLE_LEAD, phone: '+380671112233' }),
    ]);
    expect(results.every((r) => r.externalId)).toBe(true);
    expect(em.refreshes()).toBe(1);
    expect(store.refreshes()).toBe(1);
    expect(store.current().refreshToken).not.toBe(before.refreshToken);
    expect(em.leads).toHaveLength(2);
  });

  it('a token past its stored expiry is refreshed before the call, once for two deliveries', async () => {
    store = memoryAuthStore({ ...store.current(), expiresAt: Date.now() - 1000 });
    await Promise.all([deliver({ note: false }), deliver({ note: false }, { ...SAMPLE_LEAD, phone: '+380671112233' })]);
    expect(em.refreshes()).toBe(1);
    expect(em.requests.filter((r) => r.status === 401)).toHaveLength(0);
    expect(store.current().expiresAt).toBeGreaterThan(Date.now());
  });

  it('a revoked integration fails permanently with AUTH, without the tokens in the message', async () => {
    const { accessToken, refreshToken } = store.current();
    em.revokeTokens();
    const err = await deliver().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermanentError);
    expect((err as PermanentError).code).toBe('AUTH');
    const text = JSON.stringify({ ...(err as PermanentError), message: (err as Error).message });
    for (const secret of [accessToken, refreshToken, em.clientSecret]) expect(text).not.toContain(secret);
    expect(em.leads).toHaveLength(0);
  });

  it('over the rate limit it backs off and succeeds', async () => {
    em.setRateLimit(1);
    const result = await deliver({ note: false });
    expect(result.externalId).toBe(String(em.leads[0]!.id));
    expect(em.rateLimited()).toBeGreaterThan(0);
    expect(em.leads).toHaveLength(1);
  });

  it('a 429 that does not clear is a RetryableError after a bounded number of tries', async () => {
    em.setFault({ status: 429 });
    const err = await deliver().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RetryableError);
    expect((err as RetryableError).httpStatus).toBe(429);
    expect(em.requests.filter((r) => r.status === 429)).toHaveLength(3);
  });

  it("a 400 is a PermanentError carrying amoCRM's validation message, and nothing is created", async () => {
    const err = await deliver({ fields: [{ from: 'custom.city', entity: 'lead', fieldId: 123 }] }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(PermanentError);
    expect((err as PermanentError).httpStatus).toBe(400);
    expect((err as Error).message).toContain(
      'custom_fields_values.0.field_id: The value you selected is not a valid choice.',
    );
    const status = await deliver({ pipelineId: SALES.id, statusId: 70_000_021 }).catch((e: unknown) => e);
    expect((status as Error).message).toContain('status_id');
    const enumErr = await deliver({
      fields: [{ from: 'custom.city', entity: 'lead', fieldId: 800_003, enums: { kyiv: 999 } }],
    }).catch((e: unknown) => e);
    expect((enumErr as Error).message).toContain('custom_fields_values.0.values.0.enum_id');
    expect(em.leads).toHaveLength(0);
    expect(em.contacts).toHaveLength(0);
  });

  it("a 400 without validation-errors is a PermanentError carrying amoCRM's detail, not just its title", async () => {
    em.setFault({
      status: 400,
      path: '/api/v4/leads/complex',
      body: { title: 'Bad Request', type: 'https://httpstatus.es/400', status: 400, detail: 'Lead name is too long' },
    });
    const err = await deliver().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermanentError);
    expect((err as PermanentError).httpStatus).toBe(400);
    expect((err as Error).message).toContain('Lead name is too long');
    expect(em.leads).toHaveLength(0);
  });

  it('the emulator refuses more than 50 leads in one leads/complex call', async () => {
    const res = await fetch(`${em.url}/api/v4/leads/complex`, {
      method: 'POST',
      headers: { authorization: `Bearer ${store.current().accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(Array.from({ length: 51 }, (_, i) => ({ name: `L${i}` }))),
    });
    expect(res.status).toBe(400);
    expect(em.leads).toHaveLength(0);
  });

  it('loads users, pipelines with statuses, custom fields and parser targets; tests the connection', async () => {
    const c = ctx();
    expect(await amocrm.loaders!.amoUsers!(c)).toEqual(AMO_SEED.users.map((u) => ({ ...u })));
    expect(await amocrm.loaders!.users!(c)).toEqual([
      { id: String(ANNA.id), name: ANNA.name },
      { id: String(BOHDAN.id), name: BOHDAN.name },
    ]);
    const pipelines = (await amocrm.loaders!.pipelines!(c)) as {
      id: number;
      isMain: boolean;
      statuses: { id: number }[];
    }[];
    expect(pipelines.map((p) => [p.id, p.isMain])).toEqual([
      [SALES.id, true],
      [WHOLESALE.id, false],
    ]);
    expect(pipelines[0]!.statuses.map((s) => s.id)).toContain(142);
    const fields = (await amocrm.loaders!.customFields!(c)) as {
      lead: { id: number; enums?: unknown[] }[];
      contact: { code?: string }[];
    };
    expect(fields.lead.find((f) => f.id === 800_004)?.enums).toHaveLength(3);
    expect(fields.contact.map((f) => f.code)).toEqual(['PHONE', 'EMAIL', 'POSITION']);
    const options = await amocrm.loaders!.fields!(c);
    expect(options).toContainEqual({
      key: 'lead.800003',
      label: 'Product',
      type: 'select',
      options: [
        { value: '900001', label: 'Basic' },
        { value: '900002', label: 'Pro' },
        { value: '900003', label: 'Enterprise' },
      ],
    });
    const targets = (await amocrm.loaders!.parser!(c)) as { key: string }[];
    expect(targets.map((t) => t.key)).toEqual(
      expect.arrayContaining(['lead.name', 'contact.phone', 'contact.email', 'lead.800002']),
    );
    await expect(amocrm.testConnection!(c)).resolves.toBeUndefined();
  });

  it('reads users and custom fields past the first page (_links.next), and finds its marker field there', async () => {
    em.setRateLimit(null);
    for (let i = 0; i < 300; i++) {
      em.leadFields.push({ id: 700_000 + i, name: `Extra ${i}`, type: 'text', code: null, enums: null });
      em.extraUsers.push({ id: 6_000_000 + i, name: `User ${i}`, email: `u${i}@acme.test` });
    }
    // The account's marker field, made earlier, sits on the second page of 250.
    em.leadFields.push({
      id: 799_999,
      name: MARKER_FIELD_NAME,
      type: 'text',
      code: null,
      enums: null,
      is_api_only: true,
    });
    const c = ctx({ note: false });
    const fields = (await amocrm.loaders!.customFields!(c)) as { lead: { id: number }[] };
    expect(fields.lead.map((f) => f.id)).toContain(700_299);
    expect(fields.lead).toHaveLength(AMO_SEED.leadFields.length + 300);
    expect(await amocrm.loaders!.amoUsers!(c)).toHaveLength(AMO_SEED.users.length + 300);

    const key = 'paged-1:dest-1';
    const first = await amocrm.deliver!(c, { lead: SAMPLE_LEAD, idempotencyKey: key });
    expect(em.leadFields.filter((f) => f.name === MARKER_FIELD_NAME)).toHaveLength(1);
    expect(em.leads[0]!.custom_fields_values).toContainEqual(
      expect.objectContaining({ field_id: 799_999, values: [{ value: amoMarkerOf(key) }] }),
    );
    const again = await amocrm.deliver!(ctx({ note: false }), {
      lead: SAMPLE_LEAD,
      idempotencyKey: key,
      outcomeUnknown: true,
    });
    expect(again.externalId).toBe(first.externalId);
    expect(em.leads).toHaveLength(1);
  });

  it('OAuth: the consent URL leads back with a code that exchanges for working tokens, once', async () => {
    const url = amoAuthorizeUrl(oauthOf(em), 'state-1');
    expect(url).toBe(`${em.oauthUrl}?client_id=${em.clientId}&state=state-1&mode=post_message`);
    const consent = await globalThis.fetch(url, { redirect: 'manual' });
    expect(consent.status).toBe(302);
    const back = new URL(consent.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get('state')).toBe('state-1');
    expect(back.searchParams.get('referer')).toBe(em.host);
    expect(amoAccountOrigin(em.host)).toBe(em.url);
    expect(amoAccountOrigin('acme.amocrm.ru')).toBe('https://acme.amocrm.ru');
    const code = back.searchParams.get('code')!;
    const auth = await amoExchangeCode({ fetch, oauth: oauthOf(em) }, em.host, code);
    expect(auth.baseUrl).toBe(em.url);
    expect(auth.expiresAt).toBeGreaterThan(Date.now());
    await expect(amocrm.testConnection!(ctx({}, auth))).resolves.toBeUndefined();
    // A code works once; the refusal names neither the code nor the client secret.
    const again = await amoExchangeCode({ fetch, oauth: oauthOf(em) }, em.host, code).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(PermanentError);
    expect((again as Error).message).toContain('Authorization code has expired');
    expect(JSON.stringify({ ...(again as object), m: (again as Error).message })).not.toContain(code);
    expect((again as Error).message).not.toContain(em.clientSecret);
  });
});
