// The cookie that ties a confirmation link to the browser that asked for it (ADR 001): a random
// value set by create-account and resend-confirmation, whose hash the link's token row keeps.
// Confirming with it signs in; anywhere else the link only confirms, so a link mailed to an
// attacker's address and sent to a victim never signs the victim into the attacker's account.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../../config';
import { EMAIL_TOKEN_TTL_MS } from './email-tokens.service';
import { randomToken, sha256 } from './tokens';

// On https the __Host- prefix: the browser takes it only from this very host (Secure, path /, no
// Domain), so a sibling subdomain cannot plant a value it knows.
const nameOf = (config: AppConfig) => (config.secureCookies ? '__Host-confirm_browser' : 'confirm_browser');

const options = (config: AppConfig) => ({
  httpOnly: true,
  sameSite: 'lax' as const,
  secure: config.secureCookies,
  path: '/',
});

/** What randomToken makes: 32 bytes in base64url. Anything else is ignored, never stored. */
const WELL_FORMED = /^[A-Za-z0-9_-]{43}$/;

export const browserHash = (value: string): string => sha256(`confirm-browser:${value}`);

/** The well-formed binding value the request carries, if any. */
export function confirmCookieOf(req: FastifyRequest, config: AppConfig): string | undefined {
  const value = req.cookies[nameOf(config)];
  return value && WELL_FORMED.test(value) ? value : undefined;
}

/**
 * The browser's binding: the one it already has (so a second sign-up in the same browser keeps
 * the first link working), else a new one; (re)sets the cookie for as long as a link lives. It
 * is left after use: it signs in only links this browser asked for.
 */
export function bindBrowser(req: FastifyRequest, reply: FastifyReply, config: AppConfig): string {
  const value = confirmCookieOf(req, config) ?? randomToken();
  reply.setCookie(nameOf(config), value, { ...options(config), maxAge: EMAIL_TOKEN_TTL_MS.confirm / 1000 });
  return browserHash(value);
}
