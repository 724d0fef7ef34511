import { createHash, randomUUID } from 'node:crypto';
import {
  applyMapping,
  canonicalJson,
  DEFAULT_DEDUPE_WINDOW_HOURS,
  evaluateFilters,
  getPath,
  type HookStatus,
  type SourceOptions,
  ZSourceOptions,
} from '@leadrelay/shared';
import { and, eq, gt, inArray, lte } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Executor } from '../../db/client';
import { dedupeKeys, deliveries, hooks, integrations, leads, type StoredRequest } from '../../db/schema';
import type { EngineEventBus } from '../../lib/events';
import { AppError } from '../../plugins/errors';
import { nextAssignee } from './distribution';

export interface IngestInput {
  token: string;
  body: unknown;
  request: StoredRequest;
  idempotencyKey?: string;
}

export interface IngestResult {
  hookId: string;
  status: HookStatus;
  /** 202 for a queued lead, 200 for a filtered or repeated one. */
  httpStatus: 200 | 202;
}

interface IngestDeps {
  db: Db;
  events: EngineEventBus;
  log: FastifyBaseLogger;
  now?: () => Date;
}

/** Thrown inside the transaction to roll back a repeat; carries the original hook. */
class Duplicate extends Error {
  constructor(readonly originalHookId: string) {
    super('duplicate');
  }
}

function sourceOptions(raw: unknown, log: FastifyBaseLogger, integrationId: string): SourceOptions {
  const parsed = ZSourceOptions.safeParse(raw ?? {});
  if (parsed.success) return parsed.data;
  // The integrations API validates options on write; an older or hand-edited value must not lose
  // leads, so the lead is taken with the default mapping and the problem is logged.
  log.warn({ integrationId, issues: parsed.error.issues }, 'invalid integration options; default mapping used');
  return {};
}

function dedupeKeysOf(input: IngestInput, body: Record<string, unknown>, options: SourceOptions): string[] {
  const keys: string[] = [];
  const header = input.idempotencyKey?.trim();
  if (header) keys.push(`idem:${header.slice(0, 200)}`);
  const sourceField = options.dedupe?.sourceIdField;
  const sourceId = sourceField ? getPath(body, sourceField)?.trim() : undefined;
  if (sourceId) keys.push(`src:${sourceId.slice(0, 200)}`);
  // The same body counts as a repeat only when the sender names no event id: two events it
  // names differently are two leads, even with equal fields.
  if (!keys.length) keys.push(`body:${createHash('sha256').update(canonicalJson(body)).digest('hex')}`);
  return keys;
}

export async function ingestWebhook(deps: IngestDeps, input: IngestInput): Promise<IngestResult> {
  const now = deps.now?.() ?? new Date();
  const [integration] = await deps.db
    .select()
    .from(integrations)
    .where(and(eq(integrations.hookToken, input.token), eq(integrations.active, true)));
  if (!integration) throw new AppError('INTEGRATION_NOT_FOUND');
  if (input.body === null || typeof input.body !== 'object' || Array.isArray(input.body)) {
    throw new AppError('VALIDATION_ERROR', { message: 'The body must be an object of fields' });
  }
  const body = input.body as Record<string, unknown>;
  const options = sourceOptions(integration.options, deps.log, integration.id);
  const fields = applyMapping(body, options.mapping);
  const verdict = evaluateFilters(fields, body, options.filters);
  const base = { accountId: integration.accountId, integrationId: integration.id, request: input.request };

  if (!verdict.kept) {
    const [hook] = await deps.db
      .insert(hooks)
      .values({ ...base, status: 'filtered', reason: verdict.reason, createdAt: now, updatedAt: now })
      .returning({ id: hooks.id });
    return done(deps, integration.accountId, { hookId: hook!.id, status: 'filtered', httpStatus: 200 });
  }

  const keys = dedupeKeysOf(input, body, options);
  const windowHours = options.dedupe?.bodyWindowHours ?? DEFAULT_DEDUPE_WINDOW_HOURS;
  const expiresAt = new Date(now.getTime() + windowHours * 3_600_000);
  const sourceId = keys.find((k) => k.startsWith('src:') || k.startsWith('idem:'))?.replace(/^\w+:/, '');
  const hookId = randomUUID();

  try {
    const status = await deps.db.transaction(async (tx) => {
      await claimKeys(tx, integration.id, keys, hookId, expiresAt, now);
      const assignee = await nextAssignee(tx, integration.accountId, integration.distributionId);
      const destinationIds = integration.destinationIds.length
        ? (
            await tx
              .select({ id: integrations.id })
              .from(integrations)
              .where(
                and(
                  inArray(integrations.id, integration.destinationIds),
                  eq(integrations.accountId, integration.accountId),
                  eq(integrations.active, true),
                ),
              )
          ).map((d) => d.id)
        : [];
      const [lead] = await tx
        .insert(leads)
        .values({ ...base, fields, raw: body, sourceId, assignee, createdAt: now })
        .returning({ id: leads.id });
      const hookStatus: HookStatus = destinationIds.length ? 'pending' : 'accepted';
      await tx.insert(hooks).values({
        ...base,
        id: hookId,
        leadId: lead!.id,
        status: hookStatus,
        reason: destinationIds.length ? null : 'No active destination',
        createdAt: now,
        updatedAt: now,
      });
      // In the integration's order: the delivery queue keeps it within a destination.
      const ordered = integration.destinationIds.filter((id) => destinationIds.includes(id));
      if (ordered.length) {
        await tx.insert(deliveries).values(
          ordered.map((destinationId) => ({
            accountId: integration.accountId,
            leadId: lead!.id,
            hookId,
            destinationId,
            nextAttemptAt: now,
            idempotencyKey: `${lead!.id}:${destinationId}`,
            createdAt: now,
          })),
        );
      }
      return hookStatus;
    });
    if (status === 'pending') deps.events.emit('deliveries.due');
    return done(deps, integration.accountId, { hookId, status, httpStatus: 202 });
  } catch (error) {
    if (!(error instanceof Duplicate)) throw error;
    const [hook] = await deps.db
      .insert(hooks)
      .values({
        ...base,
        status: 'duplicate',
        reason: `Repeat of ${error.originalHookId}`,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: hooks.id });
    deps.events.emit('hook.changed', { accountId: integration.accountId, hookId: hook!.id });
    return { hookId: error.originalHookId, status: 'duplicate', httpStatus: 200 };
  }
}

/**
 * Takes the event's dedupe keys for this hook. A live key held by another hook makes this a
 * repeat; an expired one is taken over. On PostgreSQL a concurrent identical request waits on
 * the first one's uncommitted key and then sees it, so two racing repeats still make one lead.
 */
async function claimKeys(
  tx: Executor,
  integrationId: string,
  keys: string[],
  hookId: string,
  expiresAt: Date,
  now: Date,
) {
  const taken = await tx
    .insert(dedupeKeys)
    .values(keys.map((key) => ({ integrationId, key, hookId, expiresAt })))
    .onConflictDoUpdate({
      target: [dedupeKeys.integrationId, dedupeKeys.key],
      set: { hookId, expiresAt },
      setWhere: lte(dedupeKeys.expiresAt, now),
    })
    .returning({ key: dedupeKeys.key });
  if (taken.length === keys.length) return;
  const takenKeys = new Set(taken.map((t) => t.key));
  const [existing] = await tx
    .select({ hookId: dedupeKeys.hookId })
    .from(dedupeKeys)
    .where(
      and(
        eq(dedupeKeys.integrationId, integrationId),
        inArray(
          dedupeKeys.key,
          keys.filter((k) => !takenKeys.has(k)),
        ),
        gt(dedupeKeys.expiresAt, now),
      ),
    )
    .limit(1);
  throw new Duplicate(existing?.hookId ?? hookId);
}

function done(deps: IngestDeps, accountId: string, result: IngestResult): IngestResult {
  deps.events.emit('hook.changed', { accountId, hookId: result.hookId });
  return result;
}

/** Drops dedupe keys past their window; run now and then so the table stays small. */
export async function pruneDedupeKeys(db: Db, now = new Date()): Promise<void> {
  await db.delete(dedupeKeys).where(lte(dedupeKeys.expiresAt, now));
}
