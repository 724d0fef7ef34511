// The Graph emulator's state: the seeded user, pages, forms and ad account, issued tokens and codes,
// stored leads and subscriptions, the Conversions API's datasets and received events, plus the
// Graph API's `fields` selection and cursor paging.

import { randomBytes } from 'node:crypto';
import { ownValue, setOwn } from '@leadrelay/shared';

export type TokenKind = 'user' | 'page' | 'app';

export interface EmulatedToken {
  kind: TokenKind;
  /** The page of a page token. */
  pageId?: string;
  /** Epoch ms; undefined = no expiry. */
  expiresAt?: number;
  /** Set by expireUserTokens / expirePageTokens. */
  expired?: boolean;
  isLongLived?: boolean;
  /** Set for a token of another app (emulator-signin.ts); undefined = the emulator's app. */
  appId?: string;
  /** Granted permissions when known (tokens FB.login gave, emulator-signin.ts). */
  scopes?: string[];
}

export interface EmulatedQuestion {
  id: string;
  key: string;
  label: string;
  type: string;
  options?: { key: string; value: string }[];
}

export interface EmulatedForm {
  id: string;
  pageId: string;
  name: string;
  status: 'ACTIVE' | 'ARCHIVED' | 'DELETED' | 'DRAFT';
  locale: string;
  createdTime: string;
  questions: EmulatedQuestion[];
}

export interface EmulatedPage {
  id: string;
  name: string;
  category: string;
  tasks: string[];
  /** The current page token (rotated by expirePageTokens). */
  token: string;
}

export interface EmulatedLead {
  id: string;
  formId: string;
  pageId: string;
  /** Unix seconds. */
  createdTime: number;
  fieldData: { name: string; values: string[] }[];
  isOrganic: boolean;
  isTest: boolean;
  adId?: string;
  adName?: string;
  adsetId?: string;
  adsetName?: string;
  campaignId?: string;
  campaignName?: string;
  platform: string;
}

export interface EmulatedAppSubscription {
  object: string;
  callbackUrl: string;
  verifyToken: string;
  fields: string[];
}

export interface EmulatedUser {
  id: string;
  name: string;
  email: string;
  isEmailVerified: boolean;
}

export const GRAPH_SEED = {
  user: { id: '10000000000001', name: 'Olena Kovalenko', email: 'olena.kovalenko@example.com', isEmailVerified: true },
  pages: [
    { id: '20000000000001', name: 'Kyiv Dental Studio', category: 'Dentist & Dental Office' },
    { id: '20000000000002', name: 'Lviv Coffee School', category: 'Education' },
  ],
  forms: {
    consultation: '30000000000001',
    implants: '30000000000002',
    course: '30000000000003',
  },
  adAccount: { id: 'act_40000000000001', name: 'Kyiv Dental Studio ads' },
} as const;

const standard = (id: string, key: string, label: string, type: string): EmulatedQuestion => ({ id, key, label, type });

function seedForms(): EmulatedForm[] {
  const [dental, coffee] = GRAPH_SEED.pages;
  return [
    {
      id: GRAPH_SEED.forms.consultation,
      pageId: dental.id,
      name: 'Free consultation',
      status: 'ACTIVE',
      locale: 'uk_UA',
      createdTime: '2024-05-02T09:00:00+0000',
      questions: [
        standard('q1', 'full_name', 'Full name', 'FULL_NAME'),
        standard('q2', 'phone_number', 'Phone number', 'PHONE'),
        standard('q3', 'email', 'Email', 'EMAIL'),
        {
          id: 'q4',
          key: 'preferred_time',
          label: 'Коли вам зручно?',
          type: 'CUSTOM',
          options: [
            { key: 'morning', value: 'Зранку' },
            { key: 'afternoon', value: 'Вдень' },
            { key: 'evening', value: 'Ввечері' },
          ],
        },
        standard('q5', 'what_bothers_you', 'What bothers you?', 'CUSTOM'),
      ],
    },
    {
      id: GRAPH_SEED.forms.implants,
      pageId: dental.id,
      name: 'Implants −20%',
      status: 'ACTIVE',
      locale: 'en_US',
      createdTime: '2024-05-10T09:00:00+0000',
      questions: [
        standard('q1', 'first_name', 'First name', 'FIRST_NAME'),
        standard('q2', 'last_name', 'Last name', 'LAST_NAME'),
        standard('q3', 'phone_number', 'Phone number', 'PHONE'),
        standard('q4', 'city', 'City', 'CITY'),
      ],
    },
    {
      id: GRAPH_SEED.forms.course,
      pageId: coffee.id,
      name: 'Barista course',
      status: 'ACTIVE',
      locale: 'uk_UA',
      createdTime: '2024-06-01T09:00:00+0000',
      questions: [
        standard('q1', 'full_name', 'Full name', 'FULL_NAME'),
        standard('q2', 'phone_number', 'Phone number', 'PHONE'),
        {
          id: 'q3',
          key: 'course_level',
          label: 'Level',
          type: 'CUSTOM',
          options: [
            { key: 'beginner', value: 'Beginner' },
            { key: 'pro', value: 'Pro' },
          ],
        },
      ],
    },
  ];
}

export interface EmulatedDataset {
  id: string;
  name: string;
  /** The ad accounts that can use it; none of the user's = another business's dataset. */
  adAccountIds: string[];
}

/** One event as the dataset received it. */
export interface ReceivedCapiEvent {
  datasetId: string;
  eventName: string;
  /** Unix seconds, as sent. */
  eventTime: number;
  actionSource: string;
  eventId?: string;
  /** The digits of user_data.lead_id. */
  leadId: string;
  /** How lead_id came: a JSON integer (Meta's documented type) or a string (the Business SDK's). */
  leadIdType: 'number' | 'string';
  eventSource: string;
  leadEventSource: string;
  testEventCode?: string;
  /** Same event_id and event_name as one the dataset took within 48 hours: Meta drops it. */
  isDuplicate: boolean;
  /** Epoch ms. */
  receivedAt: number;
  /** The event as parsed (lead_id as its digits). */
  raw: Record<string, unknown>;
}

export const CAPI_SEED_DATASETS = [
  { id: '90000000000001', name: 'Kyiv Dental Studio pixel', adAccountIds: ['act_40000000000001'] },
  { id: '90000000000002', name: 'Kyiv Dental Studio CRM', adAccountIds: ['act_40000000000001'] },
  // Another business's dataset: the connection may not send to it.
  { id: '90000000000009', name: 'Someone else’s pixel', adAccountIds: ['act_49999999999999'] },
] as const satisfies readonly EmulatedDataset[];

export const newToken = (prefix = 'EAA') => `${prefix}${randomBytes(24).toString('base64url')}`;

export interface GraphState {
  user: EmulatedUser;
  pages: EmulatedPage[];
  forms: EmulatedForm[];
  adAccounts: { id: string; name: string }[];
  tokens: Map<string, EmulatedToken>;
  codes: Map<string, { redirectUri: string; scopes: string[]; used: boolean; expiresAt: number }>;
  leads: Map<string, EmulatedLead>;
  /** Page id → the fields our app is subscribed to on it (page subscribed_apps). */
  pageSubscriptions: Map<string, Set<string>>;
  appSubscription: EmulatedAppSubscription | null;
  revokedScopes: Set<string>;
  nextId: number;
  /** Conversions API (emulator-capi.ts): the datasets and every event they received. */
  datasets: EmulatedDataset[];
  capiEvents: ReceivedCapiEvent[];
}

export function seedState(): GraphState {
  return {
    user: { ...GRAPH_SEED.user },
    pages: GRAPH_SEED.pages.map((p) => ({
      ...p,
      tasks: ['ADVERTISE', 'ANALYZE', 'CREATE_CONTENT', 'MESSAGING', 'MODERATE', 'MANAGE'],
      token: newToken('EAAP'),
    })),
    forms: seedForms(),
    adAccounts: [{ ...GRAPH_SEED.adAccount }],
    tokens: new Map(),
    codes: new Map(),
    leads: new Map(),
    pageSubscriptions: new Map(),
    appSubscription: null,
    revokedScopes: new Set(),
    nextId: 1,
    datasets: CAPI_SEED_DATASETS.map((d) => ({ ...d, adAccountIds: [...d.adAccountIds] })),
    capiEvents: [],
  };
}

/** A fields selection: name → nested selection (undefined = the whole value). */
export type FieldSelection = Map<string, FieldSelection | undefined>;

/** Parses `id,name,page{id,name},questions` (nested braces allowed); null when malformed. */
export function parseFields(input: string): FieldSelection | null {
  let pos = 0;
  const parseList = (): FieldSelection | null => {
    const out: FieldSelection = new Map();
    while (pos < input.length) {
      const match = /^\s*([A-Za-z0-9_]+)\s*/.exec(input.slice(pos));
      if (!match?.[1]) return null;
      pos += match[0].length;
      let nested: FieldSelection | undefined;
      if (input[pos] === '{') {
        pos += 1;
        const inner = parseList();
        if (!inner || input[pos] !== '}') return null;
        pos += 1;
        nested = inner;
      }
      out.set(match[1], nested);
      while (input[pos] === ' ') pos += 1;
      if (input[pos] === ',') pos += 1;
      else break;
    }
    return out;
  };
  const result = parseList();
  return result && pos === input.length ? result : null;
}

/** The selected fields of a node; a field the node type does not have is returned in `unknown`. */
export function pick(
  node: Record<string, unknown>,
  selection: FieldSelection,
  known: readonly string[],
): { value: Record<string, unknown>; unknown?: string } {
  const out: Record<string, unknown> = {};
  for (const [name, nested] of selection) {
    if (!known.includes(name)) return { value: out, unknown: name };
    const value = ownValue(node, name);
    if (value === undefined) continue;
    setOwn(out, name, nested ? selectNested(value, nested) : value);
  }
  return { value: out };
}

function selectNested(value: unknown, selection: FieldSelection): unknown {
  if (Array.isArray(value)) return value.map((v) => selectNested(v, selection));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [name, nested] of selection) {
    const v = ownValue(value, name);
    if (v !== undefined) setOwn(out, name, nested ? selectNested(v, nested) : v);
  }
  return out;
}

export const encodeCursor = (index: number) => Buffer.from(`c:${index}`).toString('base64url');
export function decodeCursor(cursor: string | undefined): number | null {
  if (!cursor) return 0;
  const text = Buffer.from(cursor, 'base64url').toString();
  const match = /^c:(\d+)$/.exec(text);
  return match?.[1] ? Number(match[1]) : null;
}
