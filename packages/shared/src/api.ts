// Request and response bodies of spec section 7 "Auth" and "Account".
import { z } from 'zod';
import { ZLocale } from './user';
import { email, maxText, password, requiredText, withPasswordConfirm } from './validation';
import { ZTimeZone } from './working-hours';

export const ZCreateAccountBody = withPasswordConfirm(
  z.object({
    login: email(),
    password: password(),
    passwordConfirm: z.string({ error: (i) => (i.input === undefined ? 'REQUIRED' : 'INVALID_TYPE') }),
    lang: ZLocale.optional(),
    promo: maxText(64).optional(),
  }),
);
export type CreateAccountBody = z.infer<typeof ZCreateAccountBody>;

export const ZLoginBody = z.object({ login: email(), password: requiredText().pipe(maxText(128)) });
export type LoginBody = z.infer<typeof ZLoginBody>;

export const ZTokenBody = z.object({ token: requiredText().pipe(maxText(256)) });
/** POST /api/auth/enter: the one-time code of an /enter link. */
export const ZEnterBody = z.object({ code: requiredText().pipe(maxText(256)) });
export const ZLoginOnlyBody = z.object({ login: email(), lang: ZLocale.optional() });

export const ZConfirmPasswordBody = withPasswordConfirm(
  z.object({
    token: requiredText().pipe(maxText(256)),
    password: password(),
    passwordConfirm: z.string({ error: (i) => (i.input === undefined ? 'REQUIRED' : 'INVALID_TYPE') }),
  }),
);

export const ZUpdatePasswordBody = withPasswordConfirm(
  z.object({
    oldPassword: requiredText().pipe(maxText(128)),
    password: password(),
    passwordConfirm: z.string({ error: (i) => (i.input === undefined ? 'REQUIRED' : 'INVALID_TYPE') }),
  }),
);

/** Destructive account actions ask for the password again. */
export const ZPasswordBody = z.object({ password: requiredText().pipe(maxText(128)) });

export const ZAccountPatchBody = z
  .object({
    name: maxText(100).optional(),
    phone: maxText(32).optional(),
    company: maxText(100).optional(),
    lang: ZLocale.optional(),
    /** The account's IANA time zone: the day boundary of its charts and reports. */
    timeZone: ZTimeZone.optional(),
  })
  .strict();
export type AccountPatchBody = z.infer<typeof ZAccountPatchBody>;

export const ZAccessTokenResponse = z.object({ accessToken: z.string() });
/** confirm-email: signed in (the browser that signed up), or only confirmed (any other browser). */
export const ZConfirmEmailResponse = z.union([
  ZAccessTokenResponse,
  z.object({ confirmed: z.literal(true), login: z.string() }),
]);
export type ConfirmEmailResponse = z.infer<typeof ZConfirmEmailResponse>;
export const ZSuccessResponse = z.object({ success: z.literal(true) });
export const ZResetTokenResponse = z.object({ valid: z.literal(true), login: z.string() });

export const ZSession = z.object({
  id: z.string(),
  isRevoked: z.boolean(),
  isCurrent: z.boolean(),
  createdAt: z.string(),
  lastUsedAt: z.string(),
  userAgent: z.string(),
  ip: z.string(),
});
export type Session = z.infer<typeof ZSession>;
export const ZSessionList = z.object({ data: z.array(ZSession), total: z.number() });

/** Access token payload (spec section 3: login and exp; plus subject and role). */
export const ZAccessTokenPayload = z.object({
  sub: z.string(),
  login: z.string(),
  role: z.string(),
  sid: z.string(),
  exp: z.number(),
  /** On a session a staff member opened to enter this account: their login (the web's banner). */
  imp: z.string().optional(),
});
export type AccessTokenPayload = z.infer<typeof ZAccessTokenPayload>;
