// Deals (v2) and leads (v1) in the Pipedrive emulator, each with Pipedrive's own rules: a deal's stage
// must be in its pipeline, a lead needs a person or an organization and takes custom values as
// top-level 40-hex keys; each API version names the organization differently (org_id, organization_id).
import { randomUUID } from 'node:crypto';
import {
  type Api,
  bad,
  bodyOf,
  checkCustom,
  checkOwner,
  DATE,
  idParam,
  notFound,
  nowV2,
  ok,
  onlyParams,
  pageV2,
  q,
} from './emulator-api';
import { checkPipelineStage } from './emulator-pipelines';
import { PIPEDRIVE_SEED, type Row } from './emulator-state';

const HEX40 = /^[0-9a-f]{40}$/i;

/**
 * What POST /api/v2/deals takes: the official client's AddDealRequest (pipedrive@33.7.0). No
 * `origin_id`, although the Deal it answers has one: v2 refuses any other key (ERR_SCHEMA_VALIDATION_FAILED).
 */
export const ADD_DEAL_PARAMS: ReadonlySet<string> = new Set([
  'title',
  'owner_id',
  'person_id',
  'org_id',
  'pipeline_id',
  'stage_id',
  'value',
  'currency',
  'is_deleted',
  'is_archived',
  'archive_time',
  'status',
  'probability',
  'lost_reason',
  'visible_to',
  'close_time',
  'won_time',
  'lost_time',
  'expected_close_date',
  'label_ids',
  'custom_fields',
]);

export function registerDealRoutes(api: Api): void {
  const { store, v2, personById, orgById } = api;
  v2('POST', '/deals', async (req) => {
    const b = bodyOf(req);
    onlyParams(b, ADD_DEAL_PARAMS);
    if (typeof b.title !== 'string' || !b.title.trim()) throw bad('Title must be given');
    checkOwner(b.owner_id);
    if (b.person_id !== undefined && !personById(b.person_id)) throw bad('Person not found');
    if (b.org_id !== undefined && !orgById(b.org_id)) throw bad('Organization not found');
    const custom = (b.custom_fields ?? {}) as Record<string, unknown>;
    checkCustom(store.fields.dealFields, custom);
    if (b.value !== undefined && typeof b.value !== 'number') throw bad('value must be a number');
    if (b.expected_close_date !== undefined && !DATE.test(String(b.expected_close_date)))
      throw bad('Invalid expected_close_date');
    const deal: Row = {
      ...b,
      id: ++store.seq.deal,
      ...checkPipelineStage(b.pipeline_id, b.stage_id),
      owner_id: b.owner_id ?? PIPEDRIVE_SEED.users[0].id,
      person_id: b.person_id ?? null,
      org_id: b.org_id ?? null,
      custom_fields: custom,
      status: b.status ?? 'open',
      origin: 'API',
      // System-filled; a v2 POST cannot set it.
      origin_id: null,
      add_time: nowV2(),
      update_time: nowV2(),
      is_deleted: false,
    };
    store.deals.push(deal);
    return ok(deal);
  });
  v2('GET', '/deals', async (req) => {
    const pid = q(req).person_id;
    return pageV2(pid ? store.deals.filter((d) => d.person_id === Number(pid)) : store.deals, req);
  });
  v2('GET', '/deals/:id', async (req) => {
    const d = store.deals.find((x) => x.id === idParam(req));
    if (!d) throw notFound('Deal');
    return ok(d);
  });
}

export function registerLeadRoutes(api: Api): void {
  const { store, v1, personById, orgById, pageV1 } = api;
  v1('POST', '/leads', async (req) => {
    const b = bodyOf(req);
    if (typeof b.title !== 'string' || !b.title.trim()) throw bad('Title must be given');
    if (b.org_id !== undefined) throw bad('Unknown field org_id (use organization_id)');
    if (b.person_id === undefined && b.organization_id === undefined) {
      throw bad('A lead must be linked to a person or an organization');
    }
    if (b.person_id !== undefined && !personById(b.person_id)) throw bad('Person not found');
    if (b.organization_id !== undefined && !orgById(b.organization_id)) throw bad('Organization not found');
    checkOwner(b.owner_id);
    const custom = Object.fromEntries(Object.entries(b).filter(([k]) => HEX40.test(k)));
    checkCustom(store.fields.dealFields, custom);
    if (b.expected_close_date !== undefined && !DATE.test(String(b.expected_close_date)))
      throw bad('Invalid expected_close_date');
    const lead = {
      ...b,
      id: randomUUID(),
      owner_id: b.owner_id ?? PIPEDRIVE_SEED.users[0].id,
      creator_id: PIPEDRIVE_SEED.users[0].id,
      person_id: b.person_id ?? null,
      organization_id: b.organization_id ?? null,
      source_name: 'API',
      origin: 'API',
      origin_id: b.origin_id ?? null,
      is_archived: false,
      was_seen: false,
      value: b.value ?? null,
      add_time: nowV2(),
      update_time: nowV2(),
    };
    store.leads.push(lead);
    return ok(lead);
  });
  v1('GET', '/leads', async (req) => {
    const pid = q(req).person_id;
    return pageV1(pid ? store.leads.filter((l) => l.person_id === Number(pid)) : store.leads, req);
  });
  v1('GET', '/leads/:id', async (req) => {
    const lead = store.leads.find((l) => l.id === (req.params as { id: string }).id);
    if (!lead) throw notFound('Lead');
    return ok(lead);
  });
}
