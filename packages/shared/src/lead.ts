import { z } from 'zod';

/** A normalised lead (architecture: "Lead"): what every destination receives. */
export const ZLead = z.object({
  name: z.string().optional(),
  /** E.164, e.g. +380501234567. */
  phone: z.string().optional(),
  email: z.string().optional(),
  comment: z.string().optional(),
  utm: z
    .object({
      source: z.string().optional(),
      medium: z.string().optional(),
      campaign: z.string().optional(),
      content: z.string().optional(),
      term: z.string().optional(),
    })
    .optional(),
  /** Everything else the mapping produced, by lead-field key. */
  custom: z.record(z.string(), z.string()).default({}),
});
export type Lead = z.infer<typeof ZLead>;

/** The responsible user picked from the integration's distribution collection. */
export const ZAssignee = z.object({
  id: z.string(),
  name: z.string().optional(),
  /** The collection item (the manager) it came from: escalation passes the lead on from it. */
  itemId: z.string().optional(),
});
export type Assignee = z.infer<typeof ZAssignee>;

/** Source kinds own destinations; destination kinds receive leads. */
export const SOURCE_TYPES = ['facebook', 'webhook', 'parser', 'horoshop', 'googleads', 'promua', 'tiktok'] as const;
export const DESTINATION_TYPES = [
  'amocrm',
  'pipedrive',
  'uspacy',
  'bitrix24',
  'keycrm',
  'alfasms',
  'ga',
  'googlesheets',
  'sendpulse',
  'http',
  'telegram',
] as const;
export const INTEGRATION_TYPES = [...SOURCE_TYPES, ...DESTINATION_TYPES] as const;
export type IntegrationType = (typeof INTEGRATION_TYPES)[number];
