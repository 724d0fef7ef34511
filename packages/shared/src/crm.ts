// amoCRM and Pipedrive as destinations (spec 7 "amoCRM", "Pipedrive"): the settings an integration
// of those types stores, and the bodies of their own routes. The server validates with these and
// the web builds its forms from them.
import { z } from 'zod';
import { zMinText } from './validation';

/**
 * Where a mapped value comes from in our lead: name, phone, email, comment, utm.source … utm.term,
 * custom.<key> (a custom field of the lead, e.g. a Meta form question's key).
 */
export const ZLeadPath = z
  .string()
  .regex(/^(name|phone|email|comment|utm\.(source|medium|campaign|content|term)|custom\.[A-Za-z0-9_.-]{1,100})$/, {
    error: 'VALIDATION_ERROR',
  });

// ---- amoCRM ----

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
export const ZOAuthUrl = z.object({ url: z.string() });

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

// ---- Pipedrive ----

export const PIPEDRIVE_TARGETS = ['lead', 'deal'] as const;

export const ZPipedriveFieldMapping = z.object({
  from: ZLeadPath,
  entity: z.enum(['person', 'organization', 'deal']),
  /** The field's key (40-hex custom field hash, or a system key). Leads take deal fields. */
  key: z.string().min(1).max(64),
});
export type PipedriveFieldMapping = z.infer<typeof ZPipedriveFieldMapping>;

export const ZPipedriveSettings = z.object({
  /** lead: a Pipedrive lead (v1 /leads); deal: a deal in the pipeline and stage below. */
  target: z.enum(PIPEDRIVE_TARGETS).default('lead'),
  pipelineId: z.number().int().positive().optional(),
  stageId: z.number().int().positive().optional(),
  /** Create (or find by name) an organization from custom.company / the mapped organization name. */
  organization: z.boolean().default(false),
  /** {name}, {phone}, {email}, {source} are filled in. Default "Lead: {name}". */
  title: z.string().max(250).optional(),
  fields: z.array(ZPipedriveFieldMapping).max(50).optional(),
  /** A follow-up activity on the lead or deal. */
  activity: z
    .object({
      type: z.string().min(1).max(50),
      subject: z.string().max(250).optional(),
      /** Due this many minutes after the lead arrives (default 60). */
      dueInMinutes: z
        .number()
        .int()
        .min(0)
        .max(60 * 24 * 30)
        .default(60),
    })
    .nullable()
    .optional(),
  note: z.boolean().default(true),
  /** Owner when the lead has no assignee from distribution. */
  ownerId: z.number().int().positive().optional(),
  /** The widget: the SendPulse integration whose chatbot contacts it shows. */
  sendpulseIntegrationId: z.uuid().optional(),
});
export type PipedriveSettings = z.infer<typeof ZPipedriveSettings>;

/** A Pipedrive API token as a person pastes it (Settings → Personal preferences → API). */
export const ZPipedriveApiToken = zMinText(10).trim().max(200, { error: 'MAX_LENGTH_200' });
/** POST /api/legacy/api/pipedrive/connect: the OAuth return's code and state, or an API token. */
export const ZPipedriveConnectBody = z.union([
  z.object({ code: z.string().min(1).max(2000), state: z.string().min(1).max(4000) }),
  z.object({ integrationId: z.uuid(), apiToken: ZPipedriveApiToken }),
]);
export const ZPipedriveConnectResult = z.object({ integrationId: z.string(), type: z.literal('pipedrive') });
/** POST {auth host}/pipedrive/state and /pipedrive/start. */
export const ZPipedriveStateBody = z.object({ integrationId: z.uuid(), locale: z.enum(['uk', 'en']).optional() });
export const ZPipedriveState = z.object({ state: z.string() });
export const ZPipedriveStartBody = z.object({ state: z.string().min(1).max(4000) });
export const ZAuthUrl = z.object({ authUrl: z.string() });

export const ZPipedriveField = z.object({
  id: z.number(),
  key: z.string(),
  name: z.string(),
  field_type: z.string(),
  options: z
    .array(z.object({ id: z.union([z.number(), z.string()]), label: z.string() }))
    .nullable()
    .optional(),
});
export const ZPipedriveStage = z.object({ id: z.number(), name: z.string(), order_nr: z.number() });
export const ZPipedrivePipeline = z.object({ id: z.number(), name: z.string(), stages: z.array(ZPipedriveStage) });
export const ZPipedriveActivityType = z.object({ id: z.number(), key: z.string(), name: z.string() });
export const ZPipedriveWebhook = z.object({
  id: z.string(),
  url: z.string(),
  event: z.string(),
  active: z.boolean(),
});
/** event: "<action>.<object>" as Pipedrive names them, e.g. "added.deal", "*.person". */
export const ZPipedriveWebhookBody = z.object({
  url: z.url(),
  event: z
    .string()
    .regex(/^(\*|create|change|delete|added|updated|deleted)\.(\*|[a-z]+)$/, { error: 'VALIDATION_ERROR' }),
  name: z.string().max(100).optional(),
});
export const ZPipedriveWebhookDeleteQuery = z.object({ id: z.string().min(1).max(50) });
export type PipedriveField = z.infer<typeof ZPipedriveField>;
export type PipedrivePipeline = z.infer<typeof ZPipedrivePipeline>;
export type PipedriveActivityType = z.infer<typeof ZPipedriveActivityType>;
export type PipedriveWebhook = z.infer<typeof ZPipedriveWebhook>;

// ---- Speed to lead from the CRM (issue 19): our stage-change webhook at amoCRM or Pipedrive ----

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
});
export type CrmWatch = z.infer<typeof ZCrmWatch>;
