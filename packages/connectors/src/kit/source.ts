// What a lead SOURCE declares (issue 29, docs/adr/013-connector-declarations.md "Sources"): the
// items it brings (a shop's orders, a lead form's submissions) and how each becomes one lead, the
// receivers the sender calls, the poll that covers what a receiver missed, our receiver's
// subscription at the sender, and what its screen reads of all that. The server mounts the
// receivers, runs the polls, keeps the cursor and the subscription in one generic state row per
// integration and the items it has seen in one generic table, so a webhook and a poll never make
// one item two leads.
import type { ErrorCode } from '@leadrelay/shared';
import type { z } from 'zod';
import type { ConnectorContext } from './types';

/** One thing a source brings: one lead, once per id per integration. */
export interface SourceItem {
  /** The sender's id of it (an order's id): a receiver and the poll bringing it both make one lead. */
  id: string;
  /** The flat fields ingest maps into the lead (the integration's mapping, filters and destinations). */
  payload: Record<string, string>;
  /**
   * The sender says it is a test (a lead form's "send test data"): the lead is taken as any other and
   * its hook is marked TEST_LEAD in the lead log, so nobody calls a person who does not exist.
   */
  test?: boolean;
}

/** How an item came first. */
export type SourceVia = 'webhook' | 'poll';

/** What became of one item: ingest's status (pending, accepted, held, filtered, duplicate), or `repeat` (seen already: counted, nothing written). */
export interface SourceItemOutcome {
  id: string;
  status: string;
  hookId: string | null;
}

/** How items become leads and how long they are remembered. */
export interface SourceItems {
  /**
   * The prefix of ingest's dedupe key, `<key>:<id>` (`<slug>-order`): the guard when two copies
   * arrive at the same moment, and the lead's source id. Stored keys carry it: never renamed.
   */
  key: string;
  /** The header naming the item's id on its hook's stored request (`x-<slug>-order-id`). */
  header: string;
  /** ingest's key lives at least this long (the integration's own window may be longer). */
  dedupeWindowHours: number;
  /** An id seen is remembered this long (the screen's list, the first check before ingest). */
  keepForMs: number;
  /** What the screen's list keeps of an item beside its id, from its payload as stored (text cleaned). */
  summary?: (payload: Record<string, string>) => Record<string, string | null>;
}

/**
 * A path the sender calls with items, proved by the integration's secret ingest token in it (for
 * senders that sign nothing). The body is read as JSON whatever its content type says, up to the
 * webhook body limit; every other method answers 405 naming the ones it takes.
 */
export interface SourceReceiver {
  path: `/api/${string}/:token`;
  methods: readonly ('POST' | 'PUT')[];
  /** The API document's line for it. */
  summary: string;
  /** The sender cannot change its bodies: `__proto__` and `constructor` keys are fields (plugins/input.ts, ADR 011). */
  keysAsData?: boolean;
  /** The items of a parsed body, each once, in the order sent; never throws (junk gives none). */
  read: (body: unknown) => SourceItem[];
  /** The API error of a body with no item in it (400). */
  empty: ErrorCode;
  /**
   * A sender that proves itself with a secret inside its body (a key the person pasted into the
   * sender's settings), checked against the integration's stored credentials after the body is
   * parsed and before anything is stored: `check` false answers `refused` (a 4xx key of the
   * connector's codes), and no lead, no seen item is written.
   */
  verify?: { check: (body: unknown, auth: Record<string, unknown>) => boolean; refused: ErrorCode };
  /** The sender tells us with a DELETE here that it removed our subscription (the screen says so). */
  removal?: { summary: string };
  /** The answer once every item's lead is committed; default `{ok: true, items: [{id, status, hookId}]}`. */
  reply?: { schema: z.ZodType; body: (outcomes: SourceItemOutcome[]) => unknown };
}

/** Where a poll starts: the cursor it left, when the source was connected, and this run's start. */
export interface SourcePollRun {
  /** What the last complete run returned (`start`'s value for a fresh connection). */
  cursor: unknown;
  /** The connection's time: items made before were not leads of ours. */
  from: Date;
  now: Date;
}

export interface SourcePolled {
  items: SourceItem[];
  /** The cursor to keep; absent: keep the old one (the next run reads the window again). */
  cursor?: unknown;
  /** A code kept as the poll's last error although the run worked (a window read in part). */
  note?: string;
}

/**
 * A periodic task the server runs for every active, connected integration of the type, a few at a
 * time under the scheduler's lock, with the cursor it stores. A refused login (`AUTH`) or
 * credentials no key opens mark the integration broken; its next good run mends it.
 */
export interface SourcePoll<Auth, Settings> {
  /** The periodic task's name (stable: its lock key comes from it). */
  task: string;
  everyMs: number;
  /** Integrations polled at once. */
  concurrency: number;
  /** One integration's whole run ends by then; each request by `requestTimeoutMs`. */
  timeoutMs: number;
  requestTimeoutMs: number;
  /** The cursor of a fresh connection. */
  start: (now: Date) => unknown;
  run: (ctx: ConnectorContext<Auth, Settings>, at: SourcePollRun) => Promise<SourcePolled>;
}

/** Our receiver registered at the sender (a shop's hooks/subscribe). */
export interface SourceSubscription<Auth, Settings> {
  /** The receiver (a key of `receivers`) whose URL, with the integration's token, is registered. */
  receiver: string;
  subscribe: (ctx: ConnectorContext<Auth, Settings>, url: string) => Promise<{ id: string }>;
  /** One the sender no longer has is not an error. */
  unsubscribe: (ctx: ConnectorContext<Auth, Settings>, subscription: { id: string; url: string }) => Promise<void>;
}

/** One item the integration has seen, as its screen lists it. */
export interface SourceSeenItem {
  id: string;
  via: SourceVia;
  /** How many times it came (a repeated webhook, every poll that found it again). */
  timesSeen: number;
  hookId: string | null;
  /** Its hook's status now; null once the hook was deleted. */
  status: string | null;
  summary: Record<string, string | null>;
  firstSeenAt: Date;
  lastSeenAt: Date;
}

/** What the server knows of a source, for its screen. */
export interface SourceView {
  /** The stored credentials, opened ({} when none or no key opens them): the view tells how, never what. */
  auth: Record<string, unknown>;
  settings: Record<string, unknown>;
  subscription: { status: 'none' | 'active' | 'removed'; registeredAt: Date | null; removedAt: Date | null };
  poll: { cursor: unknown; lastRunAt: Date | null; lastError: string | null };
  /**
   * Each receiver's public URL with the integration's secret token, by the receiver's name (what a
   * sender nobody can subscribe us at is told to call); empty before the integration has a token.
   */
  receivers?: Readonly<Record<string, string>>;
  /** The newest `recent`, newest first. */
  seen: SourceSeenItem[];
}

/** GET /api/integrations/{id}/source (and its aliases): the connector's reading of the view. */
export interface SourceState {
  recent: number;
  schema: z.ZodType;
  read: (view: SourceView) => unknown;
}

export interface ConnectorSource<Auth, Settings> {
  items: SourceItems;
  /** Its own connect form (typed-in credentials and settings). */
  connect?: SourceConnect<Auth, Settings>;
  receivers?: Readonly<Record<string, SourceReceiver>>;
  poll?: SourcePoll<Auth, Settings>;
  subscription?: SourceSubscription<Auth, Settings>;
  state?: SourceState;
}

/**
 * A source's connect: credentials typed in on its own form, checked with the service and traded
 * before anything is stored, with the settings they come with (a shop's address): POST
 * /api/integrations/{id}/connect answers `{data: {integration}}`. Unlike a destination's
 * `connect` (ConnectorDefinition.connect, POST …/credentials), it may name another account at the
 * other end, which starts the source afresh (its receiver's URL, subscription and cursor).
 */
export interface SourceConnect<Auth, Settings> {
  body: z.ZodType;
  /** What to store: the credentials (sealed) and settings laid over the stored ones. Throws a classified failure. */
  run: (
    call: Omit<ConnectorContext<Auth, Settings>, 'auth' | 'settings'>,
    body: unknown,
  ) => Promise<{ auth: Auth; settings: Partial<Settings> }>;
  /** The account at the other end the settings name (a shop's address): another one starts a source afresh. */
  account?: (settings: Record<string, unknown>) => string | undefined;
}

/** How the connector's failures answer on the paths that call it for a person (connect, subscribe) and in a poll's last error. */
export interface ConnectorErrors {
  /** By the failure's `code` (kit/errors.ts): the API error, the form field it concerns, `bare` for the key's own words. */
  byCode: Readonly<Record<string, ErrorCode | { key: ErrorCode; field?: string; bare?: boolean }>>;
  /** Any other failure (network, timeout, 429, 5xx: the service may answer later). */
  otherwise: ErrorCode;
  /** The service's own words about a failure (never ours, never a secret): the error's message, kept after a colon. */
  words?: (error: unknown) => string | undefined;
}

/**
 * The spec's own paths for a connector's connect and a source's screen (`:id` the integration),
 * mounted beside the generic ones with the same answers: connect POST (its source's), state GET, poll POST,
 * subscribe POST, unsubscribe DELETE.
 */
export type SourceAlias = { path: `/api/${string}:id${string}`; summary?: string } & {
  source: 'connect' | 'state' | 'poll' | 'subscribe' | 'unsubscribe';
};
