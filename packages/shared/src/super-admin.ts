// The operator's area (spec sections 3, 6, 7 "Super admin"): clients, entering an account,
// languages and translations. One schema checks the request on the server and the form on the web.
import { z } from 'zod';
import { ROLES } from './constants';
import { ZUser } from './user';
import { calendarDate, email, money, requiredText } from './validation';

const ZId = z.uuid({ message: 'VALIDATION_ERROR' });
/** A real day (YYYY-MM-DD): 2026-02-30 or 0000-01-01 is VALIDATION_ERROR, never a 500. */
const ZDate = calendarDate('VALIDATION_ERROR');

/** User counters (spec section 3). total = active + inactive + deleted. */
export const ZUserCounters = z.object({
  total: z.number(),
  active: z.number(),
  inactive: z.number(),
  deleted: z.number(),
});
export type UserCounters = z.infer<typeof ZUserCounters>;

export const CLIENT_STATUSES = ['active', 'inactive', 'deleted'] as const;
export type ClientStatus = (typeof CLIENT_STATUSES)[number];
export const CLIENT_SORTS = ['createdAt', '-createdAt', 'login', '-login', 'expDate', '-expDate'] as const;

export const ZClientListQuery = z
  .object({
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    limit: z.coerce.number().int().min(1).max(100).default(10),
    search: z.string().trim().max(200).optional(),
    status: z.enum(CLIENT_STATUSES, { message: 'VALIDATION_ERROR' }).optional(),
    /** A plan id, or `demo` for accounts without a plan. */
    plan: z.union([z.literal('demo'), ZId]).optional(),
    role: z.enum(ROLES, { message: 'VALIDATION_ERROR' }).optional(),
    sort: z.enum(CLIENT_SORTS, { message: 'VALIDATION_ERROR' }).default('-createdAt'),
  })
  .strict();
export type ClientListQuery = z.infer<typeof ZClientListQuery>;

/** A user as the operator sees it: the profile plus its plan's title and deletion. */
export const ZClient = ZUser.extend({
  isActive: z.boolean(),
  planTitle: z.string().nullable(),
  deletedAt: z.string().nullable(),
});
export type Client = z.infer<typeof ZClient>;

export const ZClientList = z.object({ data: z.array(ZClient), total: z.number(), counter: ZUserCounters });
export type ClientList = z.infer<typeof ZClientList>;

export const ZCreateClientBody = z
  .object({
    login: email(),
    role: z.enum(ROLES, { message: 'VALIDATION_ERROR' }).default('client'),
    lang: z.enum(['uk', 'en'], { message: 'VALIDATION_ERROR' }).default('uk'),
  })
  .strict();
export type CreateClientBody = z.input<typeof ZCreateClientBody>;
/** The generated password is shown once; it is stored only as a hash. */
export const ZCreatedClient = z.object({ user: ZClient, password: z.string() });

export const ZClientPatchBody = z
  .object({
    active: z.boolean().optional(),
    expDate: ZDate.nullable().optional(),
    /** A plan id, or null for demo. */
    plan: ZId.nullable().optional(),
    role: z.enum(ROLES, { message: 'VALIDATION_ERROR' }).optional(),
    /** The balance in US dollars: whole cents, 0 to MONEY_MAX. */
    credit: money().optional(),
  })
  .strict();
export type ClientPatchBody = z.infer<typeof ZClientPatchBody>;

export const ZHardDeleteBody = z.object({ confirm: z.string().max(320) }).strict();

export const ZClientStatistic = z.object({
  leadsPerDay: z.array(z.object({ date: z.string(), count: z.number() })),
  leadsTotal: z.number(),
  integrations: z.object({ total: z.number(), active: z.number(), broken: z.number() }),
  deliveries: z.object({
    delivered: z.number(),
    failed: z.number(),
    pending: z.number(),
    successRate: z.number().nullable(),
  }),
  lastActivity: z.string().nullable(),
});
export type ClientStatistic = z.infer<typeof ZClientStatistic>;

/**
 * "Enter as a user": a one-time code for `/enter?code=` (ENTER_CODE_SECONDS), which only the staff
 * member who asked can exchange (POST /api/auth/enter, with their own session) for the entered one.
 */
export const ZEnterSession = z.object({ code: z.string(), login: z.string(), expiresAt: z.string() });
export type EnterSession = z.infer<typeof ZEnterSession>;

export const ZOrphansRemoved = z.object({ removed: z.record(z.string(), z.number()), total: z.number() });

// Languages and translations

/** Locale entry (spec section 3). */
export const ZLocaleEntry = z.object({
  code: z.string().regex(/^[a-z]{2,3}(-[a-z0-9]{2,8})?$/, { message: 'VALIDATION_ERROR' }),
  iso: z.string().regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, { message: 'VALIDATION_ERROR' }),
  file: z.string().regex(/^[a-z0-9-]{2,20}\.json$/, { message: 'VALIDATION_ERROR' }),
  domain: z.string().trim().max(253).default(''),
  dir: z.enum(['ltr', 'rtl'], { message: 'VALIDATION_ERROR' }).default('ltr'),
  name: requiredText().trim().max(60),
});
export type LocaleEntry = z.infer<typeof ZLocaleEntry>;
export const ZLocaleAddBody = ZLocaleEntry.strict();
export type LocaleAddBody = z.input<typeof ZLocaleAddBody>;

export const ZTranslationsQuery = z
  .object({
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    limit: z.coerce.number().int().min(1).max(100).default(30),
    search: z.string().trim().max(200).optional(),
    namespace: z
      .string()
      .regex(/^[A-Za-z]{1,40}$/, { message: 'VALIDATION_ERROR' })
      .optional(),
    untranslated: z.enum(['true', 'false'], { message: 'VALIDATION_ERROR' }).optional(),
  })
  .strict();
export type TranslationsQuery = z.input<typeof ZTranslationsQuery>;

/** One form of a string: the whole key, its plural category, the English source, what ships, what was saved. */
export const ZTranslationForm = z.object({
  key: z.string(),
  category: z.string().nullable(),
  source: z.string(),
  shipped: z.string().nullable(),
  value: z.string().nullable(),
  _id: z.string().nullable(),
});
/** A string, or a plural string with every form the language needs (`_one/_few/_many/_other`). */
export const ZTranslationEntry = z.object({
  namespace: z.string(),
  key: z.string(),
  plural: z.boolean(),
  translated: z.boolean(),
  forms: z.array(ZTranslationForm),
});
export type TranslationEntry = z.infer<typeof ZTranslationEntry>;
export const ZTranslationList = z.object({ data: z.array(ZTranslationEntry), total: z.number(), locale: z.string() });
export type TranslationList = z.infer<typeof ZTranslationList>;

const ZValue = z.string().max(5000);
/** Saves the forms of one string together; an empty value goes back to what ships. */
export const ZTranslationSaveBody = z
  .object({
    locale: z.string().min(2).max(20),
    namespace: z.string().regex(/^[A-Za-z]{1,40}$/, { message: 'VALIDATION_ERROR' }),
    values: z.record(z.string().min(1).max(200), ZValue),
  })
  .strict()
  .refine((b) => Object.keys(b.values).length > 0 && Object.keys(b.values).length <= 10, {
    message: 'VALIDATION_ERROR',
    path: ['values'],
  });
export type TranslationSaveBody = z.infer<typeof ZTranslationSaveBody>;
export const ZTranslationPutBody = z.object({ value: requiredText().max(5000) }).strict();

export const ZTranslation = z.object({
  _id: z.string(),
  locale: z.string(),
  namespace: z.string(),
  key: z.string(),
  value: z.string(),
  updatedAt: z.string(),
});
export type Translation = z.infer<typeof ZTranslation>;

/** The languages people can pick (public: the switcher). */
export const ZPublicLocale = z.object({
  code: z.string(),
  iso: z.string(),
  name: z.string(),
  dir: z.enum(['ltr', 'rtl']),
});
