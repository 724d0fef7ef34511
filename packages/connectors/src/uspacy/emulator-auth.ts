// The Uspacy emulator's auth service: POST /auth/v1/auth/sign_in/ (e-mail, password, two-factor
// code) and POST /auth/v1/auth/refresh_token/ (the refresh token as the bearer; each refresh token
// works once), both answering {jwt, refreshToken, expiresInSeconds}. The JWT is a real HS256 token
// whose payload names the user and the portal's `domain`, as the SDK reads it.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { SignJWT } from 'jose';
import type { UspacyRuntime } from './emulator-state';
import { USPACY_SEED } from './emulator-state';

const signingKey = randomBytes(32);

export async function mintTokens(rt: UspacyRuntime, userId = 1) {
  const user = USPACY_SEED.users.find((u) => u.id === userId) ?? USPACY_SEED.users[0]!;
  const now = Math.floor(Date.now() / 1000);
  const jwt = await new SignJWT({
    id: user.id,
    authUserId: 1000 + user.id,
    email: user.email[0]?.value,
    firstName: user.firstName,
    lastName: user.lastName,
    workspaceId: 'demo',
    domain: rt.domain(),
    roles: user.id === 1 ? ['OWNER'] : ['USER'],
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(now)
    .setExpirationTime(now + rt.ttlSeconds)
    .setJti(randomBytes(8).toString('hex'))
    .sign(signingKey);
  const refreshToken = `rt-${randomBytes(24).toString('hex')}`;
  rt.accessTokens.set(jwt, { userId: user.id, expiresAt: Date.now() + rt.ttlSeconds * 1000 });
  rt.refreshTokens.set(refreshToken, user.id);
  return { jwt, refreshToken, expiresInSeconds: rt.ttlSeconds };
}

const unauthenticated = { message: 'Unauthenticated.' };

export function registerAuthRoutes(app: FastifyInstance, rt: UspacyRuntime): void {
  for (const path of ['/auth/v1/auth/sign_in', '/auth/v1/auth/sign_in/']) {
    app.post(path, async (req, reply) => {
      const body = (req.body ?? {}) as { email?: unknown; password?: unknown; code?: unknown };
      if (typeof body.email !== 'string' || typeof body.password !== 'string') {
        return reply.code(422).send({
          message: 'The given data was invalid.',
          errors: {
            ...(typeof body.email === 'string' ? {} : { email: ['The email field is required.'] }),
            ...(typeof body.password === 'string' ? {} : { password: ['The password field is required.'] }),
          },
        });
      }
      const { account } = rt;
      if (body.email.trim().toLowerCase() !== account.email.toLowerCase() || body.password !== account.password) {
        return reply.code(401).send({ status: false, message: 'Invalid email or password' });
      }
      if (account.twoFactorCode && body.code !== account.twoFactorCode) {
        return reply.code(401).send({ status: false, message: 'Invalid two-factor authentication code' });
      }
      rt.signIns += 1;
      return mintTokens(rt, 1);
    });
  }
  for (const path of ['/auth/v1/auth/refresh_token', '/auth/v1/auth/refresh_token/']) {
    app.post(path, async (req, reply) => {
      const bearer = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
      const userId = bearer ? rt.refreshTokens.get(bearer) : undefined;
      if (!bearer || userId === undefined) return reply.code(401).send(unauthenticated);
      rt.refreshTokens.delete(bearer);
      rt.refreshes += 1;
      return mintTokens(rt, userId);
    });
  }
}
