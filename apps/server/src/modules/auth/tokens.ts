import { createHash, randomBytes } from 'node:crypto';
import { ACCESS_TOKEN_TTL_SECONDS, type AccessTokenPayload, ZAccessTokenPayload } from '@leadrelay/shared';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';

export const randomToken = (): string => randomBytes(32).toString('base64url');
export const sha256 = (value: string): string => createHash('sha256').update(value).digest('base64url');

const keyOf = (secret: string) => new TextEncoder().encode(secret);

export async function signAccessToken(
  secret: string,
  user: { id: string; login: string; role: string },
  sessionId: string,
): Promise<string> {
  return new SignJWT({ login: user.login, role: user.role, sid: sessionId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(user.id)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ACCESS_TOKEN_TTL_SECONDS)
    .sign(keyOf(secret));
}

/**
 * The token of a session a staff member opened in an account: valid as long as that session, and
 * names them (`imp`) so the web shows whose account this is. The server trusts the session row.
 */
export async function signImpersonationToken(
  secret: string,
  user: { id: string; login: string; role: string },
  sessionId: string,
  impersonatorLogin: string,
  expiresAt: Date,
): Promise<string> {
  return new SignJWT({ login: user.login, role: user.role, sid: sessionId, imp: impersonatorLogin })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(user.id)
    .setIssuedAt()
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(keyOf(secret));
}

/**
 * Verifies an HS256 access token; null when it is malformed, forged, of another algorithm or
 * expired. `graceSeconds` lets logout accept an expired token whose signature is good.
 */
export async function verifyAccessToken(
  secret: string,
  token: string,
  graceSeconds = 0,
): Promise<AccessTokenPayload | null> {
  try {
    const { payload } = await jwtVerify(token, keyOf(secret), { algorithms: ['HS256'], clockTolerance: graceSeconds });
    const parsed = ZAccessTokenPayload.safeParse(payload);
    return parsed.success ? parsed.data : null;
  } catch (error) {
    if (error instanceof joseErrors.JOSEError || error instanceof TypeError) return null;
    throw error;
  }
}
