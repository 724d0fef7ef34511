// The inbound SMTP listener (smtp-server): mail for p-<token>@<MAIL_DOMAIN> of an active parser is
// taken; any other recipient is refused at RCPT (550), a parser past its per-minute allowance gets a
// temporary 451 (the sender's server tries again later), a mail over the size limit 552, a mail whose
// shape is a bomb (a huge header block, parts nested beyond reason) 550; each refusal for a known
// parser is in its mail log with the reason. An accepted mail is committed to PostgreSQL before the
// 250 (a failure to store answers 451, so the sender keeps it), then processed.

import { and, eq, sql } from 'drizzle-orm';
import { SMTPServer, type SMTPServerAddress, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import { integrations } from '../../db/schema';
import { logRefusedMail, type MailSource, mailsLastMinute, storeMail } from './parser-mails';
import { checkShape, MailRefusal } from './parser-mime';
import { type ParserDeps, TYPE } from './parsers-deps';

const MAX_RECIPIENTS = 10;
/** A flood writes one log row a minute per parser, not one per refused mail. */
const FLOOD_LOG_EVERY_MS = 60_000;

interface Session extends SMTPServerSession {
  parsers?: MailSource[];
}

function smtpError(code: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode: code });
}

export class ParserSmtpListener {
  private server: SMTPServer | null = null;
  private readonly floodLoggedAt = new Map<string, number>();

  constructor(
    private readonly deps: ParserDeps,
    /** Called with the ids of mails stored and answered 250, to process them. */
    private readonly onStored: (ids: string[]) => void,
  ) {}

  /** The port listened on (the real one when 0 was asked for). */
  get port(): number | undefined {
    const address = this.server?.server.address();
    return address && typeof address === 'object' ? address.port : undefined;
  }

  async start(port: number, host: string): Promise<void> {
    const { parsers } = this.deps;
    const server = new SMTPServer({
      name: parsers.mailDomain,
      banner: 'LeadRelay parsers',
      authOptional: true,
      disabledCommands: ['AUTH', 'STARTTLS'],
      size: parsers.maxMailBytes,
      maxClients: 200,
      socketTimeout: 60_000,
      closeTimeout: 5_000,
      logger: false,
      onRcptTo: (address, session, callback) => {
        this.recipient(address, session as Session).then(
          () => callback(),
          (error: Error) => callback(error),
        );
      },
      onData: (stream, session, callback) => {
        this.data(stream, session as Session).then(
          () => callback(null, 'Queued'),
          (error: Error) => callback(error),
        );
      },
    });
    server.on('error', (error) => this.deps.log.warn({ err: error }, 'parser SMTP connection error'));
    await new Promise<void>((resolve, reject) => {
      const onError = (error: Error) => reject(error);
      server.server.once('error', onError);
      server.listen(port, host, () => {
        server.server.off('error', onError);
        resolve();
      });
    });
    this.server = server;
    this.deps.log.info({ port: this.port, host, domain: parsers.mailDomain }, 'parser SMTP listener is up');
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async recipient(address: SMTPServerAddress, session: Session): Promise<void> {
    const { parsers } = this.deps;
    const match = /^p-([A-Za-z0-9_-]{8,100})@(.+)$/.exec(address.address.trim());
    if (!match || match[2]!.toLowerCase() !== parsers.mailDomain.toLowerCase()) {
      this.deps.log.info({ rcpt: address.address.slice(0, 200) }, 'parser SMTP: unknown recipient refused');
      throw smtpError(550, '5.1.1 No such recipient here');
    }
    const [row] = await this.deps.db
      .select({ id: integrations.id, accountId: integrations.accountId })
      .from(integrations)
      .where(
        and(
          eq(integrations.type, TYPE),
          eq(integrations.active, true),
          sql`lower(${integrations.hookToken}) = ${match[1]!.toLowerCase()}`,
        ),
      );
    if (!row) {
      this.deps.log.info({ rcpt: address.address.slice(0, 200) }, 'parser SMTP: unknown or inactive parser refused');
      throw smtpError(550, '5.1.1 No such recipient here');
    }
    session.parsers = session.parsers ?? [];
    const list = session.parsers;
    if (list.some((p) => p.id === row.id)) return;
    if (list.length >= MAX_RECIPIENTS) throw smtpError(452, '4.5.3 Too many recipients');
    if ((await mailsLastMinute(this.deps.db, row.id)) >= parsers.ratePerMinute) {
      await this.logFlood(row, session);
      throw smtpError(451, '4.7.1 Too many mails for this address, try again later');
    }
    list.push(row);
  }

  private async logFlood(source: MailSource, session: Session): Promise<void> {
    const now = Date.now();
    if (now - (this.floodLoggedAt.get(source.id) ?? 0) < FLOOD_LOG_EVERY_MS) return;
    this.floodLoggedAt.set(source.id, now);
    if (this.floodLoggedAt.size > 10_000) this.floodLoggedAt.clear();
    this.deps.log.warn({ integrationId: source.id }, 'parser SMTP: rate limit reached, mails refused for a while');
    await logRefusedMail(this.deps.db, source, {
      via: 'smtp',
      mailFrom: envelopeFrom(session),
      size: 0,
      reason: 'MAIL_RATE_LIMITED',
    });
  }

  private async data(stream: SMTPServerDataStream, session: Session): Promise<void> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of stream) {
      size += (chunk as Buffer).length;
      // Past the limit the rest is read and dropped (smtp-server marks sizeExceeded).
      if (size <= this.deps.parsers.maxMailBytes) chunks.push(chunk as Buffer);
    }
    const sources = session.parsers ?? [];
    const mailFrom = envelopeFrom(session);
    if (stream.sizeExceeded || size > this.deps.parsers.maxMailBytes) {
      await this.refuse(sources, mailFrom, size, 'MAIL_TOO_LARGE');
      throw smtpError(552, '5.3.4 Message too big');
    }
    const raw = Buffer.concat(chunks);
    try {
      checkShape(raw);
    } catch (error) {
      const reason = error instanceof MailRefusal ? error.reason : 'MAIL_MALFORMED';
      await this.refuse(sources, mailFrom, size, reason);
      throw smtpError(reason === 'MAIL_HEADERS_TOO_LARGE' ? 552 : 550, '5.6.0 Message refused');
    }
    let ids: string[];
    try {
      ids = await this.deps.db.transaction(async (tx) => {
        const stored: string[] = [];
        for (const source of sources) {
          const id = await storeMail(tx, source, { via: 'smtp', mailFrom, raw });
          if (id) stored.push(id);
        }
        return stored;
      });
    } catch (error) {
      this.deps.log.error({ err: error }, 'parser SMTP: storing a mail failed; answered 451');
      throw smtpError(451, '4.3.0 Temporary failure, try again later');
    }
    this.onStored(ids);
  }

  private async refuse(sources: MailSource[], mailFrom: string, size: number, reason: string): Promise<void> {
    this.deps.log.info({ parsers: sources.map((s) => s.id), size, reason }, 'parser SMTP: mail refused');
    for (const source of sources) {
      await logRefusedMail(this.deps.db, source, { via: 'smtp', mailFrom, size, reason }).catch(() => {});
    }
  }
}

const envelopeFrom = (session: SMTPServerSession) => {
  const from = session.envelope.mailFrom;
  return from ? from.address : '';
};
