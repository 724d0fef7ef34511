import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createConnectorCache } from '../kit/cache';
import { describeConnectorContract, SAMPLE_LEAD } from '../kit/contract';
import { PermanentError, RetryableError } from '../kit/errors';
import { type MemoryAuthStore, memoryAuthStore } from '../kit/memory-auth';
import { createSafeFetch } from '../kit/safe-fetch';
import type { ConnectorCache, ConnectorContext, DeliveryInput, OAuthClient } from '../kit/types';
import { SHEETS_SEED, type SheetsEmulator, startSheetsEmulator } from './emulator';
import {
  authorizeUrl,
  googlesheets,
  ID_HEADERS,
  planHeader,
  quoteSheet,
  requestTokens,
  spreadsheetIdOf,
} from './index';
import { type SheetsAuth, type SheetsSettings, ZSheetsSettings } from './schema';

const REDIRECT = 'http://app.test/api/googlesheets/callback';
const LEADS = SHEETS_SEED[0];
const settingsOf = (s: Partial<SheetsSettings> = {}): SheetsSettings =>
  ZSheetsSettings.parse({ spreadsheetId: LEADS.id, ...s });
const oauthOf = (em: SheetsEmulator): OAuthClient => ({
  clientId: em.clientId,
  clientSecret: em.clientSecret,
  authorizeUrl: `${em.url}/o/oauth2/v2/auth`,
  tokenUrl: `${em.url}/token`,
  redirectUri: REDIRECT,
});
const logger = { debug() {}, info() {}, warn() {} };

// ---- The shared contract ----

describeConnectorContract('googlesheets', async () => {
  const emulator = await startSheetsEmulator();
  const timeoutMs = 1000;
  const fetch = createSafeFetch({ allowPrivate: true, timeoutMs });
  const secrets = [emulator.clientSecret];
  const fresh = () => {
    const tokens = emulator.issueTokens();
    secrets.push(tokens.accessToken, tokens.refreshToken);
    return memoryAuthStore<SheetsAuth>(tokens);
  };
  let store = fresh();
  return {
    connector: googlesheets,
    ctx: ({ logger, signal }) => ({
      auth: store.current(),
      settings: settingsOf(),
      baseUrl: emulator.url,
      fetch,
      logger,
      signal,
      oauth: oauthOf(emulator),
      rotateAuth: store.rotateAuth,
      withLock: store.withLock,
    }),
    emulator: {
      recordCount: () => emulator.appended(),
      setLatency: (ms) => emulator.setLatency(ms),
      // Google's own auth failure: the person revoked our access, so even the refresh is refused.
      setFault: (fault) => (fault?.status === 401 ? emulator.revokeTokens() : emulator.setFault(fault)),
      reset: () => {
        emulator.reset();
        store = fresh();
      },
      close: () => emulator.close(),
    },
    secrets,
    timeoutMs,
  };
});

// ---- Against the emulator ----

describe('Google Sheets delivery', () => {
  let em: SheetsEmulator;
  let store: MemoryAuthStore<SheetsAuth>;
  let cache: ConnectorCache;
  const fetch = createSafeFetch({ allowPrivate: true, timeoutMs: 2000 });
  const ctxOf = (s: Partial<SheetsSettings> = {}): ConnectorContext<SheetsAuth, SheetsSettings> => ({
    auth: store.current(),
    settings: settingsOf(s),
    baseUrl: em.url,
    fetch,
    logger,
    signal: new AbortController().signal,
    oauth: oauthOf(em),
    rotateAuth: store.rotateAuth,
    withLock: store.withLock,
    cache,
  });
  const deliver = (input: Partial<DeliveryInput> & { idempotencyKey: string }, s: Partial<SheetsSettings> = {}) =>
    googlesheets.deliver!(ctxOf(s), { lead: SAMPLE_LEAD, ...input });
  const rows = (title = 'Аркуш1', id: string = LEADS.id) => em.rows(id, title);

  beforeAll(async () => {
    em = await startSheetsEmulator();
  });
  afterAll(() => em.close());
  beforeEach(() => {
    em.reset();
    store = memoryAuthStore(em.issueTokens());
    cache = createConnectorCache();
  });

  it('writes the header into an empty sheet, then one row per lead under it', async () => {
    const first = await deliver({ idempotencyKey: 'lead-1:dest' });
    await deliver({ idempotencyKey: 'lead-2:dest', lead: { name: 'Ivan', phone: '+380671112233', custom: {} } });
    expect(rows()).toEqual([
      ['ID ліда (LeadRelay)', 'Ім’я', 'Телефон', 'E-mail', 'Коментар', 'Джерело', 'Кампанія'],
      [
        'lead-1:dest',
        'Olena Kovalenko',
        '+380501234567',
        'olena@example.com',
        'Call after 18:00',
        'facebook',
        'spring',
      ],
      ['lead-2:dest', 'Ivan', '+380671112233'],
    ]);
    expect(first.externalId).toBe("'Аркуш1'!A2:G2");
  });

  it('writes a lead’s formula as text (RAW), never as a formula', async () => {
    const lead = { name: '=HYPERLINK("http://evil.example","x")', phone: '+380501234567', comment: '@cmd', custom: {} };
    const result = await deliver({ idempotencyKey: 'k', lead });
    expect(rows()[1]?.slice(0, 5)).toEqual(['k', '=HYPERLINK("http://evil.example","x")', '+380501234567', '', '@cmd']);
    const append = result.request?.url ?? '';
    expect(append).toContain(':append?valueInputOption=RAW&insertDataOption=INSERT_ROWS');
  });

  it('a new mapped column is added at the end of the header; reordered columns are found by their header', async () => {
    await deliver(
      { idempotencyKey: 'a' },
      {
        columns: [
          { name: 'Phone', from: 'phone' },
          { name: 'Name', from: 'name' },
        ],
      },
    );
    // The person moves the columns around and renames the id column's neighbour nowhere: we find them by header.
    const sheet = em.spreadsheets.get(LEADS.id)!.sheets[0]!;
    sheet.rows = sheet.rows.map(([id = '', phone = '', name = '']) => [name, id, phone]);
    await deliver(
      {
        idempotencyKey: 'b',
        lead: { name: 'Ivan', phone: '+380671112233', email: 'i@example.com', custom: { city: 'Lviv' } },
      },
      {
        columns: [
          { name: 'Phone', from: 'phone' },
          { name: 'Name', from: 'name' },
          { name: 'City', from: 'custom.city' },
        ],
      },
    );
    expect(rows()).toEqual([
      ['Name', 'ID ліда (LeadRelay)', 'Phone', 'City'],
      ['Olena Kovalenko', 'a', '+380501234567'],
      ['Ivan', 'b', '+380671112233', 'Lviv'],
    ]);
  });

  it('the chosen sheet is found by its id even after it was renamed; a sheet the spreadsheet lost is refused', async () => {
    em.spreadsheets.get(LEADS.id)!.sheets[1]!.title = "Ліди за 26'й";
    await deliver({ idempotencyKey: 'x' }, { sheetId: 7 });
    expect(rows("Ліди за 26'й")).toHaveLength(2);
    const err = await deliver({ idempotencyKey: 'y' }, { sheetId: 99 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermanentError);
    expect((err as PermanentError).message).toMatch(/^SHEETS_SHEET_NOT_FOUND/);
    expect((err as PermanentError).code).toBe('CONFIGURATION');
  });

  it('the append succeeds but its answer is lost: the retry finds the row and adds none', async () => {
    em.setFault({ status: 500, lose: true, path: ':append', times: 1 });
    const lost = await deliver({ idempotencyKey: 'lead-9:dest' }).catch((e: unknown) => e);
    expect(lost).toBeInstanceOf(RetryableError);
    expect(rows()).toHaveLength(2);
    // The engine's retry says the earlier outcome is unknown; another process (no cache) all the same.
    cache = createConnectorCache();
    const retry = await deliver({ idempotencyKey: 'lead-9:dest', outcomeUnknown: true });
    expect(rows()).toHaveLength(2);
    expect(retry.externalId).toBe("'Аркуш1'!A2:G2");
    expect(em.requests.filter((r) => r.path.endsWith(':append'))).toHaveLength(1);
  });

  it('a repeat after a stored-but-lost result checks the kept range, then writes nothing', async () => {
    const first = await deliver({ idempotencyKey: 'k1' });
    const again = await deliver({ idempotencyKey: 'k1', outcomeUnknown: true });
    expect(again.externalId).toBe(first.externalId);
    expect(rows()).toHaveLength(2);
    // The kept row was cleared by hand: the key is no longer there, so the lead is written again.
    em.spreadsheets.get(LEADS.id)!.sheets[0]!.rows[1] = [];
    await deliver({ idempotencyKey: 'k1', outcomeUnknown: true });
    expect(rows().filter((r) => r[0] === 'k1')).toHaveLength(1);
  });

  it('two leads at once write one header and two rows', async () => {
    await Promise.all([deliver({ idempotencyKey: 'p1' }), deliver({ idempotencyKey: 'p2' })]);
    expect(rows().map((r) => r[0])).toEqual([ID_HEADERS[0], 'p1', 'p2']);
  });

  it('an expired access token is refreshed once; a revoked refresh token is SHEETS_REFRESH_FAILED (connect again)', async () => {
    em.expireAccessTokens();
    await deliver({ idempotencyKey: 'r1' });
    expect(store.refreshes()).toBe(1);
    em.revokeTokens();
    const err = await deliver({ idempotencyKey: 'r2' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermanentError);
    expect(err).toMatchObject({ code: 'AUTH', httpStatus: 401, message: 'SHEETS_REFRESH_FAILED: invalid_grant' });
    expect(rows()).toHaveLength(2);
  });

  it('no access, a deleted spreadsheet and the quota are each said in the folder’s words', async () => {
    em.spreadsheets.get(LEADS.id)!.readOnly = true;
    const denied = await deliver({ idempotencyKey: 'd' }).catch((e: unknown) => e);
    expect(denied).toMatchObject({ code: 'CONFIGURATION', message: expect.stringMatching(/^SHEETS_NO_ACCESS: /) });
    em.spreadsheets.delete(LEADS.id);
    const gone = await deliver({ idempotencyKey: 'g' }).catch((e: unknown) => e);
    expect(gone).toMatchObject({
      code: 'CONFIGURATION',
      message: expect.stringMatching(/^SHEETS_SPREADSHEET_NOT_FOUND: /),
    });
    em.reset();
    em.setFault({ status: 429, retryAfter: 30 });
    const quota = await deliver({ idempotencyKey: 'q' }).catch((e: unknown) => e);
    expect(quota).toBeInstanceOf(RetryableError);
    expect(quota).toMatchObject({
      code: 'RATE_LIMITED',
      retryAfterMs: 30_000,
      message: expect.stringMatching(/^SHEETS_RATE_LIMITED: /),
    });
    const none = await googlesheets.deliver!(
      { ...ctxOf(), settings: ZSheetsSettings.parse({}) },
      { lead: SAMPLE_LEAD, idempotencyKey: 'n' },
    ).catch((e: unknown) => e);
    expect(none).toMatchObject({ code: 'CONFIGURATION', message: 'SHEETS_NOT_CONFIGURED' });
  });

  it('lists the spreadsheets from Drive and the saved spreadsheet’s sheets', async () => {
    const spreadsheets = await googlesheets.loaders!.spreadsheets!(ctxOf());
    expect(spreadsheets).toEqual([
      { id: LEADS.id, name: 'Ліди 2026' },
      { id: SHEETS_SEED[1].id, name: 'Sales report' },
    ]);
    expect(await googlesheets.loaders!.sheets!(ctxOf())).toEqual([
      { sheetId: 0, title: 'Аркуш1' },
      { sheetId: 7, title: 'Архів' },
    ]);
    expect(await googlesheets.loaders!.sheets!({ ...ctxOf(), settings: ZSheetsSettings.parse({}) })).toEqual([]);
  });
});

// ---- OAuth and pure parts ----

describe('Google Sheets OAuth and settings', () => {
  let em: SheetsEmulator;
  beforeAll(async () => {
    em = await startSheetsEmulator();
  });
  afterAll(() => em.close());

  it('asks for offline access with the two scopes, and trades the consent’s code once', async () => {
    const oauth = oauthOf(em);
    const url = new URL(authorizeUrl(oauth, 'st'));
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      access_type: 'offline',
      prompt: 'consent',
      response_type: 'code',
      state: 'st',
      scope: 'https://www.googleapis.com/auth/spreadsheets https://www.googleapis.com/auth/drive.metadata.readonly',
    });
    const back = new URL((await fetch(url, { redirect: 'manual' })).headers.get('location')!);
    const code = back.searchParams.get('code')!;
    const call = { fetch: createSafeFetch({ allowPrivate: true }), oauth };
    const auth = await requestTokens(call, { grant_type: 'authorization_code', code });
    expect(auth.refreshToken).toMatch(/^1\/\/emu-/);
    const again = await requestTokens(call, { grant_type: 'authorization_code', code }).catch((e: unknown) => e);
    expect(again).toMatchObject({ code: 'AUTH', message: 'SHEETS_CONSENT_FAILED: invalid_grant' });
    expect(JSON.stringify(again)).not.toContain(code);
  });

  it('takes a spreadsheet’s address as pasted, and refuses what is not one', () => {
    const id = '1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcd';
    expect(spreadsheetIdOf(`https://docs.google.com/spreadsheets/d/${id}/edit#gid=0`)).toBe(id);
    expect(
      ZSheetsSettings.parse({ spreadsheetId: ` https://docs.google.com/spreadsheets/d/${id}/edit ` }).spreadsheetId,
    ).toBe(id);
    const bad = ZSheetsSettings.safeParse({ spreadsheetId: 'https://example.com/not a sheet' });
    expect(bad.success ? [] : bad.error.issues.map((i) => i.message)).toEqual(['SHEETS_SPREADSHEET_INVALID']);
    const twice = ZSheetsSettings.safeParse({
      columns: [
        { name: 'Phone', from: 'phone' },
        { name: ' phone ', from: 'email' },
      ],
    });
    expect(twice.success ? [] : twice.error.issues.map((i) => i.message)).toEqual(['SHEETS_COLUMN_DUPLICATE']);
  });

  it('plans the header: quoted titles, the id column in either language, nothing to write when in line', () => {
    expect(quoteSheet("Ліди 26'й")).toBe("'Ліди 26''й'");
    const cols = [{ name: 'Name', from: 'name' }];
    expect(planHeader([], cols, 'en')).toMatchObject({
      idColumn: 0,
      columns: [1],
      write: { from: 0, headers: ['Lead ID (LeadRelay)', 'Name'] },
    });
    expect(planHeader(['name', '', 'ID ліда (LeadRelay)'], cols, 'en')).toMatchObject({
      idColumn: 2,
      columns: [0],
      write: null,
    });
    // A header a person renamed is no longer found: its column is added again at the end.
    expect(planHeader(['Lead ID (LeadRelay)', 'Client'], cols, 'uk')).toMatchObject({
      columns: [2],
      write: { from: 2, headers: ['Name'] },
    });
  });
});
