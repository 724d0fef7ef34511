// Health of an account connection. When the service refuses its token or a permission (the
// connector's errors.refused) the connection and every integration on it are marked broken,
// UPDATE_INTEGRATION goes to the browsers and the account is e-mailed once per outage
// (broken_notified_at). The next successful call, or a new login, marks them ok again.
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { type ConnectorConnectionRow, connectorConnections, integrations, users } from '../../db/schema';
import { closeAccessAlerts, markAccessMailed, openAccessAlerts } from '../../lib/access-alerts';
import { AppError } from '../../lib/app-error';
import { connectionBrokenMail } from '../../lib/mail/templates';
import { screenUrl } from '../../lib/oauth-state';
import { storableText } from '../../lib/storable-text';
import type { ConnectionConnector, ConnectionDeps } from './connection-deps';

const MAX_REASON = 300;

/** The connector's integrations that take their leads through this connection. */
export const onConnection = (c: ConnectionConnector, accountId: string, connectionId: string) =>
  and(
    eq(integrations.accountId, accountId),
    eq(integrations.type, c.type),
    sql`${integrations.settings}->>${c.spec.settings.connection} = ${connectionId}`,
  );

/** The connector's short reason, storable (the service's words are text from outside, ADR 009). */
export function reasonOf(c: ConnectionConnector, error: unknown): string {
  if (error instanceof AppError) return error.message;
  return storableText(c.spec.errors.reason(error)).slice(0, MAX_REASON) || `${c.type} call failed`;
}

/**
 * Marks the connection and its integrations broken (its sources with the guardian's `access` alert),
 * tells the browsers, e-mails the account once per outage.
 */
export async function markConnectionBroken(
  deps: ConnectionDeps,
  c: ConnectionConnector,
  connectionId: string,
  reason: string,
): Promise<void> {
  const statusReason = reason.slice(0, MAX_REASON);
  const now = new Date();
  const [conn] = await deps.db
    .update(connectorConnections)
    .set({ status: 'broken', statusReason, updatedAt: now })
    .where(eq(connectorConnections.id, connectionId))
    .returning({ accountId: connectorConnections.accountId, name: connectorConnections.name });
  if (!conn) return;
  // Its sources stop reading their leads: each gets the guardian's `access` alert with the status.
  const changed = await deps.db.transaction(async (tx) => {
    const rows = await tx
      .update(integrations)
      .set({ status: 'broken', statusReason, updatedAt: now })
      .where(onConnection(c, conn.accountId, connectionId))
      .returning({ id: integrations.id, accountId: integrations.accountId, type: integrations.type });
    await openAccessAlerts(tx, rows, statusReason, now);
    return rows;
  });
  for (const row of changed)
    deps.emitIntegrationUpdate(conn.accountId, { integrationId: row.id, status: 'broken', statusReason });

  // Whoever sets broken_notified_at sends the mail: one per outage, across calls and processes.
  const [claimed] = await deps.db
    .update(connectorConnections)
    .set({ brokenNotifiedAt: now })
    .where(and(eq(connectorConnections.id, connectionId), isNull(connectorConnections.brokenNotifiedAt)))
    .returning({ id: connectorConnections.id });
  if (!claimed) return;
  const [account] = await deps.db
    .select({ login: users.login, lang: users.lang })
    .from(users)
    .where(and(eq(users.id, conn.accountId), isNull(users.deletedAt)));
  if (!account) return;
  const mail = await connectionBrokenMail({ lang: account.lang, publicUrl: deps.config.publicUrl }, c.spec.mail, {
    name: conn.name,
    reason: statusReason,
    link: screenUrl(deps.config.publicUrl, account.lang, c.spec.login.screen),
  });
  try {
    await deps.mailer.send({ to: account.login, ...mail });
  } catch (error) {
    // Not sent: the next failure tries again.
    deps.log.error({ err: error, connectionId }, 'connection alert not sent');
    await deps.db
      .update(connectorConnections)
      .set({ brokenNotifiedAt: null })
      .where(and(eq(connectorConnections.id, connectionId), eq(connectorConnections.brokenNotifiedAt, now)));
    return;
  }
  // Its sources' access alerts were told in this mail.
  await markAccessMailed(
    deps.db,
    changed.map((r) => r.id),
    new Date(),
  );
}

/**
 * Marks a broken connection and its integrations ok again (no mail), closing their guardian
 * `access` alerts; nothing when it was not broken.
 */
export async function markConnectionOk(
  deps: ConnectionDeps,
  c: ConnectionConnector,
  connectionId: string,
  db: Executor = deps.db,
): Promise<void> {
  const now = new Date();
  const [conn] = await db
    .update(connectorConnections)
    .set({ status: 'ok', statusReason: null, brokenNotifiedAt: null, updatedAt: now })
    .where(and(eq(connectorConnections.id, connectionId), eq(connectorConnections.status, 'broken')))
    .returning({ accountId: connectorConnections.accountId });
  if (!conn) return;
  const changed = await db
    .update(integrations)
    .set({ status: 'ok', statusReason: null, updatedAt: now })
    .where(and(onConnection(c, conn.accountId, connectionId), eq(integrations.status, 'broken')))
    .returning({ id: integrations.id });
  await closeAccessAlerts(
    db,
    changed.map((r) => r.id),
    now,
  );
  for (const row of changed) {
    deps.emitIntegrationUpdate(conn.accountId, { integrationId: row.id, status: 'ok', statusReason: null });
  }
}

/**
 * Runs a call made with the connection's tokens. A refused token or permission marks the
 * connection broken; every failure of the service answers 400 CONNECTION_FAILED with a secret-free
 * message. A success on a broken connection marks it ok.
 */
export async function withConnection<T>(
  deps: ConnectionDeps,
  c: ConnectionConnector,
  conn: Pick<ConnectorConnectionRow, 'id' | 'status'>,
  call: () => Promise<T>,
): Promise<T> {
  let result: T;
  try {
    result = await call();
  } catch (error) {
    if (error instanceof AppError) throw error;
    const reason = reasonOf(c, error);
    if (c.spec.errors.refused(error)) await markConnectionBroken(deps, c, conn.id, reason);
    else deps.log.warn({ connectionId: conn.id, reason }, `${c.type} call failed`);
    throw new AppError('CONNECTION_FAILED', { message: reason });
  }
  if (conn.status === 'broken') await markConnectionOk(deps, c, conn.id);
  return result;
}
