// Health of a Facebook connection. When Facebook refuses its token or a permission (GraphError
// isTokenError / isPermissionError) the connection and every facebook integration on it are marked
// broken, UPDATE_INTEGRATION goes to the browsers and the account is e-mailed once per outage
// (broken_notified_at). The next successful Graph call, or a reconnect, marks them ok again.
import { GraphError } from '@leadrelay/connectors';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { type FbConnectionRow, fbConnections, integrations, users } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { facebookConnectionBrokenMail } from '../../lib/mail/templates';
import { screenUrl } from '../../lib/oauth-state';
import { storableText } from '../../lib/storable-text';
import type { FacebookDeps } from './facebook-deps';

const MAX_REASON = 300;

/** Facebook integrations (sources) that take leads through this connection. */
const onConnection = (accountId: string, connectionId: string) =>
  and(
    eq(integrations.accountId, accountId),
    eq(integrations.type, 'facebook'),
    sql`${integrations.settings}->>'fbConnectionId' = ${connectionId}`,
  );

/**
 * A short reason for the UI and the mail: Facebook's message (the client removes secrets) and code,
 * storable (Meta's words are text from outside, ADR 009, as reasonOf's are for the connectors).
 */
export function graphReason(error: unknown): string {
  if (error instanceof GraphError) {
    const code = error.code ? ` (code ${error.code}${error.subcode ? `/${error.subcode}` : ''})` : '';
    return storableText(`${error.message}${code}`.slice(0, MAX_REASON));
  }
  return (
    storableText((error instanceof Error ? error.message : String(error)).slice(0, MAX_REASON)) ||
    'Facebook call failed'
  );
}

/** Facebook refused the token or a permission: the user has to reconnect. */
export const isAuthFailure = (error: unknown): error is GraphError =>
  error instanceof GraphError && (error.isTokenError || error.isPermissionError);

/** Marks the connection and its integrations broken, tells the browsers, e-mails the account once per outage. */
export async function markConnectionBroken(deps: FacebookDeps, connectionId: string, reason: string): Promise<void> {
  const statusReason = reason.slice(0, MAX_REASON);
  const now = new Date();
  const [conn] = await deps.db
    .update(fbConnections)
    .set({ status: 'broken', statusReason, updatedAt: now })
    .where(eq(fbConnections.id, connectionId))
    .returning({ accountId: fbConnections.accountId, name: fbConnections.name });
  if (!conn) return;
  const changed = await deps.db
    .update(integrations)
    .set({ status: 'broken', statusReason, updatedAt: now })
    .where(onConnection(conn.accountId, connectionId))
    .returning({ id: integrations.id });
  for (const row of changed)
    deps.emitIntegrationUpdate(conn.accountId, { integrationId: row.id, status: 'broken', statusReason });

  // Whoever sets broken_notified_at sends the mail: one per outage, across calls and processes.
  const [claimed] = await deps.db
    .update(fbConnections)
    .set({ brokenNotifiedAt: now })
    .where(and(eq(fbConnections.id, connectionId), isNull(fbConnections.brokenNotifiedAt)))
    .returning({ id: fbConnections.id });
  if (!claimed) return;
  const [account] = await deps.db
    .select({ login: users.login, lang: users.lang })
    .from(users)
    .where(and(eq(users.id, conn.accountId), isNull(users.deletedAt)));
  if (!account) return;
  const mail = await facebookConnectionBrokenMail(
    { lang: account.lang, publicUrl: deps.config.publicUrl },
    {
      name: conn.name,
      reason: statusReason,
      link: screenUrl(deps.config.publicUrl, account.lang, '/admin/integrations/facebook'),
    },
  );
  try {
    await deps.mailer.send({ to: account.login, ...mail });
  } catch (error) {
    // Not sent: the next failure tries again.
    deps.log.error({ err: error, connectionId }, 'facebook connection alert not sent');
    await deps.db
      .update(fbConnections)
      .set({ brokenNotifiedAt: null })
      .where(and(eq(fbConnections.id, connectionId), eq(fbConnections.brokenNotifiedAt, now)));
  }
}

/** Marks a broken connection and its integrations ok again (no mail); nothing when it was not broken. */
export async function markConnectionOk(
  deps: FacebookDeps,
  connectionId: string,
  db: Executor = deps.db,
): Promise<void> {
  const now = new Date();
  const [conn] = await db
    .update(fbConnections)
    .set({ status: 'ok', statusReason: null, brokenNotifiedAt: null, updatedAt: now })
    .where(and(eq(fbConnections.id, connectionId), eq(fbConnections.status, 'broken')))
    .returning({ accountId: fbConnections.accountId });
  if (!conn) return;
  const changed = await db
    .update(integrations)
    .set({ status: 'ok', statusReason: null, updatedAt: now })
    .where(and(onConnection(conn.accountId, connectionId), eq(integrations.status, 'broken')))
    .returning({ id: integrations.id });
  for (const row of changed) {
    deps.emitIntegrationUpdate(conn.accountId, { integrationId: row.id, status: 'ok', statusReason: null });
  }
}

/**
 * Runs a Graph call made with the connection's tokens. A refused token or permission marks the
 * connection broken; every Graph failure answers 400 CONNECTION_FAILED with a secret-free message.
 * A success on a broken connection marks it ok.
 */
export async function withConnection<T>(
  deps: FacebookDeps,
  conn: Pick<FbConnectionRow, 'id' | 'status'>,
  call: () => Promise<T>,
): Promise<T> {
  let result: T;
  try {
    result = await call();
  } catch (error) {
    if (error instanceof AppError) throw error;
    const reason = graphReason(error);
    if (isAuthFailure(error)) await markConnectionBroken(deps, conn.id, reason);
    else deps.log.warn({ connectionId: conn.id, reason }, 'facebook call failed');
    throw new AppError('CONNECTION_FAILED', { message: reason });
  }
  if (conn.status === 'broken') await markConnectionOk(deps, conn.id);
  return result;
}
