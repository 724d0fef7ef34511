// POST /api/integrations/migrate/fb/{id}: moves a facebook integration to another of the account's
// connections that manages the same page (e.g. after the page's admin changed, or a reconnect as
// another Facebook user). The form and everything else of the integration stay.
import type { Integration } from '@leadrelay/shared';
import { eq } from 'drizzle-orm';
import { integrations } from '../../db/schema';
import { getIntegration, ownIntegrationOfType } from '../integrations';
import type { FacebookDeps } from './facebook-deps';
import { connectionForPage } from './facebook-settings';
import type { Actor } from './facebook-store';

export async function migrateIntegration(
  deps: FacebookDeps,
  actor: Actor,
  integrationId: string,
  fbConnectionId: string,
): Promise<Integration> {
  const changed = await deps.db.transaction(async (tx) => {
    const row = await ownIntegrationOfType(tx, actor, integrationId, 'facebook', true);
    const pageId = typeof row.settings.fbPageId === 'string' ? row.settings.fbPageId : '';
    const conn = await connectionForPage(
      tx,
      actor,
      { connectionId: fbConnectionId, pageId },
      { connection: 'fbConnectionId', page: 'fbConnectionId' },
    );
    const statusChanged = conn.status !== row.status || conn.statusReason !== row.statusReason;
    await tx
      .update(integrations)
      .set({
        settings: { ...row.settings, fbConnectionId: conn.id },
        status: conn.status,
        statusReason: conn.statusReason,
        updatedAt: new Date(),
      })
      .where(eq(integrations.id, row.id));
    return statusChanged ? conn : null;
  });
  if (changed) {
    deps.emitIntegrationUpdate(actor.id, {
      integrationId,
      status: changed.status,
      statusReason: changed.statusReason,
    });
  }
  return getIntegration(deps.db, actor, integrationId);
}
