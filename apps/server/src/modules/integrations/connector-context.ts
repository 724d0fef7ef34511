// The ctx a connector gets when the integrations API calls it (loaders, testConnection): stored
// auth (decrypted) and settings checked by the connector's own schemas, and the SSRF-safe fetch.
import { type ConnectorContext, type ConnectorDefinition, createSafeFetch } from '@leadrelay/connectors';
import type { Deps } from '../../config';
import type { IntegrationRow } from '../../db/schema';
import { AppError } from '../../plugins/errors';
import { runtimeExtras } from './connector-runtime';
import { readAuth } from './stored-auth';

/** Loaders and connection checks answer a person waiting on a screen: shorter than a delivery. */
export const INTERACTIVE_TIMEOUT_MS = 15_000;

export function connectorContext(
  deps: Pick<Deps, 'config' | 'log' | 'secrets' | 'db' | 'locks'>,
  connector: ConnectorDefinition<unknown, unknown>,
  row: IntegrationRow,
): ConnectorContext<unknown, unknown> {
  const auth = connector.auth.safeParse(readAuth(deps.secrets, row));
  const settings = connector.settings.safeParse(row.settings ?? {});
  if (!auth.success || !settings.success) throw new AppError('INTEGRATION_NOT_CONNECTED');
  return {
    ...runtimeExtras(deps, connector, row.id),
    auth: auth.data,
    settings: settings.data,
    fetch: createSafeFetch({
      allowPrivate: deps.config.allowPrivateDestinations,
      timeoutMs: INTERACTIVE_TIMEOUT_MS,
    }),
    logger: deps.log.child({ integrationId: row.id, connector: connector.slug }),
    signal: AbortSignal.timeout(INTERACTIVE_TIMEOUT_MS),
  };
}

/** A short, secret-free reason for the UI (connectors redact their own messages). */
export function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message || 'Connection failed').slice(0, 500);
}
