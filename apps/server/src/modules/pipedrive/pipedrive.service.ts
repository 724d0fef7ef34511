// Pipedrive's API-token connection (spec 7 "Pipedrive": POST .../pipedrive/connect with an apiToken):
// the one part of its connect that is not OAuth. The token is tried against Pipedrive first; nothing
// is stored unless it is accepted. OAuth, lists and webhooks are the generic code (modules/integrations).
import { getConnector } from '@leadrelay/connectors';
import type { Deps } from '../../config';
import type { UserRow } from '../../db/schema';
import { connectorContext, reasonOf } from '../../delivery/connector-context';
import { sealAuth } from '../../delivery/stored-auth';
import { AppError } from '../../lib/app-error';
import { connectorConfig } from '../../lib/connector-config';
import { ownIntegrationOfType, storeAuth } from '../integrations';

type Actor = Pick<UserRow, 'id'>;

export async function connectWithToken(deps: Deps, actor: Actor, integrationId: string, apiToken: string) {
  const connector = getConnector('pipedrive');
  if (!connector?.testConnection) throw new AppError('OPERATION_NOT_SUPPORTED');
  const row = await ownIntegrationOfType(deps.db, actor, integrationId, 'pipedrive');
  const apiDomain = String(connector.baseUrl?.(connectorConfig(deps.config.crm, connector)) ?? '');
  const auth = { kind: 'token', apiToken, apiDomain: apiDomain.replace(/\/+$/, '') };
  // Checked in memory first (GET users/me); nothing is stored unless Pipedrive accepts the token.
  const candidate = { ...row, auth: sealAuth(deps.secrets, row.id, auth) };
  try {
    await connector.testConnection(connectorContext(deps, connector, candidate));
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError('CONNECTION_FAILED', { message: reasonOf(error) });
  }
  await storeAuth(deps, row, auth);
  return { integrationId: row.id, type: 'pipedrive' as const };
}
