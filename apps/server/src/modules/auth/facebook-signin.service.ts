// Sign-in with Facebook (spec 1, 4 "Authentication", 9): the JS SDK's user token, or the code of the
// login dialog where the SDK is blocked, becomes a session like /api/auth/login gives. The token must
// be one Facebook issued to our app (debug_token with the app token), and the account is the one whose
// login is the profile's e-mail (Facebook only shares confirmed addresses), created when missing.

import { randomBytes } from 'node:crypto';
import { facebook, GraphError, graphClient } from '@leadrelay/connectors';
import {
  FACEBOOK_SIGNIN_SCOPES,
  type FacebookSigninBody,
  type FacebookSigninConfig,
  type Locale,
  ownValue,
  SOCIAL_SDK_VERSION,
} from '@leadrelay/shared';
import { z } from 'zod';
import type { AppConfig, Deps } from '../../config';
import type { UserRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { connectorConfig, hostList } from '../../lib/connector-config';
import { defineSettings, optionalText } from '../../lib/env-settings';
import { hashPassword } from '../../lib/password-hash';
import { referrerOf } from '../referrals';
import { dateAfterDays, findLiveUserByLogin, insertUser, updateUser } from '../users';
import type { SignedIn } from './auth.service';
import { retireEmailTokens } from './email-tokens.service';
import { type ClientInfo, createSession } from './sessions.service';
import { beginAttempt } from './throttle.service';

export interface FacebookSigninDeps extends Deps {
  /** The SSRF-safe fetch Graph calls go through (one per app). */
  graphFetch: typeof fetch;
}

/** Where the page is served from: the JS SDK's app id can differ per host (spec 9). */
export interface RequestHost {
  /** With the port, as the Host header has it. */
  host: string;
  hostname: string;
}

const GRAPH_TIMEOUT_MS = 15_000;
const ZEmail = z.email();

/**
 * Sign-in's own setting: the JS SDK's app id per host the page is served from (spec 9: another app id
 * on one production host), `host=appId,...`. The auth module declares it (lib/env-settings.ts).
 */
export const signinEnvSettings = defineSettings({
  keys: { FACEBOOK_APP_IDS_BY_HOST: optionalText },
  read: (e) => ({
    signinAppIdsByHost: Object.fromEntries(
      hostList(e.FACEBOOK_APP_IDS_BY_HOST ?? '')
        .map((pair) => pair.split('='))
        .filter((kv): kv is [string, string] => kv.length === 2 && !!kv[0] && !!kv[1]),
    ) as Readonly<Record<string, string>>,
  }),
});

/** The Facebook app as sign-in reads it. */
export interface FacebookConfig {
  /** Unset: signing in with Facebook answers OAUTH_NOT_CONFIGURED (the button is hidden). */
  appId?: string;
  appSecret?: string;
  /** e.g. https://graph.facebook.com/v27.0 (no trailing slash). */
  graphUrl: string;
  /** e.g. https://www.facebook.com/v27.0/dialog/oauth. */
  dialogUrl: string;
  /** The JS SDK's app id per host the page is served from. */
  appIdsByHost: Readonly<Record<string, string>>;
}

/**
 * The Facebook app's settings as the Facebook connector declares them (FACEBOOK_APP_ID,
 * FACEBOOK_APP_SECRET, FACEBOOK_GRAPH_URL, FACEBOOK_DIALOG_URL, with the defaults it declares), the
 * same the lead forms' login reads, and the JS SDK's app ids per host, which only sign-in has.
 */
export function signinSettings(config: Pick<AppConfig, 'crm' | 'signinAppIdsByHost'>): FacebookConfig {
  const keys = connectorConfig(config.crm, facebook);
  const text = (key: string) => {
    const v = keys[key];
    return typeof v === 'string' && v ? v : undefined;
  };
  // The connector's declared production value (its `config` defaults).
  const declared = (key: string) => facebook.config?.[key]?.default ?? '';
  return {
    appId: text('FACEBOOK_APP_ID'),
    appSecret: text('FACEBOOK_APP_SECRET'),
    graphUrl: text('FACEBOOK_GRAPH_URL') ?? declared('FACEBOOK_GRAPH_URL'),
    dialogUrl: text('FACEBOOK_DIALOG_URL') ?? declared('FACEBOOK_DIALOG_URL'),
    appIdsByHost: config.signinAppIdsByHost,
  };
}

const isConfigured = (fb: FacebookConfig): fb is FacebookConfig & { appId: string; appSecret: string } =>
  Boolean(fb.appId && fb.appSecret);

/** The app id the JS SDK uses on this host: the host's own, else the configured one. */
function sdkAppId(fb: FacebookConfig & { appId: string }, at: RequestHost): string {
  // The Host header is the caller's: `constructor` is not a host the operator listed.
  const of = (host: string) => {
    const id = ownValue(fb.appIdsByHost, host.toLowerCase());
    return typeof id === 'string' ? id : undefined;
  };
  return of(at.host) ?? of(at.hostname) ?? fb.appId;
}

export function facebookSigninConfig(fb: FacebookConfig, at: RequestHost): FacebookSigninConfig {
  if (!isConfigured(fb)) return { appId: null, version: SOCIAL_SDK_VERSION, dialogUrl: null, sdk: false };
  // The redirect flow's code is exchanged with the configured app's secret, so the dialog names that app.
  const dialog = new URL(fb.dialogUrl);
  dialog.searchParams.set('client_id', fb.appId);
  dialog.searchParams.set('scope', FACEBOOK_SIGNIN_SCOPES);
  dialog.searchParams.set('response_type', 'code');
  // Facebook's SDK knows only Facebook's apps: against an emulator the page signs in by the dialog alone.
  const isFacebook = dialog.hostname === 'facebook.com' || dialog.hostname.endsWith('.facebook.com');
  return { appId: sdkAppId(fb, at), version: SOCIAL_SDK_VERSION, dialogUrl: dialog.toString(), sdk: isFacebook };
}

export async function signInWithFacebook(
  deps: FacebookSigninDeps,
  body: FacebookSigninBody,
  client: ClientInfo,
  at: RequestHost,
  lang: Locale,
  /** The referral code of the promo cookie, if the person came through a referral link. */
  promo?: string,
): Promise<SignedIn> {
  const fb = signinSettings(deps.config);
  if (!isConfigured(fb)) throw new AppError('OAUTH_NOT_CONFIGURED');
  // Refused tokens count against the address (there is no login to count them under).
  const attempt = await beginAttempt(deps.db, deps.config.throttle, { ip: client.ip });

  const refuse = async (): Promise<never> => {
    await attempt.failed();
    throw new AppError('OAUTH_EXCHANGE_FAILED');
  };
  const graph = graphClient({
    graphUrl: fb.graphUrl,
    dialogUrl: fb.dialogUrl,
    appId: fb.appId,
    appSecret: fb.appSecret,
    fetch: deps.graphFetch,
    timeoutMs: GRAPH_TIMEOUT_MS,
  });

  let profile: { id: string; email?: string };
  try {
    let token: string;
    let isOwnApp = true;
    let tokenUserId: string | null = null;
    if ('code' in body) {
      token = (await graph.exchangeCode(body.code, body.redirectUri)).accessToken;
    } else {
      token = body.accessToken;
      // A token another app obtained for the user must not open their account here.
      const info = await graph.debugToken(token);
      const ours = new Set([fb.appId, sdkAppId(fb, at)]);
      if (!info.isValid || !info.appId || !ours.has(info.appId)) return await refuse();
      isOwnApp = info.appId === fb.appId;
      tokenUserId = info.userId;
    }
    profile = await graph.me(token, { proof: isOwnApp });
    if (tokenUserId && tokenUserId !== profile.id) return await refuse();
  } catch (error) {
    if (!(error instanceof GraphError)) throw error;
    if (error.isTransient || error.isThrottled) {
      await attempt.passed();
      deps.log.warn({ code: error.code, httpStatus: error.httpStatus }, 'facebook sign-in: Graph API unavailable');
      throw new AppError('CONNECTION_FAILED', { message: 'Facebook is not answering; try again in a minute' });
    }
    return await refuse();
  }

  // Facebook vouched for this person: no failed guess.
  await attempt.passed();
  const email = profile.email?.trim().toLowerCase();
  if (!email || !ZEmail.safeParse(email).success) throw new AppError('FACEBOOK_EMAIL_REQUIRED');
  const user = await accountFor(deps, email, lang, promo);
  const { session, refreshToken } = await createSession(deps.db, user.id, client);
  return { user, sessionId: session.id, refreshToken };
}

/** A password nobody knows; the owner sets one through "forgot password" if they want it. */
const unknownPassword = () => hashPassword(randomBytes(24).toString('base64url'));

/**
 * The account with this login. Facebook confirmed the address, so a new account starts confirmed,
 * and an unconfirmed one becomes confirmed with a fresh unknown password: whoever signed up with
 * someone else's address keeps no password to it (as create-account does for a repeated sign-up).
 */
async function accountFor(deps: Deps, login: string, lang: Locale, promo?: string): Promise<UserRow> {
  const existing = await findLiveUserByLogin(deps.db, login);
  if (existing?.emailConfirmedAt) return existing;
  const passwordHash = await unknownPassword();
  try {
    return await deps.db.transaction(async (tx) => {
      if (existing) {
        await retireEmailTokens(tx, existing.id, 'confirm');
        return updateUser(tx, existing.id, { passwordHash, emailConfirmedAt: new Date() });
      }
      return insertUser(tx, {
        login,
        passwordHash,
        lang,
        role: 'client',
        expDate: dateAfterDays(deps.config.demoDays),
        emailConfirmedAt: new Date(),
        referredBy: await referrerOf(tx, promo),
      });
    });
  } catch (error) {
    // Two sign-ins of a new profile at once: the other one created the account.
    const raced = await findLiveUserByLogin(deps.db, login);
    if (raced?.emailConfirmedAt) return raced;
    throw error;
  }
}
