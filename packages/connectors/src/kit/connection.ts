// What a connector whose integrations share an ACCOUNT CONNECTION declares (issue 29, ADR 013
// "Connections and assets"): one login at the service that several integrations of an account use
// (a lead-ads profile's user token; other ad platforms' logins have the same shape), the assets
// it reaches (pages with their own tokens, ad accounts), the events the service sends about an asset
// (a leadgen notification), kept until processed, and the backfill of what those missed. The server
// keeps connections, assets, events and backfill cursors in generic tables, runs the login, the
// receiver, the processor and the sweep, and marks a connection broken when the service refuses it;
// the connector says what the service is: its calls, its error classes and its answers' shapes.
import type { ErrorCode } from '@leadrelay/shared';
import type { z } from 'zod';
import type { ConnectorConfig } from './types';

/** What each call of the connection's service gets: the configuration, the server's safe fetch. */
export interface ConnectionCall {
  config: ConnectorConfig;
  fetch: typeof fetch;
  timeoutMs: number;
}

/** A token the service issued (a login's, an asset's). */
export interface ConnectionToken {
  accessToken: string;
  /** Seconds it lives; absent when the service does not say. */
  expiresIn?: number;
}

/** An asset the connection reaches, as the service lists it. */
export interface ConnectionAssetInput {
  externalId: string;
  name: string;
  /** The connector's own fields of it (a page's category). */
  details?: Record<string, string | null>;
  /** Its own token (a page token), sealed by the server. */
  accessToken?: string;
}

/** Who logged in and what they reach. */
export interface ConnectionProfile {
  externalId: string;
  name: string;
  email?: string;
  /** By asset kind; a kind the service would not list (null: no permission) keeps what is stored. */
  assets: Readonly<Record<string, ConnectionAssetInput[] | null>>;
}

/** An event about an asset (a lead submitted on a page's form): stored before the service is answered. */
export interface InboundEventInput {
  /** The service's id of its item (a leadgen id): one stored event per connector and id. */
  externalId: string;
  /** The asset it is about, by the service's id (a page id). */
  assetId: string;
  /** What else it says, in the connector's shape ({formId}). */
  data?: Record<string, string>;
}

/** A stored event as the processor hands it to the connector. */
export interface InboundEvent {
  externalId: string;
  assetId: string;
  data: Record<string, string>;
}

/** A connection row as the connector's views see it (nothing secret). */
export interface ConnectionView {
  id: string;
  externalId: string;
  name: string;
  email: string | null;
  status: 'ok' | 'broken';
  statusReason: string | null;
  expiresAt: Date | null;
  createdAt: Date;
}

/** An asset row as the connector's views see it (nothing secret). */
export interface AssetView {
  connectionId: string;
  externalId: string;
  name: string;
  details: Record<string, string | null>;
  subscribed: boolean;
}

/** An asset's live state at the service. */
export interface AssetState {
  /** What the asset offers integrations (a page's lead forms), in the connector's shape. */
  forms: unknown[];
  /** The service still sends us the asset's events (our app installed on the page). */
  subscribed: boolean;
}

/** Something an integration of the connector asks of its asset (a test lead), with its body and answer. */
export interface ConnectionAction {
  body?: z.ZodType;
  response: z.ZodType;
  /**
   * `token` opens the asset; `memory` is kept per app configuration while the process lives (the
   * test lead made last per form). Throws the service's errors (classified by `errors`) or an
   * `IntegrationNotConnected` when the integration's settings name no form.
   */
  run: (
    call: ConnectionCall,
    input: { token: string; settings: Record<string, unknown>; body: unknown; memory: Map<string, string> },
  ) => Promise<unknown>;
}

/** What a generic alias route (kind `connection`) takes from the request and how it answers. */
export type ConnectionAliasKind =
  /** Start the login (POST, `{locale?}` → `{authUrl}`, the state bound to the browser). */
  | 'start'
  /** The login's return (GET, public): a redirect to the connector's screen. */
  | 'callback'
  /** A code the service's own SDK got, for the signed-in account (→ `{connectionId}`). */
  | 'code'
  /** The account's connections with their assets. */
  | 'list'
  /** A picture of the caller's connection's person or asset (`read` → `{objectId}`). */
  | 'picture'
  /** One connection's person with its assets (`read` → `{connectionId, refresh}`). */
  | 'assets'
  /** One connection's assets (`read` → `{connectionId}`). */
  | 'assetList'
  /** An asset's live state (`read` → `{connectionId, assetId}`). */
  | 'asset'
  | 'subscribe'
  | 'unsubscribe'
  /** Forgets a connection (`read` → `{connectionId}`). */
  | 'remove'
  /** Every asset of every connection of the account, with its connection's name. */
  | 'assetItems'
  /** Moves an integration to another connection reaching its asset (`read` → `{integrationId, connectionId}`). */
  | 'migrate'
  /** An integration's action on its asset (`action`; `read` → `{integrationId}`). */
  | 'action';

export interface ConnectionAlias {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  connection: ConnectionAliasKind;
  /** For `action`: which of `actions`. */
  action?: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response?: z.ZodType;
  /** What the route needs, from the checked request (names from outside stay data: plain strings). */
  read?: (req: { params: unknown; query: unknown; body: unknown }) => Record<string, string | boolean | undefined>;
  /** The answer's shape from the generic result (the kind's: a list of connections, an asset state …). */
  answer?: (result: unknown) => unknown;
}

/** The receiver the service calls with events (GET verify, POST events), public. */
export interface InboundReceiver {
  path: `/api/${string}`;
  /** The API document's lines for the two methods. */
  summary: { verify: string; receive: string };
  /** Bytes a POST may have. */
  bodyLimit: number;
  /** The challenge to echo for the service's verification GET, else null (403). */
  verify: (config: ConnectorConfig, query: Record<string, string | undefined>) => string | null;
  /**
   * The events of a POST: the signature checked over the exact bytes first. Throws `'UNAUTHORIZED'`
   * (missing or wrong signature) or `'INVALID_JSON'` as an InboundRefusal.
   */
  receive: (
    config: ConnectorConfig,
    raw: Buffer,
    headers: Record<string, string | string[] | undefined>,
  ) => InboundEventInput[];
}

/** A receiver's refusal of a request: the API error key it answers with. */
export class InboundRefusal extends Error {
  constructor(readonly code: 'UNAUTHORIZED' | 'INVALID_JSON') {
    super(code);
    this.name = 'InboundRefusal';
  }
}

/** The integration names no form or asset to act on (a test lead without a form). */
export class IntegrationNotConnected extends Error {
  constructor() {
    super('INTEGRATION_NOT_CONNECTED');
    this.name = 'IntegrationNotConnected';
  }
}

/** The words of the mails about a connector's account connections in one language. */
export interface ConnectionMailWords {
  /** The mail telling the account its connection was refused (once per outage); `{name}`: the connection's. */
  broken: {
    subject: string;
    preview: string;
    heading: string;
    body: string;
    wait: string;
    action: string;
    why: string;
  };
  /** The expiry warning's sentence of how the login's access is renewed. */
  renew: string;
}

export interface ConnectorConnections {
  /** The service as its brand is written (the expiry warning names it). */
  brand: string;
  /** The app's client is configured (else the server answers OAUTH_NOT_CONFIGURED and runs no task). */
  configured: (config: ConnectorConfig) => boolean;
  /** The login: the service's dialog and the server's return. */
  login: {
    /** The server's return path (on the auth host) and the cookie binding the state to the browser. */
    callback: { path: string; cookie: string };
    /** The web screen the return lands on (?connected=<id> or ?error=<CODE>), and the broken mail's link. */
    screen: string;
    url: (call: ConnectionCall, redirectUri: string, state: string) => string;
    /** code → the login's long-lived token; a failure is OAUTH_EXCHANGE_FAILED. */
    trade: (call: ConnectionCall, code: string, redirectUri: string) => Promise<ConnectionToken>;
    /** Who logged in and what they reach; a failure is CONNECTION_FAILED with the reason. */
    profile: (
      call: ConnectionCall,
      token: string,
      log: (msg: string, reason: string) => void,
    ) => Promise<ConnectionProfile>;
  };
  /** The kind of asset integrations take (page), read again with the login's token. */
  asset: {
    kind: string;
    list: (call: ConnectionCall, token: string) => Promise<ConnectionAssetInput[]>;
    state: (call: ConnectionCall, assetId: string, token: string) => Promise<AssetState>;
    /**
     * Has the service send us the asset's events (after `inbound.ensure`). `receiver`: our receiver's
     * URL, for a service whose subscription is per asset and names its callback.
     */
    subscribe: (call: ConnectionCall, assetId: string, token: string, receiver: { url: string }) => Promise<void>;
    /** `receiver`: as for `subscribe` (a service that finds our subscription of the asset by its callback). */
    unsubscribe: (call: ConnectionCall, assetId: string, token: string, receiver: { url: string }) => Promise<void>;
  };
  /** A picture URL of the connection's person or an asset (null: none). */
  picture: (call: ConnectionCall, objectId: string, token: string) => Promise<string | null>;
  /** Which settings of an integration name its connection, its asset and, optionally, the asset's form it takes. */
  settings: { connection: string; asset: string; form?: string };
  /** The API error keys of a connection or asset id the caller has not (404). */
  notFound: { connection: ErrorCode; asset: ErrorCode };
  /** The mails' words about its connections, by language (the folder's words/mail/connection/{uk,en}.json). */
  mail: { uk: ConnectionMailWords; en: ConnectionMailWords };
  /** The service's failures. */
  errors: {
    /** A short, secret-free reason (for the status, the log, the mail). */
    reason: (error: unknown) => string;
    /** The service refused the token or a permission: the person logs in again. */
    refused: (error: unknown) => boolean;
    /** The service does not know the event's item: retrying cannot help. */
    gone: (error: unknown) => boolean;
    /** The failure is the app's subscription at the service (the message names the receiver URL). */
    subscription?: (error: unknown) => boolean;
  };
  /** The receiver's hub.verify_token the connector derives from the configuration (undefined: not configured). */
  verifyToken: (config: ConnectorConfig) => string | undefined;
  inbound: {
    receiver: InboundReceiver;
    /**
     * Makes sure the service sends the app's events to our receiver (Meta's app subscription), once
     * per app; a failure's message is what the person reads (CONNECTION_FAILED), secret-free.
     */
    ensure: (call: ConnectionCall, receiver: { url: string; verifyToken: string }) => Promise<void>;
    /** The item behind an event, fetched with the asset's token, as ingest's flat payload. */
    fetch: (
      call: ConnectionCall,
      event: InboundEvent,
      token: string,
    ) => Promise<{ form: string | null; payload: Record<string, string> }>;
    /** Headers on the lead's stored request (`x-leadrelay-source` …), from the event. */
    headers: (event: InboundEvent) => Record<string, string>;
    /** ingest's dedupe window for these items (hours). */
    dedupeWindowHours: number;
  };
  /** The periodic sweep of what the receiver missed (the forms' recent items). */
  backfill: {
    task: string;
    everyMs: number;
    /** The asset's forms when no integration names one. */
    forms: (call: ConnectionCall, assetId: string, token: string) => Promise<string[]>;
    /** Items of a form created since (unix seconds) as events. */
    since: (
      call: ConnectionCall,
      assetId: string,
      form: string,
      token: string,
      sinceUnix: number,
    ) => Promise<InboundEventInput[]>;
  };
  /** What integrations of the connector may ask of their asset. */
  actions?: Readonly<Record<string, ConnectionAction>>;
  /** The spec's own paths for all of it. */
  aliases: readonly ConnectionAlias[];
}
