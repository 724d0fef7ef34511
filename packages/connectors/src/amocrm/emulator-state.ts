// The amoCRM emulator's state: the records it stores, the seeded account, and the runtime every
// part (gate, OAuth, account data, contacts, leads) shares. Arrays are mutated in place, never
// replaced, because the emulator hands the same arrays to tests.
import type { EmulatorKit, SlidingWindow } from '../kit/emulator-kit';

export interface AmoRequest {
  method: string;
  path: string;
  body: unknown;
  status: number;
  receivedAt: string;
}

export interface AmoFault {
  status: number;
  retryAfter?: number | string;
  /** Fail this many API calls, then clear; default until cleared. */
  times?: number;
  body?: unknown;
  /** Only paths starting with this (default: every /api/v4 call). */
  path?: string;
}

export interface AmoValue {
  value?: unknown;
  enum_id?: number;
  enum_code?: string;
}
export interface AmoFieldValues {
  field_id: number;
  field_name: string;
  field_code: string | null;
  field_type: string;
  values: AmoValue[];
}
export interface EmulatedAmoLead {
  id: number;
  name: string;
  price: number;
  pipeline_id: number;
  status_id: number;
  responsible_user_id: number;
  custom_fields_values: AmoFieldValues[] | null;
  tags: { id: number; name: string }[];
  contactIds: number[];
  created_at: number;
}
export interface EmulatedAmoContact {
  id: number;
  name: string;
  first_name: string;
  last_name: string;
  responsible_user_id: number;
  custom_fields_values: AmoFieldValues[] | null;
  leadIds: number[];
  created_at: number;
}
export interface EmulatedAmoNote {
  id: number;
  entity_id: number;
  note_type: string;
  params: Record<string, unknown>;
}
/** A webhook subscription (POST /api/v4/webhooks): amoCRM keeps one per destination URL. */
export interface EmulatedAmoWebhook {
  id: number;
  destination: string;
  settings: string[];
  sort: number;
  disabled: boolean;
  created_at: number;
  updated_at: number;
}
/** One webhook the emulator posted to a subscriber, and how it answered (0: no answer in time). */
export interface SentAmoWebhook {
  destination: string;
  body: string;
  status: number;
}
export interface AmoTokenSet {
  accessToken: string;
  refreshToken: string;
  /** Epoch ms. */
  expiresAt: number;
  baseUrl: string;
}

// ---- The seeded account ----

export const AMO_SEED = {
  account: { id: 30_000_001, name: 'Acme', subdomain: 'acme', currency: 'UAH', country: 'UA' },
  users: [
    { id: 5_000_001, name: 'Anna Manager', email: 'anna@acme.test' },
    { id: 5_000_002, name: 'Bohdan Sales', email: 'bohdan@acme.test' },
  ],
  pipelines: [
    {
      id: 7_000_001,
      name: 'Sales',
      is_main: true,
      statuses: [
        { id: 70_000_010, name: 'Incoming leads', type: 1, color: '#c1c1c1' },
        { id: 70_000_011, name: 'First contact', type: 0, color: '#99ccff' },
        { id: 70_000_012, name: 'Negotiation', type: 0, color: '#ffcc66' },
        { id: 142, name: 'Closed - won', type: 0, color: '#CCFF66' },
        { id: 143, name: 'Closed - lost', type: 0, color: '#D5D8DB' },
      ],
    },
    {
      id: 7_000_002,
      name: 'Wholesale',
      is_main: false,
      statuses: [
        { id: 70_000_020, name: 'Incoming leads', type: 1, color: '#c1c1c1' },
        { id: 70_000_021, name: 'New order', type: 0, color: '#99ccff' },
        { id: 142, name: 'Closed - won', type: 0, color: '#CCFF66' },
        { id: 143, name: 'Closed - lost', type: 0, color: '#D5D8DB' },
      ],
    },
  ],
  leadFields: [
    { id: 800_001, name: 'Budget note', type: 'text', code: null, enums: null },
    { id: 800_002, name: 'Quantity', type: 'numeric', code: null, enums: null },
    {
      id: 800_003,
      name: 'Product',
      type: 'select',
      code: null,
      enums: [
        { id: 900_001, value: 'Basic', sort: 1 },
        { id: 900_002, value: 'Pro', sort: 2 },
        { id: 900_003, value: 'Enterprise', sort: 3 },
      ],
    },
    {
      id: 800_004,
      name: 'Channels',
      type: 'multiselect',
      code: null,
      enums: [
        { id: 900_011, value: 'Phone', sort: 1 },
        { id: 900_012, value: 'Email', sort: 2 },
        { id: 900_013, value: 'Telegram', sort: 3 },
      ],
    },
  ],
  contactFields: [
    {
      id: 810_001,
      name: 'Phone',
      type: 'multitext',
      code: 'PHONE',
      enums: ['WORK', 'WORKDD', 'MOB', 'FAX', 'HOME', 'OTHER'].map((value, i) => ({ id: 910_001 + i, value, sort: i })),
    },
    {
      id: 810_002,
      name: 'Email',
      type: 'multitext',
      code: 'EMAIL',
      enums: ['WORK', 'PRIV', 'OTHER'].map((value, i) => ({ id: 910_101 + i, value, sort: i })),
    },
    { id: 810_003, name: 'Position', type: 'text', code: 'POSITION', enums: null },
  ],
} as const;

export type SeedField = (typeof AMO_SEED.leadFields | typeof AMO_SEED.contactFields)[number];

/** A custom field: a seeded one, or one made through POST /api/v4/leads/custom_fields. */
export interface AmoFieldDef {
  id: number;
  name: string;
  type: string;
  code: string | null;
  enums: readonly { id: number; value: string; sort: number }[] | null;
  /** Only the API may write it (amoCRM shows it read-only in its interface). */
  is_api_only?: boolean;
}

/** The types a field made through the emulator's API may have (those without a list of values). */
export const CREATABLE_FIELD_TYPES = new Set(['text', 'numeric', 'textarea', 'url', 'date', 'checkbox']);

/** What the parts of one emulator share; scalars are fields so every part sees the current value. */
export interface AmoRuntime {
  clientId: string;
  clientSecret: string;
  ttlMs: number;
  redirectUri: string;
  /** Requests per second before 429; null = no limit. */
  limit: number | null;
  kit: EmulatorKit<AmoFault, AmoRequest>;
  limiter: SlidingWindow;
  /** How long a status_lead webhook waits for its subscriber. */
  webhookTimeoutMs: number;
  refreshCount: number;
  limited: number;
  /** One counter for lead, contact, note and tag ids. */
  nextId: number;
  leads: EmulatedAmoLead[];
  contacts: EmulatedAmoContact[];
  notes: EmulatedAmoNote[];
  webhooks: EmulatedAmoWebhook[];
  /** Webhooks posted to subscribers (settled ones), oldest first. */
  sent: SentAmoWebhook[];
  /** The account's lead custom fields: the seeded ones, then those made through the API. */
  leadFields: AmoFieldDef[];
  /** Users after the seeded ones (tests: an account with more users than one page holds). */
  extraUsers: { id: number; name: string; email: string }[];
  tags: Map<string, number>;
  /** Authorization code → expiry (epoch ms). */
  codes: Map<string, number>;
  /** Access token → expiry (epoch ms). */
  accessTokens: Map<string, number>;
  refreshTokens: Set<string>;
  /** The emulator's origin and host:port, known once it listens. */
  origin(): string;
  host(): string;
}
