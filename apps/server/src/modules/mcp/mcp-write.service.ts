// What the MCP tools that change something do (issue 34 part 2): resend a failed delivery (the
// restart the lead log's renew and the error list use, delivery/queue.ts requeue) and send a test
// lead into a source (the web's "test lead": a lead through the source's own ingest). Only for a
// key that may write; each is audited with the key's name.
import { randomUUID } from 'node:crypto';
import { TEST_LEAD_HEADER } from '@leadrelay/shared';
import { and, eq } from 'drizzle-orm';
import { deliveries, integrations } from '../../db/schema';
import { announceDue, requeue } from '../../delivery/queue';
import { AppError } from '../../lib/app-error';
import { isUuid } from '../../lib/ids';
import { recordAudit } from '../audit';
import { ingestWebhook } from '../ingest';
import { generateHook } from '../integrations';
import { type McpContext, McpRefusal } from './mcp-context';
import { wordsOf } from './mcp-words';

/** A 'read' key asked to change something. */
function assertMayWrite(ctx: McpContext): void {
  if (ctx.principal.scope !== 'write') throw new AppError('API_KEY_SCOPE');
}

/** The audit entry's actor: the account, by the key (its name in the details). */
const auditActorOf = (ctx: McpContext) => ({
  actorId: ctx.principal.accountId,
  actorLogin: ctx.login,
  ip: ctx.origin?.ip ?? null,
  userAgent: ctx.origin?.userAgent ?? null,
});
const byKey = (ctx: McpContext) => ({ via: 'mcp', apiKey: { id: ctx.principal.keyId, name: ctx.principal.keyName } });

/**
 * A failed delivery of the account is due again now, attempts kept (held instead while the account
 * is held). Another account's, an unknown or a malformed id: HOOK_NOT_FOUND, as the lead log says.
 */
export async function resendDelivery(ctx: McpContext, deliveryId: string, now = new Date()) {
  assertMayWrite(ctx);
  const { db, events } = ctx.deps;
  const accountId = ctx.principal.accountId;
  if (!isUuid(deliveryId)) throw new AppError('HOOK_NOT_FOUND');
  const result = await db.transaction(async (tx) => {
    const [delivery] = await tx
      .select({
        id: deliveries.id,
        hookId: deliveries.hookId,
        status: deliveries.status,
        destination: integrations.name,
      })
      .from(deliveries)
      .innerJoin(integrations, eq(integrations.id, deliveries.destinationId))
      .where(and(eq(deliveries.id, deliveryId), eq(deliveries.accountId, accountId)))
      .for('update', { of: deliveries });
    if (!delivery) throw new AppError('HOOK_NOT_FOUND');
    if (delivery.status !== 'failed') {
      throw new McpRefusal('OPERATION_NOT_SUPPORTED', wordsOf(ctx.locale).refusals.notFailed);
    }
    await requeue(tx, { failedDeliveryId: delivery.id }, now);
    const [after] = await tx
      .select({ status: deliveries.status })
      .from(deliveries)
      .where(eq(deliveries.id, delivery.id));
    await recordAudit(tx, auditActorOf(ctx), {
      action: 'delivery.resend',
      targetType: 'delivery',
      targetId: delivery.id,
      targetLabel: delivery.destination,
      details: { ...byKey(ctx), hookId: delivery.hookId },
    });
    return { hookId: delivery.hookId, status: after?.status ?? 'pending' };
  });
  events.emit('hook.changed', { accountId, hookId: result.hookId });
  announceDue(events);
  const words = wordsOf(ctx.locale);
  return {
    deliveryId,
    hookId: result.hookId,
    status: { code: result.status, words: words.deliveryStatus[result.status] },
  };
}

export interface TestLeadFields {
  name?: string;
  phone?: string;
  email?: string;
  comment?: string;
}

/**
 * A test lead through the source's own ingest, as the web's "test lead" posts one to its webhook
 * URL: mapped, filtered, deduped and delivered like any lead, and marked as a test in the lead log.
 */
export async function sendTestLead(ctx: McpContext, integrationId: string, fields: TestLeadFields = {}) {
  assertMayWrite(ctx);
  const { db, events, log } = ctx.deps;
  const words = wordsOf(ctx.locale);
  const [source] = isUuid(integrationId)
    ? await db
        .select({ name: integrations.name, active: integrations.active })
        .from(integrations)
        .where(and(eq(integrations.id, integrationId), eq(integrations.accountId, ctx.principal.accountId)))
    : [];
  if (!source) throw new AppError('INTEGRATION_NOT_FOUND');
  // generateHook refuses what is not a source; a switched-off source takes no leads.
  const { token } = await generateHook(ctx.deps, ctx.principal.actor, integrationId).catch((error: unknown) => {
    if (error instanceof AppError && error.code === 'OPERATION_NOT_SUPPORTED') {
      throw new McpRefusal('OPERATION_NOT_SUPPORTED', words.refusals.notSource);
    }
    throw error;
  });
  if (!source.active) throw new McpRefusal('OPERATION_NOT_SUPPORTED', words.refusals.inactive);
  const body: Record<string, string> = { name: words.testLead.name, comment: words.testLead.comment };
  for (const [key, value] of Object.entries(fields)) if (typeof value === 'string' && value.trim()) body[key] = value;
  const result = await ingestWebhook(
    { db, events, log },
    {
      token,
      body,
      // Each test lead is a new one, however often the same fields are sent.
      idempotencyKey: `mcp-test:${randomUUID()}`,
      request: {
        method: 'POST',
        contentType: 'application/json',
        headers: { 'x-leadrelay-source': 'mcp', [TEST_LEAD_HEADER]: 'true' },
        body,
      },
    },
  );
  await recordAudit(db, auditActorOf(ctx), {
    action: 'integration.test-lead',
    targetType: 'integration',
    targetId: integrationId,
    targetLabel: source.name,
    details: { ...byKey(ctx), hookId: result.hookId },
  });
  return {
    hookId: result.hookId,
    integrationId,
    status: { code: result.status, words: words.hookStatus[result.status] },
  };
}
