// Mails → leads. A mail is stored first (parser_mails, status `received`, the raw message kept), by
// the SMTP listener before it answers 250 or by the poller before it flags the message on the IMAP
// server; it is processed after: decoded, matched and read by the parser's rules, and the fields go
// through ingest (the same mapping, filters, dedupe, distribution and deliveries as a webhook) with the
// idempotency key `mail:<Message-ID>`, so one mail sent twice, forwarded again or fetched again is one
// lead. A process that dies between the two leaves the row `received`; the sweep (parsers.tasks.ts)
// takes it over once its claim lapses.
import { createHash } from 'node:crypto';
import {
  DEFAULT_PARSER_RULES,
  extractFields,
  MAX_PARSER_MAIL_ATTEMPTS,
  matchMail,
  type ParserMailStatus,
  type ParserRules,
  ZParserRules,
} from '@leadrelay/shared';
import { and, eq, gte, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { hooks, integrations, type ParserAttachment, parserMails, type StoredRequest } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { storableText } from '../../lib/storable-text';
import { ingestWebhook } from '../ingest';
import { decodeMail, MailRefusal } from './parser-mime';
import type { ParserDeps } from './parsers-deps';

/** How long one process holds a mail it processes before another may take it over. */
export const CLAIM_MS = 2 * 60_000;
/** Message-ID repeats count as the same lead this long (a mail forwarded again days later). */
export const MAIL_DEDUPE_WINDOW_HOURS = 14 * 24;

export interface MailSource {
  id: string;
  accountId: string;
}

export interface NewMail {
  via: 'smtp' | 'imap';
  mailFrom: string;
  raw: Buffer;
  /** imap:<uidvalidity>:<uid>: stored once however often it is fetched. */
  sourceKey?: string;
}

/** Stores an accepted mail; the id, or null when this source key is stored already. */
export async function storeMail(db: Executor, source: MailSource, mail: NewMail): Promise<string | null> {
  const [row] = await db
    .insert(parserMails)
    .values({
      integrationId: source.id,
      accountId: source.accountId,
      via: mail.via,
      sourceKey: mail.sourceKey ?? null,
      mailFrom: storableText(mail.mailFrom.slice(0, 500)),
      size: mail.raw.length,
      raw: mail.raw,
    })
    .onConflictDoNothing()
    .returning({ id: parserMails.id });
  return row?.id ?? null;
}

/** A mail refused before it was accepted (too large, a bomb, a flood): a log row, nothing to keep. */
export async function logRefusedMail(
  db: Executor,
  source: MailSource,
  mail: { via: 'smtp' | 'imap'; mailFrom: string; size: number; reason: string; sourceKey?: string },
): Promise<void> {
  await db
    .insert(parserMails)
    .values({
      integrationId: source.id,
      accountId: source.accountId,
      via: mail.via,
      sourceKey: mail.sourceKey ?? null,
      mailFrom: storableText(mail.mailFrom.slice(0, 500)),
      size: mail.size,
      status: 'rejected',
      reason: mail.reason,
      processedAt: new Date(),
    })
    .onConflictDoNothing();
}

/** Mails this parser received in the last minute (the flood guard). */
export async function mailsLastMinute(db: Executor, integrationId: string, now = new Date()): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(parserMails)
    .where(
      and(eq(parserMails.integrationId, integrationId), gte(parserMails.receivedAt, new Date(now.getTime() - 60_000))),
    );
  return row?.n ?? 0;
}

export function rulesOf(settings: Record<string, unknown>): ParserRules {
  const parsed = ZParserRules.safeParse(settings.rules ?? {});
  return parsed.success ? parsed.data : DEFAULT_PARSER_RULES;
}

interface Outcome {
  status: ParserMailStatus;
  reason: string | null;
  detail?: string;
  hookId?: string | null;
  fields?: Record<string, string> | null;
  subject?: string;
  mailFrom?: string;
  messageId?: string | null;
  attachments?: ParserAttachment[];
}

const LEAD_STATUS: Record<string, ParserMailStatus> = {
  accepted: 'lead',
  pending: 'lead',
  delivered: 'lead',
  partial: 'lead',
  failed: 'lead',
  held: 'held',
  filtered: 'filtered',
  duplicate: 'duplicate',
};

/**
 * Processes one stored mail if no other process holds it: true when this call did. Each claim counts
 * an attempt. A failure that another attempt may cure (the database away for a moment) leaves the
 * mail `received` for the sweep once its claim lapses; the last of MAX_PARSER_MAIL_ATTEMPTS, or a
 * failure no retry cures (PostgreSQL refusing the data itself), makes it `failed` with the reason and
 * the error's words, on the parser's page with "try again". Nothing acknowledged stays `received`.
 */
export async function processMail(deps: ParserDeps, mailId: string, now = new Date()): Promise<boolean> {
  const [mail] = await deps.db
    .update(parserMails)
    .set({ claimedUntil: new Date(now.getTime() + CLAIM_MS), attempts: sql`${parserMails.attempts} + 1` })
    .where(
      and(
        eq(parserMails.id, mailId),
        eq(parserMails.status, 'received'),
        or(isNull(parserMails.claimedUntil), lt(parserMails.claimedUntil, now)),
      ),
    )
    .returning();
  if (!mail) return false;
  let outcome: Outcome;
  // What the mail says of itself once decoded (subject, sender, attachments): a failed mail shows it too.
  const seen: Partial<Outcome> = {};
  try {
    outcome = await outcomeOf(deps, mail, now, seen);
    await settle(deps.db, mail.id, outcome);
  } catch (error) {
    const permanent = isPermanent(error);
    if (!permanent && mail.attempts < MAX_PARSER_MAIL_ATTEMPTS) throw error;
    deps.log.error({ err: error, mailId: mail.id, attempts: mail.attempts }, 'a parser mail failed for good');
    outcome = { status: 'failed', reason: 'MAIL_PROCESSING_FAILED', detail: detailOf(error) };
    try {
      await settle(deps.db, mail.id, { ...seen, ...outcome });
    } catch {
      // What the mail said of itself was the trouble: the reason and the error's words alone, cleaned.
      await settle(deps.db, mail.id, outcome);
    }
  }
  deps.log.info(
    { integrationId: mail.integrationId, mailId: mail.id, status: outcome.status, reason: outcome.reason },
    'parser mail processed',
  );
  // The mail log on the parser's page listens to HOOK_INFORMER (it refreshes every 'hooks' query).
  deps.events.emit('hook.changed', { accountId: mail.accountId, hookId: outcome.hookId ?? mail.id });
  return true;
}

async function settle(db: Executor, mailId: string, outcome: Outcome): Promise<void> {
  // Cut to length first, then made storable (a cut may halve a UTF-16 pair); undefined keeps the column.
  const text = storableText({
    reason: outcome.reason?.slice(0, 500) ?? null,
    detail: outcome.detail?.slice(0, 1000) ?? null,
    fields: outcome.fields ?? null,
    subject: outcome.subject?.slice(0, 1000),
    mailFrom: outcome.mailFrom ? outcome.mailFrom.slice(0, 500) : undefined,
    messageId: outcome.messageId,
    attachments: outcome.attachments,
  });
  await db
    .update(parserMails)
    .set({
      ...text,
      status: outcome.status,
      hookId: outcome.hookId ?? null,
      processedAt: new Date(),
      claimedUntil: null,
    })
    .where(eq(parserMails.id, mailId));
}

/** PostgreSQL refused the data itself (SQLSTATE class 22: invalid text, a value out of range): no retry cures it. */
function isPermanent(error: unknown): boolean {
  return /^22/.test(sqlStateIn(error) ?? '');
}

function sqlStateIn(error: unknown): string | undefined {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, i = 0; e && i < 4; e = e.cause as never, i++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  }
  return undefined;
}

/** The error's own words for a person who digs: the database's message (not the query and its values), or the error's. */
function detailOf(error: unknown): string {
  let words = error instanceof Error ? error.message : String(error);
  for (
    let e = error as { message?: unknown; cause?: unknown } | undefined, i = 0;
    e && i < 4;
    e = e.cause as never, i++
  ) {
    if (e.cause === undefined && typeof e.message === 'string') words = e.message;
  }
  const code = sqlStateIn(error);
  return code ? `${words} (SQLSTATE ${code})` : words;
}

async function outcomeOf(
  deps: ParserDeps,
  mail: typeof parserMails.$inferSelect,
  now: Date,
  seen: Partial<Outcome>,
): Promise<Outcome> {
  const [source] = await deps.db
    .select({ active: integrations.active, settings: integrations.settings, hookToken: integrations.hookToken })
    .from(integrations)
    .where(eq(integrations.id, mail.integrationId));
  if (!source?.active || !source.hookToken) return { status: 'rejected', reason: 'PARSER_INACTIVE' };
  if (!mail.raw) return { status: 'rejected', reason: 'MAIL_MALFORMED' };
  let decoded: Awaited<ReturnType<typeof decodeMail>>;
  try {
    decoded = await decodeMail(mail.raw);
  } catch (error) {
    return { status: 'rejected', reason: error instanceof MailRefusal ? error.reason : 'MAIL_MALFORMED' };
  }
  const { view, messageId, attachments } = decoded;
  const base = { subject: view.subject, mailFrom: view.from || mail.mailFrom, messageId, attachments };
  Object.assign(seen, base);
  const rules = rulesOf(source.settings);
  const verdict = matchMail(rules, view);
  if (!verdict.matched) return { ...base, status: 'no_match', reason: verdict.reason };
  const { fields } = extractFields(rules, view);
  if (Object.keys(fields).length === 0) return { ...base, status: 'no_match', reason: 'MAIL_NO_FIELDS', fields };
  // The view is clean (decodeMail), and ingest cleans whatever it takes (lib/storable-text.ts).
  const body = {
    ...fields,
    mail: { from: view.from, to: view.to ?? '', subject: view.subject, messageId: messageId ?? '' },
  };
  const request: StoredRequest = {
    method: mail.via === 'smtp' ? 'SMTP' : 'IMAP',
    contentType: 'message/rfc822',
    headers: {
      'x-leadrelay-source': `parser-${mail.via}`,
      from: view.from.slice(0, 300),
      subject: view.subject.slice(0, 300),
      ...(messageId ? { 'message-id': messageId } : {}),
    },
    body,
  };
  const key = messageId ? `mail:${messageId}` : `mail-sha256:${createHash('sha256').update(mail.raw).digest('hex')}`;
  try {
    const result = await ingestWebhook(
      { db: deps.db, events: deps.events, log: deps.log, now: () => now },
      { token: source.hookToken, body, request, idempotencyKey: key, minDedupeWindowHours: MAIL_DEDUPE_WINDOW_HOURS },
    );
    const status = LEAD_STATUS[result.status] ?? 'lead'; // own-keys: a HookStatus of our ingest
    const reason = status === 'filtered' ? await hookReason(deps.db, result.hookId) : null;
    return { ...base, status, reason, hookId: result.hookId, fields };
  } catch (error) {
    if (error instanceof AppError && error.code === 'INTEGRATION_NOT_FOUND')
      return { ...base, status: 'rejected', reason: 'PARSER_INACTIVE', fields };
    throw error;
  }
}

async function hookReason(db: Executor, hookId: string): Promise<string | null> {
  const [row] = await db.select({ reason: hooks.reason }).from(hooks).where(eq(hooks.id, hookId));
  return row?.reason ?? null;
}

/** Mails still `received` whose claim lapsed (their process died, or the database failed mid-way). */
export async function pendingMailIds(db: Executor, now = new Date(), limit = 100): Promise<string[]> {
  const rows = await db
    .select({ id: parserMails.id })
    .from(parserMails)
    .where(
      and(eq(parserMails.status, 'received'), or(isNull(parserMails.claimedUntil), lt(parserMails.claimedUntil, now))),
    )
    .orderBy(parserMails.receivedAt)
    .limit(limit);
  return rows.map((r) => r.id);
}

/** Processes what is pending, one mail at a time; a failure is logged and left for the next sweep. */
export async function processPending(deps: ParserDeps, now = new Date()): Promise<number> {
  let done = 0;
  for (const id of await pendingMailIds(deps.db, now)) {
    try {
      if (await processMail(deps, id, now)) done++;
    } catch (error) {
      deps.log.error({ err: error, mailId: id }, 'processing a parser mail failed; the sweep tries again');
    }
  }
  return done;
}

/** Processes freshly stored mails now (callers track, not await, the promise); the sweep catches what fails. */
export function processSoon(deps: ParserDeps, ids: string[]): Promise<void> {
  return (async () => {
    for (const id of ids) {
      try {
        await processMail(deps, id);
      } catch (error) {
        deps.log.error({ err: error, mailId: id }, 'processing a parser mail failed; the sweep tries again');
      }
    }
  })();
}
