// Sign-in with Facebook in the Graph emulator: the user token the JS SDK's FB.login hands a page
// (of our app, or of another app to test that the server refuses it), GET /debug_token, and the
// user node, which leaves out an e-mail Meta would not give (none confirmed, or `email` declined).
import { type Call, fail, type GraphRuntime } from './emulator-edges';
import { type EmulatedToken, type EmulatedUser, newToken } from './emulator-state';

/** What FB.login gives: a short-lived user token (about 1–2 h). */
const SDK_TOKEN_S = 5_400;
const SDK_SCOPES = ['email', 'public_profile'];

export interface UserTokenOptions {
  /** The app the token was issued to; default the emulator's app. */
  appId?: string;
  /** Granted permissions; default email and public_profile. Leave `email` out for a user who declined it. */
  scopes?: string[];
}

export function issueUserToken(rt: GraphRuntime, opts: UserTokenOptions = {}): string {
  const token = newToken();
  rt.state.tokens.set(token, {
    kind: 'user',
    expiresAt: Date.now() + SDK_TOKEN_S * 1000,
    scopes: opts.scopes ?? SDK_SCOPES,
    ...(opts.appId && opts.appId !== rt.appId ? { appId: opts.appId } : {}),
  });
  return token;
}

/** A token of another app: our appsecret_proof cannot match it. */
export const isForeignToken = (rt: GraphRuntime, token: EmulatedToken) =>
  token.appId !== undefined && token.appId !== rt.appId;

/** The user node; `email` only when confirmed and, for tokens that list their scopes, granted. */
export function userNode(user: EmulatedUser, token: EmulatedToken): Record<string, unknown> {
  const granted = token.scopes === undefined || token.scopes.includes('email');
  return {
    id: user.id,
    name: user.name,
    ...(user.email && user.isEmailVerified && granted ? { email: user.email } : {}),
  };
}

/** GET /debug_token?input_token=…, called with the app token (Meta also lets the app's developers call it). */
export function debugToken({ params, rt, method }: Call, caller: EmulatedToken): unknown {
  if (method !== 'GET') fail(100, '(#100) Unsupported request method');
  if (caller.kind !== 'app') {
    fail(
      100,
      '(#100) You must provide an app access token, or a user access token that is an owner or developer of the app',
    );
  }
  const input = params.input_token;
  if (!input) fail(100, '(#100) The parameter input_token is required');
  const token = rt.state.tokens.get(input as string);
  if (!token) {
    return { data: { error: { code: 190, message: 'Invalid OAuth access token.' }, is_valid: false, scopes: [] } };
  }
  const isExpired = token.expired === true || (token.expiresAt !== undefined && token.expiresAt < Date.now());
  return {
    data: {
      app_id: token.appId ?? rt.appId,
      type: token.kind.toUpperCase(),
      application: token.appId && token.appId !== rt.appId ? 'Another app' : 'LeadRelay',
      expires_at: token.expiresAt ? Math.floor(token.expiresAt / 1000) : 0,
      is_valid: !isExpired,
      scopes: token.scopes ?? SDK_SCOPES,
      ...(token.kind === 'user' ? { user_id: rt.state.user.id } : {}),
      ...(token.kind === 'page' ? { profile_id: token.pageId } : {}),
      ...(isExpired ? { error: { code: 190, subcode: 463, message: 'Session has expired.' } } : {}),
    },
  };
}
