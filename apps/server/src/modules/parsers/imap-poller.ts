// The IMAP poll (imapflow): for one parser, sign in to its mailbox, take the messages after the
// stored UID (the first time: the unseen ones), store each (parser_mails, keyed imap:<uidvalidity>:<uid>)
// and move the cursor in one transaction, and only then mark them \Seen or move them on the server.
// A connection the server drops at any point loses nothing and doubles nothing: what was stored
// stays (the key keeps a refetched message from being stored twice), what was not is fetched next
// time, and a message stored but not yet flagged is skipped by the cursor. Ingest's Message-ID key
// is the last guard (a mailbox whose UIDVALIDITY changed is read again from its start).
import { lookup } from 'node:dns/promises';
import { isBlockedAddress } from '@leadrelay/connectors';
import { eq, sql } from 'drizzle-orm';
import { ImapFlow } from 'imapflow';
import { type IntegrationRow, parserMailboxes } from '../../db/schema';
import { storableText } from '../../lib/storable-text';
import { logRefusedMail, storeMail } from './parser-mails';
import type { ParserDeps } from './parsers-deps';

/** Messages taken per poll; the rest come next time. */
export const IMAP_BATCH = 50;

export interface MailboxSettings {
  enabled: boolean;
  host: string;
  port: number;
  tls: boolean;
  login: string;
  mailbox: string;
  afterRead: 'seen' | 'move';
  moveTo?: string;
}

export class ImapPollError extends Error {
  constructor(message: string) {
    super(message);
  }
}

/** The stored mailbox settings of a parser, or null when it polls none. */
export function mailboxOf(row: Pick<IntegrationRow, 'settings'>): MailboxSettings | null {
  const imap = row.settings.imap as MailboxSettings | undefined | null;
  return imap && typeof imap === 'object' && imap.host ? imap : null;
}

/** Refuses hosts that resolve to private or loopback addresses unless the install allows them. */
async function checkHost(host: string, allowPrivate: boolean): Promise<void> {
  if (allowPrivate) return;
  let addresses: { address: string }[];
  try {
    addresses = await lookup(host, { all: true });
  } catch {
    throw new ImapPollError(`host ${host} not found`);
  }
  if (addresses.some((a) => isBlockedAddress(a.address))) throw new ImapPollError(`host ${host} is not allowed`);
}

export function imapClient(deps: ParserDeps, settings: MailboxSettings, password: string): ImapFlow {
  const client = new ImapFlow({
    host: settings.host,
    port: settings.port,
    secure: settings.tls,
    auth: { user: settings.login, pass: password },
    logger: false,
    disableAutoIdle: true,
    connectionTimeout: deps.parsers.imapTimeoutMs,
    greetingTimeout: deps.parsers.imapTimeoutMs,
    socketTimeout: deps.parsers.imapTimeoutMs,
    // A self-hosted install may poll its own mail server with its own certificate.
    tls: { rejectUnauthorized: !deps.config.allowPrivateDestinations },
  });
  // A dropped connection is reported here as well as to the pending command: never unhandled.
  client.on('error', (error: Error) => deps.log.debug({ err: error }, 'imap connection error'));
  return client;
}

/** Signs in and opens the mailbox (the config page's check); throws with the server's words. */
export async function tryMailbox(deps: ParserDeps, settings: MailboxSettings, password: string): Promise<void> {
  await checkHost(settings.host, deps.config.allowPrivateDestinations);
  const client = imapClient(deps, settings, password);
  try {
    await client.connect();
    await client.mailboxOpen(settings.mailbox, { readOnly: true });
    await client.logout();
  } catch (error) {
    client.close();
    throw error;
  }
}

export interface PollOutcome {
  stored: string[];
}

/**
 * One poll of one parser's mailbox. Returns the ids of the mails it stored (to process); throws when
 * the server could not be reached, refused the sign-in or dropped the connection (what was stored
 * before that stays stored).
 */
export async function pollMailbox(
  deps: ParserDeps,
  row: Pick<IntegrationRow, 'id' | 'accountId' | 'settings'>,
  password: string,
): Promise<PollOutcome> {
  const settings = mailboxOf(row);
  if (!settings) return { stored: [] };
  await checkHost(settings.host, deps.config.allowPrivateDestinations);
  const [state] = await deps.db.select().from(parserMailboxes).where(eq(parserMailboxes.integrationId, row.id));
  const client = imapClient(deps, settings, password);
  const stored: string[] = [];
  try {
    await client.connect();
    const box = await client.mailboxOpen(settings.mailbox);
    const uidValidity = Number(box.uidValidity);
    const sameBox = state?.uidValidity === uidValidity;
    const lastUid = sameBox ? state!.lastUid : 0;
    const found =
      (lastUid > 0
        ? await client.search({ uid: `${lastUid + 1}:*` }, { uid: true })
        : await client.search({ seen: false }, { uid: true })) || [];
    const uids = found
      .filter((uid) => uid > lastUid)
      .sort((a, b) => a - b)
      .slice(0, IMAP_BATCH);
    if (!sameBox) await setCursor(deps, row, uidValidity, 0);
    // Stored before but not flagged (a connection dropped in between): flagged with this poll's.
    const taken: number[] = sameBox ? [...state!.pendingUids] : [];
    for (const uid of uids) {
      const head = await client.fetchOne(String(uid), { uid: true, size: true }, { uid: true });
      if (!head) continue;
      const sourceKey = `imap:${uidValidity}:${uid}`;
      const size = head.size ?? 0;
      if (size > deps.parsers.maxMailBytes) {
        await deps.db.transaction(async (tx) => {
          await logRefusedMail(tx, row, { via: 'imap', mailFrom: '', size, reason: 'MAIL_TOO_LARGE', sourceKey });
          await setCursor(deps, row, uidValidity, uid, tx);
        });
      } else {
        const message = await client.fetchOne(String(uid), { uid: true, source: true, envelope: true }, { uid: true });
        if (message === false || !message.source) continue;
        const from = message.envelope?.from?.[0]?.address ?? '';
        const raw = message.source;
        const id = await deps.db.transaction(async (tx) => {
          const mailId = await storeMail(tx, row, { via: 'imap', mailFrom: from, raw, sourceKey });
          await setCursor(deps, row, uidValidity, uid, tx);
          return mailId;
        });
        if (id) stored.push(id);
      }
      taken.push(uid);
    }
    if (taken.length > 0) {
      const range = [...new Set(taken)].join(',');
      // imapflow answers false (not an error) when the command failed, e.g. on a dropped connection.
      const done =
        settings.afterRead === 'move' && settings.moveTo
          ? await client.messageMove(range, settings.moveTo, { uid: true })
          : await client.messageFlagsAdd(range, ['\\Seen'], { uid: true });
      if (!done) throw new ImapPollError('the server did not flag or move the messages taken');
      await deps.db.update(parserMailboxes).set({ pendingUids: [] }).where(eq(parserMailboxes.integrationId, row.id));
    }
    await client.logout();
    await recordPoll(deps, row, null);
    return { stored };
  } catch (error) {
    client.close();
    const reason = `PARSER_IMAP_FAILED: ${(error as Error).message ?? String(error)}`.slice(0, 300);
    await recordPoll(deps, row, reason).catch(() => {});
    throw Object.assign(error instanceof Error ? error : new Error(String(error)), { stored });
  }
}

type Tx = Parameters<Parameters<ParserDeps['db']['transaction']>[0]>[0];

async function setCursor(
  deps: ParserDeps,
  row: Pick<IntegrationRow, 'id' | 'accountId'>,
  uidValidity: number,
  lastUid: number,
  tx: Tx | ParserDeps['db'] = deps.db,
): Promise<void> {
  // A UID of 0 resets the cursor (a new mailbox); any other is one more stored, still to flag.
  const pending =
    lastUid === 0 ? sql`'[]'::jsonb` : sql`${parserMailboxes.pendingUids} || ${JSON.stringify([lastUid])}::jsonb`;
  await tx
    .insert(parserMailboxes)
    .values({
      integrationId: row.id,
      accountId: row.accountId,
      uidValidity,
      lastUid,
      pendingUids: lastUid ? [lastUid] : [],
    })
    .onConflictDoUpdate({
      target: parserMailboxes.integrationId,
      set: { uidValidity, lastUid, pendingUids: pending, updatedAt: new Date() },
    });
}

async function recordPoll(deps: ParserDeps, row: Pick<IntegrationRow, 'id' | 'accountId'>, error: string | null) {
  const now = new Date();
  await deps.db
    .insert(parserMailboxes)
    .values({
      integrationId: row.id,
      accountId: row.accountId,
      lastPollAt: now,
      lastError: error && storableText(error),
    })
    .onConflictDoUpdate({
      target: parserMailboxes.integrationId,
      set: { lastPollAt: now, lastError: error && storableText(error), updatedAt: now },
    });
}
