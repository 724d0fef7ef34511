// The e-mail parsers' environment settings (README: PARSER_*, MAIL_DOMAIN; docs/parsers.md), read by env.ts.
import { z } from 'zod';
import { blankToUndefined, defineSettings, optionalText } from '../../lib/env-settings';
import { DEFAULT_PARSERS_CONFIG, type ParsersConfig } from './parsers-deps';

export const parsersSettings = defineSettings({
  keys: {
    // The inbound SMTP listener ("off": none), the addresses' domain, limits.
    PARSER_SMTP_PORT: z.preprocess(
      blankToUndefined,
      z.union([z.literal('off'), z.coerce.number().int().min(1).max(65_535)]).default(2525),
    ),
    PARSER_SMTP_HOST: optionalText,
    MAIL_DOMAIN: z.preprocess(
      blankToUndefined,
      z
        .string()
        .regex(/^[A-Za-z0-9.-]+$/)
        .optional(),
    ),
    PARSER_MAX_MAIL_BYTES: z.coerce
      .number()
      .int()
      .min(10_000)
      .max(50 * 1024 * 1024)
      .default(DEFAULT_PARSERS_CONFIG.maxMailBytes),
    PARSER_RATE_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(DEFAULT_PARSERS_CONFIG.ratePerMinute),
    PARSER_IMAP_POLL_SECONDS: z.coerce.number().int().min(5).max(3600).default(60),
  },
  read: (
    e,
    server,
  ): {
    /** The SMTP listener (null: off), MAIL_DOMAIN, size and rate limits, poll interval. */ parsers: ParsersConfig;
  } => ({
    parsers: {
      ...DEFAULT_PARSERS_CONFIG,
      mailDomain: e.MAIL_DOMAIN ?? new URL(server.publicUrl).hostname,
      smtp: e.PARSER_SMTP_PORT === 'off' ? null : { port: e.PARSER_SMTP_PORT, host: e.PARSER_SMTP_HOST ?? server.host },
      maxMailBytes: e.PARSER_MAX_MAIL_BYTES,
      ratePerMinute: e.PARSER_RATE_PER_MINUTE,
      imapEveryMs: e.PARSER_IMAP_POLL_SECONDS * 1000,
    },
  }),
});
