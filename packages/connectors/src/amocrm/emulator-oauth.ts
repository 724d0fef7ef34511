// amoCRM's OAuth 2.0 in the emulator: a consent page that redirects straight back with a code, and
// the token endpoint (authorization_code, single-use refresh_token) in amoCRM's problem format.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AmoRuntime, AmoTokenSet } from './emulator-state';

const CODE_TTL_MS = 20 * 60_000;
const OAUTH_PROBLEM = 'https://developers.amocrm.ru/v3/errors/OAuthProblemJson';

const token = (prefix: string) => `${prefix}_${randomBytes(18).toString('base64url')}`;

/** A new token pair, valid for the runtime's TTL. */
export function mint(rt: AmoRuntime): AmoTokenSet {
  const accessToken = token('at');
  const refreshToken = token('rt');
  const expiresAt = Date.now() + rt.ttlMs;
  rt.accessTokens.set(accessToken, expiresAt);
  rt.refreshTokens.add(refreshToken);
  return { accessToken, refreshToken, expiresAt, baseUrl: rt.origin() };
}

export function registerOAuthRoutes(app: FastifyInstance, rt: AmoRuntime): void {
  app.get('/oauth', async (req, reply) => {
    const q = req.query as Record<string, string | undefined>;
    if (q.client_id !== rt.clientId) return reply.code(400).send({ error: 'unknown client_id' });
    if (!rt.redirectUri) return reply.code(400).send({ error: 'the integration has no redirect_uri' });
    const code = token('code');
    rt.codes.set(code, Date.now() + CODE_TTL_MS);
    const target = new URL(rt.redirectUri);
    target.searchParams.set('code', code);
    if (q.state !== undefined) target.searchParams.set('state', q.state);
    target.searchParams.set('referer', rt.host());
    target.searchParams.set('platform', '1');
    target.searchParams.set('client_id', rt.clientId);
    return reply.redirect(target.toString(), 302);
  });

  app.post('/oauth2/access_token', async (req, reply) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    const oauthProblem = (status: number, hint: string) => {
      const body = { hint, title: 'Authorization failed', type: OAUTH_PROBLEM, status, detail: hint };
      return reply.code(status).type('application/problem+json').send(body);
    };
    if (b.client_id !== rt.clientId || b.client_secret !== rt.clientSecret)
      return oauthProblem(401, 'Client authentication failed');
    if (rt.redirectUri && b.redirect_uri !== rt.redirectUri) return oauthProblem(400, 'Redirect URI mismatch');
    if (b.grant_type === 'authorization_code') {
      const until = rt.codes.get(String(b.code));
      rt.codes.delete(String(b.code));
      if (!until || until < Date.now()) return oauthProblem(400, 'Authorization code has expired');
    } else if (b.grant_type === 'refresh_token') {
      const refreshToken = String(b.refresh_token);
      if (!rt.refreshTokens.has(refreshToken)) return oauthProblem(400, 'Token has been revoked');
      // Single use: the old refresh token (and its access token's future) is spent.
      rt.refreshTokens.delete(refreshToken);
      rt.refreshCount += 1;
    } else {
      return oauthProblem(400, 'Unsupported grant type');
    }
    const t = mint(rt);
    return {
      token_type: 'Bearer',
      expires_in: Math.round(rt.ttlMs / 1000),
      access_token: t.accessToken,
      refresh_token: t.refreshToken,
    };
  });
}
