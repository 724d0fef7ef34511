// Connecting with what the person typed (ConnectorDefinition.connect: an API token, a password sent
// once to a checked host, an incoming webhook URL), with the code an OAuth callback handed the
// connect screen, and how a connection is described (ConnectorDefinition.account). The connector
// checks and trades what was typed; the result is tried (testConnection) before anything is
// stored, then stored sealed. After any connect, `afterConnect` runs: other modules' follow-up
// (the CRM's stage watch), given to the integrations module in app-modules.ts.
import {
  type ConnectCall,
  type ConnectorDefinition,
  ConnectRefusal,
  createSafeFetch,
  getConnector,
} from '@leadrelay/connectors';
import type { Deps } from '../../config';
import { destinationPolicy } from '../../config';
import type { IntegrationRow } from '../../db/schema';
import { connectorContext, INTERACTIVE_TIMEOUT_MS, reasonOf } from '../../delivery/connector-context';
import { readAuth, sealAuth } from '../../delivery/stored-auth';
import { AppError } from '../../lib/app-error';
import { connectorConfig } from '../../lib/connector-config';
import { type Actor, ownIntegrationOfType, ownRow } from './integration-rows';
import { allowedOrigin, callbackOf, connectWithCode, oauthConnector, storeAuth } from './oauth-connect.service';

/** After credentials are stored, whatever the door (other modules' follow-up); never throws. */
export type AfterConnect = (row: Pick<IntegrationRow, 'id'>) => Promise<void>;

/** What a failed connect answers: the connector's refusal as it says, else CONNECTION_FAILED with the reason. */
function connectFailure(connector: ConnectorDefinition<unknown, unknown>, error: unknown, body: unknown): AppError {
  if (error instanceof AppError) return error;
  const refusal = error instanceof ConnectRefusal ? error : connector.connect?.refusal?.(error, body);
  if (refusal) {
    return new AppError(refusal.code, {
      ...(refusal.field ? { errors: [{ field: refusal.field, code: refusal.code }] } : {}),
      ...(refusal.reason !== undefined ? { message: reasonOf(refusal.reason) } : {}),
    });
  }
  return new AppError('CONNECTION_FAILED', { message: reasonOf(error) });
}

function connectCall(deps: Deps, connector: ConnectorDefinition<unknown, unknown>): ConnectCall {
  const config = connectorConfig(deps.config.crm, connector);
  return {
    fetch: createSafeFetch({ ...destinationPolicy(deps.config), timeoutMs: INTERACTIVE_TIMEOUT_MS }),
    signal: AbortSignal.timeout(INTERACTIVE_TIMEOUT_MS),
    config,
    baseUrl: connector.baseUrl?.(config),
    allowedOrigin: (url, hostsKey) => allowedOrigin(deps, connector, hostsKey, url),
  };
}

/**
 * POST /api/integrations/{id}/credentials and its aliases: `body` (already checked with the
 * definition's or the alias's schema) names the integration in `integrationId`. Nothing is stored
 * unless the destination takes the credentials.
 */
export async function connectWithCredentials(
  deps: Deps,
  actor: Actor,
  type: string,
  body: { integrationId: string } & Record<string, unknown>,
  afterConnect: AfterConnect,
): Promise<Record<string, unknown>> {
  const connector = getConnector(type);
  const connect = connector?.connect;
  if (!connector || !connect || !connector.testConnection) throw new AppError('OPERATION_NOT_SUPPORTED');
  const row = await ownIntegrationOfType(deps.db, actor, body.integrationId, type);
  let auth: Record<string, unknown>;
  try {
    auth = { ...((await connect.credentials(connectCall(deps, connector), body)) as Record<string, unknown>) };
  } catch (error) {
    throw connectFailure(connector, error, body);
  }
  // Tried in memory first: nothing is stored unless the destination takes them.
  const candidate: IntegrationRow = {
    ...row,
    auth: sealAuth(deps.secrets, row.id, auth),
    settings: connect.checkSettings
      ? (connect.checkSettings(row.settings) as IntegrationRow['settings'])
      : row.settings,
  };
  try {
    await connector.testConnection(connectorContext(deps, connector, candidate));
  } catch (error) {
    throw connectFailure(connector, error, body);
  }
  await storeAuth(deps, row, auth);
  await afterConnect(row);
  return { integrationId: row.id, type, ...connect.answer?.(body) };
}

/**
 * The connect screen's post of what the OAuth callback handed it (connectors whose callback lands
 * on the connect screen): the code and state, for the signed-in owner of the state.
 */
export async function connectWithScreenCode(
  deps: Deps,
  actor: Actor,
  type: string,
  body: { code: string; state: string },
  afterConnect: AfterConnect,
): Promise<{ integrationId: string; type: string }> {
  if (callbackOf(oauthConnector(type)).lands !== 'connectScreen') throw new AppError('OPERATION_NOT_SUPPORTED');
  const row = await connectWithCode(deps, actor, type, body);
  await afterConnect(row);
  return { integrationId: row.id, type };
}

/** GET /api/integrations/{id}/account and its aliases: how it is connected, nothing secret. */
export async function connectionAccount(deps: Deps, actor: Actor, id: string, type?: string): Promise<unknown> {
  const row = type ? await ownIntegrationOfType(deps.db, actor, id, type) : await ownRow(deps.db, actor, id);
  const connector = getConnector(row.type);
  const account = connector?.account;
  if (!connector || !account) throw new AppError('OPERATION_NOT_SUPPORTED');
  if (row.auth === null) return account.describe(undefined);
  const parsed = connector.auth.safeParse(readAuth(deps.secrets, row));
  return account.describe(parsed.success ? parsed.data : undefined);
}
