// Checks of what a body refers to: options, settings (the connector's schemas, or a type's own
// check), destinations and the distribution, all within the actor's account.
import { getConnector } from '@leadrelay/connectors';
import { INTEGRATION_OPTIONS_MAX_BYTES, ZRoutingPolicy, ZSourceOptions } from '@leadrelay/shared';
import { and, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { collections, type IntegrationSettingRow, integrations } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { isKnownCode } from '../../lib/error-codes';
import { zodAppError } from '../../plugins/errors';
import { settingsBySlug } from '../catalogue';
import type { Actor } from './integration-rows';
import { integrationTypeHooks } from './integration-types';

export function checkSize(value: Record<string, unknown>): void {
  if (Buffer.byteLength(JSON.stringify(value)) > INTEGRATION_OPTIONS_MAX_BYTES) throw new AppError('OPTIONS_TOO_LARGE');
}

/** Options of a source are what ingest reads (mapping, filters, dedupe): checked here, on write. */
export function validOptions(kind: IntegrationSettingRow['kind'] | undefined, options: Record<string, unknown>) {
  checkSize(options);
  if (kind !== 'source') return options;
  const parsed = ZSourceOptions.safeParse(options);
  if (!parsed.success) throw zodAppError('options', parsed.error);
  return parsed.data as Record<string, unknown>;
}

export function validSettings(type: string, settings: Record<string, unknown>): Record<string, unknown> {
  checkSize(settings);
  const connector = getConnector(type);
  if (!connector) return settings;
  const parsed = connector.settings.safeParse(settings);
  if (!parsed.success) throw zodAppError('settings', parsed.error);
  return parsed.data as Record<string, unknown>;
}

export type CheckedSettings = {
  settings: Record<string, unknown>;
  status?: 'ok' | 'broken';
  statusReason?: string | null;
};

/** Settings that name the account's own rows (a type's registered checkSettings) are checked against the database. */
export async function checkedSettings(
  db: Executor,
  actor: Actor,
  type: string,
  raw: Record<string, unknown> | undefined,
): Promise<CheckedSettings> {
  const check = integrationTypeHooks(type)?.checkSettings;
  if (check) return check(db, actor, raw ?? {});
  return { settings: raw ? validSettings(type, raw) : {} };
}

const notAllowed = () =>
  new AppError('DESTINATION_NOT_ALLOWED', { errors: [{ field: 'destination', code: 'DESTINATION_NOT_ALLOWED' }] });

/** Destinations must be the actor's own integrations of a destination type the source's catalogue entry allows. */
export async function validDestinations(
  db: Executor,
  actor: Actor,
  source: IntegrationSettingRow | undefined,
  ids: string[],
  selfId?: string,
): Promise<string[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  if (source?.kind !== 'source' || (selfId && unique.includes(selfId))) throw notAllowed();
  const rows = await db
    .select({ id: integrations.id, type: integrations.type })
    .from(integrations)
    .where(and(eq(integrations.accountId, actor.id), inArray(integrations.id, unique)));
  if (rows.length !== unique.length) throw notAllowed();
  const kinds = await settingsBySlug(db, [...new Set(rows.map((r) => r.type))]);
  for (const row of rows) {
    if (kinds.get(row.type)?.kind !== 'destination' || !source.destinations.includes(row.type)) throw notAllowed();
  }
  return unique;
}

export async function validDistribution(db: Executor, actor: Actor, id: string | null | undefined): Promise<void> {
  if (!id) return;
  const [row] = await db
    .select({ id: collections.id })
    .from(collections)
    .where(and(eq(collections.id, id), eq(collections.accountId, actor.id)));
  if (!row) {
    throw new AppError('DISTRIBUTION_NOT_FOUND', {
      errors: [{ field: 'distributionId', code: 'DISTRIBUTION_NOT_FOUND' }],
    });
  }
}

/**
 * The routing policy in the options (issue 19: `options.routing`), checked before the rest of the
 * options so its own keys reach the form (FALLBACK_ITEM_REQUIRED …), and its fallback person must
 * be an item of the distribution collection the integration will have.
 */
export async function validRouting(
  db: Executor,
  actor: Actor,
  options: Record<string, unknown> | undefined,
  distributionId: string | null,
): Promise<void> {
  if (!options || options.routing === undefined) return;
  const parsed = ZRoutingPolicy.safeParse(options.routing);
  if (!parsed.success) {
    const errors = parsed.error.issues.map((i) => ({
      field: ['options', 'routing', ...i.path.map(String)].join('.'),
      code: isKnownCode(i.message) ? i.message : 'VALIDATION_ERROR',
    }));
    throw new AppError(errors[0]?.code ?? 'VALIDATION_ERROR', { errors });
  }
  const fallback = parsed.data.fallbackItemId;
  if (!fallback) return;
  const [row] = distributionId
    ? await db
        .select({ items: collections.items })
        .from(collections)
        .where(and(eq(collections.id, distributionId), eq(collections.accountId, actor.id)))
    : [];
  if (!row?.items.some((i) => i.id === fallback)) {
    throw new AppError('FALLBACK_ITEM_NOT_FOUND', {
      errors: [{ field: 'options.routing.fallbackItemId', code: 'FALLBACK_ITEM_NOT_FOUND' }],
    });
  }
}
