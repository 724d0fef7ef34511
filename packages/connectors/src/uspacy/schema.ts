// Uspacy (a Ukrainian CRM) as a destination: the settings an integration of that type stores, the
// body of its connect route (signing in with the account's e-mail and password, or the portal's
// incoming webhook URL), what its own routes answer, and the address rules both sides check.
// The server validates with these and the web builds its forms from them (the manifest imports them).
import { requiredText, ZLeadPath } from '@leadrelay/shared';
import { z } from 'zod';

/** Where leads go: a Uspacy lead or a deal, each in a funnel and a kanban stage. */
export const USPACY_TARGETS = ['lead', 'deal'] as const;
export type UspacyTarget = (typeof USPACY_TARGETS)[number];
/** The entities a mapped field may belong to: the record we create, or the contact. */
export const USPACY_ENTITIES = ['lead', 'deal', 'contact'] as const;
export type UspacyEntity = (typeof USPACY_ENTITIES)[number];

export const USPACY_CONNECT_MODES = ['password', 'webhook'] as const;
export type UspacyConnectMode = (typeof USPACY_CONNECT_MODES)[number];

/** Portals live at https://{portal}.uspacy.ua; a bare name means that. */
export const USPACY_DOMAIN = 'uspacy.ua';
/** The incoming webhook's secret base: {portal}/company/v1/incoming_webhooks/run/{key}. */
export const USPACY_WEBHOOK_PATH = '/company/v1/incoming_webhooks/run/';

/** A field's code as Uspacy names it (title, first_name, customfield_1, uf_crm_1700000000 …). */
const ZFieldCode = z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,99}$/, { error: 'VALIDATION_ERROR' });

export const ZUspacyFieldMapping = z.object({
  from: ZLeadPath,
  /** lead or deal: the record's own field (only the chosen target's are written); contact: the contact's. */
  entity: z.enum(USPACY_ENTITIES),
  code: ZFieldCode,
});
export type UspacyFieldMapping = z.infer<typeof ZUspacyFieldMapping>;

export const ZUspacySettings = z.object({
  target: z.enum(USPACY_TARGETS).default('lead'),
  /** Unset: the portal's default funnel of the target. */
  funnelId: z.number().int().positive().optional(),
  /** A kanban stage of that funnel; unset: its first stage. */
  stageId: z.number().int().positive().optional(),
  /** The record's title; {name}, {phone}, {email}, {source} are filled in. Default "Заявка: {name}". */
  title: z.string().max(250).optional(),
  fields: z.array(ZUspacyFieldMapping).max(50).optional(),
  /** A comment on the record with everything the lead brought, UTM and the raw payload (default on). */
  note: z.boolean().default(true),
  /** Responsible user when distribution names nobody. */
  ownerId: z.number().int().positive().optional(),
});
export type UspacySettings = z.infer<typeof ZUspacySettings>;

/**
 * POST /api/uspacy/connect. password: the e-mail and password are sent to the portal once for its
 * tokens and never stored (code: the two-factor code when the account has one). webhook: the
 * incoming webhook URL an administrator made in Uspacy (Automation → Webhooks → Incoming).
 */
export const ZUspacyConnectBody = z.discriminatedUnion('mode', [
  z.object({
    mode: z.literal('password'),
    integrationId: z.uuid(),
    portal: requiredText().trim().max(200),
    email: z.email(),
    password: requiredText().max(200),
    code: z.string().trim().max(20).optional(),
  }),
  z.object({
    mode: z.literal('webhook'),
    integrationId: z.uuid(),
    webhookUrl: requiredText().trim().max(500),
  }),
]);
export type UspacyConnectBody = z.infer<typeof ZUspacyConnectBody>;
export const ZUspacyConnectResult = z.object({
  integrationId: z.string(),
  type: z.literal('uspacy'),
  mode: z.enum(USPACY_CONNECT_MODES),
});

/** GET /api/uspacy/account/{id}: how the integration is connected, without anything secret. */
export const ZUspacyAccount = z.object({
  connected: z.boolean(),
  mode: z.enum(USPACY_CONNECT_MODES).optional(),
  /** The portal's host, e.g. acme.uspacy.ua. */
  portal: z.string().optional(),
  /** The account signed in with (password mode). */
  email: z.string().optional(),
});
export type UspacyAccount = z.infer<typeof ZUspacyAccount>;

export const ZUspacyStage = z.object({
  id: z.number(),
  title: z.string(),
  sort: z.number(),
  /** SUCCESS / FAIL closing stages; other stages have their own codes or none. */
  code: z.string().optional(),
  isSystem: z.boolean(),
});
export const ZUspacyFunnel = z.object({
  id: z.number(),
  title: z.string(),
  isDefault: z.boolean(),
  stages: z.array(ZUspacyStage),
});
export type UspacyFunnel = z.infer<typeof ZUspacyFunnel>;
export type UspacyStage = z.infer<typeof ZUspacyStage>;

/** A field of the portal a lead's value can go into (loaders keep only the types the connector writes). */
export const ZUspacyField = z.object({
  code: z.string(),
  name: z.string(),
  type: z.string(),
  required: z.boolean(),
  multiple: z.boolean(),
  /** list fields: their options. */
  values: z.array(z.object({ value: z.string(), title: z.string() })).optional(),
});
export const ZUspacyFields = z.object({
  lead: z.array(ZUspacyField),
  deal: z.array(ZUspacyField),
  contact: z.array(ZUspacyField),
});
export type UspacyField = z.infer<typeof ZUspacyField>;
export type UspacyFields = z.infer<typeof ZUspacyFields>;

export const ZUspacyUser = z.object({ id: z.number(), name: z.string(), email: z.string().optional() });
export type UspacyUser = z.infer<typeof ZUspacyUser>;

// ---- Addresses (the web checks as you type, the server checks again against its allowed hosts) ----

const safeUrl = (text: string): URL | undefined => {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
};

/**
 * The portal's origin from what a person types: "acme", "acme.uspacy.ua", "https://acme.uspacy.ua/crm/…".
 * A bare name is {name}.uspacy.ua; no scheme means https. Undefined when it cannot be an origin
 * (user info, a malformed host). The caller checks the scheme and the host against its allow list.
 */
export function portalOrigin(input: string): URL | undefined {
  const text = input.trim();
  if (!text) return undefined;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text)
    ? text
    : /^[a-z0-9-]+$/i.test(text)
      ? `https://${text}.${USPACY_DOMAIN}`
      : `https://${text}`;
  const url = safeUrl(withScheme);
  if (!url || url.username || url.password || !/^https?:$/.test(url.protocol) || !url.hostname) return undefined;
  return new URL(url.origin);
}

/** An incoming webhook URL split into the portal's origin and the secret key; undefined when it is not one. */
export function parseIncomingWebhook(input: string): { origin: string; key: string } | undefined {
  const url = safeUrl(input.trim());
  if (!url || url.username || url.password || url.search || url.hash || !/^https?:$/.test(url.protocol)) {
    return undefined;
  }
  const path = url.pathname.replace(/\/+$/, '');
  if (!path.startsWith(USPACY_WEBHOOK_PATH)) return undefined;
  const key = path.slice(USPACY_WEBHOOK_PATH.length);
  if (!/^[A-Za-z0-9_-]{8,200}$/.test(key)) return undefined;
  return { origin: url.origin, key };
}

/** True for an https host under uspacy.ua (the web's quick check; the server applies USPACY_HOSTS). */
export const isUspacyHost = (url: URL): boolean =>
  url.protocol === 'https:' && url.hostname.endsWith(`.${USPACY_DOMAIN}`);
