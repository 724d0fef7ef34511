// Request and response bodies of spec section 7 "Integrations", "Collections" and the catalogue
// of integration types (section 3 "Integration setting", "Integration category and module").
import { z } from 'zod';
import { INTEGRATION_STATE_CODES } from './integration-state';
import { maxText, requiredText } from './validation';
import { ZWorkingHours } from './working-hours';

/** A reason as a code with parameters (./integration-state computes it; the schemas live here, beside their users). */
export const ZReason = z.object({
  code: z.string(),
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});

export const ZIntegrationState = z.object({
  code: z.enum(INTEGRATION_STATE_CODES),
  reason: ZReason.optional(),
});

export const INTEGRATION_NAME_MAX = 100;
/** Options hold mapping, filters and dedupe policy; 64 KiB of JSON is far more than any of them needs. */
export const INTEGRATION_OPTIONS_MAX_BYTES = 64 * 1024;
export const INTEGRATION_DESTINATIONS_MAX = 50;
export const COLLECTION_ITEMS_MAX = 500;
export const INTEGRATION_STATUSES = ['ok', 'broken'] as const;
export const INTEGRATION_KINDS = ['source', 'destination'] as const;
export type IntegrationKind = (typeof INTEGRATION_KINDS)[number];

const ZId = z.uuid({ error: (i) => (i.input === undefined ? 'REQUIRED' : 'VALIDATION_ERROR') });
const ZPage = z.coerce.number().int().min(1).max(100_000).default(1);
const ZLimit = z.coerce.number().int().min(1).max(100).default(10);

/** A catalogue slug: lower-case letters, digits and dashes. */
export const ZSlug = z
  .string({ error: (i) => (i.input === undefined ? 'REQUIRED' : 'INVALID_TYPE') })
  .regex(/^[a-z][a-z0-9-]{0,49}$/, { error: 'VALIDATION_ERROR' });

const ZName = requiredText().pipe(maxText(INTEGRATION_NAME_MAX));

/** A JSON object; its size is checked by the server (OPTIONS_TOO_LARGE). */
export const ZJsonObject = z.record(z.string(), z.unknown(), {
  error: (i) => (i.input === undefined ? 'REQUIRED' : 'INVALID_TYPE'),
});

/** Destination ids as the web sends them: plain ids or the destination objects ({ _id }). */
export const ZDestinationIds = z
  .array(z.union([ZId, z.object({ _id: ZId }).transform((d) => d._id)]))
  .max(INTEGRATION_DESTINATIONS_MAX, { error: `MAX_LENGTH_${INTEGRATION_DESTINATIONS_MAX}` });

export const ZIntegrationListQuery = z
  .object({
    page: ZPage,
    limit: ZLimit,
    type: ZSlug.optional(),
    active: z.enum(['true', 'false'], { error: 'VALIDATION_ERROR' }).optional(),
    search: z.string().trim().max(200).optional(),
  })
  .strict();
export type IntegrationListQuery = z.infer<typeof ZIntegrationListQuery>;

export const ZCreateIntegrationBody = z
  .object({
    type: ZSlug,
    name: ZName,
    options: ZJsonObject.optional(),
    settings: ZJsonObject.optional(),
    destination: ZDestinationIds.optional(),
    distributionId: ZId.nullable().optional(),
  })
  .strict();
export type CreateIntegrationBody = z.infer<typeof ZCreateIntegrationBody>;

export const ZUpdateIntegrationBody = z
  .object({
    active: z.boolean({ error: 'INVALID_TYPE' }).optional(),
    options: ZJsonObject.optional(),
    /** Checked like on create (an account-connection source: its connection, page and form ids are the account's own). */
    settings: ZJsonObject.optional(),
    name: ZName.optional(),
    destination: ZDestinationIds.optional(),
    distributionId: ZId.nullable().optional(),
  })
  .strict();
export type UpdateIntegrationBody = z.infer<typeof ZUpdateIntegrationBody>;

export const ZUpdateOptionsBody = z.object({ options: ZJsonObject }).strict();
export const ZDestinationBody = z
  .object({ destination: z.union([ZId, z.object({ _id: ZId }).transform((d) => d._id)]) })
  .strict();
export const ZConnectBody = z.object({ auth: ZJsonObject.optional(), settings: ZJsonObject.optional() }).strict();

export const ZDestinationRef = z.object({ _id: z.string(), name: z.string(), type: z.string() });

export const ZIntegration = z.object({
  _id: z.string(),
  name: z.string(),
  type: z.string(),
  kind: z.enum(INTEGRATION_KINDS).nullable(),
  active: z.boolean(),
  options: z.record(z.string(), z.unknown()),
  settings: z.record(z.string(), z.unknown()),
  destination: z.array(ZDestinationRef),
  distributionId: z.string().nullable(),
  category: z.object({ _id: z.string(), name: z.string() }).nullable(),
  /** Whether credentials were stored (the credentials themselves are never sent). */
  isConnected: z.boolean(),
  status: z.enum(INTEGRATION_STATUSES),
  statusReason: z.string().nullable(),
  /** The one computed status every screen shows (integration-state.ts); `status` is the stored connection health. */
  state: ZIntegrationState,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Integration = z.infer<typeof ZIntegration>;

export const ZIntegrationList = z.object({
  data: z.array(ZIntegration),
  total: z.number(),
  filter: z.object({
    page: z.number(),
    limit: z.number(),
    type: z.string().optional(),
    active: z.boolean().optional(),
    search: z.string().optional(),
  }),
});
export type IntegrationList = z.infer<typeof ZIntegrationList>;

export const ZGeneratedHook = z.object({ url: z.string(), token: z.string() });
export const ZConnectionCheck = z.object({
  ok: z.boolean(),
  reason: z.string().optional(),
  /** The reason as a code with parameters, for the web to translate (`reason` is kept as sent before). */
  reasonKey: ZReason.optional(),
  status: z.enum(INTEGRATION_STATUSES),
});
export type ConnectionCheck = z.infer<typeof ZConnectionCheck>;
export const ZConnectResult = ZConnectionCheck.extend({ integration: ZIntegration });

export const ZLoaderUsers = z.array(z.object({ id: z.string(), name: z.string() }));
export const ZLoaderFields = z.array(
  z.object({
    key: z.string(),
    label: z.string(),
    type: z.string().optional(),
    options: z.array(z.object({ value: z.string(), label: z.string() })).optional(),
  }),
);

export const ZIntegrationHook = z.object({
  _id: z.string(),
  status: z.string(),
  reason: z.string().nullable(),
  leadId: z.string().nullable(),
  createdAt: z.string(),
});
export const ZIntegrationHookList = z.object({ data: z.array(ZIntegrationHook), total: z.number() });

// ---- Catalogue ----

export const ZCategoryBody = z.object({ name: ZName, order: z.number().int().min(0).max(10_000).optional() }).strict();
export const ZCategoryPatch = ZCategoryBody.partial().strict();
export const ZCategory = z.object({ _id: z.string(), name: z.string(), order: z.number() });
export type Category = z.infer<typeof ZCategory>;

export const ZModuleBody = z
  .object({
    settingId: ZId,
    name: ZName,
    slug: ZSlug.nullable().optional(),
    order: z.number().int().min(0).max(10_000).optional(),
  })
  .strict();
export const ZModulePatch = ZModuleBody.partial().strict();
export const ZModule = z.object({
  _id: z.string(),
  settingId: z.string(),
  name: z.string(),
  slug: z.string().nullable(),
  order: z.number(),
});
export type Module = z.infer<typeof ZModule>;
export const ZModuleSortBody = z.object({ ids: z.array(ZId).min(1).max(1000) }).strict();

const ZTags = z.array(requiredText().pipe(maxText(50))).max(50);
export const ZSettingBody = z
  .object({
    slug: ZSlug,
    name: ZName,
    kind: z.enum(INTEGRATION_KINDS, { error: 'VALIDATION_ERROR' }),
    categoryId: ZId.nullable().optional(),
    hidden: z.boolean({ error: 'INVALID_TYPE' }).optional(),
    destinations: z.array(ZSlug).max(100).optional(),
    tags: ZTags.optional(),
  })
  .strict();
/** The slug and kind are what integrations and connectors key on: fixed once created. */
export const ZSettingPatch = ZSettingBody.omit({ slug: true, kind: true }).partial().strict();
export const ZSetting = z.object({
  _id: z.string(),
  slug: z.string(),
  name: z.string(),
  kind: z.enum(INTEGRATION_KINDS),
  /** Hidden by an operator, or its connector is not built yet. */
  hidden: z.boolean(),
  /** Whether the server has a connector for this type (false: it cannot be created). */
  available: z.boolean(),
  category: z.object({ _id: z.string(), name: z.string() }).nullable(),
  destinations: z.array(z.object({ slug: z.string() })),
  tags: z.array(z.string()),
  modules: z.array(z.object({ _id: z.string(), name: z.string(), slug: z.string().nullable(), order: z.number() })),
});
export type Setting = z.infer<typeof ZSetting>;

// ---- Collections ----

export const ZCollectionItemBody = z
  .object({
    name: ZName,
    value: requiredText().pipe(maxText(500)),
    weight: z
      .number({ error: (i) => (i.input === undefined ? 'REQUIRED' : 'INVALID_TYPE') })
      .int({ error: 'INTEGER' })
      .min(1, { error: 'VALIDATION_ERROR' })
      .max(100, { error: 'VALIDATION_ERROR' })
      .optional(),
    /** Working hours (issue 19); absent: always on duty. */
    hours: ZWorkingHours.optional(),
    /** The away switch: off duty whatever the hours say. */
    away: z.boolean({ error: 'INVALID_TYPE' }).optional(),
  })
  .strict();
/** A manager's Telegram chat, set only by the bot (/start with a link code), never by a collection PUT. */
export const ZTelegramLink = z.object({
  chatId: z.number(),
  username: z.string().optional(),
  language: z.enum(['uk', 'en']),
  linkedAt: z.string(),
});
export type TelegramLink = z.infer<typeof ZTelegramLink>;
export const ZCollectionItem = z.object({
  id: z.string(),
  name: z.string(),
  value: z.string(),
  weight: z.number().optional(),
  telegram: ZTelegramLink.optional(),
  hours: ZWorkingHours.optional(),
  away: z.boolean().optional(),
});
export type CollectionItem = z.infer<typeof ZCollectionItem>;

export const ZCollectionBody = z
  .object({
    name: ZName,
    items: z
      .array(ZCollectionItemBody.extend({ id: z.string().max(64).optional() }))
      .max(COLLECTION_ITEMS_MAX, { error: 'COLLECTION_ITEMS_LIMIT' })
      .optional(),
  })
  .strict();
export const ZCollectionPatch = ZCollectionBody.partial().strict();
export const ZCollectionListQuery = z
  .object({ page: ZPage, limit: ZLimit, search: z.string().trim().max(200).optional() })
  .strict();
export const ZCollection = z.object({
  _id: z.string(),
  name: z.string(),
  items: z.array(ZCollectionItem),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Collection = z.infer<typeof ZCollection>;
export const ZCollectionList = z.object({ data: z.array(ZCollection), total: z.number() });
