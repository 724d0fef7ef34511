// The SMS log (spec 7 "Other": GET /api/legacy/api/admin/sms): what the AlphaSMS destination sent,
// written by recordSentSms in the transaction that stores the delivery's result, and kept current by
// a periodic task that asks AlphaSMS for the status of messages still on their way (AlphaSMS's
// delivery-report hook is not documented; asking is: docs/connectors/alphasms.md).
import { alphaSmsStatuses, connectors, type SentSms, smsStatusOf } from '@leadrelay/connectors';
import type { SmsList, SmsListQuery, SmsStatus } from '@leadrelay/shared';
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Deps } from '../../config';
import type { Executor } from '../../db/client';
import { type DeliveryRow, integrations, type SmsMessageRow, smsMessages } from '../../db/schema';
import { connectorContext } from '../../delivery/connector-context';
import type { DeliveryRecorder } from '../../delivery/worker';
import type { Actor } from '../integrations';
import { ownIntegrationOfType } from '../integrations';

const TYPE = 'alfasms';

const isSent = (r: unknown): r is SentSms => {
  const s = r as Partial<SentSms> | null;
  return (
    !!s &&
    (s.recipient === 'lead' || s.recipient === 'manager') &&
    typeof s.phone === 'string' &&
    typeof s.msgId === 'string' &&
    typeof s.text === 'string' &&
    typeof s.parts === 'number'
  );
};

/** The worker's recorder for AlphaSMS: the messages of a delivery into the log (once per msg_id). */
export const recordSentSms: DeliveryRecorder = async (tx, delivery: DeliveryRow, result) => {
  const rows = (result.records ?? []).filter(isSent).map((m) => ({
    accountId: delivery.accountId,
    integrationId: delivery.destinationId,
    deliveryId: delivery.id,
    hookId: delivery.hookId,
    leadId: delivery.leadId,
    recipient: m.recipient,
    phone: m.phone,
    channel: m.channel,
    text: m.text,
    msgId: m.msgId,
    parts: m.parts,
    cost: m.cost ?? null,
  }));
  if (rows.length) await tx.insert(smsMessages).values(rows).onConflictDoNothing();
};

const iso = (d: Date) => d.toISOString();

function toView(row: SmsMessageRow, integration: { id: string; name: string }) {
  return {
    _id: row.id,
    integration: { _id: integration.id, name: integration.name },
    hookId: row.hookId,
    leadId: row.leadId,
    recipient: row.recipient,
    phone: row.phone,
    channel: row.channel,
    text: row.text,
    msgId: row.msgId,
    parts: row.parts,
    status: row.status,
    providerStatus: row.providerStatus,
    cost: row.cost,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

/** The account's messages, newest first; another account's integration id answers INTEGRATION_NOT_FOUND. */
export async function listSms(db: Executor, actor: Actor, query: SmsListQuery): Promise<SmsList> {
  if (query.integrationId) await ownIntegrationOfType(db, actor, query.integrationId, TYPE);
  const where = and(
    eq(smsMessages.accountId, actor.id),
    query.integrationId ? eq(smsMessages.integrationId, query.integrationId) : undefined,
    query.status ? eq(smsMessages.status, query.status) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select({ m: smsMessages, integration: { id: integrations.id, name: integrations.name } })
      .from(smsMessages)
      .innerJoin(integrations, eq(integrations.id, smsMessages.integrationId))
      .where(where)
      .orderBy(desc(smsMessages.createdAt), desc(smsMessages.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db.select({ n: count() }).from(smsMessages).where(where),
  ]);
  return { data: rows.map((r) => toView(r.m, r.integration)), total: Number(total?.n ?? 0) };
}

/** Messages asked about per run, and how often one is asked about. */
const BATCH = 200;
const RECHECK_MS = 50_000;
/** After this long a status no longer changes (AlphaSMS's default lifetime is 2 days). */
const OPEN_FOR_MS = 72 * 3_600_000;

/**
 * One run of the status task: messages whose status may still change (sent; delivered by Viber,
 * which may still be read), oldest check first, asked for per integration in one call each. A
 * connection that cannot be called now keeps its messages for the next run.
 */
export async function refreshSmsStatuses(
  deps: Pick<Deps, 'config' | 'log' | 'secrets' | 'locks' | 'db'>,
  tx: Executor,
  now: Date,
): Promise<number> {
  const open = await tx
    .select()
    .from(smsMessages)
    .where(
      sql`(${smsMessages.status} = 'sent' or (${smsMessages.status} = 'delivered' and ${smsMessages.channel} <> 'sms'))
        and (${smsMessages.checkedAt} is null or ${smsMessages.checkedAt} < ${iso(new Date(now.getTime() - RECHECK_MS))}::timestamptz)
        and ${smsMessages.createdAt} > ${iso(new Date(now.getTime() - OPEN_FOR_MS))}::timestamptz`,
    )
    .orderBy(sql`${smsMessages.checkedAt} asc nulls first`)
    .limit(BATCH);
  if (!open.length) return 0;
  const connector = connectors.get(TYPE);
  if (!connector) return 0;
  const byIntegration = new Map<string, SmsMessageRow[]>();
  for (const m of open) byIntegration.set(m.integrationId, [...(byIntegration.get(m.integrationId) ?? []), m]);
  const rows = await tx
    .select()
    .from(integrations)
    .where(inArray(integrations.id, [...byIntegration.keys()]));
  let changed = 0;
  for (const row of rows) {
    const messages = byIntegration.get(row.id) ?? [];
    let answers: Awaited<ReturnType<typeof alphaSmsStatuses>>;
    try {
      const ctx = connectorContext(deps, connector, row) as Parameters<typeof alphaSmsStatuses>[0];
      answers = await alphaSmsStatuses(
        ctx,
        messages.map((m) => m.msgId),
      );
    } catch (error) {
      deps.log.warn({ err: error, integrationId: row.id }, 'SMS statuses could not be read');
      continue;
    }
    for (const [i, message] of messages.entries()) {
      const answer = answers[i];
      const status: SmsStatus | undefined = smsStatusOf(answer?.status);
      const moved = !!status && status !== message.status;
      if (moved) changed++;
      await tx
        .update(smsMessages)
        .set({
          checkedAt: now,
          ...(answer?.status ? { providerStatus: answer.status } : {}),
          ...(answer?.cost !== undefined ? { cost: answer.cost } : {}),
          ...(moved ? { status, updatedAt: now } : {}),
        })
        .where(eq(smsMessages.id, message.id));
    }
  }
  return changed;
}
