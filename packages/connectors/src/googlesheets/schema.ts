// Google Sheets as a destination (issue 32): one row per lead in a chosen sheet of a chosen
// spreadsheet, under a header row kept in line with the mapped columns. The server validates the
// settings with these and the web builds its forms from them (the manifest imports them).
import { ZLeadPath } from '@leadrelay/shared';
import { z } from 'zod';

/** What Google's OAuth gave us: the refresh token lives until the person revokes it (or 6 months unused). */
export const ZSheetsAuth = z.object({
  accessToken: z.string().min(1),
  refreshToken: z.string().min(1),
  /** Epoch ms when the access token stops working. */
  expiresAt: z.number(),
});
export type SheetsAuth = z.infer<typeof ZSheetsAuth>;

/** Google's spreadsheet ids are URL-safe base64 (44 characters today); the id as kept. */
const SPREADSHEET_ID = /^[A-Za-z0-9_-]{10,100}$/;

/**
 * A spreadsheet's id, or its address as copied from the browser
 * (https://docs.google.com/spreadsheets/d/<id>/edit#gid=0): the id is taken out of it.
 */
export function spreadsheetIdOf(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  const inUrl = /\/spreadsheets\/d\/([A-Za-z0-9_-]{10,100})/.exec(text);
  return inUrl ? inUrl[1] : text;
}

export const ZSpreadsheetId = z.preprocess(
  spreadsheetIdOf,
  z.string().regex(SPREADSHEET_ID, { error: 'SHEETS_SPREADSHEET_INVALID' }),
);

export const SHEETS_MAX_COLUMNS = 40;
export const SHEETS_HEADER_MAX = 100;
export const SHEETS_LANGUAGES = ['uk', 'en'] as const;

/** A column: its header text in the sheet and the lead field written under it. */
export const ZSheetsColumn = z.object({
  name: z
    .string()
    .trim()
    .min(1, { error: 'REQUIRED' })
    .max(SHEETS_HEADER_MAX, { error: `MAX_LENGTH_${SHEETS_HEADER_MAX}` }),
  from: ZLeadPath,
});
export type SheetsColumn = z.infer<typeof ZSheetsColumn>;

export const ZSheetsSettings = z
  .object({
    spreadsheetId: ZSpreadsheetId.optional(),
    /** The sheet (tab) by its id, which stays when the tab is renamed; absent: the first sheet. */
    sheetId: z.number().int().min(0).optional(),
    /** The default columns' and the lead-id column's header words. */
    language: z.enum(SHEETS_LANGUAGES).default('uk'),
    /** Absent or empty: the default columns (name, phone, e-mail, comment, source, campaign). */
    columns: z.array(ZSheetsColumn).max(SHEETS_MAX_COLUMNS).optional(),
  })
  .superRefine((s, ctx) => {
    const seen = new Set<string>();
    (s.columns ?? []).forEach((c, i) => {
      const key = c.name.toLowerCase();
      if (seen.has(key))
        ctx.addIssue({ code: 'custom', path: ['columns', i, 'name'], message: 'SHEETS_COLUMN_DUPLICATE' });
      seen.add(key);
    });
  });
export type SheetsSettings = z.infer<typeof ZSheetsSettings>;

/** The spreadsheets loader's answer: Drive's files of the spreadsheet type. */
export const ZSpreadsheetOption = z.object({ id: z.string(), name: z.string() });
/** The sheets loader's answer: the chosen spreadsheet's tabs. */
export const ZSheetOption = z.object({ sheetId: z.number(), title: z.string() });
