// The Google Sheets emulator's state and its A1 ranges: spreadsheets with their sheets (rows of
// strings, kept so a test reads what was written), the OAuth codes and tokens, and who may write.

export interface EmulatedSheet {
  sheetId: number;
  title: string;
  rows: string[][];
}

export interface EmulatedSpreadsheet {
  id: string;
  name: string;
  sheets: EmulatedSheet[];
  /** The signed-in person may open it but not edit it (403 PERMISSION_DENIED on writes). */
  readOnly?: boolean;
  modifiedAt: number;
}

export interface SheetsFault {
  status: number;
  retryAfter?: number;
  times?: number;
  /** Only requests whose path contains this (":append", "/drive/"). */
  path?: string;
  /**
   * lose: the request is carried out, then the connection is cut before the answer (a timeout after
   * Google wrote the row); otherwise the fault answers instead of carrying it out.
   */
  lose?: boolean;
}

export interface SheetsRequest {
  method: string;
  path: string;
  status: number;
  receivedAt: string;
}

/** A parsed A1 range: the sheet's title and the rows and columns it spans (0-based, end inclusive; undefined: open). */
export interface A1Range {
  title: string;
  startRow?: number;
  endRow?: number;
  startCol?: number;
  endCol?: number;
}

const letters = (s: string) => [...s.toUpperCase()].reduce((n, c) => n * 26 + (c.charCodeAt(0) - 64), 0) - 1;

/** 'Leads ''26'!A1:C3, Sheet1!1:1, 'X'!C:C, X!B7 → its parts; null when it is not A1 notation we know. */
export function parseA1(range: string): A1Range | null {
  const m = /^(?:'((?:[^']|'')+)'|([^'!]+))!(.+)$/.exec(range);
  if (!m) return null;
  const title = m[1] !== undefined ? m[1].replace(/''/g, "'") : m[2]!;
  const cell = /^\$?([A-Z]*)\$?(\d*)$/i;
  const [a, b = a] = m[3]!.split(':');
  const from = cell.exec(a ?? '');
  const to = cell.exec(b ?? '');
  if (!from || !to || (!from[1] && !from[2])) return null;
  return {
    title,
    startCol: from[1] ? letters(from[1]) : undefined,
    endCol: to[1] ? letters(to[1]) : undefined,
    startRow: from[2] ? Number(from[2]) - 1 : undefined,
    endRow: to[2] ? Number(to[2]) - 1 : undefined,
  };
}

export function colLetters(index: number): string {
  let n = index + 1;
  let out = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    out = String.fromCharCode(65 + r) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

/** A title as Google writes it in a range: bare when it is letters and digits, else quoted. */
export const a1Title = (title: string) => (/^[A-Za-z0-9_]+$/.test(title) ? title : `'${title.replace(/'/g, "''")}'`);
