// amoCRM as a destination (spec 7 "amoCRM"): the settings an integration of the type stores, and the
// bodies and answers of its own routes. The server validates with these and the web builds its forms
// from them (the manifest imports them).
import { ZLeadPath } from '@leadrelay/shared';
import { z } from 'zod';

export const AMOCRM_CONTACT_POLICIES = ['attach', 'create'] as const;

export const ZAmoFieldMapping = z.object({
  from: ZLeadPath,
  entity: z.enum(['lead', 'contact']),
  fieldId: z.number().int().positive(),
  /** select/multiselect/radiobutton: our value (case-insensitive) → the field's enum id. Values not listed are skipped. */
  enums: z.record(z.string(), z.number().int().positive()).optional(),
});
export type AmoFieldMapping = z.infer<typeof ZAmoFieldMapping>;

export const ZAmoSettings = z.object({
  /** Unset: the account's main pipeline and its first status. */
  pipelineId: z.number().int().positive().optional(),
  statusId: z.number().int().positive().optional(),
  /** attach: a contact with the same phone (then e-mail) gets the new lead; create: always a new contact. */
  contactPolicy: z.enum(AMOCRM_CONTACT_POLICIES).default('attach'),
  /** The lead's name in amoCRM; {name}, {phone}, {email}, {source} are filled in. Default "Lead: {name}". */
  leadName: z.string().max(250).optional(),
  tags: z.array(z.string().min(1).max(50)).max(20).optional(),
  fields: z.array(ZAmoFieldMapping).max(40).optional(),
  /** Add a note with the raw lead and its UTM (default on). */
  note: z.boolean().default(true),
  /** Used when the lead has no assignee from distribution. */
  responsibleUserId: z.number().int().positive().optional(),
});
export type AmoSettings = z.infer<typeof ZAmoSettings>;

/** `locale`: the language the user started in; the OAuth return lands on that language's screen. */
export const ZAmoConnectBody = z.object({ integrationId: z.uuid(), locale: z.enum(['uk', 'en']).optional() });

export const ZAmoUser = z.object({ id: z.number(), name: z.string(), email: z.string().optional() });
export const ZAmoStatus = z.object({
  id: z.number(),
  name: z.string(),
  color: z.string().optional(),
  type: z.number(),
});
export const ZAmoPipeline = z.object({
  id: z.number(),
  name: z.string(),
  isMain: z.boolean(),
  statuses: z.array(ZAmoStatus),
});
export const ZAmoField = z.object({
  id: z.number(),
  name: z.string(),
  type: z.string(),
  code: z.string().optional(),
  enums: z.array(z.object({ id: z.number(), value: z.string() })).optional(),
});
export const ZAmoFields = z.object({ lead: z.array(ZAmoField), contact: z.array(ZAmoField) });
/** GET amocrm/parser/{id}: what a parser or mapping may write, flattened for a picker. */
export const ZAmoParserTargets = z.array(
  z.object({
    key: z.string(),
    label: z.string(),
    entity: z.enum(['lead', 'contact']),
    fieldId: z.number().optional(),
    type: z.string(),
  }),
);
export const ZAmoBackupBody = z.object({ integrationId: z.uuid() });
export const ZAmoBackup = z.object({
  _id: z.string(),
  integrationId: z.string(),
  createdAt: z.string(),
  /** The integration's settings and the account's pipelines, users and fields at that moment. */
  data: z.object({
    settings: z.record(z.string(), z.unknown()),
    pipelines: z.array(ZAmoPipeline),
    users: z.array(ZAmoUser),
    fields: ZAmoFields,
  }),
});
export const ZAmoBackupList = z.object({ data: z.array(ZAmoBackup), total: z.number() });
export type AmoUser = z.infer<typeof ZAmoUser>;
export type AmoPipeline = z.infer<typeof ZAmoPipeline>;
export type AmoField = z.infer<typeof ZAmoField>;
export type AmoFields = z.infer<typeof ZAmoFields>;
export type AmoBackup = z.infer<typeof ZAmoBackup>;
