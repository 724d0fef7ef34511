// The connector contract (house style: "a connector is one folder and one typed object").
// The delivery engine in apps/server calls only what is declared here.
import type { Assignee, Lead } from '@leadrelay/shared';
import type { z } from 'zod';
import type { ConnectorCodes } from './codes';
import type { ConnectorConnections } from './connection';
import type { ConnectRefusal } from './errors';
import type { LockKeys } from './keyed-lock';
import type { ConnectorErrors, ConnectorSource, SourceAlias } from './source';

export interface ConnectorLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

/** What a connector gets for one call. It never reads env and never builds its own HTTP stack. */
export interface ConnectorContext<Auth, Settings> {
  auth: Auth;
  settings: Settings;
  /** Base URL of the external API, from configuration (our emulators in tests and demos). */
  baseUrl?: string;
  /** SSRF-safe fetch for user-supplied URLs; the only way a connector talks HTTP. */
  fetch: typeof fetch;
  logger: ConnectorLogger;
  signal: AbortSignal;
  /**
   * The app's OAuth client for this connector (client id and secret from configuration, never from
   * the user), for connectors that refresh tokens. Absent when the operator configured none.
   */
  oauth?: OAuthClient;
  /**
   * Replaces stale credentials (an expired access token) once across every worker: runs `refresh`
   * under a per-integration lock with the credentials stored now. When those differ from `stale`,
   * another call already refreshed them and they are returned without calling `refresh`. What
   * `refresh` returns is stored (sealed) before it is returned. Absent where nothing can be stored;
   * a connector then refreshes in memory.
   */
  rotateAuth?: (stale: Auth, refresh: (current: Auth) => Promise<Auth>) => Promise<Auth>;
  /**
   * Runs `fn` while no other call (in any worker) holds any of the same keys for this integration, e.g.
   * a contact's phone and e-mail while searching for and creating it (kit/keyed-lock personLockKeys),
   * so two leads for one person make one contact.
   * Absent in contexts that never race; a connector then runs `fn` directly.
   */
  withLock?: <T>(keys: LockKeys, fn: () => Promise<T>) => Promise<T>;
  /**
   * What this connection keeps between calls in this process (field lists, records it made lately),
   * instead of module-level maps: the server gives one per integration. Absent in a bare context
   * (a unit test); `cacheOf(ctx)` (kit/cache.ts) then keeps it on the context object itself.
   */
  cache?: ConnectorCache;
}

/** A connection's values by key, kept while the process lives (the server bounds how many connections it keeps). */
export interface ConnectorCache {
  /** The value under `key`, made by `create` (and kept) the first time. */
  get<T>(key: string, create: () => T): T;
  /** Forgets everything of this connection. */
  clear(): void;
}

/**
 * Operator configuration of one connector, by the names its definition declares in `config`
 * (<SLUG>_CLIENT_ID …): strings, host lists for `hosts` keys, undefined when unset.
 */
export type ConnectorConfig = Readonly<Record<string, string | string[] | undefined>>;

/** One configuration key: the server reads it from the environment and keeps it under the connector's slug. */
export interface ConfigKey {
  /** text (default): as given; url: a URL, trailing slashes dropped; hosts: comma-separated host patterns ("*.example.com"). */
  type?: 'text' | 'url' | 'hosts';
  /** The production value when the operator sets none. */
  default?: string;
}

/**
 * A connector that signs in with OAuth declares it; the server runs one generic flow for all of
 * them (state → consent → callback → code exchange → sealed credentials), reading the app's client
 * from the configuration keys named here.
 */
export interface ConnectorOAuth<Auth> {
  /** Configuration keys of the app's client id and secret; either unset answers OAUTH_NOT_CONFIGURED. */
  clientId: string;
  clientSecret: string;
  /** The consent page (OAuthClient.authorizeUrl). */
  authorizeUrl: (cfg: ConnectorConfig) => string;
  /** The token endpoint; `account`: the account's origin, where a provider keeps it on each account's host. */
  tokenUrl: (cfg: ConnectorConfig, account?: { origin: string }) => string | undefined;
  scopes: readonly string[];
  /**
   * Our callback the provider sends the browser back to: a path under the public URL or the auth
   * host (spec: {auth host}). The server mounts it at `path` (GET, public).
   * lands integration (default): the callback trades the code and sends the browser to the
   * integration's screen (?connected=1 or ?error=CODE); the state is bound to the browser that
   * started the flow by a cookie (`cookie`, default lr_oauth_<slug>) sent only to `path`.
   * connectScreen: the callback hands the code and state to the web's connect screen, which posts
   * them back signed in (a connect alias, or POST /api/oauth/{slug}/connect).
   */
  callback: { base: 'publicUrl' | 'authHost'; path: string; lands?: 'integration' | 'connectScreen'; cookie?: string };
  /**
   * Where the account's own API host comes from, and the `hosts` configuration key it must match.
   * referer: the callback's `referer` parameter, checked before the code is exchanged there (our
   * client secret goes to it). token: a field of what the exchange returns (the company's API domain),
   * checked (and reduced to its origin) before anything is stored.
   */
  accountHost?: { from: 'referer'; allowed: string } | { from: 'token'; field: string; allowed: string };
  /**
   * How long a refresh token lives unused, in days, where the provider says so: every stored
   * exchange or refresh moves the credential's end this far ahead, and the guardian warns the
   * account 7 days and 1 day before it (issue 19 part 4b).
   */
  refreshTokenLifetimeDays?: number;
  /** The consent page's full address for this state. */
  consentUrl: (client: OAuthClient, state: string) => string;
  /**
   * Trades the consent's code for credentials; `account` is the checked host (accountHost.from
   * 'referer'). Absent where the sign-in does not end in credentials on the integration (an account
   * connection's login: the server stores the account's connection and its assets); the generic flow refuses it.
   */
  exchangeCode?: (
    call: { fetch: typeof fetch; oauth: OAuthClient; signal?: AbortSignal },
    code: string,
    account?: string,
  ) => Promise<Auth>;
}

export interface OAuthClient {
  clientId: string;
  clientSecret: string;
  /** Where the user is sent to consent (the provider's authorize page). */
  authorizeUrl: string;
  /** The token endpoint when it is fixed; absent where it lives on the account's own host. */
  tokenUrl?: string;
  /** Our callback, registered with the provider. */
  redirectUri: string;
}

/** A webhook registered at the destination (a CRM's own webhooks API). */
export interface RemoteWebhook {
  id: string;
  url: string;
  /** e.g. "added.deal", "*.person" (the destination's own notation). */
  event: string;
  active: boolean;
}

export interface RemoteWebhookInput {
  url: string;
  /** Destination notation; the connector documents the values it takes. */
  event: string;
  name?: string;
}

/**
 * A stage or status change the CRM reported for one of its records (issue 19, speed to lead): a
 * manager worked the lead. `externalId` is what the connector's `deliver` returned for the record.
 */
export interface CrmStageChange {
  externalId: string;
  /** When the CRM says it changed; absent: when we heard of it. */
  at?: Date;
  /** The CRM user who changed it, as the CRM names them (an id; a name when the payload has one). */
  byId?: string;
  byName?: string;
  /**
   * What kind of record the CRM says it is, in the connector's words (a deal, a lead), where one
   * event names a record without saying whether it moved: `confirm` reads that kind.
   */
  kind?: string;
  /**
   * Which stage the record moved to (issue 33: each stage goes back to the ad platform as its own
   * event): the CRM's ids as text; the name where the event carries it (else `stageName` finds it).
   */
  stage?: CrmStage;
}

/** A CRM stage as a stage change names it: ids as the CRM's decimal or text ids. */
export interface CrmStage {
  id: string;
  name?: string;
  pipelineId?: string;
}

/** Our subscription at the CRM for its stage changes, as the CRM identifies it (to remove it later). */
export interface StageWatchSubscription {
  id: string;
  url: string;
}

/**
 * How the CRM tells us of stage changes (issue 19, speed to lead), one of two set-ups: StageWatch
 * (we subscribe by the CRM's API) or PastedStageWatch (the person makes the CRM's outgoing webhook by
 * hand with our address and pastes back the token the CRM shows). A connector declares one of them.
 */
export type AnyStageWatch<Auth, Settings> = StageWatch<Auth, Settings> | PastedStageWatch<Auth, Settings>;

interface StageWatchBase<Auth, Settings> {
  /**
   * What the CRM posts to us, in a sentence (the API document's summary of
   * POST /api/{slug}/events/{integrationId}/{secret}, where the server receives it).
   */
  summary: string;
  /**
   * The stage changes in one webhook body (already parsed: JSON, or form fields by their bracket
   * names); null when the body is not the CRM's shape at all. Other events in a well-formed body are [].
   * A pasted watch gives the records the body names, each then `confirm`ed.
   */
  read: (body: unknown) => CrmStageChange[] | null;
  /**
   * The name of a stage a change names without it (issue 33), from the CRM's pipelines list (the
   * connector's loader, cached per connection: kit/stage-names.ts); undefined when the CRM has no such stage.
   */
  stageName?: (ctx: ConnectorContext<Auth, Settings>, stage: CrmStage) => Promise<string | undefined>;
}

/** We subscribe our address (with its secret) at the CRM by its API, and remove it with the destination. */
export interface StageWatch<Auth, Settings> extends StageWatchBase<Auth, Settings> {
  setup?: 'subscribe';
  /** Subscribes `url` (ours, with its secret) to the CRM's stage changes. */
  subscribe: (ctx: ConnectorContext<Auth, Settings>, url: string) => Promise<StageWatchSubscription>;
  /** Removes the subscription; one the CRM no longer has is not an error. */
  unsubscribe: (ctx: ConnectorContext<Auth, Settings>, subscription: StageWatchSubscription) => Promise<void>;
}

/**
 * The CRM cannot be subscribed by API (its events need an app): the person makes its outgoing webhook
 * by hand with our address (the destination's page shows it, with its secret) and pastes back the
 * token the CRM shows, which every event carries. The server keeps the token sealed with the watch's
 * secret and compares it (constant time) before anything is read; an event names a record only, so
 * each one we delivered is `confirm`ed with the connection (its client reads the record's stage).
 * A CRM whose outgoing webhook carries no token of its own (`PastedWithoutToken`) has the secret in
 * our address as its only key: nothing is pasted back, and the confirmation is the real check.
 */
export type PastedStageWatch<Auth, Settings> =
  | TokenPastedStageWatch<Auth, Settings>
  | (PastedStageWatchBase<Auth, Settings> & PastedWithoutToken);
/** A pasted watch whose CRM puts the pasted token in every event. */
export type TokenPastedStageWatch<Auth, Settings> = PastedStageWatchBase<Auth, Settings> & PastedWithToken;

interface PastedStageWatchBase<Auth, Settings> extends StageWatchBase<Auth, Settings> {
  setup: 'pasted';
  /**
   * Reads the record a change of `read` names, one we delivered: the change (with when and who, where
   * the CRM keeps them) when its stage moved since we made it, else undefined.
   */
  confirm: (ctx: ConnectorContext<Auth, Settings>, change: CrmStageChange) => Promise<CrmStageChange | undefined>;
}

/** The CRM shows a token for its outgoing webhook and puts it in every event. */
interface PastedWithToken {
  /** The token as the person pastes it: checked before it is stored. */
  token: z.ZodType<string>;
  /** The token the CRM put in the body (undefined: none), compared with the stored one. */
  tokenOf: (body: unknown) => string | undefined;
  /** The connector's own error key (its codes.ts, a 401 or 403) for an event whose token is not the stored one. */
  tokenRefused: string;
}

/**
 * The CRM's outgoing webhook carries nothing we could check (its body is the CRM's own): nothing is
 * pasted back; the watch is waiting until the CRM's first call reaches our address, watching since.
 */
interface PastedWithoutToken {
  token?: undefined;
  tokenOf?: undefined;
  tokenRefused?: undefined;
}

export interface DeliveryInput {
  lead: Lead;
  /** Stable per (lead, destination): a retry sends the same key, so a destination that can tell makes one record. */
  idempotencyKey: string;
  /**
   * An earlier attempt of this delivery may have made the record although its result was never
   * stored: a worker died or gave up its lease mid-call (the lease ran out and this is a takeover),
   * or the call timed out, lost its connection or got a 5xx, or it even succeeded but the result
   * was not stored. A connector that can look its record up by `idempotencyKey` (a marker it stored
   * at creation) does so before creating again; on the normal path (false or absent) it need not
   * spend that call. Destinations that honour the key themselves (http's Idempotency-Key) ignore it.
   */
  outcomeUnknown?: boolean;
  assignee?: Assignee;
  /** The source's raw payload, for notes. */
  raw?: unknown;
  /**
   * What the server's provider of the connector's `deliveryContext` adds to this delivery (the
   * manager bot's `manager-chat`: the recipient's chat, the lead's id and link, its earlier cards).
   * Each connector that reads it types and checks it itself.
   */
  extra?: unknown;
}

/** What the engine stores of an attempt (already redacted by the connector). */
export interface AttemptTrace {
  request?: { method: string; url: string; headers?: Record<string, string>; body?: unknown };
  response?: { status: number; headers?: Record<string, string>; body?: unknown };
}

export interface DeliveryResult extends AttemptTrace {
  /** The record's id at the destination, when it tells. */
  externalId?: string;
  /**
   * A code (and a detail after ': ') saying why the destination did less than usual, kept as the
   * delivery's note for the web to translate: an SMS skipped because the number is not a mobile.
   */
  note?: string;
  /**
   * What the connector reports for its type's own bookkeeping, handed to the server's recorder of
   * the type in the transaction that stores the result (an SMS destination: the messages it sent, for the SMS log).
   */
  records?: unknown[];
}

export interface FieldOption {
  key: string;
  label: string;
  type?: string;
  options?: { value: string; label: string }[];
}

/**
 * Something the integration's screen may ask the connector to do beyond the generic calls (an analytics
 * destination: send a test lead to Google's validation server): POST /api/integrations/{id}/actions/{name}, body
 * checked with `body`, the answer with `response`.
 */
export interface ConnectorAction<Auth, Settings> {
  body?: z.ZodType;
  response?: z.ZodType;
  /**
   * The answer is kept as a record of this kind (its `data`; the kind's `keep` bounds how many): the
   * route then answers 201 with the kept record as the kind lists it (a CRM's settings backups).
   */
  keep?: string;
  /** `integration`: the row as stored (its settings as saved, not as the schema fills them in). */
  run: (
    ctx: ConnectorContext<Auth, Settings>,
    body: unknown,
    integration: { id: string; settings: unknown },
  ) => Promise<unknown>;
}

/** One record as the connector describes it: its key (unique per integration and kind), state and fields. */
export interface ConnectorRecordInput {
  /** The destination's id of it (an SMS provider's message id): a result stored twice keeps one record. */
  key: string;
  status: string;
  /** Whether `refresh` should still ask about it. */
  open: boolean;
  /** Its own fields, shown as they are beside the generic ones (never `_id`, `status` …). */
  data: Record<string, unknown>;
}

/** A stored record as a kind's `view` gets it. */
export interface KeptRecord {
  id: string;
  integrationId: string;
  key: string;
  status: string;
  data: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
}

/** A stored record as `refresh` gets it. */
export interface StoredConnectorRecord {
  key: string;
  status: string;
  data: Record<string, unknown>;
  createdAt: Date;
}

/** What `refresh` learned of one record: a new status, whether it stays open, fields merged over its own. */
export interface ConnectorRecordUpdate {
  status?: string;
  open?: boolean;
  data?: Record<string, unknown>;
}

/**
 * A kind of record the connector keeps of what it delivered (an SMS destination: the messages it sent), in
 * the server's generic table: read from DeliveryResult.records in the transaction that stores the
 * delivery's result, listed by GET /api/integrations/{id}/records/{kind}, and kept current by a
 * periodic task when the destination is asked about them later.
 */
export interface ConnectorRecordKind<Auth, Settings> {
  /** Every status a record of the kind may have (the list's filter). */
  statuses: readonly string[];
  /** One entry of DeliveryResult.records as a record of this kind; null when it is not one. Absent: deliveries make none (an action keeps them). */
  read?: (entry: unknown) => ConnectorRecordInput | null;
  /** One listed record (generic fields and the kind's own), for the API's docs and its answer's check. */
  item: z.ZodType;
  /** At most this many are kept per integration: a new one pushes the oldest out. */
  keep?: number;
  /** How a record is listed; absent: its own fields beside the generic ones (`_id`, `integration`, `status` …). */
  view?: (record: KeptRecord) => unknown;
  /** Asks the destination about open records, one call per connection and run. */
  refresh?: {
    /** The periodic task's name. */
    task: string;
    everyMs: number;
    /** How soon one record is asked about again. */
    recheckMs: number;
    /** After this long a record is no longer asked about. */
    openForMs: number;
    /** Records asked about per run. */
    batch: number;
    /** What changed of each record, in the order given (undefined: nothing known). */
    run: (
      ctx: ConnectorContext<Auth, Settings>,
      records: StoredConnectorRecord[],
    ) => Promise<(ConnectorRecordUpdate | undefined)[]>;
  };
}

/**
 * What a refused call to the destination answers: CONNECTION_FAILED (default), or CRM_REQUEST_FAILED
 * with the destination's reason when it refused the request itself (a 4xx other than auth).
 */
export type AliasRefusal = 'CONNECTION_FAILED' | 'CRM_REQUEST_FAILED';

/**
 * A path of the spec (or one kept for API users) that answers what the definition declares, with
 * the connector's schemas: the server mounts each kind once (apps/server connector aliases), beside
 * the generic routes under /api/integrations/{id}/… Every `:id` / `integrationId` must be the
 * caller's own integration of the connector's type, else 404 INTEGRATION_NOT_FOUND.
 */
export type ConnectorAlias =
  /** GET <path>/:id: a loader's list (the generic …/{type}/lists/{list}). */
  | { method: 'GET'; path: `${string}/:id`; list: string; response: z.ZodType; refusal?: AliasRefusal }
  /**
   * POST: an action (the generic …/actions/{action}); the integration is the path's `:id`, or, on a
   * path without one, the body's `integrationId` (`body` then checks the whole body).
   */
  | { method: 'POST'; path: string; action: string; body?: z.ZodType }
  | {
      method: 'GET';
      path: string;
      /** The account's records of this kind over all its integrations of the type. */
      records: string;
      /** page, limit, status and an optional integrationId. */
      query: z.ZodType<{ page: number; limit: number; status?: string; integrationId?: string }>;
      response: z.ZodType;
    }
  /** GET <path>/:id: one integration's records of this kind, newest first, as many as the kind keeps ({data, total}). */
  | { method: 'GET'; path: `${string}/:id`; records: string; response: z.ZodType }
  /**
   * The OAuth connect flow's steps (the generic POST …/oauth/start does start in one):
   * start {integrationId, locale?} → {url}, the state bound to this browser for the callback;
   * state {integrationId, locale?} → {state}; consent {state} → {authUrl}.
   */
  | { method: 'POST'; path: string; oauth: 'start' | 'state' | 'consent' }
  /**
   * POST: connects the integration the body names with what was typed in (the definition's
   * `connect`; the generic POST …/credentials), or, for a body without `integrationId`, with the
   * code and state the OAuth callback handed the connect screen. `body` and `response`: the path's
   * own schemas where they are not the definition's `connect` ones (a code or a token).
   */
  | { method: 'POST'; path: string; connect: true; body?: z.ZodType; response?: z.ZodType }
  /** GET <path>/:id: how the integration is connected, nothing secret (the definition's `account`). */
  | { method: 'GET'; path: `${string}/:id`; account: true }
  /** The destination's webhooks (the definition's `webhooks`): list, create {url, event, name?}, remove ?id. */
  | { method: 'GET'; path: `${string}/:integrationId`; webhooks: 'list'; response: z.ZodType; refusal?: AliasRefusal }
  | {
      method: 'POST';
      path: `${string}/:integrationId`;
      webhooks: 'create';
      body: z.ZodType<RemoteWebhookInput>;
      response: z.ZodType;
      refusal?: AliasRefusal;
    }
  | {
      method: 'DELETE';
      path: `${string}/:integrationId`;
      webhooks: 'remove';
      query: z.ZodType<{ id: string }>;
      refusal?: AliasRefusal;
    }
  /** A source's connect, state, poll and subscription (kit/source.ts). */
  | SourceAlias;

/**
 * What a connector's `connect` gets besides what was typed: the server's safe fetch and signal, its
 * configuration, and the check of an address credentials may be sent to.
 */
export interface ConnectCall {
  fetch: typeof fetch;
  signal: AbortSignal;
  config: ConnectorConfig;
  /** The definition's baseUrl from the configuration. */
  baseUrl?: string;
  /**
   * `url`'s origin when credentials may go there: https (plain http only where private destinations
   * are allowed), no user in it, on a host the `hosts` configuration key `hostsKey` allows; else undefined.
   */
  allowedOrigin: (url: URL, hostsKey: string) => string | undefined;
}

/**
 * Credentials typed in that the connector checks and trades itself (an API token, a password sent
 * once to a checked host, a webhook URL): POST /api/integrations/{id}/credentials and its aliases.
 * The server tries them (testConnection) before anything is stored, then stores them sealed.
 */
export interface ConnectorConnect<Auth> {
  /** The body, `integrationId` included (the generic route fills it in from its path). */
  body: z.ZodType;
  /** The answer, {integrationId, type} and what `answer` adds, for the API's docs. */
  response: z.ZodType;
  /** What was typed as credentials; throws ConnectRefusal for what the person can put right. */
  credentials: (call: ConnectCall, body: unknown) => Promise<Auth>;
  /** The settings the check runs with; default the stored ones (only what the check needs). */
  checkSettings?: (stored: unknown) => unknown;
  /** What a failure of `credentials` or of the check means; undefined: CONNECTION_FAILED with its reason. */
  refusal?: (error: unknown, body: unknown) => ConnectRefusal | undefined;
  /** The answer's fields beside {integrationId, type}. */
  answer?: (body: unknown) => Record<string, unknown>;
}

/** How the integration is connected, nothing secret (the account's host, the e-mail signed in with). */
export interface ConnectorAccount<Auth> {
  response: z.ZodType;
  /** From its credentials; undefined: none stored, or not the connector's shape. */
  describe: (auth: Auth | undefined) => unknown;
}

/** A start-up warning about a configuration key: `message` is logged with the rest as its details. */
export interface ConfigWarning {
  /** The key (env name) to change. */
  setting: string;
  message: string;
  [detail: string]: string;
}

/** The stand-in for a connector's service that EMULATORS=true runs on loopback (demo installs, end-to-end tests). */
export interface ConnectorDemo {
  /** The connector's configuration keys that point it at the emulator (<SLUG>_API_URL …), as env gives them. */
  config: Readonly<Record<string, string>>;
  /** What GET /api/emulators tells of it: its address and the credentials a demo user types in. */
  info: Readonly<Record<string, unknown>>;
  close(): Promise<void>;
}

export interface ConnectorDefinition<Auth = unknown, Settings = unknown> {
  slug: string;
  kind: 'source' | 'destination';
  auth: z.ZodType<Auth>;
  settings: z.ZodType<Settings>;
  /**
   * manual (default): PUT .../connect may store credentials the user types in. oauth: credentials come
   * only from the connector's own connect flow (they name hosts our client secret is sent to), so
   * PUT .../connect refuses `auth` and takes settings only. elsewhere: the credentials do not live on
   * the integration at all (a lead-form source: the account's connection, kit/connection.ts), so PUT .../connect refuses.
   * own: like oauth, credentials come only from the connector's own connect route on the server, which
   * checks and trades what the user typed (a password sent once to a checked host).
   */
  connectAuth?: 'manual' | 'oauth' | 'own' | 'elsewhere';
  /** The configuration keys the connector reads (env names; the server's only reader of env reads them). */
  config?: Readonly<Record<string, ConfigKey>>;
  /** The API host for connections whose host is not per account (ctx.baseUrl), from the configuration. */
  baseUrl?: (cfg: ConnectorConfig) => string | undefined;
  /** OAuth sign-in, run by the server's generic connect flow. */
  oauth?: ConnectorOAuth<Auth>;
  /** Field and user lists for the integration screens ({type}/fields, {type}/users). */
  loaders?: {
    fields?: (ctx: ConnectorContext<Auth, Settings>) => Promise<FieldOption[]>;
    users?: (ctx: ConnectorContext<Auth, Settings>) => Promise<{ id: string; name: string }[]>;
    /** Connector-specific lists behind their own spec routes (pipelines, stages, dealFields, ...). */
    [list: string]: ((ctx: ConnectorContext<Auth, Settings>) => Promise<unknown>) | undefined;
  };
  /**
   * What the destination refusing a loader's request itself (a 4xx other than auth) answers on the
   * generic GET /api/integrations/{id}/{type}/lists/{list}: CRM_REQUEST_FAILED with its reason, as a
   * CRM's own list paths answer; by default CONNECTION_FAILED. (A list alias says its own `refusal`.)
   */
  loaderRefusal?: AliasRefusal;
  /** Webhooks at the destination (POST /api/integrations/{id}/{type}/webhooks and the CRM's own routes). */
  webhooks?: {
    /** What a webhook to create must be (its event in the destination's notation); the server checks it. */
    body?: z.ZodType<RemoteWebhookInput>;
    list: (ctx: ConnectorContext<Auth, Settings>) => Promise<RemoteWebhook[]>;
    create: (ctx: ConnectorContext<Auth, Settings>, input: RemoteWebhookInput) => Promise<RemoteWebhook>;
    remove: (ctx: ConnectorContext<Auth, Settings>, id: string) => Promise<void>;
  };
  /** The CRM tells us when a record we delivered changes stage: a manager's first reaction (issue 19). */
  stageWatch?: StageWatch<Auth, Settings>;
  /**
   * The same, where the person sets the CRM's outgoing webhook up by hand (its events need an app to
   * be subscribed by API): instead of `stageWatch`, never with it.
   */
  pastedStageWatch?: PastedStageWatch<Auth, Settings>;
  /** Starts its emulator for EMULATORS=true (a lazy import: a normal start never loads emulator code). */
  demo?: (app: { publicUrl: string }) => Promise<ConnectorDemo>;
  /** What the server logs at start about its configuration: a setting the operator should change. */
  startupWarnings?: (cfg: ConnectorConfig, at?: Date) => readonly ConfigWarning[];
  /** Credentials typed in that it checks and trades itself (POST /api/integrations/{id}/credentials). */
  connect?: ConnectorConnect<Auth>;
  /** How the integration is connected, nothing secret (GET /api/integrations/{id}/account). */
  account?: ConnectorAccount<Auth>;
  /** What the integration's screen may ask of it besides lists (POST /api/integrations/{id}/actions/{name}). */
  actions?: Readonly<Record<string, ConnectorAction<Auth, Settings>>>;
  /** What it keeps of its deliveries, by kind (GET /api/integrations/{id}/records/{kind}). */
  records?: Readonly<Record<string, ConnectorRecordKind<Auth, Settings>>>;
  /** The spec's own paths for what it declares (thin aliases of the generic routes). */
  aliases?: readonly ConnectorAlias[];
  /** How its failures answer on its own paths (a source's connect, subscribe) and in a poll's last error. */
  errors?: ConnectorErrors;
  /**
   * Its own API error keys (with their HTTP statuses), reason codes and which of those mean "connect
   * again", with their words (kit/codes.ts: the folder's codes.ts and words/codes/{uk,en}.json).
   */
  codes?: ConnectorCodes;
  /** A source's receivers, poll, subscription, items and own connect (kit/source.ts). */
  source?: ConnectorSource<Auth, Settings>;
  /**
   * What a product module of the server adds to each of its deliveries (DeliveryInput.extra) and
   * keeps of their results, named by what it is, never by the connector (ADR 013 "Delivery
   * contexts"): `manager-chat`, the manager bot's (the assignee's linked chat, the lead's id and link,
   * the lead's open cards to other managers; it keeps the cards sent). A delivery whose context no
   * module provides gets none (`extra` undefined), which the connector refuses as a configuration fault.
   */
  deliveryContext?: string;
  /**
   * Its delivery goes to the lead's assignee in person (a manager's card): a lead passed to another
   * manager (escalation) is delivered to it again, for the new holder; a CRM keeps the lead it has.
   */
  deliversToAssignee?: boolean;
  /**
   * An account connection its integrations share (a login with assets under it), the events its
   * service sends about an asset and their backfill (kit/connection.ts).
   */
  connections?: ConnectorConnections;
  /**
   * A source whose leads' CRM stages go back to the service as conversion events (issue 33, Meta's
   * Conversions API): the account connection whose token sends them, and the lead's id at the service.
   */
  conversions?: ConnectorConversions;
  testConnection?: (ctx: ConnectorContext<Auth, Settings>) => Promise<void>;
  /**
   * The destination makes a contact (or a person) of each lead, as a CRM does: a lead with no phone,
   * e-mail or name is refused (PermanentError LEAD_NO_CONTACT) before any call instead of making an
   * empty one. defineConnector applies it to `deliver`.
   */
  requiresContact?: boolean;
  /**
   * Throws RetryableError or PermanentError (kit/errors.ts), or DeferredError to be called again
   * later without a failure; anything else counts as retryable.
   */
  deliver?: (ctx: ConnectorContext<Auth, Settings>, input: DeliveryInput) => Promise<DeliveryResult>;
}

/** What a source declares for the server's conversion events (issue 33). */
export interface ConnectorConversions {
  /** The id of the account connection (kit/connection.ts) an integration's settings name; undefined: none. */
  connectionOf: (settings: unknown) => string | undefined;
  /** The lead's id at the service (a leadgen id) from the lead's stored payload; undefined: none. */
  leadIdOf: (raw: unknown) => string | undefined;
  /** Reasons (its codes.ts) after which the integration's events wait until it is fixed: a lost permission, the dataset gone. */
  holdOn: readonly string[];
  /** The reason stored for an event the service no longer takes for its age. */
  tooOld: string;
  /** The reason (one of holdOn) when the dataset chosen is no longer among those the connection reaches. */
  datasetGone: string;
}
