// The Pipedrive emulator's state: the seeded company (users, pipelines, custom fields), the records it
// stores, and the runtime the entry, the OAuth routes and the gate share. Record arrays are emptied in
// place, never replaced, because the emulator hands the same arrays to tests.
import type { EmulatorKit, SlidingWindow } from '../kit/emulator-kit';

export type Row = Record<string, unknown> & { id: number };
export interface Field {
  id: number;
  key: string;
  name: string;
  field_type: string;
  options: { id: number; label: string }[] | null;
  edit_flag: boolean;
  mandatory_flag: boolean;
  active_flag: boolean;
}

/** Seeded custom field keys (40 hex), for tests. */
export const PIPEDRIVE_SEED = {
  users: [
    { id: 101, name: 'Anna Admin', email: 'anna@acme.test' },
    { id: 102, name: 'Borys Sales', email: 'borys@acme.test' },
  ],
  pipelines: [
    {
      id: 1,
      name: 'Sales',
      stages: [
        { id: 11, name: 'New' },
        { id: 12, name: 'Qualified' },
        { id: 13, name: 'Won' },
      ],
    },
    {
      id: 2,
      name: 'Partners',
      stages: [
        { id: 21, name: 'Intro' },
        { id: 22, name: 'Signed' },
      ],
    },
  ],
  dealFields: {
    comment: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345601',
    budget: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345602',
    channel: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345603',
    cities: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345604',
    visitDate: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345605',
  },
  channelOptions: [
    { id: 31, label: 'Facebook' },
    { id: 32, label: 'Google' },
  ],
  cityOptions: [
    { id: 41, label: 'Kyiv' },
    { id: 42, label: 'Lviv' },
    { id: 43, label: 'Odesa' },
  ],
  personFields: { source: 'b1b2c3d4e5f60718293a4b5c6d7e8f9012345601' },
  activityTypes: [
    { id: 1, key_string: 'call', name: 'Call' },
    { id: 2, key_string: 'meeting', name: 'Meeting' },
  ],
} as const;

export function seedFields() {
  const S = PIPEDRIVE_SEED;
  const sys = (id: number, key: string, name: string, field_type: string): Field => ({
    id,
    key,
    name,
    field_type,
    options: null,
    edit_flag: false,
    mandatory_flag: key === 'title' || key === 'name',
    active_flag: true,
  });
  const custom = (
    id: number,
    key: string,
    name: string,
    field_type: string,
    options?: readonly { id: number; label: string }[],
  ): Field => ({
    ...sys(id, key, name, field_type),
    edit_flag: true,
    options: options ? options.map((o) => ({ ...o })) : null,
  });
  return {
    dealFields: [
      sys(1, 'title', 'Title', 'varchar'),
      sys(2, 'value', 'Value', 'monetary'),
      sys(3, 'expected_close_date', 'Expected close date', 'date'),
      custom(4, S.dealFields.comment, 'Comment', 'varchar'),
      custom(5, S.dealFields.budget, 'Budget', 'double'),
      custom(6, S.dealFields.channel, 'Channel', 'enum', S.channelOptions),
      custom(7, S.dealFields.cities, 'Cities', 'set', S.cityOptions),
      custom(8, S.dealFields.visitDate, 'Visit date', 'date'),
    ],
    personFields: [
      sys(21, 'name', 'Name', 'varchar'),
      sys(22, 'email', 'Email', 'varchar'),
      sys(23, 'phone', 'Phone', 'phone'),
      custom(24, S.personFields.source, 'Source', 'varchar'),
    ],
    organizationFields: [sys(41, 'name', 'Name', 'varchar'), sys(42, 'address', 'Address', 'address')],
  };
}

/** One webhook the emulator posted, its Authorization header and the answer (0: none in time). */
export interface SentPipedriveWebhook {
  url: string;
  payload: Record<string, unknown>;
  authorization: string | null;
  status: number;
}

/**
 * Where a v1 list puts its offset paging (docs/connectors/pipedrive.md "Lists"): `nested` =
 * `additional_data.pagination {start, limit, more_items_in_collection, next_start}` as Pipedrive's
 * pagination guide and captured answers show; `flat` = `additional_data {start, limit,
 * more_items_in_collection}` as the official client's models (GetFieldsResponse, GetLeadsResponse) say.
 */
export type V1PagingShape = 'nested' | 'flat';

/** The emulator's records; emulator.ts exposes the same arrays to tests. */
export interface EmulatorStore {
  persons: Row[];
  organizations: Row[];
  deals: Row[];
  leads: (Record<string, unknown> & { id: string })[];
  notes: Row[];
  activities: Row[];
  webhooks: Row[];
  /** v2 webhook payloads posted to subscribers (settled ones), oldest first. */
  sent: SentPipedriveWebhook[];
  fields: ReturnType<typeof seedFields>;
  v1Paging: V1PagingShape;
  /** Pipedrive's search index lags behind writes: a person is found by search this long after it is made. */
  searchLagMs: number;
  /** Person id → when search starts finding it. */
  indexedAt: Map<number, number>;
  seq: { person: number; org: number; deal: number; note: number; activity: number; webhook: number };
}

/** The record lists, which tests read straight off the emulator. */
export const RECORD_LISTS = ['persons', 'organizations', 'deals', 'leads', 'notes', 'activities', 'webhooks'] as const;
export type EmulatorRecords = Pick<EmulatorStore, (typeof RECORD_LISTS)[number]>;

export const recordsOf = (store: EmulatorStore) =>
  Object.fromEntries(RECORD_LISTS.map((key) => [key, store[key]])) as unknown as EmulatorRecords;

/** Back to the seed, in place: the same arrays stay exposed. */
export function clearStore(store: EmulatorStore): void {
  for (const key of RECORD_LISTS) store[key].length = 0;
  store.sent.length = 0;
  for (const k of Object.keys(store.seq) as (keyof EmulatorStore['seq'])[]) store.seq[k] = 0;
  store.fields = seedFields();
  store.v1Paging = 'nested';
  store.searchLagMs = 0;
  store.indexedAt.clear();
}

export function emptyStore(): EmulatorStore {
  return {
    persons: [],
    organizations: [],
    deals: [],
    leads: [],
    notes: [],
    activities: [],
    webhooks: [],
    sent: [],
    fields: seedFields(),
    v1Paging: 'nested',
    searchLagMs: 0,
    indexedAt: new Map(),
    seq: { person: 0, org: 0, deal: 0, note: 0, activity: 0, webhook: 0 },
  };
}

export interface PipedriveFault {
  status: number;
  /** Seconds, sent as Retry-After and x-ratelimit-reset. */
  retryAfter?: number;
  times?: number;
  /** Pipedrive's `error` text; default "emulated fault" (401: "unauthorized access"). */
  error?: string;
  /** Only requests whose "METHOD /path" contains this string fail (e.g. "POST /v1/leads"). */
  match?: string;
}

export interface EmulatedCall {
  method: string;
  /** Path without the query. */
  path: string;
  query: Record<string, string>;
  body: unknown;
  auth: 'bearer' | 'token' | 'none';
  status: number;
}

/** What the entry, the OAuth routes and the gate share; scalars are fields so each sees the current value. */
export interface PipedriveRuntime {
  clientId: string;
  clientSecret: string;
  apiToken: string;
  /** Access-token lifetime in seconds. */
  ttl: number;
  /** Access token → expiry (epoch ms). */
  accessTokens: Map<string, number>;
  /** Pipedrive keeps refresh tokens usable after a refresh, so they are never spent here. */
  refreshTokens: Set<string>;
  codes: Map<string, { redirectUri: string }>;
  refreshes: number;
  burstLimit: number;
  limiter: SlidingWindow;
  kit: EmulatorKit<PipedriveFault, EmulatedCall>;
  /** The emulator's origin (the api_domain its tokens name), known once it listens. */
  origin(): string;
}
