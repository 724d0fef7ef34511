// E-mail parsers (spec sections 1, 2, 3 "Parser", 7 "Parsers"): a parser is an integration of the
// `parser` type whose leads come in by mail. The rules here turn one mail (already decoded from
// MIME by the server) into the flat payload ingest takes; the server runs them on every mail and on
// the config page's sample, so what the page previews is what a mail becomes.
import { z } from 'zod';
import { INTEGRATION_NAME_MAX, ZDestinationIds } from './integrations';
import { ZSourceOptions } from './mapping';
import { ownValue, setOwn } from './own';
import { maxText, requiredText } from './validation';

/** A mail as the rules see it: the decoded parts, no attachments. */
export interface MailView {
  from: string;
  to?: string;
  subject: string;
  /** The text part, or the HTML part as text when the mail has none. */
  text: string;
  html: string;
}

/** What became of a mail (the mail log). */
export const PARSER_MAIL_STATUSES = [
  'received',
  'lead',
  'held',
  'filtered',
  'duplicate',
  'no_match',
  'rejected',
  /** Processing failed MAX_PARSER_MAIL_ATTEMPTS times, or in a way no retry fixes: the reason and details are kept; a person may retry. */
  'failed',
] as const;
export type ParserMailStatus = (typeof PARSER_MAIL_STATUSES)[number];

/** Why a mail was refused or skipped (shown translated in the mail log). */
export const PARSER_MAIL_REASONS = [
  'MAIL_TOO_LARGE',
  'MAIL_HEADERS_TOO_LARGE',
  'MAIL_TOO_DEEP',
  'MAIL_MALFORMED',
  'MAIL_RATE_LIMITED',
  'MAIL_NO_FIELDS',
  'MATCH_FROM',
  'MATCH_SUBJECT',
  'MATCH_PHRASE',
  'PARSER_INACTIVE',
  'MAIL_PROCESSING_FAILED',
] as const;
/** Processing attempts of one mail before it is `failed` (about 2 minutes apart: the claim's lease). */
export const MAX_PARSER_MAIL_ATTEMPTS = 5;

export const PARSER_RULE_KINDS = ['label', 'regex'] as const;
export const PARSER_RULE_SOURCES = ['body', 'subject', 'any'] as const;
export const PARSER_PATTERN_MAX = 300;
export const PARSER_RULES_MAX = 50;
/** The rules read at most this much of a mail's text and HTML (a bigger mail is still stored whole). */
export const PARSER_TEXT_MAX_CHARS = 200_000;

/** A payload key: what the integration's mapping reads (name, phone, email, comment are taken as they are). */
const ZFieldKey = z
  .string({ error: (i) => (i.input === undefined ? 'REQUIRED' : 'INVALID_TYPE') })
  .regex(/^[A-Za-z0-9_.-]{1,64}$/, { error: 'PARSER_FIELD_INVALID' });

const ZPattern = z
  .string()
  .trim()
  .min(1, { error: 'REQUIRED' })
  .max(PARSER_PATTERN_MAX, {
    error: `MAX_LENGTH_${PARSER_PATTERN_MAX}`,
  });

export const ZParserRule = z.discriminatedUnion('kind', [
  /** "Телефон: …" lines, and label → value rows of HTML tables and definition lists; `label` may list alternatives with "|". */
  z.object({ kind: z.literal('label'), field: ZFieldKey, label: ZPattern }),
  /** The first capture group (or the whole match) of a case-insensitive regular expression. */
  z.object({
    kind: z.literal('regex'),
    field: ZFieldKey,
    pattern: ZPattern.refine(isValidRegex, { error: 'PARSER_REGEX_INVALID' }),
    source: z.enum(PARSER_RULE_SOURCES).default('body'),
  }),
]);
export type ParserRule = z.infer<typeof ZParserRule>;

const ZOptionalText = z
  .string()
  .trim()
  .max(PARSER_PATTERN_MAX, { error: `MAX_LENGTH_${PARSER_PATTERN_MAX}` });

export const ZParserRules = z.object({
  /** Which mails the parser takes: each one given must be found (case-insensitive) in that part. */
  match: z
    .object({ from: ZOptionalText.optional(), subject: ZOptionalText.optional(), phrase: ZOptionalText.optional() })
    .default({}),
  /** Also take the usual labels (Ім'я/Name, Телефон/Phone, E-mail, Коментар/Comment) without a rule. */
  auto: z.boolean().default(true),
  fields: z
    .array(ZParserRule)
    .max(PARSER_RULES_MAX, { error: `MAX_LENGTH_${PARSER_RULES_MAX}` })
    .default([]),
});
export type ParserRules = z.infer<typeof ZParserRules>;
export const DEFAULT_PARSER_RULES: ParserRules = { match: {}, auto: true, fields: [] };

function isValidRegex(pattern: string): boolean {
  try {
    new RegExp(pattern, 'i');
    return true;
  } catch {
    return false;
  }
}

// ---- extraction ----

// A Map: an entity name in a mail (`&valueOf;`) is data, not a member.
const ENTITIES = new Map<string, string>(
  Object.entries({
    nbsp: ' ',
    amp: '&',
    lt: '<',
    gt: '>',
    quot: '"',
    apos: "'",
    laquo: '«',
    raquo: '»',
    times: '×',
    ndash: '–',
    mdash: '—',
    hellip: '…',
    lsquo: '‘',
    rsquo: '’',
    ldquo: '“',
    rdquo: '”',
    bull: '•',
    middot: '·',
    deg: '°',
    euro: '€',
    copy: '©',
    reg: '®',
    shy: '',
  }),
);

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,8});/gi, (all, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : all;
    }
    return ENTITIES.get(name.toLowerCase()) ?? all;
  });
}

/** The visible text of an HTML fragment, on one line. */
export function htmlText(fragment: string): string {
  return decodeEntities(fragment.replace(/<br\s*\/?>/gi, ' ').replace(/<[^>]*>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
}

/** The text of an HTML body line by line (for mails, or pasted samples, with no text part). */
export function htmlToLines(html: string): string {
  return decodeEntities(
    html
      .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, ' ')
      .replace(/<br\s*\/?>|<\/(p|div|tr|li|h[1-6]|dd|dt|table)>/gi, '\n')
      .replace(/<\/t[dh]>/gi, ' ')
      .replace(/<[^>]*>/g, ''),
  )
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
    .join('\n');
}

/** Labels compare without case, spaces, a trailing colon or asterisk, and with one apostrophe. */
export function normalizeLabel(label: string): string {
  return label
    .toLowerCase()
    .replace(/[\u2019\u02bc\u2018`´]/g, "'")
    .replace(/[:：*]+\s*$/, '')
    .replace(/\s+/g, ' ')
    .trim();
}

export interface LabelledPair {
  label: string;
  value: string;
}

const LINE_PAIR = /^\s*([^:：\n]{1,60}?)\s*[:：]\s*(.*?)\s*$/;

/** The text the rules read: the text part, or the HTML part's lines when there is none. */
const bodyText = (mail: MailView) =>
  mail.text.slice(0, PARSER_TEXT_MAX_CHARS) || htmlToLines(mail.html.slice(0, PARSER_TEXT_MAX_CHARS));

/** "Label: value" lines of a text; a label alone on its line takes the next non-empty line. */
function textPairs(text: string): LabelledPair[] {
  const pairs: LabelledPair[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const m = LINE_PAIR.exec(lines[i]!);
    if (!m) continue;
    const label = m[1]!.replace(/^[\s\-•*>]+/, '').trim();
    // "https://…" and times ("10:30") are not labels.
    if (!label || /^(https?|mailto)$/i.test(label) || /^\d+$/.test(label)) continue;
    let value = m[2]!;
    if (!value) {
      const next = lines.slice(i + 1, i + 3).find((l) => l.trim() !== '');
      if (next && !LINE_PAIR.test(next)) value = next.trim();
    }
    if (value) pairs.push({ label, value });
  }
  return pairs;
}

/** Two-cell rows of HTML tables and dt/dd pairs of definition lists. */
function htmlPairs(html: string): LabelledPair[] {
  const pairs: LabelledPair[] = [];
  for (const row of html.matchAll(/<tr\b[^>]*>([\s\S]*?)<\/tr>/gi)) {
    const cells = [...row[1]!.matchAll(/<t[dh]\b[^>]*>([\s\S]*?)<\/t[dh]>/gi)].map((c) => htmlText(c[1]!));
    const filled = cells.filter((c) => c !== '');
    if (filled.length < 2) continue;
    const label = filled[0]!.replace(/[:：]\s*$/, '').trim();
    if (label.length > 60) continue;
    pairs.push({ label, value: filled.slice(1).join(' ') });
  }
  for (const dl of html.matchAll(/<dt\b[^>]*>([\s\S]*?)<\/dt>\s*<dd\b[^>]*>([\s\S]*?)<\/dd>/gi)) {
    const label = htmlText(dl[1]!).replace(/[:：]\s*$/, '');
    const value = htmlText(dl[2]!);
    if (label && value) pairs.push({ label, value });
  }
  return pairs;
}

/** Every labelled value of a mail: its subject line, text lines, HTML tables and definition lists. */
export function labelledPairs(mail: MailView): LabelledPair[] {
  const text = bodyText(mail);
  const html = mail.html.slice(0, PARSER_TEXT_MAX_CHARS);
  const seen = new Set<string>();
  const pairs: LabelledPair[] = [];
  for (const pair of [...htmlPairs(html), ...textPairs(text)]) {
    const key = `${normalizeLabel(pair.label)}\u0000${pair.value}`;
    if (seen.has(key)) continue;
    seen.add(key);
    pairs.push(pair);
  }
  return pairs;
}

/** The usual labels of order and contact-form mails, in Ukrainian, Russian and English. */
export const AUTO_LABELS: Record<string, string[]> = {
  name: [
    "ім'я",
    'імя',
    "ім'я та прізвище",
    'піб',
    'пiб',
    'покупець',
    'клієнт',
    'одержувач',
    'отримувач',
    'контактна особа',
    'имя',
    'фио',
    'покупатель',
    'name',
    'full name',
    'your name',
    'customer',
    'buyer',
  ],
  phone: [
    'телефон',
    'тел',
    'тел.',
    'номер телефону',
    'мобільний',
    'phone',
    'phone number',
    'tel',
    'mobile',
    'номер телефона',
  ],
  email: ['e-mail', 'email', 'ел. пошта', 'електронна пошта', 'пошта', 'почта', 'mail'],
  comment: [
    'коментар',
    'коментар до замовлення',
    'коментар покупця',
    'коментар клієнта',
    'примітка',
    'повідомлення',
    'комментарий',
    'сообщение',
    'comment',
    'message',
  ],
};

const AUTO_INDEX = new Map(Object.entries(AUTO_LABELS).flatMap(([field, labels]) => labels.map((l) => [l, field])));

function labelsOf(rule: string): string[] {
  return rule
    .split('|')
    .map(normalizeLabel)
    .filter((l) => l !== '');
}

function regexValue(pattern: string, text: string): string | undefined {
  let re: RegExp;
  try {
    re = new RegExp(pattern, 'i');
  } catch {
    return undefined;
  }
  const m = re.exec(text);
  if (!m) return undefined;
  const value = (m.length > 1 ? m.slice(1).find((g) => g !== undefined) : m[0]) ?? '';
  return value.replace(/\s+/g, ' ').trim() || undefined;
}

export type MatchVerdict =
  | { matched: true }
  | { matched: false; reason: 'MATCH_FROM' | 'MATCH_SUBJECT' | 'MATCH_PHRASE' };

const includes = (haystack: string, needle: string | undefined) =>
  !needle || haystack.toLocaleLowerCase('uk').includes(needle.toLocaleLowerCase('uk'));

/** Whether the parser takes this mail (each condition given must hold). */
export function matchMail(rules: ParserRules, mail: MailView): MatchVerdict {
  const { from, subject, phrase } = rules.match ?? {};
  if (!includes(mail.from, from)) return { matched: false, reason: 'MATCH_FROM' };
  if (!includes(mail.subject, subject)) return { matched: false, reason: 'MATCH_SUBJECT' };
  const body = `${mail.subject}\n${mail.text.slice(0, PARSER_TEXT_MAX_CHARS)}\n${htmlText(mail.html.slice(0, PARSER_TEXT_MAX_CHARS))}`;
  if (!includes(body, phrase)) return { matched: false, reason: 'MATCH_PHRASE' };
  return { matched: true };
}

export interface Extraction {
  /** Field → value, in the order found: the payload the mapping reads. */
  fields: Record<string, string>;
  /** Every labelled value found, for the preview (to write rules against). */
  pairs: LabelledPair[];
}

/** The fields a mail yields under the rules. Rules win over the usual labels; the first value found wins. */
export function extractFields(rules: ParserRules, mail: MailView): Extraction {
  const pairs = labelledPairs(mail);
  const subjectPairs = textPairs(mail.subject);
  const all = [...subjectPairs, ...pairs];
  const fields: Record<string, string> = {};
  const body = bodyText(mail);
  // A rule's field is the user's name (`constructor` is a fine one): read and written as own keys.
  for (const rule of rules.fields ?? []) {
    if (ownValue(fields, rule.field) !== undefined) continue;
    let value: string | undefined;
    if (rule.kind === 'label') {
      const wanted = new Set(labelsOf(rule.label));
      value = all.find((p) => wanted.has(normalizeLabel(p.label)))?.value;
    } else {
      const source = rule.source ?? 'body';
      if (source !== 'body') value = regexValue(rule.pattern, mail.subject);
      if (value === undefined && source !== 'subject') value = regexValue(rule.pattern, body);
    }
    if (value !== undefined && value !== '') setOwn(fields, rule.field, value.slice(0, 2000));
  }
  if (rules.auto !== false) {
    for (const pair of all) {
      const field = AUTO_INDEX.get(normalizeLabel(pair.label));
      if (field && ownValue(fields, field) === undefined) setOwn(fields, field, pair.value.slice(0, 2000));
    }
  }
  return { fields, pairs };
}

// ---- the API ----

const ZHost = z
  .string()
  .trim()
  .min(1, { error: 'REQUIRED' })
  .max(253, { error: 'MAX_LENGTH_253' })
  .regex(/^[A-Za-z0-9.-]+$/, { error: 'PARSER_IMAP_HOST_INVALID' });

export const IMAP_AFTER_READ = ['seen', 'move'] as const;

/** The mailbox a parser polls (IMAP). The password is write-only: answers say only whether one is stored. */
export const ZParserImapBody = z.object({
  enabled: z.boolean(),
  host: ZHost,
  port: z.coerce.number().int().min(1).max(65_535).default(993),
  tls: z.boolean().default(true),
  login: requiredText().pipe(maxText(200)),
  /** Absent: keep the stored one. */
  password: requiredText().max(500, { error: 'MAX_LENGTH_500' }).optional(),
  mailbox: requiredText().trim().max(200).default('INBOX'),
  afterRead: z.enum(IMAP_AFTER_READ).default('seen'),
  moveTo: z.string().trim().max(200).optional(),
});
export type ParserImapBody = z.infer<typeof ZParserImapBody>;

export const ZParserImap = ZParserImapBody.omit({ password: true }).extend({
  hasPassword: z.boolean(),
  lastPollAt: z.string().nullable(),
  /** PARSER_IMAP_… key of the last poll's failure, with the server's words after a colon; null when it worked. */
  lastError: z.string().nullable(),
});
export type ParserImap = z.infer<typeof ZParserImap>;

export const ZParserConfigBody = z.object({
  rules: ZParserRules.optional(),
  /** null: stop polling and forget the mailbox (and its password). */
  imap: ZParserImapBody.nullable().optional(),
  /** A sample mail kept for the config page (raw MIME or plain text). */
  sample: z.string().max(200_000, { error: 'MAX_LENGTH_200000' }).optional(),
});
export type ParserConfigBody = z.infer<typeof ZParserConfigBody>;

const ZName = requiredText().pipe(maxText(INTEGRATION_NAME_MAX));

export const ZParserCreateBody = z.object({
  name: ZName,
  destination: ZDestinationIds.optional(),
  rules: ZParserRules.optional(),
});
export type ParserCreateBody = z.infer<typeof ZParserCreateBody>;

/** PUT /api/admin/parser/{id}: the integration's own fields (body without id). */
export const ZParserUpdateBody = z
  .object({
    name: ZName.optional(),
    active: z.boolean().optional(),
    destination: ZDestinationIds.optional(),
    distributionId: z.uuid().nullable().optional(),
    options: ZSourceOptions.optional(),
  })
  .strict();
export type ParserUpdateBody = z.infer<typeof ZParserUpdateBody>;

export const ZParserLastMail = z.object({
  at: z.string(),
  status: z.enum(PARSER_MAIL_STATUSES),
});

export const ZParser = z.object({
  _id: z.string(),
  type: z.literal('parser'),
  name: z.string(),
  active: z.boolean(),
  /** p-<token>@<MAIL_DOMAIN>: mail sent or forwarded here becomes leads. */
  address: z.string(),
  destination: z.array(z.object({ _id: z.string() })),
  distributionId: z.string().nullable(),
  options: z.record(z.string(), z.unknown()),
  rules: ZParserRules,
  imap: ZParserImap.nullable(),
  sample: z.string(),
  lastMail: ZParserLastMail.nullable(),
  createdAt: z.string(),
});
export type Parser = z.infer<typeof ZParser>;

export const ZParserListQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(10),
  search: z.string().trim().max(100).optional(),
});
export const ZParserList = z.object({ data: z.array(ZParser), total: z.number() });

export const ZParserDestinationsQuery = z.object({
  search: z.string().trim().max(100).optional(),
  type: z.string().max(50).optional(),
});

/** An integration a parser can be pointed at (a destination) or one of the account's parsers (sources). */
export const ZParserIntegrationRef = z.object({
  _id: z.string(),
  name: z.string(),
  type: z.string(),
  active: z.boolean(),
});
export const ZParserIntegrationRefs = z.object({ data: z.array(ZParserIntegrationRef), total: z.number() });

export const ZParserMail = z.object({
  _id: z.string(),
  via: z.enum(['smtp', 'imap']),
  from: z.string(),
  subject: z.string(),
  messageId: z.string().nullable(),
  size: z.number(),
  status: z.enum(PARSER_MAIL_STATUSES),
  /** A PARSER_MAIL_REASONS key, or the filter's words for a filtered lead. */
  reason: z.string().nullable(),
  /** A failed mail's technical details (the error's own words, in English), for a person who digs. */
  detail: z.string().nullable(),
  /** Processing attempts made so far. */
  attempts: z.number(),
  hookId: z.string().nullable(),
  fields: z.record(z.string(), z.string()).nullable(),
  attachments: z.array(z.object({ filename: z.string(), contentType: z.string(), size: z.number() })),
  receivedAt: z.string(),
});
export type ParserMail = z.infer<typeof ZParserMail>;
export const ZParserMailList = z.object({ data: z.array(ZParserMail), total: z.number() });

export const ZParserPreviewBody = z.object({
  /** Raw MIME (an .eml) or plain text pasted on the page; absent: the parser's stored sample. */
  sample: z.string().max(200_000, { error: 'MAX_LENGTH_200000' }).optional(),
  /** absent: the stored ones (the page sends the rules being edited, unsaved). */
  rules: ZParserRules.optional(),
  /** A received mail of this parser instead of the sample. */
  mailId: z.uuid().optional(),
});
export const ZParserPreview = z.object({
  from: z.string(),
  subject: z.string(),
  matched: z.boolean(),
  reason: z.string().nullable(),
  fields: z.record(z.string(), z.string()),
  pairs: z.array(z.object({ label: z.string(), value: z.string() })),
});
export type ParserPreview = z.infer<typeof ZParserPreview>;

/** GET /api/ihome/parser/{id}: what anyone with a parser's id may read (docs/parsers.md). */
export const ZParserPublic = z.object({
  _id: z.string(),
  active: z.boolean(),
  lastMailAt: z.string().nullable(),
});
