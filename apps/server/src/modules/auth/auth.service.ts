import { type CreateAccountBody, type Locale, type LoginBody, REFRESH_TOKEN_TTL_DAYS } from '@leadrelay/shared';
import type { Deps } from '../../config';
import type { UserRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { confirmEmailMail, type MailContext, resetPasswordMail } from '../../lib/mail/templates';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../../lib/password-hash';
import { referrerOf } from '../referrals';
import { dateAfterDays, findLiveUserById, findLiveUserByLogin, insertUser, updateUser } from '../users';
import {
  canIssueEmailToken,
  createEmailToken,
  findValidEmailToken,
  retireEmailTokens,
  useEmailToken,
} from './email-tokens.service';
import {
  type ClientInfo,
  createSession,
  findSession,
  parseRefreshToken,
  revokeSession,
  revokeUserSessions,
} from './sessions.service';
import { beginAttempt, clearLoginFailures } from './throttle.service';
import { sha256, verifyAccessToken } from './tokens';

export interface SignedIn {
  user: UserRow;
  sessionId: string;
  refreshToken: string;
}

const localePrefix = (lang: Locale) => (lang === 'en' ? '/en' : '');

/** Mail goes out in the account's language: the one it signed up in (its pages' language, else Ukrainian). */
const mailContext = (deps: Deps, user: UserRow): MailContext => ({ lang: user.lang, publicUrl: deps.config.publicUrl });

function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

async function sendConfirmation(deps: Deps, user: UserRow, token: string): Promise<void> {
  const link = `${deps.config.publicUrl}${localePrefix(user.lang)}/confirm?token=${encodeURIComponent(token)}`;
  await deps.mailer.send({ to: user.login, ...(await confirmEmailMail(mailContext(deps, user), link)) });
}

/**
 * A confirmed login answers LOGIN_TAKEN. An unconfirmed one is signed up again: the newest
 * password wins and a fresh link goes out, so whoever signed up first with someone else's
 * address cannot keep a password to it once the owner confirms.
 */
export async function createAccount(
  deps: Deps,
  body: CreateAccountBody,
  lang: Locale,
  browserHash: string,
): Promise<void> {
  const existing = await findLiveUserByLogin(deps.db, body.login);
  if (existing?.emailConfirmedAt) throw new AppError('LOGIN_TAKEN');
  // Past the hourly mail limit a repeated sign-up changes nothing and answers the same.
  if (existing && !(await canIssueEmailToken(deps.db, existing.id, 'confirm'))) return;
  const passwordHash = await hashPassword(body.password);
  let result: { user: UserRow; token: string };
  try {
    result = await deps.db.transaction(async (tx) => {
      const user = existing
        ? await updateUser(tx, existing.id, { passwordHash, lang })
        : await insertUser(tx, {
            login: body.login,
            passwordHash,
            lang,
            role: 'client',
            expDate: dateAfterDays(deps.config.demoDays),
            referredBy: await referrerOf(tx, body.promo),
          });
      if (existing) await retireEmailTokens(tx, user.id, 'confirm');
      return { user, token: await createEmailToken(tx, user.id, 'confirm', browserHash) };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('LOGIN_TAKEN');
    throw error;
  }
  await sendConfirmation(deps, result.user, result.token);
}

/** Signed in: the link was opened in the browser that asked for it. Else only confirmed. */
export type EmailConfirmed = { signedIn: SignedIn } | { signedIn: null; login: string };

/**
 * Confirms the address in any browser (a link opened on another device still works), but signs
 * in only the browser whose binding cookie hash the link's row keeps: opened anywhere else, a
 * link cannot sign that browser into an account someone else controls (login CSRF, ADR 001).
 */
export async function confirmEmail(
  deps: Deps,
  token: string,
  client: ClientInfo,
  browserHash: string | undefined,
): Promise<EmailConfirmed> {
  return deps.db.transaction(async (tx) => {
    const row = await findValidEmailToken(tx, token, 'confirm');
    const user = row && (await findLiveUserById(tx, row.userId));
    if (!row || !user || !(await useEmailToken(tx, row.id))) throw new AppError('TOKEN_INVALID');
    const confirmed = user.emailConfirmedAt ? user : await updateUser(tx, user.id, { emailConfirmedAt: new Date() });
    if (!browserHash || row.browserHash !== browserHash) return { signedIn: null, login: confirmed.login };
    const { session, refreshToken } = await createSession(tx, user.id, client);
    return { signedIn: { user: confirmed, sessionId: session.id, refreshToken } };
  });
}

/** Always succeeds, so the answer never tells whether the login exists (nor a hit mail limit). */
export async function resendConfirmation(deps: Deps, login: string, browserHash: string): Promise<void> {
  const user = await findLiveUserByLogin(deps.db, login);
  if (!user || user.emailConfirmedAt || !(await canIssueEmailToken(deps.db, user.id, 'confirm'))) return;
  const token = await createEmailToken(deps.db, user.id, 'confirm', browserHash);
  await sendConfirmation(deps, user, token);
}

export async function login(deps: Deps, body: LoginBody, client: ClientInfo): Promise<SignedIn> {
  const attempt = await beginAttempt(deps.db, deps.config.throttle, { login: body.login, ip: client.ip });
  const user = await findLiveUserByLogin(deps.db, body.login);
  // Unknown logins still pay for one hash and count as failures, so neither timing nor the
  // throttle tells them apart.
  const matches = await verifyPassword(body.password, user?.passwordHash ?? (await dummyPasswordHash()));
  if (!user || !matches) {
    await attempt.failed();
    throw new AppError('INVALID_CREDENTIALS');
  }
  await attempt.passed();
  if (!user.emailConfirmedAt) throw new AppError('EMAIL_NOT_CONFIRMED');
  const { session, refreshToken } = await createSession(deps.db, user.id, client);
  return { user, sessionId: session.id, refreshToken };
}

/** Always succeeds; the reset link is mailed only when the account exists. */
export async function forgotPassword(deps: Deps, login: string): Promise<void> {
  const user = await findLiveUserByLogin(deps.db, login);
  if (!user || !(await canIssueEmailToken(deps.db, user.id, 'reset'))) return;
  const token = await createEmailToken(deps.db, user.id, 'reset');
  const link = `${deps.config.publicUrl}${localePrefix(user.lang)}/password/${encodeURIComponent(token)}`;
  await deps.mailer.send({ to: user.login, ...(await resetPasswordMail(mailContext(deps, user), link)) });
}

export async function checkResetToken(deps: Deps, token: string): Promise<{ valid: true; login: string }> {
  const row = await findValidEmailToken(deps.db, token, 'reset');
  const user = row && (await findLiveUserById(deps.db, row.userId));
  if (!user) throw new AppError('TOKEN_INVALID');
  return { valid: true, login: user.login };
}

/** Sets the new password from a reset link and signs the account out everywhere. */
export async function confirmPassword(deps: Deps, token: string, password: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  await deps.db.transaction(async (tx) => {
    const row = await findValidEmailToken(tx, token, 'reset');
    const user = row && (await findLiveUserById(tx, row.userId));
    if (!row || !user || !(await useEmailToken(tx, row.id))) throw new AppError('TOKEN_INVALID');
    // Receiving the link proves the mailbox, so the e-mail counts as confirmed.
    await updateUser(tx, user.id, { passwordHash, emailConfirmedAt: user.emailConfirmedAt ?? new Date() });
    await retireEmailTokens(tx, user.id, 'reset');
    await revokeUserSessions(tx, user.id);
    await clearLoginFailures(tx, user.login);
  });
}

/**
 * Revokes the caller's session, found from the refresh cookie or else from the access token
 * (accepted even when expired, since its signature still proves which session it was).
 */
export async function logout(deps: Deps, cookie: string | undefined, bearer: string | undefined): Promise<void> {
  let sessionId: string | undefined;
  const parsed = parseRefreshToken(cookie);
  if (parsed) {
    const session = await findSession(deps.db, parsed.sessionId);
    const hash = sha256(parsed.secret);
    if (session && (hash === session.tokenHash || hash === session.previousHash)) sessionId = session.id;
  }
  if (!sessionId && bearer) {
    const payload = await verifyAccessToken(deps.config.jwtSecret, bearer, REFRESH_TOKEN_TTL_DAYS * 86_400);
    sessionId = payload?.sid;
  }
  if (sessionId) await revokeSession(deps.db, sessionId);
}
