// Default deny: every route declares its access, checked before the body is read. Who a token
// belongs to and whether an account is active are the auth and users modules' answers, which
// app.ts hands over (plumbing knows no feature).
import { isPrivileged } from '@leadrelay/shared';
import type { FastifyInstance } from 'fastify';
import type { UserRow } from '../db/schema';
import { AppError } from '../lib/app-error';

export const ACCESS_LEVELS = ['public', 'client', 'privileged', 'owner'] as const;
export type Access = (typeof ACCESS_LEVELS)[number];

export interface AuthContext {
  user: UserRow;
  sessionId: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route; required on every route (default deny). */
    access?: Access;
    /** The account must be active (flag set, expDate today or later). */
    requireActive?: boolean;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

/** Routes that plugins register for us (the OpenAPI UI) and that are public by nature. */
const PLUGIN_PUBLIC_PREFIXES = ['/api/docs'];

export function bearerToken(header: string | undefined): string | undefined {
  if (!header?.toLowerCase().startsWith('bearer ')) return undefined;
  return header.slice(7).trim() || undefined;
}

/** The signed-in user of an access token, or null (HTTP requests and real-time sockets alike). */
export type Authenticate = (token: string | undefined) => Promise<AuthContext | null>;

export interface AuthOptions {
  authenticate: Authenticate;
  /** Whether the account may use routes with `requireActive` (flag set, demo or plan not over). */
  isActive(user: UserRow): boolean;
}

export function setupAuth(app: FastifyInstance, { authenticate, isActive }: AuthOptions): void {
  app.decorateRequest('auth', null);

  app.addHook('onRoute', (route) => {
    const config = (route.config ?? {}) as { access?: unknown };
    if (config.access === undefined && PLUGIN_PUBLIC_PREFIXES.some((p) => route.url.startsWith(p))) {
      route.config = { ...route.config, access: 'public' };
      return;
    }
    if (!ACCESS_LEVELS.includes(config.access as Access)) {
      throw new Error(
        `Route ${String(route.method)} ${route.url} has no config.access (one of ${ACCESS_LEVELS.join(', ')})`,
      );
    }
  });

  // onRequest, before the body is read: a caller without access learns nothing about the input.
  app.addHook('onRequest', async (request) => {
    if (request.is404) return;
    const { access, requireActive } = request.routeOptions.config;
    if (access === 'public') return;
    const auth = await authenticate(bearerToken(request.headers.authorization));
    if (!auth) throw new AppError('UNAUTHORIZED');
    request.auth = auth;
    const { role } = auth.user;
    if (access === 'privileged' && !isPrivileged(role)) throw new AppError('FORBIDDEN');
    if (access === 'owner' && role !== 'owner') throw new AppError('FORBIDDEN');
    if (access !== 'client' && access !== 'privileged' && access !== 'owner') throw new AppError('FORBIDDEN');
    if (requireActive && !isActive(auth.user)) throw new AppError('ACCOUNT_NOT_ACTIVE');
  });
}

/** The signed-in user of a route whose access is not public. */
export function authOf(request: { auth: AuthContext | null }): AuthContext {
  if (!request.auth) throw new AppError('UNAUTHORIZED');
  return request.auth;
}
