// The one builder of the ctx a connector gets: stored auth opened (sealed at rest) and checked by the
// connector's own schema, settings checked the same way, plus the runtime's extras (OAuth client, API
// host, cache, rotateAuth, withLock), a fetch, a logger and a signal. The integrations API (loaders,
// connection checks, connect) uses it with connectorContext's interactive defaults; the delivery
// worker can use it with its own fetch, logger and signal and `workerUnusable`.
import {
  type ConnectorContext,
  type ConnectorDefinition,
  type ConnectorLogger,
  createSafeFetch,
  PermanentError,
} from '@leadrelay/connectors';
import { type Deps, destinationPolicy } from '../config';
import type { IntegrationRow } from '../db/schema';
import { AppError } from '../lib/app-error';
import { type SecretBox, SecretUnreadableError } from '../lib/secret-box';
import { storableText } from '../lib/storable-text';
import { runtimeExtras } from './connector-runtime';

/** Loaders and connection checks answer a person waiting on a screen: shorter than a delivery. */
export const INTERACTIVE_TIMEOUT_MS = 15_000;

/** Why a connection cannot be called: its credentials no key opens, or they or its settings fail the connector's schemas. */
export type UnusableReason = 'auth-unreadable' | 'auth-invalid' | 'settings-invalid';

/** The API's answer to an unusable connection: INTEGRATION_AUTH_UNREADABLE, else INTEGRATION_NOT_CONNECTED. */
export const apiUnusable = (reason: UnusableReason): Error =>
  new AppError(reason === 'auth-unreadable' ? 'INTEGRATION_AUTH_UNREADABLE' : 'INTEGRATION_NOT_CONNECTED');

export const INCOMPLETE_CONNECTION = 'The destination connection is incomplete: reconnect it';

/** The delivery worker's: permanent failures (retrying cannot fix them), with the worker's codes and texts. */
export const workerUnusable = (reason: UnusableReason): Error => {
  if (reason === 'auth-unreadable') {
    return new PermanentError(
      'INTEGRATION_AUTH_UNREADABLE: the stored credentials cannot be decrypted with ENCRYPTION_KEY or ENCRYPTION_KEY_PREVIOUS; connect the destination again',
      { code: 'INTEGRATION_AUTH_UNREADABLE' },
    );
  }
  if (reason === 'auth-invalid') return new PermanentError(INCOMPLETE_CONNECTION, { code: 'AUTH' });
  // Coded, so the web says it in the user's language (a destination created but never set up, for one).
  return new PermanentError('INTEGRATION_SETTINGS_INVALID', { code: 'CONFIGURATION' });
};

export interface BuildContextOptions {
  /** Opens the row's sealed credentials. */
  secrets: SecretBox;
  /** OAuth client, API host, cache, rotateAuth and withLock (connector-runtime's runtimeExtras; the worker's contextExtras). */
  extras?: Partial<ConnectorContext<unknown, unknown>>;
  /** The connector's fetch; default an SSRF-safe fetch with `timeoutMs` (and `allowPrivate`). */
  fetch?: typeof fetch;
  /** For the default fetch and signal; default INTERACTIVE_TIMEOUT_MS. */
  timeoutMs?: number;
  /** For the default fetch: what it may reach (ALLOW_PRIVATE_DESTINATIONS, the emulators' endpoints). */
  policy?: { allowPrivate: boolean; allowEndpoints: string[] };
  logger: ConnectorLogger;
  /** Default AbortSignal.timeout(timeoutMs). */
  signal?: AbortSignal;
  /** The error thrown for an unusable connection; default apiUnusable. */
  unusable?: (reason: UnusableReason) => Error;
}

/** A connector's ctx for one integration row; throws `unusable(reason)` when the row cannot be called. */
export function buildConnectorContext<Auth = unknown, Settings = unknown>(
  connector: ConnectorDefinition<Auth, Settings>,
  row: Pick<IntegrationRow, 'id' | 'auth' | 'settings'>,
  options: BuildContextOptions,
): ConnectorContext<Auth, Settings> {
  const unusable = options.unusable ?? apiUnusable;
  let stored: Record<string, unknown>;
  try {
    stored = row.auth === null ? {} : options.secrets.open(row.auth, row.id);
  } catch (error) {
    if (error instanceof SecretUnreadableError) throw unusable('auth-unreadable');
    throw error;
  }
  const auth = connector.auth.safeParse(stored);
  if (!auth.success) throw unusable('auth-invalid');
  const settings = connector.settings.safeParse(row.settings ?? {});
  if (!settings.success) throw unusable('settings-invalid');
  const timeoutMs = options.timeoutMs ?? INTERACTIVE_TIMEOUT_MS;
  return {
    ...(options.extras as Partial<ConnectorContext<Auth, Settings>>),
    auth: auth.data,
    settings: settings.data,
    fetch: options.fetch ?? createSafeFetch({ ...options.policy, timeoutMs }),
    logger: options.logger,
    signal: options.signal ?? AbortSignal.timeout(timeoutMs),
  };
}

/** The integrations API's ctx (loaders, connection checks): interactive timeout, INTEGRATION_NOT_CONNECTED. */
export function connectorContext(
  deps: Pick<Deps, 'config' | 'log' | 'secrets' | 'db' | 'locks'>,
  connector: ConnectorDefinition<unknown, unknown>,
  row: IntegrationRow,
): ConnectorContext<unknown, unknown> {
  return buildConnectorContext(connector, row, {
    secrets: deps.secrets,
    extras: runtimeExtras(deps, connector, row.id),
    policy: destinationPolicy(deps.config),
    logger: deps.log.child({ integrationId: row.id, connector: connector.slug }),
  });
}

/**
 * A short, secret-free reason for the UI (connectors redact their own messages), storable: it may
 * quote what the destination answered, text from outside (ADR 009).
 */
export function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return storableText((message || 'Connection failed').slice(0, 500));
}
