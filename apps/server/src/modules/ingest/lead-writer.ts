// Writes a kept lead (dedupe keys, lead, hook, deliveries) alone or in a batch with others.
import type { HookStatus } from '@leadrelay/shared';
import type { Param, RawDb, RawExecutor, Row } from '../../db/raw-sql';
import type { StoredRequest } from '../../db/schema';
import { INGEST_BATCH, INGEST_LEAD } from './ingest-statements';
import type { Source } from './source-cache';

/** A lead that passed mapping and filters, with everything its write needs. */
export interface KeptLead {
  source: Source;
  keys: string[];
  hookId: string;
  leadId: string;
  /** The id of its `duplicate` hook if it turns out to be a repeat. */
  duplicateId: string;
  now: Date;
  expiresAt: Date;
  fields: unknown;
  body: unknown;
  sourceId: string | null;
  request: StoredRequest;
}

export interface LeadWritten extends Row {
  /** The source was still there, active and under this token. */
  found: boolean;
  /** Every key was new (or expired): the lead, the hook and its deliveries were written. */
  taken: boolean;
  /** A repeat: the hook that holds the key. */
  original: string | null;
  /** The written hook's status. */
  status: HookStatus | null;
}

/**
 * The request as its hook stores it: when the body is the lead's own (the same object, as a
 * webhook's is), without it: the lead's `raw` holds it (StoredRequest.bodyInLead). A repeat's
 * `duplicate` hook, which has no lead, gets it back in the statement.
 */
function hookRequest(lead: KeptLead): StoredRequest {
  if (lead.request.body !== lead.body || lead.body === undefined) return lead.request;
  const { body: _inLead, ...rest } = lead.request;
  return { ...rest, bodyInLead: true };
}

function leadParams(lead: KeptLead, recordDuplicate: boolean, shard: number): Param[] {
  const { source } = lead;
  return [
    source.id,
    source.accountId,
    source.token,
    JSON.stringify(lead.keys),
    lead.hookId,
    lead.expiresAt.toISOString(),
    lead.now.toISOString(),
    JSON.stringify(lead.fields),
    JSON.stringify(lead.body),
    lead.sourceId,
    JSON.stringify(hookRequest(lead)),
    source.destinationIdsJson,
    source.distribution?.collectionId ?? null,
    source.distribution?.assigneesJson ?? null,
    source.distribution?.slots ?? null,
    lead.leadId,
    lead.duplicateId,
    recordDuplicate ? 'true' : 'false',
    String(shard),
  ];
}

/**
 * One lead alone. With one key the statement is atomic on its own and writes the `duplicate` hook
 * of a repeat itself. With several keys a repeat of only some of them must give back the keys it
 * took, so the statement runs in a transaction that only a written lead commits, and the caller
 * writes the `duplicate` hook. `shard`: the usage counter row it adds to (see `INGEST_LEAD`).
 */
export async function writeLead(raw: RawDb, lead: KeptLead, shard: number): Promise<LeadWritten | undefined> {
  if (lead.keys.length === 1) return (await raw.query<LeadWritten>(INGEST_LEAD, leadParams(lead, true, shard)))[0];
  return raw.transaction(async (tx) => {
    const [written] = await tx.query<LeadWritten>(INGEST_LEAD, leadParams(lead, false, shard));
    return { commit: Boolean(written?.found && written.taken), value: written };
  });
}

/** Leads with one key each, no key twice: one statement (see `INGEST_BATCH`); rows in the leads' order. */
export async function writeBatch(
  raw: RawExecutor,
  leads: readonly KeptLead[],
  now: Date,
  shard: number,
): Promise<LeadWritten[]> {
  const items = leads.map((lead, i) => ({
    i,
    integration_id: lead.source.id,
    account_id: lead.source.accountId,
    token: lead.source.token,
    key: lead.keys[0],
    hook_id: lead.hookId,
    expires_at: lead.expiresAt.toISOString(),
    now: lead.now.toISOString(),
    fields: lead.fields,
    raw: lead.body,
    source_id: lead.sourceId,
    request: hookRequest(lead),
    destination_ids: lead.source.destinationIds,
    collection_id: lead.source.distribution?.collectionId ?? null,
    assignees: lead.source.distribution?.assignees ?? null,
    slots: lead.source.distribution?.slots ?? null,
    lead_id: lead.leadId,
    duplicate_id: lead.duplicateId,
  }));
  const rows = await raw.query<LeadWritten & { i: number }>(INGEST_BATCH, [
    JSON.stringify(items),
    now.toISOString(),
    String(shard),
  ]);
  if (rows.length !== leads.length) throw new Error(`group commit answered ${rows.length} of ${leads.length} leads`);
  return rows.sort((a, b) => a.i - b.i);
}
