// The settings of an integration of type facebook (a source): which of the account's connections,
// which page of it and which lead form it takes leads from. Registered with the integrations API
// (facebookIntegrationType): it checks them on create and update, and tells whether the integration
// is connected (its connection exists).
import { type FacebookSettings, ZFacebookSettings } from '@leadrelay/shared';
import { and, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { fbConnections, fbPages } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { zodAppError } from '../../plugins/errors';
import type { IntegrationTypeHooks } from '../integrations';
import type { Actor } from './facebook-store';

const fieldError = (field: string, code: 'FB_CONNECTION_NOT_FOUND' | 'FB_PAGE_NOT_FOUND') =>
  new AppError('VALIDATION_ERROR', { errors: [{ field, code }] });

/** The connection the settings may name: the actor's own, managing the page; its status goes to the integration. */
export async function connectionForPage(
  db: Executor,
  actor: Actor,
  ref: { connectionId: string; pageId: string },
  fields: { connection: string; page: string },
) {
  const { connectionId, pageId } = ref;
  const [conn] = await db
    .select({ id: fbConnections.id, status: fbConnections.status, statusReason: fbConnections.statusReason })
    .from(fbConnections)
    .where(and(eq(fbConnections.id, connectionId), eq(fbConnections.accountId, actor.id)));
  if (!conn) throw fieldError(fields.connection, 'FB_CONNECTION_NOT_FOUND');
  const [page] = await db
    .select({ id: fbPages.id })
    .from(fbPages)
    .where(and(eq(fbPages.connectionId, conn.id), eq(fbPages.pageId, pageId)));
  if (!page) throw fieldError(fields.page, 'FB_PAGE_NOT_FOUND');
  return conn;
}

/** Checks facebook settings; 400 with settings.<field> errors (their keys) when they are wrong. */
export async function validFacebookSettings(
  db: Executor,
  actor: Actor,
  raw: Record<string, unknown>,
): Promise<{ settings: FacebookSettings; status: 'ok' | 'broken'; statusReason: string | null }> {
  const parsed = ZFacebookSettings.safeParse(raw);
  if (!parsed.success) throw zodAppError('settings', parsed.error);
  const settings = parsed.data;
  const conn = await connectionForPage(
    db,
    actor,
    { connectionId: settings.fbConnectionId, pageId: settings.fbPageId },
    { connection: 'settings.fbConnectionId', page: 'settings.fbPageId' },
  );
  return { settings, status: conn.status, statusReason: conn.statusReason };
}

/** Of the given connection ids, those that still exist for the account (facebook integrations' isConnected). */
export async function existingConnectionIds(db: Executor, accountId: string, ids: unknown[]): Promise<Set<string>> {
  const wanted = [...new Set(ids.filter((id): id is string => typeof id === 'string' && /^[0-9a-f-]{36}$/i.test(id)))];
  if (wanted.length === 0) return new Set();
  const rows = await db
    .select({ id: fbConnections.id })
    .from(fbConnections)
    .where(and(eq(fbConnections.accountId, accountId), inArray(fbConnections.id, wanted)));
  return new Set(rows.map((r) => r.id));
}

/** The facebook type's hooks for the integrations API (registered by facebookRoutes). */
export const facebookIntegrationType: IntegrationTypeHooks = {
  checkSettings: validFacebookSettings,
  async connectedIds(db, accountId, rows) {
    const existing = await existingConnectionIds(
      db,
      accountId,
      rows.map((r) => r.settings.fbConnectionId),
    );
    return new Set(rows.filter((r) => existing.has(String(r.settings.fbConnectionId))).map((r) => r.id));
  },
};
