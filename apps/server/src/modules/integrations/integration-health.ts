// Integration health from the delivery engine's events: a destination that the worker pauses, or
// that refuses our credentials, is marked broken with a reason, pushed to the browser as
// UPDATE_INTEGRATION and e-mailed once per outage; its next success marks it ok again (one short
// mail). Nothing is switched off: deliveries keep waiting for it.
import type { IntegrationState, Locale } from '@leadrelay/shared';
import { and, eq, isNull } from 'drizzle-orm';
import type { Deps } from '../../config';
import type { Db } from '../../db/client';
import { integrations, users } from '../../db/schema';
import { closeAccessAlerts, markAccessMailed, openAccessAlerts } from '../../lib/access-alerts';
import type { EngineEventBus } from '../../lib/events';
import { integrationBrokenMail, integrationRecoveredMail } from '../../lib/mail/templates';
import { screenUrl } from '../../lib/oauth-state';
import type { IntegrationUpdate } from '../../plugins/realtime';
import { one } from './integration-rows';

const MAX_REASON = 300;

export type EmitIntegrationUpdate = (accountId: string, update: Omit<IntegrationUpdate, 'state'>) => void;

/**
 * UPDATE_INTEGRATION with the integration's computed state, read after the change the same way
 * the API reads it, so the live event and the screens never disagree.
 */
export function emitWithState(
  deps: Pick<Deps, 'db' | 'log'>,
  send: (accountId: string, update: IntegrationUpdate) => void,
): EmitIntegrationUpdate {
  return (accountId, update) => {
    void integrationState(deps.db, accountId, update.integrationId)
      .catch((error) => {
        deps.log.warn(
          { err: error, integrationId: update.integrationId },
          'integration state for the live event failed',
        );
        return undefined;
      })
      .then((state) => send(accountId, state ? { ...update, state } : update));
  };
}

async function integrationState(db: Db, accountId: string, id: string): Promise<IntegrationState | undefined> {
  const [row] = await db
    .select()
    .from(integrations)
    .where(and(eq(integrations.id, id), eq(integrations.accountId, accountId)));
  return row ? (await one(db, { id: accountId }, row)).state : undefined;
}

interface Changed {
  id: string;
  accountId: string;
  name: string;
  type: string;
  /** The status before this change: a mail goes out only on a transition. */
  previous: 'ok' | 'broken';
  /** A source refused by its sender: this change opened its guardian `access` alert. */
  accessOpened?: boolean;
}

const utc = (d: Date) => `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`;

/** What the UI shows for a paused destination: the failure and when it is tried again. */
export function pausedReason(reason: string, pausedUntil: Date): string {
  return `${reason.slice(0, MAX_REASON)} — leads wait; next try at ${utc(pausedUntil)}`;
}

/**
 * Marks the integration broken with the reason; undefined when it no longer exists. `access`: the
 * sender refused our credentials (a source's poll), so a source also gets its guardian alert, in
 * the same transaction (lib/access-alerts.ts).
 */
export async function markBroken(
  db: Db,
  integrationId: string,
  statusReason: string,
  now = new Date(),
  access = false,
): Promise<Changed | undefined> {
  return db.transaction(async (tx) => {
    // Row lock: of two pauses at once only one sees the ok → broken transition.
    const [row] = await tx
      .select({
        id: integrations.id,
        accountId: integrations.accountId,
        name: integrations.name,
        type: integrations.type,
        previous: integrations.status,
      })
      .from(integrations)
      .where(eq(integrations.id, integrationId))
      .for('update');
    if (!row) return undefined;
    await tx
      .update(integrations)
      .set({ status: 'broken', statusReason, updatedAt: now })
      .where(eq(integrations.id, integrationId));
    if (!access) return row;
    const opened = await openAccessAlerts(tx, [row], statusReason, now);
    return { ...row, accessOpened: opened.length > 0 };
  });
}

/**
 * Marks a broken integration ok again; undefined when it was not broken (nothing to tell). Its
 * guardian `access` alert, if one is open, closes: the source reads its leads again.
 */
export async function markRecovered(db: Db, integrationId: string, now = new Date()): Promise<Changed | undefined> {
  await closeAccessAlerts(db, [integrationId], now);
  const [row] = await db
    .update(integrations)
    .set({ status: 'ok', statusReason: null, updatedAt: now })
    .where(and(eq(integrations.id, integrationId), eq(integrations.status, 'broken')))
    .returning({
      id: integrations.id,
      accountId: integrations.accountId,
      name: integrations.name,
      type: integrations.type,
    });
  return row ? { ...row, previous: 'broken' } : undefined;
}

async function accountOf(db: Db, accountId: string): Promise<{ login: string; lang: Locale } | undefined> {
  const [row] = await db
    .select({ login: users.login, lang: users.lang })
    .from(users)
    .where(and(eq(users.id, accountId), isNull(users.deletedAt)));
  return row;
}

const integrationLink = (deps: Deps, lang: Locale, row: Changed) =>
  screenUrl(deps.config.publicUrl, lang, `/admin/integrations/${row.type}/${row.id}`);

export async function onDestinationBroken(
  deps: Deps,
  emit: EmitIntegrationUpdate,
  input: { destinationId: string; reason: string; retryAt: Date | null; access?: boolean },
): Promise<void> {
  // The reason is stored as it came: a code (a connector's <SLUG>_SENDER_INVALID), one with a detail
  // (<CONNECTOR>_REFRESH_FAILED: HTTP 401) or an HTTP answer, which the web and the mails translate
  // (shared parseReason); what to do about it is theirs to say, in the user's language.
  const statusReason = input.retryAt ? pausedReason(input.reason, input.retryAt) : input.reason.slice(0, MAX_REASON);
  const row = await markBroken(deps.db, input.destinationId, statusReason, new Date(), input.access ?? false);
  if (!row) return;
  emit(row.accountId, { integrationId: row.id, status: 'broken', statusReason });
  // One mail per outage; a refusal that opens a source's access alert is one (the alert is told in
  // this mail: the guardian does not mail it again).
  if (row.previous !== 'ok' && !row.accessOpened) return;
  const account = await accountOf(deps.db, row.accountId);
  if (!account) return;
  const mail = await integrationBrokenMail(
    { lang: account.lang, publicUrl: deps.config.publicUrl },
    {
      name: row.name,
      reason: input.reason.slice(0, MAX_REASON),
      retryAt: input.retryAt,
      link: integrationLink(deps, account.lang, row),
    },
  );
  await deps.mailer.send({ to: account.login, ...mail });
  if (input.access) await markAccessMailed(deps.db, [row.id], new Date());
}

export async function onDestinationRecovered(
  deps: Deps,
  emit: EmitIntegrationUpdate,
  destinationId: string,
): Promise<void> {
  const row = await markRecovered(deps.db, destinationId);
  if (!row) return;
  emit(row.accountId, { integrationId: row.id, status: 'ok', statusReason: null });
  const account = await accountOf(deps.db, row.accountId);
  if (!account) return;
  const mail = await integrationRecoveredMail(
    { lang: account.lang, publicUrl: deps.config.publicUrl },
    row.name,
    integrationLink(deps, account.lang, row),
  );
  await deps.mailer.send({ to: account.login, ...mail });
}

/**
 * The one way to say an integration's connection changed (connect, reconnect, disconnect, whatever
 * the route): the account's browsers get UPDATE_INTEGRATION with its state after the change.
 */
export function connectionChanged(deps: Pick<Deps, 'events'>, row: { id: string; accountId: string }): void {
  deps.events.emit('integration.connection', { integrationId: row.id, accountId: row.accountId });
}

async function onConnectionChanged(
  deps: Deps,
  emit: EmitIntegrationUpdate,
  e: { integrationId: string; accountId: string },
): Promise<void> {
  const [row] = await deps.db
    .select({ status: integrations.status, statusReason: integrations.statusReason })
    .from(integrations)
    .where(and(eq(integrations.id, e.integrationId), eq(integrations.accountId, e.accountId)));
  if (row) emit(e.accountId, { integrationId: e.integrationId, ...row });
}

/**
 * Subscribes to the engine's events. Changes of one destination run one after another, in the
 * order of the events; stop() waits for the updates and mails under way.
 */
export function watchIntegrationHealth(
  deps: Deps,
  events: EngineEventBus,
  emit: EmitIntegrationUpdate,
): { stop(): Promise<void> } {
  const queues = new Map<string, Promise<void>>();
  const enqueue = (destinationId: string, work: () => Promise<void>) => {
    const next: Promise<void> = (queues.get(destinationId) ?? Promise.resolve())
      .then(work)
      .catch((error) => deps.log.error({ err: error, destinationId }, 'integration health update failed'))
      .finally(() => {
        if (queues.get(destinationId) === next) queues.delete(destinationId);
      });
    queues.set(destinationId, next);
  };
  const onPaused = (e: { destinationId: string; pausedUntil: Date; reason: string }) =>
    enqueue(e.destinationId, () => onDestinationBroken(deps, emit, { ...e, retryAt: e.pausedUntil }));
  const onBroken = (e: { destinationId: string; reason: string }) =>
    enqueue(e.destinationId, () => onDestinationBroken(deps, emit, { ...e, retryAt: null }));
  const onRecovered = (e: { destinationId: string }) =>
    enqueue(e.destinationId, () => onDestinationRecovered(deps, emit, e.destinationId));
  const onConnection = (e: { integrationId: string; accountId: string }) =>
    enqueue(e.integrationId, () => onConnectionChanged(deps, emit, e));
  events.on('destination.paused', onPaused);
  events.on('destination.broken', onBroken);
  events.on('destination.recovered', onRecovered);
  events.on('integration.connection', onConnection);
  return {
    async stop() {
      events.off('destination.paused', onPaused);
      events.off('destination.broken', onBroken);
      events.off('destination.recovered', onRecovered);
      events.off('integration.connection', onConnection);
      await Promise.allSettled([...queues.values()]);
    },
  };
}
