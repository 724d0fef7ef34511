import { createSafeFetch } from '@leadrelay/connectors';
import {
  COOKIE,
  LOCALES,
  type Locale,
  ZAccessTokenResponse,
  ZConfirmEmailResponse,
  ZConfirmPasswordBody,
  ZCreateAccountBody,
  ZEnterBody,
  ZFacebookSigninBody,
  ZFacebookSigninConfig,
  ZLoginBody,
  ZLoginOnlyBody,
  ZResetTokenResponse,
  ZSuccessResponse,
  ZTokenBody,
  ZUser,
} from '@leadrelay/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { destinationPolicy } from '../../config';
import { AppError } from '../../lib/app-error';
import { authOf, bearerToken } from '../../plugins/auth';
import { apiUser, findLiveUserById } from '../users';
import * as auth from './auth.service';
import { bindBrowser, browserHash, confirmCookieOf } from './confirm-cookie';
import { exchangeEnterCode } from './enter.service';
import { facebookSigninConfig, signInWithFacebook, signinEnvSettings, signinSettings } from './facebook-signin.service';

/** The auth module's environment settings (sign-in's own; lib/env-settings.ts). */
export const authSettings = signinEnvSettings;

import { clearRefreshCookie, setRefreshCookie } from './refresh-cookie';
import { type ClientInfo, refreshSession, revokeSession } from './sessions.service';
import { signAccessToken } from './tokens';

const tags = ['auth'];
const clientOf = (req: FastifyRequest): ClientInfo => ({ userAgent: req.headers['user-agent'] ?? '', ip: req.ip });

/** Body language, else the Lang header the web sends from its cookie, else Ukrainian. */
function langOf(req: FastifyRequest, bodyLang: Locale | undefined): Locale {
  const header = String(req.headers.lang ?? '').toLowerCase();
  return bodyLang ?? LOCALES.find((l) => l === header) ?? 'uk';
}

export async function authRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { deps } = app;

  async function signIn(reply: FastifyReply, signedIn: auth.SignedIn) {
    setRefreshCookie(reply, deps.config, signedIn.refreshToken);
    return { accessToken: await signAccessToken(deps.config.jwtSecret, signedIn.user, signedIn.sessionId) };
  }

  r.post(
    '/api/auth/create-account',
    {
      config: { access: 'public', rateLimit: 'auth' },
      schema: { tags, body: ZCreateAccountBody, response: { 201: ZSuccessResponse } },
    },
    async (req, reply) => {
      // The promo cookie (spec 2) when the page did not send it.
      const promo = req.body.promo ?? req.cookies[COOKIE.promo];
      // The link mailed signs in only this browser (confirm-cookie.ts).
      const browser = bindBrowser(req, reply, deps.config);
      await auth.createAccount(deps, { ...req.body, promo }, langOf(req, req.body.lang), browser);
      return reply.code(201).send({ success: true });
    },
  );

  r.post(
    '/api/auth/confirm-email',
    {
      config: { access: 'public', rateLimit: 'auth' },
      schema: { tags, body: ZTokenBody, response: { 200: ZConfirmEmailResponse } },
    },
    async (req, reply) => {
      const cookie = confirmCookieOf(req, deps.config);
      const result = await auth.confirmEmail(deps, req.body.token, clientOf(req), cookie && browserHash(cookie));
      // Another browser or device: confirmed, but whoever opened the link signs in with the password.
      if (!result.signedIn) return { confirmed: true as const, login: result.login };
      return signIn(reply, result.signedIn);
    },
  );

  r.post(
    '/api/auth/resend-confirmation',
    {
      config: { access: 'public', rateLimit: 'auth' },
      schema: { tags, body: ZLoginOnlyBody, response: { 200: ZSuccessResponse } },
    },
    async (req, reply) => {
      // Set whether or not a mail goes out, so the answer tells nothing about the login.
      await auth.resendConfirmation(deps, req.body.login, bindBrowser(req, reply, deps.config));
      return { success: true as const };
    },
  );

  r.post(
    '/api/auth/login',
    {
      config: { access: 'public', rateLimit: 'signin' },
      schema: { tags, body: ZLoginBody, response: { 200: ZAccessTokenResponse } },
    },
    async (req, reply) => signIn(reply, await auth.login(deps, req.body, clientOf(req))),
  );

  // Sign-in with Facebook: the JS SDK's token or the login dialog's code, answered like login.
  const facebookDeps = {
    ...deps,
    graphFetch: createSafeFetch({ ...destinationPolicy(deps.config), timeoutMs: 15_000 }),
  };
  const hostOf = (req: FastifyRequest) => ({ host: req.host, hostname: req.hostname });

  r.get(
    '/api/auth/facebook/config',
    { config: { access: 'public' }, schema: { tags, response: { 200: ZFacebookSigninConfig } } },
    async (req) => facebookSigninConfig(signinSettings(deps.config), hostOf(req)),
  );

  r.post(
    '/api/auth/facebook',
    {
      config: { access: 'public', rateLimit: 'signin' },
      schema: { tags, body: ZFacebookSigninBody, response: { 200: ZAccessTokenResponse } },
    },
    async (req, reply) =>
      signIn(
        reply,
        await signInWithFacebook(
          facebookDeps,
          req.body,
          clientOf(req),
          hostOf(req),
          langOf(req, req.body.lang),
          req.cookies[COOKIE.promo],
        ),
      ),
  );

  // The other half of "enter as a user" (GET /api/super/users/enter): public, since the caller may
  // be anyone holding a link; the code only works with the asking staff member's own session, and
  // sets no cookie (theirs stays, so "Return" is one refresh away).
  r.post(
    '/api/auth/enter',
    {
      config: { access: 'public', rateLimit: 'auth' },
      schema: { tags, body: ZEnterBody, response: { 200: ZAccessTokenResponse } },
    },
    async (req) =>
      exchangeEnterCode(deps, req.body.code, {
        refreshCookie: req.cookies[COOKIE.refresh],
        bearer: bearerToken(req.headers.authorization),
      }),
  );

  const refresh = async (req: FastifyRequest, reply: FastifyReply) => {
    const result = await refreshSession(deps.db, req.cookies[COOKIE.refresh], deps.config.refreshGraceMs);
    if (result.kind === 'rotated' || result.kind === 'grace') {
      const user = await findLiveUserById(deps.db, result.session.userId);
      if (user) {
        if (result.kind === 'rotated') setRefreshCookie(reply, deps.config, result.refreshToken);
        return { accessToken: await signAccessToken(deps.config.jwtSecret, user, result.session.id) };
      }
      await revokeSession(deps.db, result.session.id);
    }
    clearRefreshCookie(reply, deps.config);
    throw new AppError('REFRESH_INVALID');
  };
  const refreshSchema = { tags, response: { 200: ZAccessTokenResponse } };
  r.get('/api/auth/refresh', { config: { access: 'public' }, schema: refreshSchema }, refresh);
  r.get('/auth/refresh', { config: { access: 'public' }, schema: { ...refreshSchema, hide: true } }, refresh);

  r.post(
    '/api/auth/logout',
    { config: { access: 'public' }, schema: { tags, response: { 200: ZSuccessResponse } } },
    async (req, reply) => {
      await auth.logout(deps, req.cookies[COOKIE.refresh], bearerToken(req.headers.authorization));
      clearRefreshCookie(reply, deps.config);
      return { success: true as const };
    },
  );

  r.post(
    '/api/auth/forgot-password',
    {
      config: { access: 'public', rateLimit: 'auth' },
      schema: { tags, body: ZLoginOnlyBody, response: { 200: ZSuccessResponse } },
    },
    async (req) => {
      await auth.forgotPassword(deps, req.body.login);
      return { success: true as const };
    },
  );

  r.get(
    '/api/auth/forgot-password/:token',
    {
      config: { access: 'public' },
      schema: { tags, params: z.object({ token: z.string().max(256) }), response: { 200: ZResetTokenResponse } },
    },
    async (req) => auth.checkResetToken(deps, req.params.token),
  );

  r.post(
    '/api/auth/confirm-password',
    {
      config: { access: 'public', rateLimit: 'auth' },
      schema: { tags, body: ZConfirmPasswordBody, response: { 200: ZSuccessResponse } },
    },
    async (req) => {
      await auth.confirmPassword(deps, req.body.token, req.body.password);
      return { success: true as const };
    },
  );

  r.get('/api/auth/me', { config: { access: 'client' }, schema: { tags, response: { 200: ZUser } } }, async (req) =>
    apiUser(deps.db, authOf(req).user),
  );
}
