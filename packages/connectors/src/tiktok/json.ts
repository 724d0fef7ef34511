// TikTok's JSON as text: ids are 19-digit numbers in its webhook (and may be in an answer), past
// what a JS number holds, so big integers are read as text before JSON.parse, and every id is kept
// as text whichever way it came.

/** An id TikTok may send as a number or a string, as text ('' when absent). */
export const idText = (v: unknown): string =>
  typeof v === 'string' ? v.trim() : typeof v === 'number' || typeof v === 'bigint' ? String(v) : '';

/**
 * JSON text with every integer literal longer than 15 digits (outside strings) turned into a string,
 * so a 19-digit id survives JSON.parse digit for digit.
 */
export function quoteBigIntegers(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    if (c === '-' || (c >= '0' && c <= '9')) {
      const m = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
      const token = m?.[0] ?? c;
      const isBig = !m?.[1] && !m?.[2] && token.replace('-', '').length > 15;
      out += isBig ? `"${token}"` : token;
      i += token.length;
      continue;
    }
    out += c;
    i++;
  }
  return out;
}
