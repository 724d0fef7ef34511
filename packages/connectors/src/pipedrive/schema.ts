// Pipedrive as a destination (spec 7 "Pipedrive"): the settings an integration of the type stores,
// and the bodies and answers of its own routes. The server validates with these and the web builds
// its forms from them (the manifest imports them).
import { ZLeadPath, zMinText } from '@leadrelay/shared';
import { z } from 'zod';

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
