// A stored mail → what the rules read (MailView), with mailparser (HTML and text parts, any charset
// iconv knows: windows-1251, KOI8-U…). Attachments are not read into the lead, only listed. Before
// mailparser sees a mail, cheap checks refuse the shapes of mail bombs: a header block bigger than
// any real mail's, parts nested or multiplied beyond any real mail's; and a parse that takes too long
// is given up. Each refusal is a MailRefusal with its reason key (the mail log shows it). What comes
// out is text PostgreSQL can store (lib/storable-text.ts): a NUL or half a UTF-16 pair in a header, a
// body or an attachment's name (mailparser decodes RFC 2047/2231 words into any code unit) is
// cleaned here, once, for SMTP and IMAP alike, after the cuts to length (a cut may halve a pair).
import type { MailView } from '@leadrelay/shared';
import { type AddressObject, simpleParser } from 'mailparser';
import type { ParserAttachment } from '../../db/schema';
import { storableText } from '../../lib/storable-text';

export const MAX_HEADER_BYTES = 64 * 1024;
/** multipart containers in one mail (real ones have 1–4). */
export const MAX_MULTIPARTS = 30;
/** Parts of any kind in one mail. */
export const MAX_PARTS = 300;
const PARSE_TIMEOUT_MS = 10_000;

export type RefusalReason = 'MAIL_HEADERS_TOO_LARGE' | 'MAIL_TOO_DEEP' | 'MAIL_MALFORMED';

export class MailRefusal extends Error {
  constructor(readonly reason: RefusalReason) {
    super(reason);
  }
}

export interface DecodedMail {
  view: MailView;
  messageId: string | null;
  attachments: ParserAttachment[];
}

/** Where the header block ends (the first empty line), or -1 when none within the limit. */
function headerEnd(raw: Buffer): number {
  const head = raw.subarray(0, MAX_HEADER_BYTES + 4).toString('latin1');
  const crlf = head.indexOf('\r\n\r\n');
  const lf = head.indexOf('\n\n');
  const ends = [crlf, lf].filter((i) => i >= 0);
  return ends.length ? Math.min(...ends) : -1;
}

/** Refuses what is not a mail or is built to hurt a parser; cheap, before any decoding. */
export function checkShape(raw: Buffer): void {
  const end = headerEnd(raw);
  if (end < 0 && raw.length > MAX_HEADER_BYTES) throw new MailRefusal('MAIL_HEADERS_TOO_LARGE');
  const firstLine = raw.subarray(0, 1000).toString('latin1').split(/\r?\n/, 1)[0] ?? '';
  // A mail starts with a header field ("Name: value"); mbox's "From " line is allowed too.
  if (!/^[!-9;-~]{1,100}:/.test(firstLine) && !firstLine.startsWith('From ')) throw new MailRefusal('MAIL_MALFORMED');
  const text = raw.toString('latin1');
  const multiparts = text.match(/content-type:\s*multipart\//gi)?.length ?? 0;
  const parts = text.match(/^content-type:/gim)?.length ?? 0;
  if (multiparts > MAX_MULTIPARTS || parts > MAX_PARTS) throw new MailRefusal('MAIL_TOO_DEEP');
}

const addressText = (a: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(a) ? a.map((x) => x.text).join(', ') : (a?.text ?? '')).slice(0, 500);

/** Decodes a whole mail (after checkShape). */
export async function decodeMail(raw: Buffer): Promise<DecodedMail> {
  checkShape(raw);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new MailRefusal('MAIL_MALFORMED')), PARSE_TIMEOUT_MS);
  });
  try {
    const parsed = await Promise.race([
      simpleParser(raw, {
        skipImageLinks: true,
        skipTextLinks: true,
        skipTextToHtml: true,
        maxHtmlLengthToParse: 2_000_000,
      }),
      timeout,
    ]);
    const html = typeof parsed.html === 'string' ? parsed.html : '';
    return storableText<DecodedMail>({
      view: {
        from: addressText(parsed.from),
        to: addressText(parsed.to),
        subject: (parsed.subject ?? '').slice(0, 1000),
        text: parsed.text ?? '',
        html,
      },
      messageId: parsed.messageId?.slice(0, 500) ?? null,
      attachments: parsed.attachments.slice(0, 50).map((a) => ({
        filename: (a.filename ?? '').slice(0, 200),
        contentType: a.contentType.slice(0, 100),
        size: a.size,
      })),
    });
  } catch (error) {
    if (error instanceof MailRefusal) throw error;
    throw new MailRefusal('MAIL_MALFORMED');
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A sample pasted on the config page: a whole mail (it starts with headers) is decoded like a
 * received one; anything else is taken as the body, as HTML when it has tags.
 */
export async function decodeSample(sample: string): Promise<MailView> {
  const raw = Buffer.from(sample.replace(/^\s+/, ''), 'utf8');
  try {
    checkShape(raw);
    if (headerEnd(raw) > 0) return (await decodeMail(raw)).view;
  } catch {
    // not a mail: the body alone
  }
  const isHtml = /<(html|body|table|div|p|dl|br)\b/i.test(sample);
  return { from: '', subject: '', text: isHtml ? '' : sample, html: isHtml ? sample : '' };
}
