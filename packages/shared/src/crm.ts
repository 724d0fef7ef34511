// What the CRM destinations share: where a mapped value comes from in our lead, the answers of an
// OAuth start, and whether a CRM tells us of stage changes. Each CRM's own settings and route bodies
// are its folder's (packages/connectors/src/<slug>/schema.ts).
import { z } from 'zod';

/**
 * Where a mapped value comes from in our lead: name, phone, email, comment, utm.source … utm.term,
 * custom.<key> (a custom field of the lead, e.g. a Meta form question's key).
 */
export const ZLeadPath = z
  .string()
  .regex(/^(name|phone|email|comment|utm\.(source|medium|campaign|content|term)|custom\.[A-Za-z0-9_.-]{1,100})$/, {
    error: 'VALIDATION_ERROR',
  });

/** An OAuth start's answer: the consent page to open. */
export const ZOAuthUrl = z.object({ url: z.string() });
export const ZAuthUrl = z.object({ authUrl: z.string() });

// ---- Speed to lead from the CRM (issue 19): our stage-change webhook at the CRM ----

/**
 * `off`: not connected (nothing to watch); `pending`: not set up yet (the periodic task does it
 * within 15 minutes); `watching`: the CRM tells us of stage changes; `failed`: the CRM refused our
 * webhook (`reason`, a code or the CRM's answer, which the web translates), tried again at `nextTryAt`.
 */
export const CRM_WATCH_STATES = ['off', 'pending', 'watching', 'failed'] as const;
export const ZCrmWatch = z.object({
  state: z.enum(CRM_WATCH_STATES),
  since: z.string().nullable(),
  reason: z.string().nullable(),
  nextTryAt: z.string().nullable(),
  /**
   * Only for a watch the person sets up by hand at the CRM (its outgoing webhook): `address`, ours
   * with its secret, to paste there once connected (null before); `tokenSet`, whether the CRM's
   * token was pasted back (`pending` until then).
   */
  setup: z.literal('pasted').optional(),
  address: z.string().nullable().optional(),
  tokenSet: z.boolean().optional(),
});
export type CrmWatch = z.infer<typeof ZCrmWatch>;
