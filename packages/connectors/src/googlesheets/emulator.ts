// A stateful fake of Google's OAuth 2.0, Drive API v3 (files.list) and Sheets API v4 (spreadsheets.get,
// values.get, values.update, values.append) on one host, for our tests, the demo and the end-to-end
// suite: a consent page that redirects straight back with a code, refresh tokens that can be revoked,
// spreadsheets that keep their rows, Google's error bodies ({"error": {code, message, status}}), fault
// and latency switches (a fault may also carry the write out and lose the answer), a request log and
// a control API under /__emulator (reset, fault, latency, rows).
import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { createEmulatorKit, listenEmulator, registerControlRoutes } from '../kit/emulator-kit';
import {
  a1Title,
  colLetters,
  type EmulatedSheet,
  type EmulatedSpreadsheet,
  parseA1,
  type SheetsFault,
  type SheetsRequest,
} from './emulator-state';

export type { EmulatedSheet, EmulatedSpreadsheet, SheetsFault, SheetsRequest } from './emulator-state';

export interface SheetsEmulatorOptions {
  port?: number;
  host?: string;
  clientId?: string;
  clientSecret?: string;
  /** Access token lifetime, default Google's 3599 s. */
  accessTokenTtlSeconds?: number;
  /** Spreadsheets to start with (and to return to on reset); default SHEETS_SEED. */
  seed?: readonly { id: string; name: string; sheets: readonly { sheetId: number; title: string }[] }[];
}

export interface SheetsEmulator {
  url: string;
  port: number;
  clientId: string;
  clientSecret: string;
  requests: SheetsRequest[];
  spreadsheets: Map<string, EmulatedSpreadsheet>;
  /** A sheet's rows as kept (by spreadsheet id and sheet title). */
  rows(spreadsheetId: string, title: string): string[][];
  /** Data rows appended by deliveries, over every sheet (the contract's record count). */
  appended(): number;
  /** A token pair as if a person had consented (tests skip the consent page). */
  issueTokens(): { accessToken: string; refreshToken: string; expiresAt: number };
  /** The person removed our access in their Google account: every token is refused. */
  revokeTokens(): void;
  /** Access tokens expire now (the next call must refresh). */
  expireAccessTokens(): void;
  refreshCount(): number;
  setLatency(ms: number): void;
  setFault(fault: SheetsFault | null): void;
  reset(): void;
  close(): Promise<void>;
}

export const SHEETS_SEED = [
  {
    id: '1LeadsSpreadsheet2026xxxxxxxxxxxxxxxxxxxxx',
    name: 'Ліди 2026',
    sheets: [
      { sheetId: 0, title: 'Аркуш1' },
      { sheetId: 7, title: 'Архів' },
    ],
  },
  { id: '1SalesReportSpreadsheetxxxxxxxxxxxxxxxxxxx', name: 'Sales report', sheets: [{ sheetId: 0, title: 'Sheet1' }] },
] as const;

const STATUS_OF: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  502: 'UNAVAILABLE',
  503: 'UNAVAILABLE',
};

const googleError = (reply: FastifyReply, code: number, message: string) =>
  reply.code(code).send({ error: { code, message, status: STATUS_OF[code] ?? 'UNKNOWN' } });

const token = (prefix: string) => `${prefix}${randomBytes(18).toString('base64url')}`;

export async function startSheetsEmulator(options: SheetsEmulatorOptions = {}): Promise<SheetsEmulator> {
  const clientId = options.clientId ?? 'emu-sheets-client.apps.googleusercontent.com';
  const clientSecret = options.clientSecret ?? `GOCSPX-${randomBytes(12).toString('hex')}`;
  const ttl = options.accessTokenTtlSeconds ?? 3599;
  const seed = options.seed ?? SHEETS_SEED;
  const kit = createEmulatorKit<SheetsFault, SheetsRequest>({ maxLog: 2000 });
  const codes = new Map<string, string>();
  const accessTokens = new Map<string, number>();
  const refreshTokens = new Set<string>();
  let refreshes = 0;
  const spreadsheets = new Map<string, EmulatedSpreadsheet>();

  const load = () => {
    spreadsheets.clear();
    seed.forEach((s, i) => {
      spreadsheets.set(s.id, {
        id: s.id,
        name: s.name,
        sheets: s.sheets.map((sh) => ({ sheetId: sh.sheetId, title: sh.title, rows: [] })),
        modifiedAt: Date.now() - i * 1000,
      });
    });
  };
  load();

  const mint = () => {
    const accessToken = token('ya29.emu-');
    const refreshToken = token('1//emu-');
    const expiresAt = Date.now() + ttl * 1000;
    accessTokens.set(accessToken, expiresAt);
    refreshTokens.add(refreshToken);
    return { accessToken, refreshToken, expiresAt };
  };

  const app = Fastify({ logger: false });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );

  // The log, latency and faults for the APIs (not the consent page or the control routes).
  app.addHook('onRequest', async (req, reply) => {
    const path = req.url.split('?')[0] ?? '';
    if (path.startsWith('/__emulator')) return;
    await kit.delay();
    const fault = kit.takeFault(
      (f) => !f.lose && (!f.path || req.url.includes(f.path)) && !path.startsWith('/o/oauth2'),
    );
    if (fault) {
      kit.log({ method: req.method, path, status: fault.status, receivedAt: new Date().toISOString() });
      if (fault.retryAfter !== undefined) reply.header('retry-after', String(fault.retryAfter));
      const message =
        fault.status === 401
          ? 'Request had invalid authentication credentials.'
          : 'The service is currently unavailable.';
      return googleError(reply, fault.status, message);
    }
  });
  app.addHook('onResponse', async (req, reply) => {
    const path = req.url.split('?')[0] ?? '';
    if (!path.startsWith('/__emulator'))
      kit.log({ method: req.method, path, status: reply.statusCode, receivedAt: new Date().toISOString() });
  });

  /** The bearer token's check: 401 as Google words it. */
  const authorised = (req: FastifyRequest, reply: FastifyReply) => {
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const until = bearer ? accessTokens.get(bearer) : undefined;
    if (!until || until < Date.now()) {
      void googleError(
        reply,
        401,
        'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
      );
      return false;
    }
    return true;
  };

  // ---- OAuth ----
  app.get('/o/oauth2/v2/auth', async (req, reply) => {
    const q = req.query as Record<string, string | undefined>;
    if (q.client_id !== clientId) return reply.code(400).type('text/plain').send('Error 401: invalid_client');
    if (!q.redirect_uri) return reply.code(400).type('text/plain').send('Error 400: redirect_uri_mismatch');
    const code = token('4/emu-');
    codes.set(code, q.redirect_uri);
    const back = new URL(q.redirect_uri);
    back.searchParams.set('code', code);
    if (q.state !== undefined) back.searchParams.set('state', q.state);
    back.searchParams.set('scope', q.scope ?? '');
    return reply.redirect(back.toString(), 302);
  });

  app.post('/token', async (req, reply) => {
    const b = (req.body ?? {}) as Record<string, string | undefined>;
    const refuse = (status: number, error: string, error_description: string) =>
      reply.code(status).send({ error, error_description });
    if (b.client_id !== clientId || b.client_secret !== clientSecret)
      return refuse(401, 'invalid_client', 'Unauthorized');
    if (b.grant_type === 'authorization_code') {
      const redirect = b.code ? codes.get(b.code) : undefined;
      if (!redirect) return refuse(400, 'invalid_grant', 'Malformed auth code.');
      codes.delete(b.code!);
      if (redirect !== b.redirect_uri) return refuse(400, 'redirect_uri_mismatch', 'Bad Request');
      const t = mint();
      return {
        access_token: t.accessToken,
        expires_in: ttl,
        refresh_token: t.refreshToken,
        scope: 'https://www.googleapis.com/auth/spreadsheets https://www.googleapis.com/auth/drive.metadata.readonly',
        token_type: 'Bearer',
      };
    }
    if (b.grant_type === 'refresh_token') {
      if (!b.refresh_token || !refreshTokens.has(b.refresh_token))
        return refuse(400, 'invalid_grant', 'Token has been expired or revoked.');
      refreshes += 1;
      const accessToken = token('ya29.emu-');
      accessTokens.set(accessToken, Date.now() + ttl * 1000);
      // Google's refresh answer carries no refresh token: the old one stays.
      return {
        access_token: accessToken,
        expires_in: ttl,
        scope: 'https://www.googleapis.com/auth/spreadsheets',
        token_type: 'Bearer',
      };
    }
    return refuse(400, 'unsupported_grant_type', 'Invalid grant_type');
  });

  // ---- Drive ----
  app.get('/drive/v3/files', async (req, reply) => {
    if (!authorised(req, reply)) return reply;
    const q = req.query as Record<string, string | undefined>;
    const size = Math.min(Math.max(Number(q.pageSize ?? 100) || 100, 1), 1000);
    const start = Number(q.pageToken ?? 0) || 0;
    // Every file here is a spreadsheet: a query for another type finds none.
    const other = /mimeType\s*=\s*'(?!application\/vnd\.google-apps\.spreadsheet')/.test(q.q ?? '');
    const all = other ? [] : [...spreadsheets.values()].sort((a, b) => b.modifiedAt - a.modifiedAt);
    const page = all.slice(start, start + size);
    return {
      kind: 'drive#fileList',
      incompleteSearch: false,
      files: page.map((s) => ({
        kind: 'drive#file',
        id: s.id,
        name: s.name,
        mimeType: 'application/vnd.google-apps.spreadsheet',
      })),
      ...(start + size < all.length ? { nextPageToken: String(start + size) } : {}),
    };
  });

  // ---- Sheets ----
  const spreadsheetOr404 = (id: string, reply: FastifyReply) => {
    const s = spreadsheets.get(id);
    if (!s) void googleError(reply, 404, 'Requested entity was not found.');
    return s;
  };

  app.get('/v4/spreadsheets/:id', async (req, reply) => {
    if (!authorised(req, reply)) return reply;
    const s = spreadsheetOr404((req.params as { id: string }).id, reply);
    if (!s) return reply;
    return {
      spreadsheetId: s.id,
      properties: { title: s.name, locale: 'uk_UA' },
      sheets: s.sheets.map((sh, index) => ({
        properties: { sheetId: sh.sheetId, title: sh.title, index, sheetType: 'GRID' },
      })),
      spreadsheetUrl: `https://docs.google.com/spreadsheets/d/${s.id}/edit`,
    };
  });

  /** The sheet a range names, or Google's 400 for a title it does not have. */
  const target = (s: EmulatedSpreadsheet, range: string, reply: FastifyReply) => {
    const parsed = parseA1(range);
    const sheet = parsed ? s.sheets.find((sh) => sh.title === parsed.title) : undefined;
    if (!parsed || !sheet) {
      void googleError(reply, 400, `Unable to parse range: ${range}`);
      return undefined;
    }
    return { parsed, sheet };
  };

  const lastRow = (sheet: EmulatedSheet) => {
    for (let i = sheet.rows.length - 1; i >= 0; i--) if (sheet.rows[i]!.some((c) => c !== '')) return i;
    return -1;
  };

  const trimmed = (row: readonly string[]) => {
    const out = [...row];
    while (out.length && out[out.length - 1] === '') out.pop();
    return out;
  };

  /** Writes `values` (rows) at row r, column c (RAW: each value as given, as text). */
  const write = (sheet: EmulatedSheet, r: number, c: number, values: unknown[][]) => {
    values.forEach((row, i) => {
      while (sheet.rows.length <= r + i) sheet.rows.push([]);
      const at = sheet.rows[r + i]!;
      row.forEach((v, j) => {
        while (at.length < c + j) at.push('');
        at[c + j] = v === null || v === undefined ? '' : String(v);
      });
    });
  };

  const wildcard = (req: FastifyRequest) => decodeURIComponent((req.params as { '*': string })['*']);

  app.get('/v4/spreadsheets/:id/values/*', async (req, reply) => {
    if (!authorised(req, reply)) return reply;
    const s = spreadsheetOr404((req.params as { id: string }).id, reply);
    if (!s) return reply;
    const range = wildcard(req);
    const t = target(s, range, reply);
    if (!t) return reply;
    const { parsed, sheet } = t;
    const r0 = parsed.startRow ?? 0;
    const r1 = Math.min(parsed.endRow ?? sheet.rows.length - 1, sheet.rows.length - 1);
    const c0 = parsed.startCol ?? 0;
    const width = Math.max(0, ...sheet.rows.map((r) => r.length));
    const c1 = parsed.endCol ?? width - 1;
    const grid: string[][] = [];
    for (let r = r0; r <= r1; r++) grid.push(trimmed((sheet.rows[r] ?? []).slice(c0, c1 + 1)));
    while (grid.length && grid[grid.length - 1]!.length === 0) grid.pop();
    const columns = (req.query as { majorDimension?: string }).majorDimension === 'COLUMNS';
    let values: string[][] = grid;
    if (columns) {
      values = [];
      for (let c = 0; c <= c1 - c0; c++) {
        const col = grid.map((row) => row[c] ?? '');
        while (col.length && col[col.length - 1] === '') col.pop();
        values.push(col);
      }
      while (values.length && values[values.length - 1]!.length === 0) values.pop();
    }
    return {
      range: `${a1Title(sheet.title)}!${range.split('!')[1]}`,
      majorDimension: columns ? 'COLUMNS' : 'ROWS',
      ...(values.length ? { values } : {}),
    };
  });

  /** After a write: cut the connection instead of answering when a `lose` fault is set (the answer is lost). */
  const answerOrLose = (req: FastifyRequest, reply: FastifyReply, body: unknown) => {
    const lost = kit.takeFault((f) => Boolean(f.lose) && (!f.path || req.url.includes(f.path)));
    if (lost) {
      // Carried out, then the connection cut: logged here, as no answer goes out.
      kit.log({
        method: req.method,
        path: req.url.split('?')[0] ?? '',
        status: 0,
        receivedAt: new Date().toISOString(),
      });
      reply.raw.destroy();
      return reply;
    }
    return body;
  };

  const writable = (s: EmulatedSpreadsheet, reply: FastifyReply) => {
    if (s.readOnly) void googleError(reply, 403, 'The caller does not have permission');
    return !s.readOnly;
  };

  app.put('/v4/spreadsheets/:id/values/*', async (req, reply) => {
    if (!authorised(req, reply)) return reply;
    const s = spreadsheetOr404((req.params as { id: string }).id, reply);
    if (!s || !writable(s, reply)) return reply;
    const q = req.query as { valueInputOption?: string };
    if (q.valueInputOption !== 'RAW' && q.valueInputOption !== 'USER_ENTERED') {
      return googleError(reply, 400, "Invalid valueInputOption: ''");
    }
    const range = wildcard(req);
    const t = target(s, range, reply);
    if (!t) return reply;
    const values = ((req.body ?? {}) as { values?: unknown[][] }).values ?? [];
    write(t.sheet, t.parsed.startRow ?? 0, t.parsed.startCol ?? 0, values);
    s.modifiedAt = Date.now();
    const cols = Math.max(0, ...values.map((r) => r.length));
    const r0 = (t.parsed.startRow ?? 0) + 1;
    const c0 = t.parsed.startCol ?? 0;
    return answerOrLose(req, reply, {
      spreadsheetId: s.id,
      updatedRange: `${a1Title(t.sheet.title)}!${colLetters(c0)}${r0}:${colLetters(c0 + cols - 1)}${r0 + values.length - 1}`,
      updatedRows: values.length,
      updatedColumns: cols,
      updatedCells: values.reduce((n, r) => n + r.length, 0),
    });
  });

  app.post('/v4/spreadsheets/:id/values/*', async (req, reply) => {
    if (!authorised(req, reply)) return reply;
    const s = spreadsheetOr404((req.params as { id: string }).id, reply);
    if (!s) return reply;
    const raw = wildcard(req);
    if (!raw.endsWith(':append')) return googleError(reply, 404, 'Method not found.');
    if (!writable(s, reply)) return reply;
    const q = req.query as { valueInputOption?: string; insertDataOption?: string };
    if (q.valueInputOption !== 'RAW' && q.valueInputOption !== 'USER_ENTERED') {
      return googleError(reply, 400, "Invalid valueInputOption: ''");
    }
    const range = raw.slice(0, -':append'.length);
    const t = target(s, range, reply);
    if (!t) return reply;
    const values = ((req.body ?? {}) as { values?: unknown[][] }).values ?? [];
    // The table starts at the range's column; rows go after its last row (INSERT_ROWS and OVERWRITE alike on an open sheet).
    const tableEnd = lastRow(t.sheet);
    const r = tableEnd + 1;
    const c = t.parsed.startCol ?? 0;
    write(t.sheet, r, c, values);
    s.modifiedAt = Date.now();
    const cols = Math.max(0, ...values.map((row) => row.length));
    const title = a1Title(t.sheet.title);
    return answerOrLose(req, reply, {
      spreadsheetId: s.id,
      ...(tableEnd >= 0
        ? {
            tableRange: `${title}!A1:${colLetters(Math.max(0, ...t.sheet.rows.slice(0, tableEnd + 1).map((x) => x.length)) - 1)}${tableEnd + 1}`,
          }
        : {}),
      updates: {
        spreadsheetId: s.id,
        updatedRange: `${title}!${colLetters(c)}${r + 1}:${colLetters(c + cols - 1)}${r + values.length}`,
        updatedRows: values.length,
        updatedColumns: cols,
        updatedCells: values.reduce((n, row) => n + row.length, 0),
      },
    });
  });

  const rows = (spreadsheetId: string, title: string) =>
    (spreadsheets.get(spreadsheetId)?.sheets.find((sh) => sh.title === title)?.rows ?? []).map(trimmed);

  const reset = () => {
    kit.resetSwitches();
    load();
  };
  registerControlRoutes(app, kit, { reset });
  app.get('/__emulator/rows', async (req) => {
    const q = req.query as { spreadsheetId?: string; sheet?: string };
    return { rows: rows(q.spreadsheetId ?? '', q.sheet ?? '') };
  });
  app.get('/__emulator/requests', async () => ({ requests: kit.requests }));

  const { port, url } = await listenEmulator(app, options);
  return {
    url,
    port,
    clientId,
    clientSecret,
    requests: kit.requests,
    spreadsheets,
    rows,
    appended: () =>
      [...spreadsheets.values()].reduce((n, s) => n + s.sheets.reduce((m, sh) => m + Math.max(0, lastRow(sh)), 0), 0),
    issueTokens: mint,
    revokeTokens: () => {
      accessTokens.clear();
      refreshTokens.clear();
    },
    expireAccessTokens: () => {
      for (const k of accessTokens.keys()) accessTokens.set(k, 0);
    },
    refreshCount: () => refreshes,
    setLatency: (ms) => kit.setLatency(ms),
    setFault: (f) => kit.setFault(f),
    reset,
    close: async () => {
      kit.clearTimers();
      await app.close();
    },
  };
}
