import { COOKIE, REFRESH_TOKEN_TTL_DAYS } from '@leadrelay/shared';
import type { FastifyReply } from 'fastify';
import type { AppConfig } from '../../config';

const options = (config: AppConfig) => ({
  httpOnly: true,
  sameSite: 'lax' as const,
  secure: config.secureCookies,
  path: '/',
});

export function setRefreshCookie(reply: FastifyReply, config: AppConfig, token: string): void {
  reply.setCookie(COOKIE.refresh, token, { ...options(config), maxAge: REFRESH_TOKEN_TTL_DAYS * 86_400 });
}

export function clearRefreshCookie(reply: FastifyReply, config: AppConfig): void {
  reply.clearCookie(COOKIE.refresh, options(config));
}
