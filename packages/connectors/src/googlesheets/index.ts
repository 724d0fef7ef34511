// The Google Sheets destination (issue 32): signs in with Google's OAuth (offline, refresh token),
// lists the person's spreadsheets (Drive files.list) and a spreadsheet's sheets (spreadsheets.get),
// and appends one row per lead (values.append, RAW, INSERT_ROWS) under a header kept in line with
// the mapped columns (mapping.ts). A repeat whose earlier outcome is unknown (a timeout after Google
// wrote the row) finds the row by the lead-id column before writing again: one lead, one row.
import { cacheOf } from '../kit/cache';
import { defineConnector } from '../kit/define-connector';
import { PermanentError } from '../kit/errors';
import type { DeliveryInput, DeliveryResult } from '../kit/types';
import {
  authorizeUrl,
  GOOGLE_AUTHORIZE_URL,
  GOOGLE_SHEETS_URL,
  GOOGLE_TOKEN_URL,
  requestTokens,
  SHEETS_SCOPES,
  SheetsClient,
  type SheetsContext,
} from './client';
import { codes } from './codes';
import { columnLetter, columnsOf, planHeader, quoteSheet, rowOf } from './mapping';
import { type SheetsAuth, type SheetsSettings, ZSheetsAuth, ZSheetsSettings } from './schema';

export { authorizeUrl, driveUrlOf, requestTokens, SHEETS_SCOPES, SheetsClient } from './client';
export { columnLetter, columnsOf, ID_HEADERS, leadValue, planHeader, quoteSheet, rowOf } from './mapping';
export { spreadsheetIdOf, ZSheetsAuth, ZSheetsSettings } from './schema';

const SPREADSHEET_MIME = 'application/vnd.google-apps.spreadsheet';
/** Drive pages of 100; a picker needs no more than the 300 most recently changed. */
const MAX_PAGES = 3;

interface SheetProps {
  sheetId: number;
  title: string;
}

async function sheetsOf(client: SheetsClient, spreadsheetId: string): Promise<SheetProps[]> {
  const answer = await client.request<{ sheets?: { properties?: Partial<SheetProps> }[] }>(
    'GET',
    client.sheets(`/${encodeURIComponent(spreadsheetId)}`, { fields: 'sheets.properties(sheetId,title)' }),
    'spreadsheets.get',
  );
  return (answer?.sheets ?? []).flatMap((s) => {
    const p = s.properties;
    return typeof p?.sheetId === 'number' && typeof p.title === 'string'
      ? [{ sheetId: p.sheetId, title: p.title }]
      : [];
  });
}

function spreadsheetOf(ctx: SheetsContext): string {
  const id = ctx.settings.spreadsheetId;
  if (!id) throw new PermanentError('SHEETS_NOT_CONFIGURED', { code: 'CONFIGURATION' });
  return id;
}

/** The chosen sheet (by id, so a renamed tab is still found), or the first one. */
async function chosenSheet(client: SheetsClient, ctx: SheetsContext): Promise<SheetProps> {
  const spreadsheetId = spreadsheetOf(ctx);
  const sheets = await sheetsOf(client, spreadsheetId);
  const wanted = ctx.settings.sheetId;
  const sheet = wanted === undefined ? sheets[0] : sheets.find((s) => s.sheetId === wanted);
  if (!sheet) {
    throw new PermanentError(`SHEETS_SHEET_NOT_FOUND: ${wanted ?? 'none'}`, {
      ...client.lastTrace,
      code: 'CONFIGURATION',
    });
  }
  return sheet;
}

type Values = { values?: unknown[][] };

/** Rows this process wrote lately, by idempotency key: their range, to check before writing again. */
const WRITTEN_MAX = 2_000;
const writtenOf = (ctx: SheetsContext) => cacheOf(ctx).get('written', () => new Map<string, string>());

function remember(ctx: SheetsContext, key: string, range: string): void {
  const written = writtenOf(ctx);
  written.delete(key);
  written.set(key, range);
  for (const k of written.keys()) {
    if (written.size <= WRITTEN_MAX) break;
    written.delete(k);
  }
}

/** The 1-based row of an A1 range's first cell ('Leads'!A7:H7 → 7). */
const rowOfRange = (range: string) => Number(/!\$?[A-Z]+\$?(\d+)/.exec(range)?.[1] ?? Number.NaN);

/**
 * The row an earlier attempt of this delivery wrote, if it is there: the range kept from its
 * answer (checked: the key is still in its lead-id cell), else the lead-id column read back.
 */
async function writtenBefore(
  client: SheetsClient,
  ctx: SheetsContext,
  sheet: SheetProps,
  idColumn: number,
  width: number,
  key: string,
): Promise<string | undefined> {
  const spreadsheetId = spreadsheetOf(ctx);
  const letter = columnLetter(idColumn);
  const rangeOf = (row: number) => `${quoteSheet(sheet.title)}!A${row}:${columnLetter(width - 1)}${row}`;
  const kept = writtenOf(ctx).get(key);
  const keptRow = kept ? rowOfRange(kept) : Number.NaN;
  if (Number.isInteger(keptRow) && keptRow > 1) {
    const cell = `${quoteSheet(sheet.title)}!${letter}${keptRow}`;
    const answer = await client.request<Values>(
      'GET',
      client.sheets(`/${encodeURIComponent(spreadsheetId)}/values/${encodeURIComponent(cell)}`),
      'values.get',
    );
    if (answer?.values?.[0]?.[0] === key) return kept;
  }
  const column = `${quoteSheet(sheet.title)}!${letter}:${letter}`;
  const answer = await client.request<Values>(
    'GET',
    client.sheets(`/${encodeURIComponent(spreadsheetId)}/values/${encodeURIComponent(column)}`, {
      majorDimension: 'COLUMNS',
    }),
    'values.get',
  );
  const cells = answer?.values?.[0] ?? [];
  // Row 1 is the header; the newest copy is the one to name.
  for (let i = cells.length - 1; i >= 1; i--) if (cells[i] === key) return rangeOf(i + 1);
  return undefined;
}

async function deliverLocked(ctx: SheetsContext, input: DeliveryInput): Promise<DeliveryResult> {
  const client = new SheetsClient(ctx);
  const spreadsheetId = spreadsheetOf(ctx);
  const sheet = await chosenSheet(client, ctx);
  const title = quoteSheet(sheet.title);
  const values = (range: string) =>
    client.sheets(`/${encodeURIComponent(spreadsheetId)}/values/${encodeURIComponent(range)}`);

  const first = await client.request<Values>('GET', values(`${title}!1:1`), 'values.get');
  const columns = columnsOf(ctx.settings);
  const plan = planHeader(first?.values?.[0] ?? [], columns, ctx.settings.language ?? 'uk');
  const width = Math.max(plan.idColumn, ...plan.columns) + 1;
  const key = input.idempotencyKey;

  // Only a repeat can find its row (an earlier attempt, or a result never stored); a first attempt spends no read.
  if (input.outcomeUnknown || writtenOf(ctx).has(key)) {
    const found =
      plan.idColumn < (first?.values?.[0]?.length ?? 0)
        ? await writtenBefore(client, ctx, sheet, plan.idColumn, width, key)
        : undefined;
    if (found) return { ...client.lastTrace, externalId: found };
  }

  if (plan.write) {
    const at = `${title}!${columnLetter(plan.write.from)}1`;
    await client.request('PUT', `${values(at)}?valueInputOption=RAW`, 'values.update', {
      range: at,
      majorDimension: 'ROWS',
      values: [plan.write.headers],
    });
  }

  // RAW: Google stores each value as typed, so "=HYPERLINK(…)", "+380…" or "@x" from a lead stays text.
  const answer = await client.request<{ updates?: { updatedRange?: unknown } }>(
    'POST',
    `${values(`${title}!A1`)}:append?valueInputOption=RAW&insertDataOption=INSERT_ROWS`,
    'values.append',
    { majorDimension: 'ROWS', values: [rowOf(input.lead, key, plan, columns)] },
  );
  const trace = client.lastTrace;
  const range = typeof answer?.updates?.updatedRange === 'string' ? answer.updates.updatedRange : undefined;
  if (range) remember(ctx, key, range);
  return { ...trace, ...(range ? { externalId: range } : {}) };
}

export const googlesheets = defineConnector<SheetsAuth, SheetsSettings>({
  slug: 'googlesheets',
  kind: 'destination',
  codes,
  // EMULATORS=true (demo installs, end-to-end tests): its emulator, loaded only then.
  demo: (app) => import('./demo').then((m) => m.startDemo(app)),
  connectAuth: 'oauth',
  auth: ZSheetsAuth,
  settings: ZSheetsSettings,
  config: {
    GOOGLESHEETS_CLIENT_ID: {},
    GOOGLESHEETS_CLIENT_SECRET: {},
    GOOGLESHEETS_OAUTH_URL: { type: 'url', default: GOOGLE_AUTHORIZE_URL },
    GOOGLESHEETS_TOKEN_URL: { type: 'url', default: GOOGLE_TOKEN_URL },
    GOOGLESHEETS_API_URL: { type: 'url', default: GOOGLE_SHEETS_URL },
  },
  baseUrl: (cfg) => cfg.GOOGLESHEETS_API_URL as string | undefined,
  oauth: {
    clientId: 'GOOGLESHEETS_CLIENT_ID',
    clientSecret: 'GOOGLESHEETS_CLIENT_SECRET',
    authorizeUrl: (cfg) => String(cfg.GOOGLESHEETS_OAUTH_URL ?? GOOGLE_AUTHORIZE_URL),
    tokenUrl: (cfg) => String(cfg.GOOGLESHEETS_TOKEN_URL ?? GOOGLE_TOKEN_URL),
    scopes: SHEETS_SCOPES,
    // The callback trades the code and sends the browser back to the integration's screen.
    callback: { base: 'publicUrl', path: '/api/googlesheets/callback' },
    // Google drops a refresh token unused for six months (developers.google.com/identity/protocols/oauth2).
    refreshTokenLifetimeDays: 180,
    consentUrl: (client, state) => authorizeUrl(client, state),
    exchangeCode: (call, code) => requestTokens(call, { grant_type: 'authorization_code', code }),
  },
  loaders: {
    /** The person's spreadsheets (names only), most recently changed first. */
    spreadsheets: async (ctx) => {
      const client = new SheetsClient(ctx);
      const out: { id: string; name: string }[] = [];
      let pageToken: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const answer = await client.request<{ files?: { id?: unknown; name?: unknown }[]; nextPageToken?: unknown }>(
          'GET',
          client.drive('/files', {
            q: `mimeType='${SPREADSHEET_MIME}' and trashed=false`,
            orderBy: 'modifiedTime desc',
            fields: 'nextPageToken,files(id,name)',
            pageSize: '100',
            supportsAllDrives: 'true',
            includeItemsFromAllDrives: 'true',
            ...(pageToken ? { pageToken } : {}),
          }),
          'files.list',
        );
        for (const f of answer?.files ?? []) {
          if (typeof f.id === 'string' && typeof f.name === 'string') out.push({ id: f.id, name: f.name });
        }
        pageToken = typeof answer?.nextPageToken === 'string' ? answer.nextPageToken : undefined;
        if (!pageToken) break;
      }
      return out;
    },
    /** The saved spreadsheet's sheets; none saved: none. */
    sheets: async (ctx) =>
      ctx.settings.spreadsheetId ? sheetsOf(new SheetsClient(ctx), ctx.settings.spreadsheetId) : [],
  },
  // Connected: Drive answers; a spreadsheet chosen: it opens and has the chosen sheet.
  async testConnection(ctx) {
    const client = new SheetsClient(ctx);
    if (ctx.settings.spreadsheetId) {
      await chosenSheet(client, ctx);
      return;
    }
    await client.request('GET', client.drive('/files', { pageSize: '1', fields: 'files(id)' }), 'files.list');
  },
  // One writer per sheet at a time, in every worker: two leads never both write the header.
  async deliver(ctx, input) {
    const key = `sheet:${ctx.settings.spreadsheetId ?? ''}:${ctx.settings.sheetId ?? 'first'}`;
    return ctx.withLock ? ctx.withLock(key, () => deliverLocked(ctx, input)) : deliverLocked(ctx, input);
  },
});
