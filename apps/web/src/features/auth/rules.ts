// The auth forms' shared schemas, in a chunk of their own: zod is 25 KB gzipped, and /signin shows
// without it (issue 17 part 8). A field is checked on blur or submit, after the chunk has arrived
// (loadAuthRules starts it as the form mounts).
import { email, ZLoginBody } from '@leadrelay/shared';

export const authRules = { login: email(), password: ZLoginBody.shape.password, ZLoginBody };

export type AuthRules = typeof authRules;
