// TikTok lead forms (Instant Forms) as a source whose integrations share the account's TikTok
// connection: one TikTok for Business login (a long-term advertiser token) reaching the ad accounts
// that authorised our app; each integration takes the leads of one Instant Form of one ad account.
import { z } from 'zod';

const ZId = z.uuid({ error: (i) => (i.input === undefined ? 'REQUIRED' : 'VALIDATION_ERROR') });
/** A TikTok id (advertiser, form): digits in production (19 of them); letters, "_" and "-" in emulators. */
export const ZTiktokId = z
  .string({ error: (i) => (i.input === undefined ? 'REQUIRED' : 'INVALID_TYPE') })
  .regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'VALIDATION_ERROR' });

/** Settings of an integration of type tiktok: which connection, ad account and Instant Form it takes leads from. */
export const ZTiktokSettings = z
  .object({ ttConnectionId: ZId, ttAdvertiserId: ZTiktokId, ttFormId: ZTiktokId })
  .strict();
export type TiktokSettings = z.infer<typeof ZTiktokSettings>;

export const ZTtAdvertiser = z.object({ id: z.string(), name: z.string(), isSubscribed: z.boolean() });

export const ZTtConnection = z.object({
  _id: z.string(),
  ttUserId: z.string(),
  name: z.string(),
  email: z.string().optional(),
  status: z.enum(['ok', 'broken']),
  statusReason: z.string().nullable(),
  /** TikTok's long-term token does not expire by itself: null. */
  expiresAt: z.string().nullable(),
  createdAt: z.string(),
  advertisers: z.array(ZTtAdvertiser),
});
export type TtConnection = z.infer<typeof ZTtConnection>;

export const ZTtQuestion = z.object({ key: z.string(), label: z.string(), type: z.string() });
export const ZTtForm = z.object({
  id: z.string(),
  name: z.string(),
  status: z.string(),
  questions: z.array(ZTtQuestion),
});
export type TtForm = z.infer<typeof ZTtForm>;

/** One ad account's state: our subscription to its leads and its Instant Forms. */
export const ZTtAdvertiserState = z.object({
  id: z.string(),
  name: z.string(),
  isSubscribed: z.boolean(),
  forms: z.array(ZTtForm),
});

export const ZTtItem = z.object({
  connectionId: z.string(),
  connectionName: z.string(),
  advertiserId: z.string(),
  advertiserName: z.string(),
  isSubscribed: z.boolean(),
});

export const ZTtStartBody = z.object({ locale: z.enum(['uk', 'en']).optional() });
export const ZTtRefreshQuery = z.object({ refresh: z.enum(['0', '1', 'true', 'false']).optional() });
export const ZTtPictureQuery = z.object({ id: ZTiktokId });
export const ZTtPicture = z.object({ url: z.string().nullable() });
export const ZTtMigrateBody = z.object({ ttConnectionId: ZId });
export const ZTtTestLead = z.object({ leadId: z.string() });
/** The screen sends sample answers; TikTok's test lead has TikTok's own, so they are only checked, not used. */
export const ZTtTestLeadBody = z.object({ answers: z.array(z.unknown()).max(100).optional() });
