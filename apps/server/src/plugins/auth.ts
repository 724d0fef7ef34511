// Default deny: every route declares its access, checked before the body is read. Who a token
// belongs to and whether an account is active are the auth and users modules' answers, which
// app.ts hands over (plumbing knows no feature). An API key (issue 34) is the api-keys module's
// answer too; this plugin says where a key may go: routes of access `client` only, never one that
// says `apiKey: false` or that the module's rules keep for people, and only reading with a read key.
import { type ApiKeyScope, isPrivileged } from '@leadrelay/shared';
import type { FastifyInstance } from 'fastify';
import type { UserRow } from '../db/schema';
import { AppError } from '../lib/app-error';

export const ACCESS_LEVELS = ['public', 'client', 'privileged', 'owner'] as const;
export type Access = (typeof ACCESS_LEVELS)[number];

/** The API key a request was made with. */
export interface ApiKeyInfo {
  id: string;
  name: string;
  scope: ApiKeyScope;
}

export interface AuthContext {
  user: UserRow;
  /** The sign-in session; '' for an API key, which has none (the routes that use it are closed to keys). */
  sessionId: string;
  /** Set when the request was made with an API key: the account is the key's. */
  apiKey?: ApiKeyInfo;
}

/** What a read key may do. */
export const READ_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD']);

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route; required on every route (default deny). */
    access?: Access;
    /** The account must be active (flag set, expDate today or later). */
    requireActive?: boolean;
    /** false: an API key may not call the route (it is for a person at the screen). */
    apiKey?: boolean;
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

/** API keys, from the module that keeps them (app.ts hands them over). */
export interface ApiKeyAuth {
  /** Whether a bearer is meant as an API key (by its mark) rather than an access token. */
  isKey(bearer: string): boolean;
  /** The key's account and the key, or null: unknown, revoked, malformed, its account removed. */
  authenticate(bearer: string): Promise<{ user: UserRow; apiKey: ApiKeyInfo } | null>;
  /** Whether a key may call a `client` route with this pattern (some are for people only). */
  mayUse(route: { method: string; url: string }): boolean;
}

export interface AuthOptions {
  authenticate: Authenticate;
  apiKeys?: ApiKeyAuth;
  /** Whether the account may use routes with `requireActive` (flag set, demo or plan not over). */
  isActive(user: UserRow): boolean;
}

export function setupAuth(app: FastifyInstance, { authenticate, isActive, apiKeys }: AuthOptions): void {
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
    const { access, requireActive, apiKey: keysAllowed } = request.routeOptions.config;
    if (access === 'public') return;
    const bearer = bearerToken(request.headers.authorization);
    const auth = bearer && apiKeys?.isKey(bearer) ? await authenticateKey(apiKeys, bearer) : await authenticate(bearer);
    if (!auth) throw new AppError('UNAUTHORIZED');
    request.auth = auth;
    if (auth.apiKey) {
      const route = { method: request.method, url: request.routeOptions.url ?? '' };
      if (access !== 'client' || keysAllowed === false || !apiKeys?.mayUse(route)) {
        throw new AppError('API_KEY_NOT_ALLOWED');
      }
      if (auth.apiKey.scope !== 'write' && !READ_METHODS.has(request.method)) throw new AppError('API_KEY_SCOPE');
    }
    const { role } = auth.user;
    if (access === 'privileged' && !isPrivileged(role)) throw new AppError('FORBIDDEN');
    if (access === 'owner' && role !== 'owner') throw new AppError('FORBIDDEN');
    if (access !== 'client' && access !== 'privileged' && access !== 'owner') throw new AppError('FORBIDDEN');
    if (requireActive && !isActive(auth.user)) throw new AppError('ACCOUNT_NOT_ACTIVE');
  });
}

async function authenticateKey(apiKeys: ApiKeyAuth, bearer: string): Promise<AuthContext | null> {
  const found = await apiKeys.authenticate(bearer);
  return found ? { user: found.user, sessionId: '', apiKey: found.apiKey } : null;
}

/** The signed-in user of a route whose access is not public. */
export function authOf(request: { auth: AuthContext | null }): AuthContext {
  if (!request.auth) throw new AppError('UNAUTHORIZED');
  return request.auth;
}
