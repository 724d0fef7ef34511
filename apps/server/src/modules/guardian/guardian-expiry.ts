// Credential-expiry warnings (issue 19 part 4b; docs/adr/010-manager-bot.md): a credential whose
// end we know — an OAuth refresh token's (integrations.credential_expires_at, moved ahead by every
// exchange or refresh) or an account connection's login token (connector_connections.expires_at,
// a lead-ads profile's long-lived user token) — is warned 7 days and 1 day ahead, each once, as guardian alerts of kind
// `expiry` told to the owner with a link to where it is reconnected.
import { connectors } from '@leadrelay/connectors';
import { EXPIRY_WARNING_DAYS } from '@leadrelay/shared';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../db/client';
import { guardianAlerts } from '../../db/schema';
import type { ExpiryNotice } from '../../lib/mail/guardian-templates';
import { type GuardianDeps, notifyOwner, ownerOf } from './guardian-notify';

const DAY_MS = 86_400_000;
const FAR = Math.max(...EXPIRY_WARNING_DAYS);

/** An account connection's service as its brand is written (an integration's is its type's name in the catalogue). */
const brandOf = (type: string) => connectors.get(type)?.connections?.brand ?? type;

/** How an account connection of the type is renewed, in its connector's words by language ('refresh' for none). */
function renewalOf(type: string): ExpiryNotice['renewal'] {
  const mail = connectors.get(type)?.connections?.mail;
  return mail ? { login: { uk: mail.uk.renew, en: mail.en.renew } } : 'refresh';
}

/** Where an account connection of the type is logged in to again (the connector's screen). */
const loginScreen = (type: string) => connectors.get(type)?.connections?.login.screen ?? '/admin/integrations';

interface Credential {
  owner: 'integration' | 'connection';
  id: string;
  account_id: string;
  name: string;
  type: string;
  expires_at: Date | string;
}

/** The credentials that end within the farthest warning, not yet ended, of healthy connections. */
async function endingSoon(tx: Executor, now: Date): Promise<Credential[]> {
  const iso = now.toISOString();
  const until = new Date(now.getTime() + FAR * DAY_MS).toISOString();
  return rowsOf<Credential>(
    await tx.execute(sql`
      select 'integration' as owner, i.id::text, i.account_id::text, i.name, i.type, i.credential_expires_at as expires_at
      from integrations i
      where i.active and i.status = 'ok' and i.credential_expires_at > ${iso}::timestamptz
        and i.credential_expires_at <= ${until}::timestamptz
      union all
      select 'connection', c.id::text, c.account_id::text, c.name, c.type, c.expires_at
      from connector_connections c
      where c.status = 'ok' and c.expires_at > ${iso}::timestamptz and c.expires_at <= ${until}::timestamptz`),
  );
}

/** The nearest warning due now: 1 when a day or less is left, else 7. */
const stageOf = (expiresAt: Date, now: Date) =>
  Math.min(...EXPIRY_WARNING_DAYS.filter((d) => expiresAt.getTime() - now.getTime() <= d * DAY_MS));

/**
 * Hourly. Closes the warnings a reconnect or the end made moot; opens the warning due for each
 * credential ending soon (the unique key on credential, end and lead time makes each one once,
 * whatever the runs); tells the owner of each open warning not told yet.
 */
export async function checkExpiries(
  deps: GuardianDeps,
  tx: Executor,
  now: Date,
): Promise<{ opened: number; told: number }> {
  const iso = now.toISOString();
  // Moot: the credential's end moved (reconnected, refreshed) or passed (the broken mail takes over).
  await tx.execute(sql`
    update guardian_alerts a set closed_at = ${iso}::timestamptz
    where a.kind = 'expiry' and a.closed_at is null and (
      a.expires_at <= ${iso}::timestamptz
      or (a.integration_id is not null and not exists (
        select from integrations i where i.id = a.integration_id and i.credential_expires_at = a.expires_at))
      or (a.connection_id is not null and not exists (
        select from connector_connections c where c.id = a.connection_id and c.expires_at = a.expires_at)))`);
  let opened = 0;
  for (const c of await endingSoon(tx, now)) {
    const expiresAt = new Date(c.expires_at);
    const daysAhead = stageOf(expiresAt, now);
    const column = c.owner === 'integration' ? guardianAlerts.integrationId : guardianAlerts.connectionId;
    // The 7-day warning gives way to the 1-day one (one open alert per credential and kind).
    await tx
      .update(guardianAlerts)
      .set({ closedAt: now })
      .where(
        and(
          eq(column, c.id),
          eq(guardianAlerts.kind, 'expiry'),
          isNull(guardianAlerts.closedAt),
          sql`${guardianAlerts.daysAhead} <> ${daysAhead}`,
        ),
      );
    const made = await tx
      .insert(guardianAlerts)
      .values({
        accountId: c.account_id,
        ...(c.owner === 'integration' ? { integrationId: c.id } : { connectionId: c.id }),
        kind: 'expiry',
        expiresAt,
        daysAhead,
        openedAt: now,
      })
      .onConflictDoNothing()
      .returning({ id: guardianAlerts.id });
    opened += made.length;
  }
  return { opened, told: await tellExpiries(deps, tx, now) };
}

async function tellExpiries(deps: GuardianDeps, tx: Executor, now: Date): Promise<number> {
  const due = rowsOf<{
    id: string;
    account_id: string;
    expires_at: Date | string;
    name: string;
    type: string;
    service: string | null;
    /** connection: an account connection's login (renewed by logging in again); else an integration's. */
    owner: 'integration' | 'connection';
    integration_id: string | null;
  }>(
    await tx.execute(sql`
      select a.id::text, a.account_id::text, a.expires_at, coalesce(i.name, c.name) as name,
        coalesce(i.type, c.type) as type, coalesce(s.name, i.type) as service,
        case when i.id is null then 'connection' else 'integration' end as owner,
        i.id::text as integration_id
      from guardian_alerts a
      left join integrations i on i.id = a.integration_id
      left join connector_connections c on c.id = a.connection_id
      left join integration_settings s on s.slug = i.type
      where a.kind = 'expiry' and a.closed_at is null and a.notified_at is null
        and a.expires_at > ${now.toISOString()}::timestamptz`),
  );
  let told = 0;
  for (const a of due) {
    const owner = await ownerOf(tx, a.account_id);
    if (!owner) continue;
    const notice = {
      name: a.name,
      service: a.owner === 'connection' ? brandOf(a.type) : (a.service ?? a.type),
      expiresAt: new Date(a.expires_at),
      renewal: a.owner === 'connection' ? renewalOf(a.type) : ('refresh' as const),
    };
    const path = a.owner === 'connection' ? loginScreen(a.type) : `/admin/integrations/${a.type}/${a.integration_id}`;
    if (!(await notifyOwner(deps, owner, { kind: 'expiry', notice, path }))) continue;
    await tx.update(guardianAlerts).set({ notifiedAt: now }).where(eq(guardianAlerts.id, a.id));
    told++;
  }
  return told;
}
