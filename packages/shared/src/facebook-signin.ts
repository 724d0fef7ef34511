// Sign-in with Facebook (spec 1, 4 "Authentication", 9 "Social login SDK"): the JS SDK hands the page a
// user access token; where the SDK is blocked the browser goes through the login dialog and brings
// back a code. Either one is exchanged at POST /api/auth/facebook for our own access token.
import { z } from 'zod';
import { SOCIAL_SDK_VERSION } from './constants';
import { ZLocale } from './user';

/** What FB.login and the dialog ask for: the e-mail is the account's login. */
export const FACEBOOK_SIGNIN_SCOPES = 'email,public_profile';

const text = (max: number) =>
  z
    .string({ error: (i) => (i.input === undefined ? 'REQUIRED' : 'INVALID_TYPE') })
    .min(1, { error: 'REQUIRED' })
    .max(max, { error: `MAX_LENGTH_${max}` });

export const ZFacebookSigninBody = z.union([
  z.object({ accessToken: text(1024), lang: ZLocale.optional() }).strict(),
  z
    .object({ code: text(2048), redirectUri: z.url({ error: 'VALIDATION_ERROR' }).max(2048), lang: ZLocale.optional() })
    .strict(),
]);
export type FacebookSigninBody = z.infer<typeof ZFacebookSigninBody>;

/** GET /api/auth/facebook/config: appId null when sign-in with Facebook is not set up (the button is hidden). */
export const ZFacebookSigninConfig = z.object({
  appId: z.string().nullable(),
  version: z.literal(SOCIAL_SDK_VERSION),
  /** The login dialog for the redirect flow (client_id, scope, response_type set; the page adds redirect_uri and state). */
  dialogUrl: z.string().nullable(),
  /** False when the dialog is not Facebook's (the Graph emulator of a demo install): the page skips the JS SDK. */
  sdk: z.boolean(),
});
export type FacebookSigninConfig = z.infer<typeof ZFacebookSigninConfig>;
