// Parsers as the API shows them (spec 7 "Parsers"): an integration of type `parser` with its address,
// rules, mailbox and last mail. Listing, creating, updating, configuring and deleting them; the lists
// the screens pick from; the mail log; the live preview of the rules on a sample; the public read.
import { randomBytes } from 'node:crypto';
import {
  DESTINATION_TYPES,
  extractFields,
  MAX_PARSER_MAIL_ATTEMPTS,
  matchMail,
  type Parser,
  type ParserConfigBody,
  type ParserCreateBody,
  type ParserMail,
  type ParserMailStatus,
  type ParserPreview,
  type ParserUpdateBody,
  type ZParserDestinationsQuery,
  ZParserImapBody,
  type ZParserListQuery,
  type ZParserPreviewBody,
  ZParserRules,
} from '@leadrelay/shared';
import { and, count, desc, eq, ilike, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import type { Executor } from '../../db/client';
import { type IntegrationRow, integrations, type ParserMailRow, parserMailboxes, parserMails } from '../../db/schema';
import { readAuth, sealAuth } from '../../delivery/stored-auth';
import { AppError } from '../../lib/app-error';
import { isUuid } from '../../lib/ids';
import { zodAppError } from '../../plugins/errors';
import { findSettingBySlug } from '../catalogue';
import { deleteIntegration, ownIntegrationOfType, updateIntegration, validDestinations } from '../integrations';
import { assertRoomForDestinations, assertRoomForIntegration, type PlanActor } from '../plans';
import { processMail, rulesOf } from './parser-mails';
import { decodeMail, decodeSample, MailRefusal } from './parser-mime';
import { type ParserDeps, parserAddress, TYPE } from './parsers-deps';

type Actor = PlanActor;

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

async function ownParser(db: Executor, actor: Pick<Actor, 'id'>, id: string, lock = false): Promise<IntegrationRow> {
  try {
    return await ownIntegrationOfType(db, actor, id, TYPE, lock);
  } catch (error) {
    if (error instanceof AppError && error.code === 'INTEGRATION_NOT_FOUND') throw new AppError('PARSER_NOT_FOUND');
    throw error;
  }
}

/** The settings a parser keeps (its integration's `settings`): rules, the mailbox without its password, a sample. */
export function validParserSettings(raw: Record<string, unknown>): Record<string, unknown> {
  const rules = ZParserRules.safeParse(raw.rules ?? {});
  if (!rules.success) throw zodAppError('rules', rules.error);
  let imap: Record<string, unknown> | null = null;
  if (raw.imap) {
    const parsed = ZParserImapBody.omit({ password: true }).safeParse(raw.imap);
    if (!parsed.success) throw zodAppError('imap', parsed.error);
    imap = parsed.data;
  }
  const sample = typeof raw.sample === 'string' ? raw.sample.slice(0, 200_000) : '';
  return { rules: rules.data, imap, sample };
}

async function toApi(deps: ParserDeps, rows: IntegrationRow[]): Promise<Parser[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [last, boxes] = await Promise.all([
    deps.db
      .selectDistinctOn([parserMails.integrationId], {
        integrationId: parserMails.integrationId,
        at: parserMails.receivedAt,
        status: parserMails.status,
      })
      .from(parserMails)
      .where(inArray(parserMails.integrationId, ids))
      .orderBy(parserMails.integrationId, desc(parserMails.receivedAt)),
    deps.db.select().from(parserMailboxes).where(inArray(parserMailboxes.integrationId, ids)),
  ]);
  const lastOf = new Map(last.map((l) => [l.integrationId, l]));
  const boxOf = new Map(boxes.map((b) => [b.integrationId, b]));
  return rows.map((row) => {
    const settings = row.settings as { imap?: Record<string, unknown> | null; sample?: string };
    const mail = lastOf.get(row.id);
    const box = boxOf.get(row.id);
    const imap = settings.imap
      ? {
          ...(settings.imap as Omit<z.infer<typeof ZParserImapBody>, 'password'>),
          hasPassword: row.auth !== null,
          lastPollAt: box?.lastPollAt?.toISOString() ?? null,
          lastError: box?.lastError ?? null,
        }
      : null;
    return {
      _id: row.id,
      type: TYPE,
      name: row.name,
      active: row.active,
      address: row.hookToken ? parserAddress(row.hookToken, deps.parsers.mailDomain) : '',
      destination: row.destinationIds.map((id) => ({ _id: id })),
      distributionId: row.distributionId,
      options: row.options,
      rules: rulesOf(row.settings),
      imap,
      sample: settings.sample ?? '',
      lastMail: mail ? { at: mail.at.toISOString(), status: mail.status as ParserMailStatus } : null,
      createdAt: row.createdAt.toISOString(),
    };
  });
}

export async function listParsers(
  deps: ParserDeps,
  actor: Actor,
  query: z.infer<typeof ZParserListQuery>,
): Promise<{ data: Parser[]; total: number }> {
  const where = and(
    eq(integrations.accountId, actor.id),
    eq(integrations.type, TYPE),
    query.search ? ilike(integrations.name, `%${escapeLike(query.search)}%`) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    deps.db
      .select()
      .from(integrations)
      .where(where)
      .orderBy(desc(integrations.createdAt), desc(integrations.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    deps.db.select({ n: count() }).from(integrations).where(where),
  ]);
  return { data: await toApi(deps, rows), total: Number(total?.n ?? 0) };
}

export async function getParser(deps: ParserDeps, actor: Actor, id: string): Promise<Parser> {
  return (await toApi(deps, [await ownParser(deps.db, actor, id)]))[0]!;
}

export async function createParser(deps: ParserDeps, actor: Actor, body: ParserCreateBody): Promise<Parser> {
  const setting = await findSettingBySlug(deps.db, TYPE);
  const destinationIds = await validDestinations(deps.db, actor, setting, body.destination ?? []);
  await assertRoomForDestinations(deps.db, actor, 0, destinationIds.length);
  const row = await deps.db.transaction(async (tx) => {
    await assertRoomForIntegration(tx, actor);
    const [created] = await tx
      .insert(integrations)
      .values({
        accountId: actor.id,
        type: TYPE,
        name: body.name.trim(),
        settings: validParserSettings({ rules: body.rules ?? {} }),
        destinationIds,
        // The address's secret part; lower case, since some mail systems lower-case addresses.
        hookToken: randomBytes(16).toString('hex'),
      })
      .returning();
    return created!;
  });
  return (await toApi(deps, [row]))[0]!;
}

export async function updateParser(
  deps: ParserDeps,
  actor: Actor,
  id: string,
  body: ParserUpdateBody,
): Promise<Parser> {
  await ownParser(deps.db, actor, id);
  await updateIntegration(deps.db, actor, id, body);
  return getParser(deps, actor, id);
}

export async function deleteParser(deps: ParserDeps, actor: Actor, id: string): Promise<void> {
  await ownParser(deps.db, actor, id);
  await deleteIntegration(deps.db, actor, id);
}

/** Rules, mailbox (its password sealed; absent keeps the stored one) and sample; each part only when given. */
export async function configureParser(
  deps: ParserDeps,
  actor: Actor,
  id: string,
  body: ParserConfigBody,
): Promise<Parser> {
  await deps.db.transaction(async (tx) => {
    const row = await ownParser(tx, actor, id, true);
    const current = validParserSettings(row.settings);
    const next = { ...current };
    if (body.rules !== undefined) next.rules = body.rules;
    if (body.sample !== undefined) next.sample = body.sample;
    let auth = row.auth;
    if (body.imap === null) {
      next.imap = null;
      auth = null;
      await tx.delete(parserMailboxes).where(eq(parserMailboxes.integrationId, row.id));
    } else if (body.imap !== undefined) {
      const { password, ...imap } = body.imap;
      if (password !== undefined) auth = sealAuth(deps.secrets, row.id, { password });
      else if (!auth)
        throw new AppError('VALIDATION_ERROR', { errors: [{ field: 'imap.password', code: 'REQUIRED' }] });
      const before = current.imap as Record<string, unknown> | null;
      // Another server, account or folder: its UIDs mean nothing to the old cursor.
      if (before && (before.host !== imap.host || before.login !== imap.login || before.mailbox !== imap.mailbox)) {
        await tx.delete(parserMailboxes).where(eq(parserMailboxes.integrationId, row.id));
      }
      next.imap = imap;
    }
    await tx
      .update(integrations)
      .set({ settings: validParserSettings(next), auth, updatedAt: new Date() })
      .where(eq(integrations.id, row.id));
  });
  return getParser(deps, actor, id);
}

/** The password of a parser's mailbox (for a check from the page); '' when none is stored. */
export function mailboxPassword(deps: ParserDeps, row: IntegrationRow): string {
  return row.auth ? String(readAuth(deps.secrets, row).password ?? '') : '';
}

const ref = (row: Pick<IntegrationRow, 'id' | 'name' | 'type' | 'active'>) => ({
  _id: row.id,
  name: row.name,
  type: row.type,
  active: row.active,
});

/** The account's parsers as sources (spec: "sources from integrations"). */
export async function parserSources(deps: ParserDeps, actor: Actor) {
  const rows = await deps.db
    .select()
    .from(integrations)
    .where(and(eq(integrations.accountId, actor.id), eq(integrations.type, TYPE)))
    .orderBy(integrations.name);
  return { data: rows.map(ref), total: rows.length };
}

/** The account's integrations a parser may send to. */
export async function parserDestinations(
  deps: ParserDeps,
  actor: Actor,
  query: z.infer<typeof ZParserDestinationsQuery>,
) {
  const types = query.type
    ? [query.type].filter((t) => (DESTINATION_TYPES as readonly string[]).includes(t))
    : [...DESTINATION_TYPES];
  if (types.length === 0) return { data: [], total: 0 };
  const rows = await deps.db
    .select()
    .from(integrations)
    .where(
      and(
        eq(integrations.accountId, actor.id),
        inArray(integrations.type, types),
        query.search ? ilike(integrations.name, `%${escapeLike(query.search)}%`) : undefined,
      ),
    )
    .orderBy(integrations.name)
    .limit(200);
  return { data: rows.map(ref), total: rows.length };
}

const mailColumns = {
  id: parserMails.id,
  via: parserMails.via,
  mailFrom: parserMails.mailFrom,
  subject: parserMails.subject,
  messageId: parserMails.messageId,
  size: parserMails.size,
  status: parserMails.status,
  reason: parserMails.reason,
  detail: parserMails.detail,
  attempts: parserMails.attempts,
  hookId: parserMails.hookId,
  fields: parserMails.fields,
  attachments: parserMails.attachments,
  receivedAt: parserMails.receivedAt,
};
type MailColumns = Pick<ParserMailRow, keyof typeof mailColumns>;

const mailOf = (m: MailColumns): ParserMail => ({
  _id: m.id,
  via: m.via,
  from: m.mailFrom,
  subject: m.subject,
  messageId: m.messageId,
  size: m.size,
  status: m.status as ParserMail['status'],
  reason: m.reason,
  detail: m.detail,
  attempts: m.attempts,
  hookId: m.hookId,
  fields: m.fields,
  attachments: m.attachments,
  receivedAt: m.receivedAt.toISOString(),
});

export async function listParserMails(
  deps: ParserDeps,
  actor: Actor,
  id: string,
  query: { page: number; limit: number },
): Promise<{ data: ParserMail[]; total: number }> {
  const row = await ownParser(deps.db, actor, id);
  const where = eq(parserMails.integrationId, row.id);
  const [rows, [total]] = await Promise.all([
    deps.db
      .select(mailColumns)
      .from(parserMails)
      .where(where)
      .orderBy(desc(parserMails.receivedAt), desc(parserMails.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    deps.db.select({ n: count() }).from(parserMails).where(where),
  ]);
  return { data: rows.map(mailOf), total: Number(total?.n ?? 0) };
}

/**
 * "Try again" on a failed mail: one more processing attempt now (its count set so that another
 * failure makes it `failed` again at once, with the new reason), answered with what became of it.
 * Only a failed mail of the actor's own parser: another's is 404, any other state 409.
 */
export async function retryParserMail(deps: ParserDeps, actor: Actor, id: string, mailId: string): Promise<ParserMail> {
  const row = await ownParser(deps.db, actor, id);
  if (!isUuid(mailId)) throw new AppError('PARSER_MAIL_NOT_FOUND');
  const mine = and(eq(parserMails.id, mailId), eq(parserMails.integrationId, row.id));
  const [reset] = await deps.db
    .update(parserMails)
    .set({
      status: 'received',
      reason: null,
      detail: null,
      attempts: MAX_PARSER_MAIL_ATTEMPTS - 1,
      claimedUntil: null,
      processedAt: null,
    })
    .where(and(mine, eq(parserMails.status, 'failed')))
    .returning({ id: parserMails.id });
  if (!reset) {
    const [exists] = await deps.db.select({ id: parserMails.id }).from(parserMails).where(mine);
    throw new AppError(exists ? 'PARSER_MAIL_NOT_FAILED' : 'PARSER_MAIL_NOT_FOUND');
  }
  await processMail(deps, mailId);
  const [after] = await deps.db.select(mailColumns).from(parserMails).where(mine);
  if (!after) throw new AppError('PARSER_MAIL_NOT_FOUND');
  return mailOf(after);
}

/** What a sample (or a received mail) yields under the given rules (or the stored ones): the page's live preview. */
export async function previewParser(
  deps: ParserDeps,
  actor: Actor,
  id: string,
  body: z.infer<typeof ZParserPreviewBody>,
): Promise<ParserPreview> {
  const row = await ownParser(deps.db, actor, id);
  const rules = body.rules ?? rulesOf(row.settings);
  let view: Awaited<ReturnType<typeof decodeSample>>;
  if (body.mailId) {
    if (!isUuid(body.mailId)) throw new AppError('PARSER_MAIL_NOT_FOUND');
    const [mail] = await deps.db
      .select({ raw: parserMails.raw })
      .from(parserMails)
      .where(and(eq(parserMails.id, body.mailId), eq(parserMails.integrationId, row.id)));
    if (!mail) throw new AppError('PARSER_MAIL_NOT_FOUND');
    if (!mail.raw) return { from: '', subject: '', matched: false, reason: 'MAIL_MALFORMED', fields: {}, pairs: [] };
    try {
      view = (await decodeMail(mail.raw)).view;
    } catch (error) {
      const reason = error instanceof MailRefusal ? error.reason : 'MAIL_MALFORMED';
      return { from: '', subject: '', matched: false, reason, fields: {}, pairs: [] };
    }
  } else {
    const sample = body.sample ?? String((row.settings as { sample?: unknown }).sample ?? '');
    if (!sample.trim()) throw new AppError('PARSER_SAMPLE_MISSING');
    view = await decodeSample(sample);
  }
  const verdict = matchMail(rules, view);
  const { fields, pairs } = extractFields(rules, view);
  return {
    from: view.from,
    subject: view.subject,
    matched: verdict.matched,
    reason: verdict.matched ? (Object.keys(fields).length ? null : 'MAIL_NO_FIELDS') : verdict.reason,
    fields,
    pairs: pairs.slice(0, 100),
  };
}

/**
 * GET /api/ihome/parser/{id}: anyone with the id learns whether the parser takes mail and when the
 * last one came, nothing else (no name, address, rules, account): what a mail-hosting panel or a
 * monitoring check may show. docs/parsers.md.
 */
export async function publicParser(db: Executor, id: string) {
  if (!isUuid(id)) throw new AppError('PARSER_NOT_FOUND');
  const [row] = await db
    .select({ id: integrations.id, active: integrations.active })
    .from(integrations)
    .where(and(eq(integrations.id, id), eq(integrations.type, TYPE)));
  if (!row) throw new AppError('PARSER_NOT_FOUND');
  const [latest] = await db
    .select({ at: parserMails.receivedAt })
    .from(parserMails)
    .where(eq(parserMails.integrationId, row.id))
    .orderBy(desc(parserMails.receivedAt))
    .limit(1);
  const last = latest?.at ?? null;
  return { _id: row.id, active: row.active, lastMailAt: last ? last.toISOString() : null };
}
