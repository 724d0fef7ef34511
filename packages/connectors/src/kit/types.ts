// The connector contract (house style: "a connector is one folder and one typed object").
// The delivery engine in apps/server calls only what is declared here.
import type { Assignee, Lead } from '@leadrelay/shared';
import type { z } from 'zod';
import type { LockKeys } from './keyed-lock';

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
}

export interface OAuthClient {
  clientId: string;
  clientSecret: string;
  /** Where the user is sent to consent (e.g. https://oauth.pipedrive.com/oauth/authorize). */
  authorizeUrl: string;
  /** The token endpoint when it is fixed (Pipedrive); amoCRM's lives on the account's own host. */
  tokenUrl?: string;
  /** Our callback, registered with the provider. */
  redirectUri: string;
}

/** A webhook registered at the destination (e.g. Pipedrive's /v1/webhooks). */
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

export interface DeliveryInput {
  lead: Lead;
  /** Stable per (lead, destination): a retry sends the same key, so a destination that can tell makes one record. */
  idempotencyKey: string;
  assignee?: Assignee;
  /** The source's raw payload, for notes. */
  raw?: unknown;
}

/** What the engine stores of an attempt (already redacted by the connector). */
export interface AttemptTrace {
  request?: { method: string; url: string; headers?: Record<string, string>; body?: unknown };
  response?: { status: number; headers?: Record<string, string>; body?: unknown };
}

export interface DeliveryResult extends AttemptTrace {
  /** The record's id at the destination, when it tells. */
  externalId?: string;
}

export interface FieldOption {
  key: string;
  label: string;
  type?: string;
  options?: { value: string; label: string }[];
}

export interface ConnectorDefinition<Auth = unknown, Settings = unknown> {
  slug: string;
  kind: 'source' | 'destination';
  auth: z.ZodType<Auth>;
  settings: z.ZodType<Settings>;
  /**
   * manual (default): PUT .../connect may store credentials the user types in. oauth: credentials come
   * only from the connector's own connect flow (they name hosts our client secret is sent to), so
   * PUT .../connect refuses `auth` and takes settings only.
   */
  connectAuth?: 'manual' | 'oauth';
  /** Field and user lists for the integration screens ({type}/fields, {type}/users). */
  loaders?: {
    fields?: (ctx: ConnectorContext<Auth, Settings>) => Promise<FieldOption[]>;
    users?: (ctx: ConnectorContext<Auth, Settings>) => Promise<{ id: string; name: string }[]>;
    /** Connector-specific lists behind their own spec routes (pipelines, stages, dealFields, ...). */
    [list: string]: ((ctx: ConnectorContext<Auth, Settings>) => Promise<unknown>) | undefined;
  };
  /** Webhooks at the destination (POST /api/integrations/{id}/{type}/webhooks and the CRM's own routes). */
  webhooks?: {
    list: (ctx: ConnectorContext<Auth, Settings>) => Promise<RemoteWebhook[]>;
    create: (ctx: ConnectorContext<Auth, Settings>, input: RemoteWebhookInput) => Promise<RemoteWebhook>;
    remove: (ctx: ConnectorContext<Auth, Settings>, id: string) => Promise<void>;
  };
  testConnection?: (ctx: ConnectorContext<Auth, Settings>) => Promise<void>;
  /** Throws RetryableError or PermanentError (kit/errors.ts); anything else counts as retryable. */
  deliver?: (ctx: ConnectorContext<Auth, Settings>, input: DeliveryInput) => Promise<DeliveryResult>;
}
