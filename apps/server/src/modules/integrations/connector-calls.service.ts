// Calls to an integration's connector from the API: its lists (loaders), webhooks at the
// destination, the connection check and connect (PUT .../connect: credentials typed in, settings).
// The aliases connectors declare for the spec's paths are thin over callConnector and loadList too.
import {
  type ConnectorContext,
  type ConnectorDefinition,
  getConnector,
  PermanentError,
  type RemoteWebhookInput,
} from '@leadrelay/connectors';
import { type ConnectionCheck, type Integration, ownValue, parseReason } from '@leadrelay/shared';
import { and, eq } from 'drizzle-orm';
import type { Deps } from '../../config';
import type { Executor } from '../../db/client';
import { type IntegrationRow, integrations } from '../../db/schema';
import { forgetConnectionCache } from '../../delivery/connection-cache';
import { connectorContext, reasonOf } from '../../delivery/connector-context';
import { sealAuth } from '../../delivery/stored-auth';
import { closeAccessAlerts } from '../../lib/access-alerts';
import { AppError } from '../../lib/app-error';
import { zodAppError } from '../../plugins/errors';
import { connectionChanged } from './integration-health';
import { type Actor, ownIntegrationOfType, ownRow } from './integration-rows';
import { checkSize, validSettings } from './integration-validation';
import { getIntegration } from './integrations.service';

function connectorOf(row: IntegrationRow) {
  const connector = getConnector(row.type);
  if (!connector) throw new AppError('OPERATION_NOT_SUPPORTED');
  return connector;
}

/** What a connector's refusal becomes: CONNECTION_FAILED, or (CRM_REQUEST_FAILED) its own 4xx reason apart from auth. */
export type Refusal = 'CONNECTION_FAILED' | 'CRM_REQUEST_FAILED';

function asAppError(error: unknown, refusal: Refusal): AppError {
  if (error instanceof AppError) return error;
  // The CRM refused the request itself (a 4xx other than auth): CRM_REQUEST_FAILED with its reason.
  if (
    refusal === 'CRM_REQUEST_FAILED' &&
    error instanceof PermanentError &&
    error.code !== 'AUTH' &&
    error.httpStatus
  ) {
    return new AppError('CRM_REQUEST_FAILED', { message: reasonOf(error) });
  }
  return new AppError('CONNECTION_FAILED', { message: reasonOf(error) });
}

/**
 * Calls the connector of the actor's own integration of `type` (another type's id: INTEGRATION_NOT_FOUND).
 * What the call throws becomes CONNECTION_FAILED (or CRM_REQUEST_FAILED, see Refusal).
 */
export async function callConnector<T>(
  deps: Deps,
  actor: Actor,
  id: string,
  type: string,
  fn: (connector: ConnectorDefinition<unknown, unknown>, ctx: ConnectorContext<unknown, unknown>) => Promise<T>,
  refusal: Refusal = 'CONNECTION_FAILED',
): Promise<T> {
  const row = await ownIntegrationOfType(deps.db, actor, id, type);
  const connector = connectorOf(row);
  const ctx = connectorContext(deps, connector, row);
  try {
    return await fn(connector, ctx);
  } catch (error) {
    throw asAppError(error, refusal);
  }
}

/** What a refusal of `type`'s loaders answers on the generic lists route: as its definition declares. */
export const loaderRefusalOf = (type: string): Refusal => getConnector(type)?.loaderRefusal ?? 'CONNECTION_FAILED';

/** One of the connector's loaders (`{type}/users`, `{type}/fields` and the connectors' own list routes); none: OPERATION_NOT_SUPPORTED. */
export async function loadList(
  deps: Deps,
  actor: Actor,
  id: string,
  type: string,
  list: string,
  refusal: Refusal = 'CONNECTION_FAILED',
): Promise<unknown> {
  const row = await ownIntegrationOfType(deps.db, actor, id, type);
  // `list` comes from the URL: only the connector's own loaders count (`constructor` would hand
  // back the connector's context, credentials included).
  const loader = ownValue(connectorOf(row).loaders, list);
  if (typeof loader !== 'function') throw new AppError('OPERATION_NOT_SUPPORTED');
  const ctx = connectorContext(deps, connectorOf(row), row);
  try {
    return await loader(ctx);
  } catch (error) {
    throw asAppError(error, refusal);
  }
}

/** A webhook to create as the connector's `webhooks.body` takes it (its event notation); else VALIDATION_ERROR as a body schema says it. */
function checkedWebhook(
  connector: ConnectorDefinition<unknown, unknown>,
  input: RemoteWebhookInput,
): RemoteWebhookInput {
  const schema = connector.webhooks?.body;
  if (!schema) return input;
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const error = zodAppError('', parsed.error);
  throw new AppError(error.code, { errors: error.errors, message: 'Invalid body' });
}

/** The connector's webhooks at the destination (list, create, remove); a connector without them: OPERATION_NOT_SUPPORTED. */
export function remoteWebhooks(deps: Deps, actor: Actor, id: string, type: string, refusal: Refusal) {
  const hooksOf = (connector: ConnectorDefinition<unknown, unknown>) => {
    if (!connector.webhooks) throw new AppError('OPERATION_NOT_SUPPORTED');
    return connector.webhooks;
  };
  return {
    list: () => callConnector(deps, actor, id, type, (c, ctx) => hooksOf(c).list(ctx), refusal),
    create: (input: RemoteWebhookInput) =>
      callConnector(deps, actor, id, type, (c, ctx) => hooksOf(c).create(ctx, checkedWebhook(c, input)), refusal),
    remove: (webhookId: string) =>
      callConnector(deps, actor, id, type, (c, ctx) => hooksOf(c).remove(ctx, webhookId), refusal),
  };
}

/** Registers a webhook at the destination (connectors with `webhooks`); others answer 400. */
export async function registerWebhooks(
  deps: Deps,
  actor: Actor,
  id: string,
  type: string,
  body: { url?: string; event?: string; name?: string } = {},
): Promise<{ success: true }> {
  const row = await ownIntegrationOfType(deps.db, actor, id, type);
  const connector = connectorOf(row);
  if (!connector.webhooks) throw new AppError('OPERATION_NOT_SUPPORTED');
  if (!body.url) throw new AppError('VALIDATION_ERROR', { errors: [{ field: 'url', code: 'VALIDATION_ERROR' }] });
  const input = checkedWebhook(connector, { url: body.url, event: body.event ?? '*.*', name: body.name });
  const ctx = connectorContext(deps, connector, row);
  try {
    await connector.webhooks.create(ctx, input);
  } catch (error) {
    throw new AppError('CONNECTION_FAILED', { message: reasonOf(error) });
  }
  return { success: true };
}

async function setStatus(db: Executor, row: IntegrationRow, check: ConnectionCheck): Promise<void> {
  // A check that went through: a source refused before reads again (the guardian's access alert closes).
  if (check.ok) await closeAccessAlerts(db, [row.id], new Date());
  await db
    .update(integrations)
    .set({ status: check.status, statusReason: check.ok ? null : (check.reason ?? null), updatedAt: new Date() })
    .where(eq(integrations.id, row.id));
}

async function runCheck(deps: Deps, row: IntegrationRow): Promise<ConnectionCheck> {
  const connector = connectorOf(row);
  if (!connector.testConnection) return { ok: true, status: row.status };
  let check: ConnectionCheck;
  try {
    await connector.testConnection(connectorContext(deps, connector, row));
    check = { ok: true, status: 'ok' };
  } catch (error) {
    const reason = error instanceof AppError ? error.code : reasonOf(error);
    check = { ok: false, reason, reasonKey: parseReason(reason, connector.codes?.stored), status: 'broken' };
  }
  await setStatus(deps.db, row, check);
  return check;
}

/** A failed check is an answer (200 {ok: false, reason}), not an error: the integration is marked broken. */
export async function checkConnection(deps: Deps, actor: Actor, id: string): Promise<ConnectionCheck> {
  const row = await ownRow(deps.db, actor, id);
  const connector = connectorOf(row);
  if (!connector.testConnection) throw new AppError('OPERATION_NOT_SUPPORTED');
  return runCheck(deps, row);
}

/** Stores credentials and settings checked by the connector's schemas, then checks the connection. */
export async function connect(
  deps: Deps,
  actor: Actor,
  id: string,
  body: { auth?: Record<string, unknown>; settings?: Record<string, unknown> },
): Promise<ConnectionCheck & { integration: Integration }> {
  const row = await ownRow(deps.db, actor, id);
  const connector = connectorOf(row);
  // Credentials kept elsewhere (an account connection) are not connected here.
  if (connector.connectAuth === 'elsewhere') throw new AppError('OPERATION_NOT_SUPPORTED');
  const values: Partial<typeof integrations.$inferInsert> = { updatedAt: new Date() };
  if (body.auth !== undefined) {
    if (connector.connectAuth === 'oauth' || connector.connectAuth === 'own') {
      throw new AppError('OPERATION_NOT_SUPPORTED');
    }
    checkSize(body.auth);
    const parsed = connector.auth.safeParse(body.auth);
    if (!parsed.success) throw zodAppError('auth', parsed.error);
    // Sealed at rest; the API never answers it (toApi has no auth field).
    values.auth = sealAuth(deps.secrets, row.id, parsed.data as Record<string, unknown>);
  }
  if (body.settings !== undefined) values.settings = validSettings(row.type, body.settings);
  const [updated] = await deps.db
    .update(integrations)
    .set(values)
    .where(and(eq(integrations.id, row.id), eq(integrations.accountId, actor.id)))
    .returning();
  if (values.auth !== undefined) forgetConnectionCache(row.id);
  const check = await runCheck(deps, updated!);
  connectionChanged(deps, row);
  return { ...check, integration: await getIntegration(deps.db, actor, row.id) };
}
