// Pipedrive's OAuth in the emulator: an authorize page that redirects straight back with a code, and
// the token endpoint (client credentials as Basic auth; authorization_code and refresh_token grants),
// whose answers name this emulator as api_domain.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { PipedriveRuntime } from './emulator-state';

/** A new token pair, valid for the runtime's TTL, in the token endpoint's field names. */
export function mint(rt: PipedriveRuntime) {
  const access_token = `emu-at-${randomBytes(16).toString('hex')}`;
  const refresh_token = `emu-rt-${randomBytes(16).toString('hex')}`;
  rt.accessTokens.set(access_token, Date.now() + rt.ttl * 1000);
  rt.refreshTokens.add(refresh_token);
  return { access_token, refresh_token };
}

export function registerOAuthRoutes(app: FastifyInstance, rt: PipedriveRuntime): void {
  app.get('/oauth/authorize', async (req, reply) => {
    const q = req.query as Record<string, string>;
    if (q.client_id !== rt.clientId || !q.redirect_uri) return reply.code(400).send({ error: 'invalid_client' });
    const code = `emu-code-${randomBytes(12).toString('hex')}`;
    rt.codes.set(code, { redirectUri: q.redirect_uri });
    const target = new URL(q.redirect_uri);
    target.searchParams.set('code', code);
    if (q.state !== undefined) target.searchParams.set('state', q.state);
    return reply.redirect(target.toString(), 302);
  });

  app.post('/oauth/token', async (req, reply) => {
    const expected = `Basic ${Buffer.from(`${rt.clientId}:${rt.clientSecret}`).toString('base64')}`;
    if (req.headers.authorization !== expected) {
      return reply.code(401).send({ error: 'invalid_client', error_description: 'Invalid client credentials' });
    }
    const form = (req.body ?? {}) as Record<string, string>;
    const grant = (error_description: string) => reply.code(400).send({ error: 'invalid_grant', error_description });
    if (form.grant_type === 'authorization_code') {
      const entry = form.code ? rt.codes.get(form.code) : undefined;
      if (!entry) return grant('Invalid authorization code');
      rt.codes.delete(form.code!);
      if (entry.redirectUri !== form.redirect_uri) return grant('redirect_uri mismatch');
    } else if (form.grant_type === 'refresh_token') {
      if (!form.refresh_token || !rt.refreshTokens.has(form.refresh_token)) return grant('Invalid refresh token');
      rt.refreshes += 1;
      // Pipedrive keeps the refresh token usable; a new access token is issued.
      const access_token = `emu-at-${randomBytes(16).toString('hex')}`;
      rt.accessTokens.set(access_token, Date.now() + rt.ttl * 1000);
      return {
        access_token,
        token_type: 'Bearer',
        refresh_token: form.refresh_token,
        scope: 'base,deals:full,contacts:full,leads:full,activities:full',
        expires_in: rt.ttl,
        api_domain: rt.origin(),
      };
    } else {
      return reply.code(400).send({ error: 'unsupported_grant_type' });
    }
    return {
      ...mint(rt),
      token_type: 'Bearer',
      scope: 'base,deals:full,contacts:full',
      expires_in: rt.ttl,
      api_domain: rt.origin(),
    };
  });
}
