import { createHash, randomUUID } from 'node:crypto';
import {
  canonicalJson,
  DEFAULT_DEDUPE_WINDOW_HOURS,
  getPath,
  type HookStatus,
  mapLead,
  type SourceOptions,
} from '@leadrelay/shared';
import { lte } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { rawDb, sqlStateOf } from '../../db/raw-sql';
import { dedupeKeys, type StoredRequest } from '../../db/schema';
import { announceDue } from '../../delivery/queue';
import { AppError } from '../../lib/app-error';
import type { EngineEventBus } from '../../lib/events';
import { storableText } from '../../lib/storable-text';
import { groupCommit } from './group-commit';
import { INSERT_BARE_HOOK } from './ingest-statements';
import type { KeptLead } from './lead-writer';
import { forgetSource, type Source, sourceByToken } from './source-cache';

export interface IngestInput {
  token: string;
  body: unknown;
  request: StoredRequest;
  idempotencyKey?: string;
  /** The dedupe keys live at least this long (Meta leads: 7 days), whatever the integration's window. */
  minDedupeWindowHours?: number;
}

export interface IngestResult {
  hookId: string;
  status: HookStatus;
  /** 202 for a queued lead (also one held while its account is held), 200 for a filtered or repeated one. */
  httpStatus: 200 | 202;
}

interface IngestDeps {
  db: Db;
  events: EngineEventBus;
  log: FastifyBaseLogger;
  now?: () => Date;
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

/** A foreign key refused the write: the source (or a destination) was deleted meanwhile. */
const FOREIGN_KEY_VIOLATION = '23503';

export async function ingestWebhook(deps: IngestDeps, input: IngestInput): Promise<IngestResult> {
  // One clock for the lead and for who is on duty to get it.
  const now = deps.now?.() ?? new Date();
  const source = await sourceByToken(deps.db, input.token, deps.log, now);
  if (!source) throw new AppError('INTEGRATION_NOT_FOUND');
  if (input.body === null || typeof input.body !== 'object' || Array.isArray(input.body)) {
    throw new AppError('VALIDATION_ERROR', { message: 'The body must be an object of fields' });
  }
  // Every lead passes here, whichever way it came (a webhook, a mail, a shop, Meta's Graph API): text
  // PostgreSQL cannot store is cleaned once, here, for all of them (lib/storable-text.ts, ADR 009).
  const clean: IngestInput = { ...input, body: storableText(input.body), request: storableText(input.request) };
  if (input.idempotencyKey !== undefined) clean.idempotencyKey = storableText(input.idempotencyKey);
  return ingestClean(deps, source, clean, now);
}

async function ingestClean(deps: IngestDeps, source: Source, input: IngestInput, now: Date): Promise<IngestResult> {
  try {
    return await ingestInto(deps, source, input, now);
  } catch (error) {
    if (sqlStateOf(error) !== FOREIGN_KEY_VIOLATION) throw error;
    // Nothing was written (the statement or its transaction is atomic). A deleted source answers
    // as an unknown token; a destination deleted meanwhile is dropped by one more try.
    forgetSource(deps.db, input.token);
    const fresh = await sourceByToken(deps.db, input.token, deps.log, now);
    if (!fresh) throw new AppError('INTEGRATION_NOT_FOUND');
    try {
      return await ingestInto(deps, fresh, input, now);
    } catch (again) {
      if (sqlStateOf(again) === FOREIGN_KEY_VIOLATION) throw new AppError('INTEGRATION_NOT_FOUND');
      throw again;
    }
  }
}

async function ingestInto(deps: IngestDeps, source: Source, input: IngestInput, now: Date): Promise<IngestResult> {
  const body = input.body as Record<string, unknown>;
  const { options } = source;
  // The same function the mapping preview runs: what the preview shows is what is stored and delivered.
  const { lead: fields, verdict } = mapLead(body, options);
  if (!verdict.kept) {
    const hookId = await bareHook(deps, source, input, 'filtered', verdict.reason, now);
    return done(deps, source.accountId, { hookId, status: 'filtered', httpStatus: 200 });
  }

  const keys = dedupeKeysOf(input, body, options);
  const windowHours = Math.max(
    options.dedupe?.bodyWindowHours ?? DEFAULT_DEDUPE_WINDOW_HOURS,
    input.minDedupeWindowHours ?? 0,
  );
  const expiresAt = new Date(now.getTime() + windowHours * 3_600_000);
  const sourceId = keys.find((k) => k.startsWith('src:') || k.startsWith('idem:'))?.replace(/^\w+:/, '');
  const hookId = randomUUID();
  const lead: KeptLead = {
    source,
    keys,
    hookId,
    leadId: randomUUID(),
    duplicateId: randomUUID(),
    now,
    expiresAt,
    fields,
    body,
    sourceId: sourceId ?? null,
    request: input.request,
  };
  const row = await groupCommit(deps.db).write(lead, deps.log);
  if (!row?.found) {
    forgetSource(deps.db, input.token);
    throw new AppError('INTEGRATION_NOT_FOUND');
  }
  if (row.taken) {
    const status = row.status ?? 'accepted';
    if (status === 'pending') announceDue(deps.events);
    return done(deps, source.accountId, { hookId, status, httpStatus: 202 });
  }
  const originalHookId = row.original ?? hookId;
  // A lead with one key had its `duplicate` hook written with it.
  const duplicateHookId =
    keys.length === 1
      ? lead.duplicateId
      : await bareHook(deps, source, input, 'duplicate', `DUPLICATE_OF: ${originalHookId}`, now);
  deps.events.emit('hook.changed', { accountId: source.accountId, hookId: duplicateHookId });
  deps.events.emit('lead.received', { status: 'duplicate' });
  return { hookId: originalHookId, status: 'duplicate', httpStatus: 200 };
}

/** A `filtered` or `duplicate` hook (no lead); 404 when the source is gone meanwhile. */
async function bareHook(
  deps: IngestDeps,
  source: Source,
  input: IngestInput,
  status: HookStatus,
  reason: string | null,
  now: Date,
): Promise<string> {
  const [hook] = await rawDb(deps.db).query<{ id: string }>(INSERT_BARE_HOOK, [
    randomUUID(),
    source.accountId,
    source.id,
    source.token,
    status,
    reason,
    JSON.stringify(input.request),
    now.toISOString(),
  ]);
  if (!hook) {
    forgetSource(deps.db, input.token);
    throw new AppError('INTEGRATION_NOT_FOUND');
  }
  return hook.id;
}

function done(deps: IngestDeps, accountId: string, result: IngestResult): IngestResult {
  deps.events.emit('hook.changed', { accountId, hookId: result.hookId });
  deps.events.emit('lead.received', { status: result.status });
  return result;
}

/** Drops dedupe keys past their window; run now and then so the table stays small. */
export async function pruneDedupeKeys(db: Db, now = new Date()): Promise<void> {
  await db.delete(dedupeKeys).where(lte(dedupeKeys.expiresAt, now));
}
