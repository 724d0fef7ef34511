// What a type whose integrations lean on other rows of the account needs from the integrations API,
// registered by the module that owns those rows (account connections: their logins and assets). The
// integrations code names no type; a type without hooks uses the connector's schemas and its own
// stored credentials.
import type { Executor } from '../../db/client';
import type { IntegrationRow, UserRow } from '../../db/schema';

export interface IntegrationTypeHooks {
  /** Checks settings that name the account's own rows; may set the integration's status from them. 400 when wrong. */
  checkSettings?: (
    db: Executor,
    actor: Pick<UserRow, 'id'>,
    raw: Record<string, unknown>,
  ) => Promise<{ settings: Record<string, unknown>; status?: 'ok' | 'broken'; statusReason?: string | null }>;
  /** Of these rows (all of the type), the ids of those connected: their credentials live outside the integration. */
  connectedIds?: (db: Executor, accountId: string, rows: IntegrationRow[]) => Promise<Set<string>>;
}

const registry = new Map<string, IntegrationTypeHooks>();

/** Called by the owning module when its routes are registered; registering again replaces. */
export function registerIntegrationType(type: string, hooks: IntegrationTypeHooks): void {
  registry.set(type, hooks);
}

export const integrationTypeHooks = (type: string): IntegrationTypeHooks | undefined => registry.get(type);

/** isConnected for rows of types with connectedIds, by row id; other rows are absent (their own credentials tell). */
export async function connectedElsewhere(
  db: Executor,
  accountId: string,
  rows: IntegrationRow[],
): Promise<Map<string, boolean>> {
  const answer = new Map<string, boolean>();
  for (const [type, hooks] of registry) {
    const ofType = rows.filter((r) => r.type === type);
    if (!hooks.connectedIds || ofType.length === 0) continue;
    const connected = await hooks.connectedIds(db, accountId, ofType);
    for (const row of ofType) answer.set(row.id, connected.has(row.id));
  }
  return answer;
}
