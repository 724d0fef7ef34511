// A source's own connect (ConnectorSource.connect, kit/source.ts): what the user typed on its form is checked
// with the service and traded (a login and password for a token) before anything is stored, then
// sealed with the settings it gives. POST /api/integrations/{id}/connect, and the aliases connectors
// declare for it (a shop's spec path for its sign-in). A source whose account at the other end changed (a
// new shop address) starts afresh: a new secret receiver URL, the old subscription forgotten, the
// poll from now.
import { randomBytes } from 'node:crypto';
import { createSafeFetch, getConnector } from '@leadrelay/connectors';
import type { Integration } from '@leadrelay/shared';
import { eq } from 'drizzle-orm';
import { type Deps, destinationPolicy } from '../../config';
import { integrations } from '../../db/schema';
import { forgetConnectionCache } from '../../delivery/connection-cache';
import { INTERACTIVE_TIMEOUT_MS } from '../../delivery/connector-context';
import { baseUrlFor } from '../../delivery/connector-runtime';
import { sealAuth } from '../../delivery/stored-auth';
import { closeAccessAlerts } from '../../lib/access-alerts';
import { AppError } from '../../lib/app-error';
import { zodAppError } from '../../plugins/errors';
import { connectorError } from './connector-errors';
import { connectionChanged } from './integration-health';
import { type Actor, ownIntegrationOfType, ownRow } from './integration-rows';
import { getIntegration } from './integrations.service';
import { startSource } from './source.service';

const newToken = () => randomBytes(32).toString('base64url');

/** The connector of a source that declares its own connect; OPERATION_NOT_SUPPORTED for any other. */
function ownConnectOf(type: string) {
  const connector = getConnector(type);
  const connect = connector?.source?.connect;
  if (!connector || !connect) throw new AppError('OPERATION_NOT_SUPPORTED');
  return { connector, connect };
}

export async function connectOwn(
  deps: Deps,
  actor: Actor,
  id: string,
  body: unknown,
  type?: string,
): Promise<{ data: { integration: Integration } }> {
  const row = type ? await ownIntegrationOfType(deps.db, actor, id, type) : await ownRow(deps.db, actor, id);
  const { connector, connect } = ownConnectOf(row.type);
  // The alias's route checked the body already; the generic route checks it here, answering as the alias does.
  const parsed = connect.body.safeParse(body);
  if (!parsed.success) {
    const refused = zodAppError('body', parsed.error);
    const errors = refused.errors?.map((e) => ({ ...e, field: e.field.replace(/^body\./, '') }));
    throw new AppError(refused.code, { errors });
  }
  // Credentials not stored yet: no rotateAuth, renewals stay in memory.
  let made: Awaited<ReturnType<typeof connect.run>>;
  try {
    made = await connect.run(
      {
        fetch: createSafeFetch({ ...destinationPolicy(deps.config), timeoutMs: INTERACTIVE_TIMEOUT_MS }),
        // For a service whose API host is the operator's configuration, not the account's.
        baseUrl: baseUrlFor(deps.config, connector),
        logger: deps.log.child({ integrationId: row.id, connector: connector.slug }),
        signal: AbortSignal.timeout(INTERACTIVE_TIMEOUT_MS),
      },
      parsed.data,
    );
  } catch (error) {
    throw connectorError(connector, error);
  }
  const auth = connector.auth.safeParse(made.auth);
  if (!auth.success) throw new AppError('CONNECTION_FAILED', { message: 'The service gave no usable credentials' });

  const now = new Date();
  await deps.db.transaction(async (tx) => {
    const fresh = await ownRow(tx, actor, row.id, true);
    const settings = { ...fresh.settings, ...(made.settings as Record<string, unknown>) };
    const previous = connect.account?.(fresh.settings ?? {});
    const isNewAccount = previous !== undefined && previous !== connect.account?.(settings);
    const isSource = connector.kind === 'source';
    await tx
      .update(integrations)
      .set({
        auth: sealAuth(deps.secrets, fresh.id, auth.data as Record<string, unknown>),
        settings,
        status: 'ok',
        statusReason: null,
        // A source's receiver URL carries this token: another account's calls stop landing here.
        ...(isSource ? { hookToken: isNewAccount || !fresh.hookToken ? newToken() : fresh.hookToken } : {}),
        updatedAt: now,
      })
      .where(eq(integrations.id, fresh.id));
    if (connector.source) await startSource(tx, connector, fresh, isNewAccount, now);
    // Connected again: a source reads its leads again (the guardian's access alert closes).
    await closeAccessAlerts(tx, [fresh.id], now);
  });
  forgetConnectionCache(row.id);
  connectionChanged(deps, row);
  return { data: { integration: await getIntegration(deps.db, actor, row.id) } };
}
