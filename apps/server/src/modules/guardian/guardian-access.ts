// A source refused by its sender (issue 32): the guardian's `access` alerts. They are opened and
// closed where the refusal and the recovery are found (lib/access-alerts.ts: the source poll's
// integration health, an account connection's health, a reconnect); here, every minute, the
// guardian closes any whose integration is healthy again by a way that did not close it, and
// tells the owner of each one not told yet. The broken-integration mail went when it opened (and
// marked it told, markAccessMailed, unless the owner linked a Telegram chat): what is left here is
// the owner's Telegram chat, and notifyOwner's mail channel counts that mail instead of a second one.
import { sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../db/client';
import { guardianAlerts } from '../../db/schema';
import { type GuardianDeps, notifyOwner, ownerOf } from './guardian-notify';

export const ACCESS_CHECK_MS = 60_000;

export async function checkAccess(
  deps: GuardianDeps,
  tx: Executor,
  now: Date,
): Promise<{ closed: number; told: number }> {
  const iso = now.toISOString();
  const closed = await tx.execute(sql`
    update guardian_alerts a set closed_at = ${iso}::timestamptz
    where a.kind = 'access' and a.closed_at is null
      and exists (select from integrations i where i.id = a.integration_id and i.status = 'ok')`);
  const due = rowsOf<{
    id: string;
    account_id: string;
    integration_id: string;
    name: string;
    type: string;
    service: string;
    reason: string | null;
  }>(
    await tx.execute(sql`
      select a.id::text, a.account_id::text, i.id::text as integration_id, i.name, i.type,
        coalesce(s.name, i.type) as service, a.reason
      from guardian_alerts a
      join integrations i on i.id = a.integration_id and i.account_id = a.account_id
      left join integration_settings s on s.slug = i.type
      where a.kind = 'access' and a.closed_at is null and a.notified_at is null`),
  );
  let told = 0;
  for (const a of due) {
    const owner = await ownerOf(tx, a.account_id);
    if (!owner) continue;
    const notice = { name: a.name, service: a.service, reason: a.reason ?? 'AUTH' };
    const path = `/admin/integrations/${a.type}/${a.integration_id}`;
    if (!(await notifyOwner(deps, owner, { kind: 'access', notice, path }))) continue;
    await tx.update(guardianAlerts).set({ notifiedAt: now }).where(sql`${guardianAlerts.id} = ${a.id}::uuid`);
    told++;
  }
  return { closed: (closed as { rowCount?: number }).rowCount ?? 0, told };
}
