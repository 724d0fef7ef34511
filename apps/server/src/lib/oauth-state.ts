// The `state` of our OAuth round trips (connectors' and the social sign-in's): a short-lived HS256 JWT that
// binds the account, the integration or connection it is for, and the language the user started
// in, so the return lands on the same screen in the same language. A token minted for one flow
// (its audience) is refused by the others, and none of them is usable as an access token.
import { createHash } from 'node:crypto';
import type { Locale } from '@leadrelay/shared';
import type { FastifyReply } from 'fastify';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';

/** The providers' codes live about 20 minutes; a state no longer. */
export const OAUTH_STATE_TTL_SECONDS = 20 * 60;

export interface OAuthState {
  accountId: string;
  /** The integration the flow connects, when there is one. */
  integrationId?: string;
  locale: Locale;
}

const keyOf = (secret: string) => new TextEncoder().encode(secret);

export async function signOAuthState(secret: string, flow: string, state: OAuthState): Promise<string> {
  return new SignJWT({ iid: state.integrationId, lc: state.locale })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(state.accountId)
    .setAudience(`leadrelay:oauth-state:${flow}`)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + OAUTH_STATE_TTL_SECONDS)
    .sign(keyOf(secret));
}

/** The state's content, or null when it is missing, forged, expired or minted for another flow. */
export async function readOAuthState(
  secret: string,
  flow: string,
  token: string | undefined,
): Promise<OAuthState | null> {
  if (!token) return null;
  try {
    const { payload } = await jwtVerify(token, keyOf(secret), {
      algorithms: ['HS256'],
      audience: `leadrelay:oauth-state:${flow}`,
    });
    if (typeof payload.sub !== 'string') return null;
    if (payload.iid !== undefined && typeof payload.iid !== 'string') return null;
    return { accountId: payload.sub, integrationId: payload.iid, locale: payload.lc === 'en' ? 'en' : 'uk' };
  } catch (error) {
    if (error instanceof joseErrors.JOSEError || error instanceof TypeError) return null;
    throw error;
  }
}

/** Our screens: Ukrainian without a prefix, English under /en (spec section 2). */
export function screenUrl(publicUrl: string, locale: Locale, path: string): string {
  return `${publicUrl}${locale === 'en' ? '/en' : ''}${path}`;
}

/** What the browser that started a flow keeps of its state (a hash, so the cookie is no credential). */
export const stateBinding = (state: string) => createHash('sha256').update(state).digest('base64url');

/**
 * Binds a state to the browser that started the flow: an httpOnly cookie, sent only to the flow's
 * callback. A consent link forwarded to someone else then fails at our callback, so nobody can get
 * a victim's CRM or pages connected to their own account.
 */
export function bindStateToBrowser(
  reply: FastifyReply,
  cookie: { name: string; path: string },
  state: string,
  secure: boolean,
): void {
  reply.setCookie(cookie.name, stateBinding(state), {
    path: cookie.path,
    httpOnly: true,
    sameSite: 'lax',
    secure,
    maxAge: OAUTH_STATE_TTL_SECONDS,
  });
}

export const isBoundToBrowser = (state: string | undefined, binding: string | undefined): boolean =>
  !!state && !!binding && binding === stateBinding(state);
