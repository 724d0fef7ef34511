// Account API keys (issue 34): what a person names and chooses when making one, and what the list
// shows. The secret is in the answer to POST once and nowhere else.
import { z } from 'zod';

export const API_KEY_SCOPES = ['read', 'write'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export const API_KEY_NAME_MAX_LENGTH = 60;
/** Live (not revoked) keys an account may hold at once. */
export const API_KEYS_PER_ACCOUNT = 20;
/** Every key starts so: it tells a key from a sign-in token in the Authorization header. */
export const API_KEY_MARK = 'lr_';
/** `lr_` + 8 letters and digits (shown to tell keys apart) + `_` + the secret, 32 bytes base64url. */
export const API_KEY_PATTERN = /^lr_([A-Za-z0-9]{8})_([A-Za-z0-9_-]{43})$/;

/** 1–60 printable characters, trimmed (no control, format or line-separator characters). */
export const ZApiKeyName = z
  .string({ error: (i) => (i.input === undefined || i.input === null ? 'REQUIRED' : 'INVALID_TYPE') })
  .trim()
  .min(1, { error: 'REQUIRED' })
  .max(API_KEY_NAME_MAX_LENGTH, { error: `MAX_LENGTH_${API_KEY_NAME_MAX_LENGTH}` })
  .regex(/^[^\p{C}\u2028\u2029]+$/u, { error: 'INVALID_CHARACTERS' });

export const ZApiKeyScope = z.enum(API_KEY_SCOPES, {
  error: (i) => (i.input === undefined || i.input === null ? 'REQUIRED' : 'VALIDATION_ERROR'),
});

export const ZCreateApiKeyBody = z.object({ name: ZApiKeyName, scope: ZApiKeyScope }).strict();
export type CreateApiKeyBody = z.infer<typeof ZCreateApiKeyBody>;

export const ZApiKey = z.object({
  id: z.string(),
  name: z.string(),
  scope: ZApiKeyScope,
  /** `lr_XXXXXXXX`: the start of the key, to tell keys apart; never the secret. */
  prefix: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type ApiKey = z.infer<typeof ZApiKey>;

export const ZApiKeyList = z.object({ data: z.array(ZApiKey), total: z.number(), max: z.number() });
export type ApiKeyList = z.infer<typeof ZApiKeyList>;

/** The answer to POST: the key in full, shown this once. */
export const ZCreatedApiKey = ZApiKey.extend({ key: z.string() });
export type CreatedApiKey = z.infer<typeof ZCreatedApiKey>;
