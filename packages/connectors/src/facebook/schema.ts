// Meta lead forms (spec 7 "Social-network lead forms", 3 "Social-network connection, account,
// page", 4 subscription states). A connection is one Facebook profile signed in with Facebook
// Login; the spec's "account" is that profile and its pages are the pages it manages.
import { z } from 'zod';

const ZId = z.uuid({ error: (i) => (i.input === undefined ? 'REQUIRED' : 'VALIDATION_ERROR') });
/** A Graph object id (page, form, user): digits in production; letters, "_" and "-" in emulators. */
export const ZGraphId = z
  .string({ error: (i) => (i.input === undefined ? 'REQUIRED' : 'INVALID_TYPE') })
  .regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'VALIDATION_ERROR' });

export const FB_CONNECTION_STATUSES = ['ok', 'broken'] as const;

/** Settings of an integration of type facebook: which connection, page and form it takes leads from. */
export const ZFacebookSettings = z.object({ fbConnectionId: ZId, fbPageId: ZGraphId, fbFormId: ZGraphId }).strict();
export type FacebookSettings = z.infer<typeof ZFacebookSettings>;

export const ZFbPage = z.object({
  id: z.string(),
  name: z.string(),
  category: z.string().nullable(),
  isSubscribed: z.boolean(),
});
export type FbPage = z.infer<typeof ZFbPage>;

export const ZFbConnection = z.object({
  _id: z.string(),
  fbUserId: z.string(),
  name: z.string(),
  email: z.string().optional(),
  status: z.enum(FB_CONNECTION_STATUSES),
  statusReason: z.string().nullable(),
  /** When the long-lived user token expires (ISO); null when Facebook gave no expiry. */
  expiresAt: z.string().nullable(),
  createdAt: z.string(),
  pages: z.array(ZFbPage),
});
export type FbConnection = z.infer<typeof ZFbConnection>;

/** The spec's "account": the connected Facebook profile (id = its Facebook user id) and its pages. */
export const ZFbAccount = z.object({ id: z.string(), name: z.string(), pages: z.array(ZFbPage) });
export type FbAccount = z.infer<typeof ZFbAccount>;

export const ZFbQuestion = z.object({ key: z.string(), label: z.string(), type: z.string() });
export const ZFbLeadForm = z.object({
  id: z.string(),
  name: z.string(),
  status: z.string(),
  locale: z.string().nullable(),
  questions: z.array(ZFbQuestion),
});
export type FbLeadForm = z.infer<typeof ZFbLeadForm>;

/** One page's state (spec: "account state has isSubscribed and leadForms"). */
export const ZFbAccountState = z.object({
  id: z.string(),
  name: z.string(),
  isSubscribed: z.boolean(),
  leadForms: z.array(ZFbLeadForm),
});
export type FbAccountState = z.infer<typeof ZFbAccountState>;

/** `locale`: the language the user started in; the return from Facebook lands on that language's screen. */
export const ZFbStartBody = z.object({ locale: z.enum(['uk', 'en']).optional() });

export const ZFbPictureQuery = z.object({ accountId: ZGraphId });
export const ZFbPicture = z.object({ url: z.string().nullable() });

export const ZFbAccountsQuery = z.object({ refresh: z.enum(['0', '1', 'true', 'false']).optional() });

/** A code the JS SDK got; redirectUri is the one it used (the SDK's is empty). */
export const ZFbAccessTokenQuery = z.object({
  code: z.string().min(1).max(2000),
  redirectUri: z.string().max(2000).optional(),
});
export const ZFbConnectionRef = z.object({ connectionId: ZId });
export const ZFbLeadFormBody = z.object({ connectionId: ZId, pageId: ZGraphId });
export const ZFbMigrateBody = z.object({ fbConnectionId: ZId });

/** A row of the integration form's page picker (GET .../integration/fbPageItems). */
export const ZFbPageItem = z.object({
  connectionId: z.string(),
  connectionName: z.string(),
  pageId: z.string(),
  pageName: z.string(),
  isSubscribed: z.boolean(),
});
export type FbPageItem = z.infer<typeof ZFbPageItem>;

/** POST /api/facebook/integration/{id}/test-lead: answers to the form's questions (default: the form's samples). */
export const ZFbTestLeadBody = z.object({
  fieldData: z
    .array(z.object({ name: z.string().min(1).max(100), values: z.array(z.string().max(1000)).max(20) }))
    .max(100)
    .optional(),
});
