// amoCRM's own feature (spec 7 "amoCRM"): backups of an integration's settings with the account's
// structure (pipelines, users, fields), read through the connector's loaders. Connect, callback and
// the lists are the generic OAuth flow and loaders (modules/integrations). Every call is for the
// actor's own amoCRM integration; anything else answers INTEGRATION_NOT_FOUND.
import type { AmoBackup, AmoFields, AmoPipeline, AmoUser } from '@leadrelay/shared';
import { and, count, desc, eq, notInArray } from 'drizzle-orm';
import type { Deps } from '../../config';
import type { Executor } from '../../db/client';
import { type AmocrmBackupRow, amocrmBackups, type UserRow } from '../../db/schema';
import { loadList, ownIntegrationOfType } from '../integrations';

type Actor = Pick<UserRow, 'id'>;

export const AMOCRM_BACKUPS_KEPT = 20;

const ownAmoRow = (db: Executor, actor: Actor, id: string) => ownIntegrationOfType(db, actor, id, 'amocrm');

/** The connector's lists behind amoCRM's routes. */
export type AmoList = 'amoUsers' | 'pipelines' | 'customFields' | 'parser';

export const load = (deps: Deps, actor: Actor, id: string, list: AmoList): Promise<unknown> =>
  loadList(deps, actor, id, 'amocrm', list);

// ---- Backups ----

function toApi(row: AmocrmBackupRow): AmoBackup {
  return { _id: row.id, integrationId: row.integrationId, createdAt: row.createdAt.toISOString(), data: row.data };
}

export async function createBackup(deps: Deps, actor: Actor, integrationId: string): Promise<AmoBackup> {
  const row = await ownAmoRow(deps.db, actor, integrationId);
  // One after another: amoCRM allows 7 requests per second, and a refresh in the first serves the rest.
  const pipelines = (await load(deps, actor, row.id, 'pipelines')) as AmoPipeline[];
  const users = (await load(deps, actor, row.id, 'amoUsers')) as AmoUser[];
  const fields = (await load(deps, actor, row.id, 'customFields')) as AmoFields;
  return deps.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(amocrmBackups)
      .values({
        accountId: actor.id,
        integrationId: row.id,
        data: { settings: row.settings, pipelines, users, fields },
      })
      .returning();
    const kept = tx
      .select({ id: amocrmBackups.id })
      .from(amocrmBackups)
      .where(eq(amocrmBackups.integrationId, row.id))
      .orderBy(desc(amocrmBackups.createdAt), desc(amocrmBackups.id))
      .limit(AMOCRM_BACKUPS_KEPT);
    await tx
      .delete(amocrmBackups)
      .where(and(eq(amocrmBackups.integrationId, row.id), notInArray(amocrmBackups.id, kept)));
    return toApi(created!);
  });
}

export async function listBackups(
  db: Executor,
  actor: Actor,
  integrationId: string,
): Promise<{ data: AmoBackup[]; total: number }> {
  const row = await ownAmoRow(db, actor, integrationId);
  const where = and(eq(amocrmBackups.integrationId, row.id), eq(amocrmBackups.accountId, actor.id));
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(amocrmBackups)
      .where(where)
      .orderBy(desc(amocrmBackups.createdAt), desc(amocrmBackups.id))
      .limit(AMOCRM_BACKUPS_KEPT),
    db.select({ n: count() }).from(amocrmBackups).where(where),
  ]);
  return { data: rows.map(toApi), total: Number(total?.n ?? 0) };
}
