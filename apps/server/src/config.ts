import type { FastifyBaseLogger } from 'fastify';
import type { Db } from './db/client';
import type { SecretBox } from './lib/secret-box';
import type { ThrottleOptions } from './modules/auth/throttle.service';
import type { Mailer } from './modules/mail/mailer';

/** Settings the modules read, resolved once by buildApp. */
export interface AppConfig {
  publicUrl: string;
  jwtSecret: string;
  demoDays: number;
  throttle: ThrottleOptions;
  /** How long the refresh token replaced by a rotation is still accepted (two tabs at once). */
  refreshGraceMs: number;
  /** Secure cookies when the public address is https. */
  secureCookies: boolean;
  /** Connectors may reach private and loopback addresses (ALLOW_PRIVATE_DESTINATIONS; self-hosted installs, tests). */
  allowPrivateDestinations: boolean;
}

/** What services get besides their arguments. */
export interface Deps {
  db: Db;
  mailer: Mailer;
  config: AppConfig;
  log: FastifyBaseLogger;
  /** Seals and opens integration credentials (ENCRYPTION_KEY). */
  secrets: SecretBox;
}
