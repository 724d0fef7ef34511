// The parsers' moving parts in one process: the SMTP listener (ROLE api or all), the mailbox poll
// and the sweep of mails left unprocessed (periodic tasks: ROLE worker or all, one node at a time),
// and the processing of freshly stored mails. docs/parsers.md says who runs what.
import { and, eq, lt } from 'drizzle-orm';
import { integrations, parserMails } from '../../db/schema';
import type { PeriodicTask } from '../../delivery/periodic';
import { readAuth } from '../../delivery/stored-auth';
import { settleWithin } from '../../lib/settle-within';
import { mailboxOf, pollMailbox } from './imap-poller';
import { processPending, processSoon } from './parser-mails';
import { type ParserDeps, TYPE } from './parsers-deps';
import { ParserSmtpListener } from './smtp-listener';

export const PARSER_IMAP_TASK = 'parser-imap-poll';
export const PARSER_SWEEP_TASK = 'parser-mails-sweep';
const SWEEP_EVERY_MS = 30_000;

export interface PollSummary {
  mailboxes: number;
  stored: number;
  failures: number;
}

export class ParserRuntime {
  readonly smtp: ParserSmtpListener;
  private readonly inflight = new Set<Promise<unknown>>();

  constructor(readonly deps: ParserDeps) {
    this.smtp = new ParserSmtpListener(deps, (ids) => this.process(ids));
  }

  /** Processes stored mails now, tracked so stop() and drain() can wait for them. */
  process(ids: string[]): void {
    if (ids.length === 0) return;
    const run = processSoon(this.deps, ids);
    this.inflight.add(run);
    void run.finally(() => this.inflight.delete(run));
  }

  /** Waits until every mail handed to process() is done (tests). */
  async drain(): Promise<void> {
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
  }

  async startSmtp(): Promise<void> {
    const smtp = this.deps.parsers.smtp;
    if (!smtp) return;
    try {
      await this.smtp.start(smtp.port, smtp.host);
    } catch (error) {
      // The rest of the app still serves: webhooks, mailboxes; the log says what to change.
      this.deps.log.error(
        { err: error, port: smtp.port },
        'the parser SMTP listener cannot listen: set PARSER_SMTP_PORT to a free port (or off)',
      );
    }
  }

  async stop(): Promise<void> {
    await this.smtp.close();
    await settleWithin(this.inflight, 5_000);
  }

  /** Polls one parser's mailbox, under a lock across processes (never two polls of one mailbox at once). */
  async pollOne(integrationId: string): Promise<string[]> {
    const { deps } = this;
    return deps.locks.connector.withLock([`parser-imap:${integrationId}`], async () => {
      const [row] = await deps.db.select().from(integrations).where(eq(integrations.id, integrationId));
      if (!row || row.type !== TYPE || !row.active) return [];
      const settings = mailboxOf(row);
      if (!settings?.enabled) return [];
      const password = String(readAuth(deps.secrets, row).password ?? '');
      try {
        const { stored } = await pollMailbox(deps, row, password);
        this.process(stored);
        return stored;
      } catch (error) {
        const stored = (error as { stored?: string[] }).stored ?? [];
        this.process(stored);
        throw error;
      }
    });
  }

  /** Every active parser with a mailbox, one after another. */
  async pollAll(): Promise<PollSummary> {
    const rows = await this.deps.db
      .select({ id: integrations.id, settings: integrations.settings })
      .from(integrations)
      .where(and(eq(integrations.type, TYPE), eq(integrations.active, true)));
    const summary: PollSummary = { mailboxes: 0, stored: 0, failures: 0 };
    for (const row of rows) {
      if (!mailboxOf(row)?.enabled) continue;
      summary.mailboxes++;
      try {
        summary.stored += (await this.pollOne(row.id)).length;
      } catch (error) {
        summary.failures++;
        this.deps.log.warn({ err: error, integrationId: row.id }, 'polling a parser mailbox failed');
      }
    }
    return summary;
  }

  /** The periodic tasks (worker processes): the poll, and the sweep that also forgets old mails. */
  tasks(): PeriodicTask[] {
    return [
      { name: PARSER_IMAP_TASK, everyMs: this.deps.parsers.imapEveryMs, run: () => this.pollAll() },
      {
        name: PARSER_SWEEP_TASK,
        everyMs: SWEEP_EVERY_MS,
        run: async (tx, now) => {
          const cutoff = new Date(now.getTime() - this.deps.parsers.retentionDays * 86_400_000);
          await tx.delete(parserMails).where(lt(parserMails.receivedAt, cutoff));
          return processPending(this.deps, now);
        },
      },
    ];
  }
}
