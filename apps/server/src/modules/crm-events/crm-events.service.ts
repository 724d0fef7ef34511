// A stage change in the CRM as the lead's first reaction (issue 19, speed to lead; ADR 010). The CRM
// posts to /api/{type}/events/{integrationId}/{secret} (crm-events.routes.ts); the connector's
// stageWatch reads the body into the records that moved; each record is found among the deliveries
// of that destination (deliveries.external_id is what `deliver` returned for the record; a change
// that comes while a delivery to it is still under way waits a moment for it), and its
// lead gets 'taken' via 'crm' through recordReaction: the first reaction stands, a later move
// records nothing. Subscribing is in crm-watch.service.ts.
// A watch set up by hand (PastedStageWatch) also carries the CRM's token in each body: it must be the
// one the person pasted (compared in constant time; else the connector's 401/403 key and nothing is
// read), and as its events name a record without its stage, each record we delivered is confirmed
// with the connection (the connector's client reads its stage) before it counts. One whose CRM puts
// no token in its events has the secret in the path as its only key (the confirmation stays the real
// check); its first well-formed call is noted as the watch's start (crm_watches.subscribed_at).
import { type CrmStage, type CrmStageChange, getConnector, type PastedStageWatch } from '@leadrelay/connectors';
import type { ErrorCode } from '@leadrelay/shared';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Deps } from '../../config';
import {
  type CrmWatchSecret,
  collections,
  crmWatches,
  deliveries,
  type IntegrationRow,
  integrations,
  leads,
} from '../../db/schema';
import { reasonOf } from '../../delivery/connector-context';
import { AppError } from '../../lib/app-error';
import { isUuid } from '../../lib/ids';
import { sameText } from '../../lib/same-text';
import { queueStageConversion } from '../conversions';
import { recordReaction } from '../reactions';
import { watchContext, watchedOf } from './crm-watch.service';

/** Records read from one webhook at most (a CRM may batch; more is not a manager's click). */
const MAX_CHANGES = 50;

/** Why nothing is said: an unknown integration and a wrong secret look alike from outside. */
export class UnknownTarget extends Error {}

/** The destination and its watch for a CRM call, or UnknownTarget. */
async function target(deps: Deps, type: string, integrationId: string, secret: string) {
  if (!isUuid(integrationId)) throw new UnknownTarget();
  const [found] = await deps.db
    .select({ row: integrations, watch: crmWatches })
    .from(integrations)
    .innerJoin(crmWatches, eq(crmWatches.integrationId, integrations.id))
    .where(and(eq(integrations.id, integrationId), eq(integrations.type, type)));
  if (!found) throw new UnknownTarget();
  let sealed: CrmWatchSecret;
  try {
    sealed = deps.secrets.open(found.watch.secret, found.row.id) as unknown as CrmWatchSecret;
  } catch {
    throw new UnknownTarget();
  }
  if (typeof sealed.secret !== 'string' || !sameText(secret, sealed.secret)) throw new UnknownTarget();
  return { row: found.row, token: typeof sealed.token === 'string' && sealed.token ? sealed.token : undefined };
}

/** The first call of a watch without a token: the person made the CRM's webhook (the page says since when). */
async function heardFrom(deps: Deps, integrationId: string, now: Date): Promise<void> {
  await deps.db
    .update(crmWatches)
    .set({ subscribedAt: now })
    .where(and(eq(crmWatches.integrationId, integrationId), isNull(crmWatches.subscribedAt)));
}

/** The CRM user's name when our distribution knows that id (the lead's assignee, or its collection). */
async function nameOf(
  deps: Deps,
  lead: { assignee: { id: string; name?: string } | null; integrationId: string },
  byId: string | undefined,
): Promise<string | undefined> {
  if (!byId) return undefined;
  if (lead.assignee?.id === byId && lead.assignee.name) return lead.assignee.name;
  const [source] = await deps.db
    .select({ items: collections.items })
    .from(integrations)
    .innerJoin(collections, eq(collections.id, integrations.distributionId))
    .where(eq(integrations.id, lead.integrationId));
  return source?.items.find((item) => item.value === byId)?.name;
}

/** The reaction's time: the CRM's, within [delivered, now] (its clock or rounding may disagree with ours). */
function reactionTime(change: CrmStageChange, deliveredAt: Date | null, now: Date): Date {
  let at = change.at ?? now;
  if (at > now) at = now;
  if (deliveredAt && at < deliveredAt) at = deliveredAt;
  return at;
}

/**
 * A pasted watch's record as the CRM has it now: the change when its stage moved since we made it.
 * The CRM failing to answer costs this reaction only (logged), never the webhook's answer.
 */
async function confirmed(
  deps: Deps,
  type: string,
  row: IntegrationRow,
  watch: PastedStageWatch<unknown, unknown>,
  change: CrmStageChange,
): Promise<CrmStageChange | undefined> {
  const connector = getConnector(type);
  if (!connector || !row.auth) return undefined;
  try {
    const moved = await watch.confirm(watchContext(deps, connector, row), change);
    return moved ? { ...moved, externalId: change.externalId } : undefined;
  } catch (error) {
    deps.log.warn({ integrationId: row.id, reason: reasonOf(error) }, 'CRM record not read for its stage');
    return undefined;
  }
}

/** A stage's name as the CRM has it (its pipelines list, kept a while); undefined when it cannot say. */
async function stageNameOf(
  deps: Deps,
  type: string,
  row: IntegrationRow,
  watch: { stageName?: (ctx: never, stage: CrmStage) => Promise<string | undefined> },
  stage: CrmStage,
): Promise<string | undefined> {
  const connector = getConnector(type);
  if (!connector || !row.auth || !watch.stageName) return undefined;
  try {
    return await watch.stageName(watchContext(deps, connector, row) as never, stage);
  } catch (error) {
    deps.log.warn({ integrationId: row.id, reason: reasonOf(error) }, 'CRM stage name not read');
    return undefined;
  }
}

/**
 * How long a change waits for the delivery that made its record to be stored, and how often it
 * looks: within a CRM's patience (one waits only 2 s for our answer).
 */
export const RECORD_WAIT_MS = 1_500;
const RECORD_LOOK_MS = 200;

/**
 * The delivery of this destination that made the CRM's record. A CRM can move a record the moment
 * it is made (an automation, a quick manager), before our delivery has finished its other calls
 * (the contact, the note) and stored the record's id: while a delivery to this destination is under
 * way, the change waits for it (up to RECORD_WAIT_MS) instead of being skipped as a stranger's.
 * A record that is not ours is answered at once when no delivery to the destination is under way.
 */
async function deliveredRecord(deps: Deps, row: IntegrationRow, externalId: string) {
  const deadline = Date.now() + RECORD_WAIT_MS;
  for (;;) {
    const [delivered] = await deps.db
      .select({
        leadId: deliveries.leadId,
        deliveredAt: deliveries.deliveredAt,
        integrationId: leads.integrationId,
        assignee: leads.assignee,
      })
      .from(deliveries)
      .innerJoin(leads, eq(leads.id, deliveries.leadId))
      .where(
        and(
          eq(deliveries.destinationId, row.id),
          eq(deliveries.accountId, row.accountId),
          eq(deliveries.externalId, externalId),
          eq(deliveries.status, 'delivered'),
        ),
      )
      .orderBy(asc(deliveries.deliveredAt))
      .limit(1);
    if (delivered || Date.now() >= deadline) return delivered;
    const [running] = await deps.db
      .select({ id: deliveries.id })
      .from(deliveries)
      .where(and(eq(deliveries.destinationId, row.id), eq(deliveries.status, 'running')))
      .limit(1);
    if (!running) return undefined;
    await new Promise((resolve) => setTimeout(resolve, RECORD_LOOK_MS));
  }
}

/**
 * One CRM webhook for a destination: how many leads got their first reaction from it. A record we
 * never delivered (made by hand in the CRM, or another destination's) is skipped without a word.
 */
export async function receiveStageChanges(
  deps: Deps,
  type: string,
  integrationId: string,
  secret: string,
  body: unknown,
  now = new Date(),
): Promise<{ recorded: number }> {
  const { row, token } = await target(deps, type, integrationId, secret);
  const watch = watchedOf(type)?.watch;
  const changes = watch?.read(body);
  if (!watch || !changes) throw new AppError('VALIDATION_ERROR', { message: `Not a ${type} webhook body` });
  if (watch.setup === 'pasted' && watch.tokenOf) {
    const given = watch.tokenOf(body);
    // No token pasted yet refuses every event alike: nothing is read before the CRM is known.
    if (!token || given === undefined || !sameText(given, token)) {
      throw new AppError(watch.tokenRefused as ErrorCode, { message: 'The event does not carry the pasted token' });
    }
  }
  // A CRM whose webhook carries no token: its first call at our address shows the person made it.
  if (watch.setup === 'pasted' && !watch.tokenOf) await heardFrom(deps, row.id, now);
  let recorded = 0;
  for (const found of changes.slice(0, MAX_CHANGES)) {
    let change: CrmStageChange | undefined = found;
    const delivered = await deliveredRecord(deps, row, change.externalId);
    if (!delivered) continue;
    if (watch.setup === 'pasted') {
      change = await confirmed(deps, type, row, watch, found);
      if (!change) continue;
    }
    const name = change.byName ?? (await nameOf(deps, delivered, change.byId));
    const result = await recordReaction(deps.db, {
      accountId: row.accountId,
      leadId: delivered.leadId,
      integrationId: delivered.integrationId,
      kind: 'taken',
      via: 'crm',
      by: { ...(change.byId ? { id: change.byId } : {}), ...(name ? { name } : {}) },
      at: reactionTime(change, delivered.deliveredAt, now),
    });
    if (result.recorded) recorded++;
    // Every stage change (not only the first) is its stage's conversion event, when the source sends them.
    const { stage } = change;
    if (stage) {
      const watched = watch;
      const queued = await queueStageConversion(
        deps.db,
        { leadId: delivered.leadId, stage, at: reactionTime(change, delivered.deliveredAt, now) },
        () => stageNameOf(deps, type, row, watched, stage),
      );
      if (queued) deps.events.emit('conversions.due');
    }
  }
  return { recorded };
}
