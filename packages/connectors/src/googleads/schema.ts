// Google Ads lead form webhooks (docs/connectors/googleads.md): what we keep and what the screen reads.
// Google POSTs each lead as JSON to the address pasted into the lead form, with the key pasted beside
// it in the body (`google_key`); we keep only that key (sealed) as the integration's credentials.
import { z } from 'zod';

/** The key Google sends in every lead (`google_key`); ours is 32 random bytes, base64url. */
export const ZGoogleAdsAuth = z.object({ key: z.string().min(16).max(200) });
export type GoogleAdsAuth = z.infer<typeof ZGoogleAdsAuth>;

/** Nothing to choose: the form, campaign and the rest come with each lead. */
export const ZGoogleAdsSettings = z.object({}).passthrough();
export type GoogleAdsSettings = z.infer<typeof ZGoogleAdsSettings>;

/** POST …/connect (and …/googleads/key): makes a new key; the old one stops working at once. */
export const ZGoogleAdsKeyBody = z.object({}).strict().nullish();

export const ZGoogleAdsLeadRow = z.object({
  leadId: z.string(),
  name: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  /** "true" for Google's "Send test data". */
  test: z.boolean(),
  timesSeen: z.number().int(),
  hookId: z.string().nullable(),
  status: z.string().nullable(),
  receivedAt: z.string(),
});

/** GET /api/integrations/{id}/source (and …/googleads): the address and key to paste, the last leads. */
export const ZGoogleAdsState = z.object({
  /** The webhook address for Google Ads; null before the first key is made. */
  webhookUrl: z.string().nullable(),
  /** The key for Google Ads; null before the first key is made. */
  key: z.string().nullable(),
  leads: z.array(ZGoogleAdsLeadRow),
});
export type GoogleAdsState = z.infer<typeof ZGoogleAdsState>;
