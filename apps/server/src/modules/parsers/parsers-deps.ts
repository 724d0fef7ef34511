// What the parsers' services get besides Deps: the engine's event bus (ingest tells the worker and
// the browsers through it) and the parsers' own settings (README: PARSER_SMTP_PORT, MAIL_DOMAIN…).
import type { Deps } from '../../config';
import type { EngineEventBus } from '../../lib/events';

export const TYPE = 'parser';

export interface ParsersConfig {
  /** Addresses are p-<token>@<mailDomain>; mail to any other domain is refused. */
  mailDomain: string;
  /** The inbound SMTP listener (processes with ROLE api or all); null: none. Port 0 picks a free one (tests). */
  smtp: { port: number; host: string } | null;
  /** A bigger mail is refused (SMTP 552) or, polled, skipped with MAIL_TOO_LARGE. */
  maxMailBytes: number;
  /** Mails one parser takes per minute; more are refused with a temporary error (SMTP 451). */
  ratePerMinute: number;
  /** How often the mailboxes are polled (processes with ROLE worker or all). */
  imapEveryMs: number;
  /** One mailbox's connection: socket and greeting timeouts. */
  imapTimeoutMs: number;
  /** Received mails are kept this long (the mail log and the samples); leads stay. */
  retentionDays: number;
}

export const DEFAULT_PARSERS_CONFIG: ParsersConfig = {
  mailDomain: 'localhost',
  smtp: null,
  maxMailBytes: 10 * 1024 * 1024,
  ratePerMinute: 30,
  imapEveryMs: 60_000,
  imapTimeoutMs: 30_000,
  retentionDays: 30,
};

export interface ParserDeps extends Deps {
  events: EngineEventBus;
  parsers: ParsersConfig;
}

/** The address of a parser's token. */
export const parserAddress = (token: string, domain: string) => `p-${token}@${domain}`;
