// The ingest statements: constant text, every parameter sent as text and cast once in `p`. The
// deliveries they enqueue are written by the queue's own step (delivery/queue.ts), held or not as
// delivery/holds.ts decides.

import type { Statement } from '../../db/raw-sql';
import { holdReasonSql, utcDaySql, utcMonthSql } from '../../delivery/holds';
import { enqueueDeliveriesSql } from '../../delivery/queue';

/**
 * The hold steps (docs/adr/008-held-leads.md). Whether a lead is held is decided in its own
 * statement, from rows read by primary key: the account (role, exp_date, plan), its hold, and
 * this month's usage, which is the sum of a few `lead_usage` shards. Each batch written at the
 * same time adds its leads to a shard of its own (the `shard` parameter, group-commit.ts), so no
 * counter row makes concurrent batches wait for one another, and nothing counts the month's leads.
 * The price: batches in flight together do not see each other's leads, so an account can pass its
 * limit by at most those leads. A lead is held when:
 * - the account is expired or has reached its limit (holds.ts), or
 * - the account already has a hold (held leads not yet released): then nothing overtakes them.
 * A held lead's deliveries are written `held`, its hook `held` with the reason's code, the hold is
 * made if there is none, and it does not count towards the month. A lead with no active destination
 * is stored `accepted` as before, held or not.
 */
/** A hook without a lead keeps its body: the request with the body put back (StoredRequest.bodyInLead). */
const withBody = (row: string) =>
  `case when ${row}.request ? 'bodyInLead' then (${row}.request - 'bodyInLead') || jsonb_build_object('body', ${row}.raw) else ${row}.request end`;

const holdOf = (o: { user: string; plan: string; now: string; usedBefore: string; heldFor: string }) =>
  `coalesce(${holdReasonSql({ user: o.user, plan: o.plan, day: utcDaySql(o.now), usedBefore: o.usedBefore })}, ${o.heldFor})`;

/**
 * One lead in one statement (one round trip; atomic on its own, or inside a transaction when the
 * event has several dedupe keys). In order:
 * - `integ`: the source integration is still there, active and under this token (a cached source
 *   can never write to a deleted or deactivated one);
 * - `claimed`: takes the dedupe keys (`INSERT … ON CONFLICT`): a new or expired key becomes this
 *   hook's, a live one is left as it is and names the original hook. A concurrent repeat waits on
 *   the first one's uncommitted key and then sees it;
 * - only when every key was taken: the round-robin counter is bumped once, the lead, the hook and
 *   one delivery per active destination (in the integration's order) are inserted, held or not
 *   (the hold steps above), and the lead counted in the month's usage unless held;
 * - otherwise, when `record_duplicate`, the `duplicate` hook is written instead.
 *
 * Parameters: $1 integration id, $2 account id, $3 token, $4 dedupe keys (JSON array), $5 hook id,
 * $6 keys expire at, $7 now, $8 lead fields (JSON), $9 raw body (JSON), $10 source id, $11 stored
 * request (JSON), $12 destination ids (JSON array, in order), $13 distribution collection id,
 * $14 assignees (JSON array), $15 round-robin slots (int[] literal), $16 lead id, $17 id of a
 * duplicate hook, $18 record_duplicate ('true' | 'false'), $19 usage shard.
 */
export const INGEST_LEAD: Statement = {
  name: 'lr_ingest_lead_v3',
  text: `with p as (
  select $1::text::uuid as integration_id, $2::text::uuid as account_id, $3::text as token,
    $4::text::jsonb as keys, $5::text::uuid as hook_id, $6::text::timestamptz as expires_at,
    $7::text::timestamptz as now, $8::text::jsonb as fields, $9::text::jsonb as raw, $10::text as source_id,
    $11::text::jsonb as request, $12::text::jsonb as destination_ids, $13::text::uuid as collection_id,
    $14::text::jsonb as assignees, $15::text::int[] as slots, $16::text::uuid as lead_id,
    $17::text::uuid as duplicate_id, $18::text::boolean as record_duplicate, $19::text::smallint as shard
),
integ as (
  select i.id from integrations i, p where i.id = p.integration_id and i.hook_token = p.token and i.active
),
claimed as (
  insert into dedupe_keys as d (integration_id, key, hook_id, expires_at)
  select p.integration_id, k.key, p.hook_id, p.expires_at
  from p, jsonb_array_elements_text(p.keys) as k(key)
  where exists (select from integ)
  on conflict (integration_id, key) do update set
    hook_id = case when d.expires_at <= (select now from p) then excluded.hook_id else d.hook_id end,
    expires_at = case when d.expires_at <= (select now from p) then excluded.expires_at else d.expires_at end
  returning d.hook_id
),
verdict as (
  select exists (select from integ) as found,
    (select count(*) from claimed, p where claimed.hook_id = p.hook_id) = (select jsonb_array_length(keys) from p) as taken,
    (select claimed.hook_id from claimed, p where claimed.hook_id <> p.hook_id limit 1) as original
),
cursor as (
  insert into distribution_cursors as c (collection_id, counter)
  select p.collection_id, 1 from p, verdict v where v.taken and p.collection_id is not null
  on conflict (collection_id) do update set counter = c.counter + 1
  returning c.counter
),
lead as (
  insert into leads (id, account_id, integration_id, fields, raw, source_id, assignee, created_at)
  select p.lead_id, p.account_id, p.integration_id, p.fields, p.raw, p.source_id,
    p.assignees -> (p.slots[(((select counter from cursor) - 1) % cardinality(p.slots))::int + 1]),
    p.now
  from p, verdict v where v.taken
  returning id
),
dests as (
  select i.id, d.ord
  from p, jsonb_array_elements_text(p.destination_ids) with ordinality as d(id, ord)
  join integrations i on i.id = d.id::uuid
  where i.account_id = p.account_id and i.active
),
hold as (
  select (
    select ${holdOf({
      user: 'u',
      plan: 'pl',
      now: 'p.now',
      usedBefore: `coalesce((select sum(n.leads) from lead_usage n where n.account_id = p.account_id and n.month = ${utcMonthSql('p.now')}), 0)`,
      heldFor: '(select h.reason from account_holds h where h.account_id = p.account_id)',
    })}
    from p join users u on u.id = p.account_id left join plans pl on pl.id = u.plan_id
  ) as reason
),
hook as (
  insert into hooks (id, account_id, integration_id, lead_id, status, reason, request, created_at, updated_at)
  select p.hook_id, p.account_id, p.integration_id, (select id from lead),
    case when not exists (select from dests) then 'accepted' when h.reason is not null then 'held' else 'pending' end,
    case when not exists (select from dests) then 'NO_ACTIVE_DESTINATION' else h.reason end,
    p.request, p.now, p.now
  from p, verdict v, hold h where v.taken
  returning status
),
queued as (
  ${enqueueDeliveriesSql(
    `(select p.account_id, p.lead_id, p.hook_id, d.id as destination_id, p.now, d.ord, h.reason is not null as held
      from p, verdict v, dests d, hold h where v.taken)`,
    'q.ord',
  )}
),
counted as (
  insert into lead_usage as n (account_id, month, shard, leads)
  select p.account_id, ${utcMonthSql('p.now')}, p.shard, 1 from p, verdict v, hold h where v.taken and h.reason is null
  on conflict (account_id, month, shard) do update set leads = n.leads + excluded.leads
  returning 1
),
holding as (
  insert into account_holds (account_id, reason, since)
  select p.account_id, h.reason, p.now from p, verdict v, hold h
  where v.taken and h.reason is not null and exists (select from dests)
  on conflict (account_id) do nothing
  returning 1
),
duplicate as (
  insert into hooks (id, account_id, integration_id, status, reason, request, created_at, updated_at)
  select p.duplicate_id, p.account_id, p.integration_id, 'duplicate', 'DUPLICATE_OF: ' || coalesce(v.original, p.hook_id),
    ${withBody('p')}, p.now, p.now
  from p, verdict v where v.found and not v.taken and p.record_duplicate
  returning id
)
select v.found, v.taken, v.original::text as original, (select status from hook) as status,
  (select count(*) from queued)::int as queued
from verdict v`,
};

/**
 * A hook without a lead (`filtered` with its reason, or `duplicate`), written only while the
 * source integration is there, active and under this token.
 * Parameters: $1 hook id, $2 account id, $3 integration id, $4 token, $5 status, $6 reason,
 * $7 stored request (JSON), $8 now.
 */
export const INSERT_BARE_HOOK: Statement = {
  name: 'lr_ingest_bare_hook_v1',
  text: `insert into hooks (id, account_id, integration_id, status, reason, request, created_at, updated_at)
select $1::text::uuid, $2::text::uuid, i.id, $5::text, $6::text, $7::text::jsonb, $8::text::timestamptz, $8::text::timestamptz
from integrations i
where i.id = $3::text::uuid and i.hook_token = $4::text and i.active
returning id`,
};

/**
 * Many leads in one statement (group commit): the same steps as `INGEST_LEAD` for each lead of
 * the batch, in the batch's order. Every lead has exactly one dedupe key and no two leads of a
 * batch share one (the batcher sees to both), so a lead is either written whole or is a repeat,
 * and the answer of each is the one it would get alone, one after another. Keys and round-robin
 * counters are taken in a fixed order so that concurrent batches cannot deadlock.
 *
 * Held or not as `INGEST_LEAD` decides, with the batch's earlier leads of the account counted
 * before each one: the first ones up to the limit go, the rest are held.
 *
 * Parameters: $1 the leads (JSON array of objects with the columns of `items`, `i` their order),
 * $2 now (a key that expired before it is taken over), $3 usage shard.
 * One row per lead: i, found, taken, original (hook id of a repeat), status (of a written hook).
 */
export const INGEST_BATCH: Statement = {
  name: 'lr_ingest_batch_v3',
  text: `with items as (
  select * from jsonb_to_recordset($1::text::jsonb) as x(
    i int, integration_id uuid, account_id uuid, token text, key text, hook_id uuid, expires_at timestamptz,
    now timestamptz, fields jsonb, raw jsonb, source_id text, request jsonb, destination_ids jsonb,
    collection_id uuid, assignees jsonb, slots int[], lead_id uuid, duplicate_id uuid)
),
live as (
  select it.* from items it
  join integrations s on s.id = it.integration_id and s.hook_token = it.token and s.active
),
claimed as (
  insert into dedupe_keys as d (integration_id, key, hook_id, expires_at)
  select integration_id, key, hook_id, expires_at from live order by integration_id, key
  on conflict (integration_id, key) do update set
    hook_id = case when d.expires_at <= $2::text::timestamptz then excluded.hook_id else d.hook_id end,
    expires_at = case when d.expires_at <= $2::text::timestamptz then excluded.expires_at else d.expires_at end
  returning d.integration_id, d.key, d.hook_id
),
verdict as (
  select l.*, c.hook_id = l.hook_id as taken, nullif(c.hook_id, l.hook_id) as original
  from live l join claimed c on c.integration_id = l.integration_id and c.key = l.key
),
wanted as (
  select collection_id, count(*) as n from verdict where taken and collection_id is not null group by collection_id
),
cursor as (
  insert into distribution_cursors as c (collection_id, counter)
  select collection_id, n from wanted order by collection_id
  on conflict (collection_id) do update set counter = c.counter + excluded.counter
  returning c.collection_id, c.counter
),
ranked as (
  select v.*,
    cu.counter - w.n + row_number() over (partition by v.collection_id order by v.i) as slot_counter
  from verdict v
  left join wanted w on w.collection_id = v.collection_id
  left join cursor cu on cu.collection_id = v.collection_id
  where v.taken
),
usage as (
  select a.account_id, a.month, coalesce(sum(n.leads), 0) as used
  from (select distinct account_id, ${utcMonthSql('now')} as month from ranked) a
  left join lead_usage n on n.account_id = a.account_id and n.month = a.month
  group by a.account_id, a.month
),
placed as (
  select r.*, ${holdOf({
    user: 'u',
    plan: 'pl',
    now: 'r.now',
    usedBefore: `(us.used + row_number() over (partition by r.account_id, us.month order by r.i) - 1)`,
    heldFor: 'h.reason',
  })} as hold
  from ranked r
  join users u on u.id = r.account_id
  left join plans pl on pl.id = u.plan_id
  join usage us on us.account_id = r.account_id and us.month = ${utcMonthSql('r.now')}
  left join account_holds h on h.account_id = r.account_id
),
dests as (
  select r.i, r.account_id, r.lead_id, r.hook_id, r.now, t.id as destination_id, d.ord, r.hold is not null as held
  from placed r
  cross join lateral jsonb_array_elements_text(r.destination_ids) with ordinality as d(id, ord)
  join integrations t on t.id = d.id::uuid and t.account_id = r.account_id and t.active
),
lead as (
  insert into leads (id, account_id, integration_id, fields, raw, source_id, assignee, created_at)
  select r.lead_id, r.account_id, r.integration_id, r.fields, r.raw, r.source_id,
    r.assignees -> (r.slots[((r.slot_counter - 1) % cardinality(r.slots))::int + 1]),
    r.now
  from ranked r order by r.i
  returning id
),
hook as (
  insert into hooks (id, account_id, integration_id, lead_id, status, reason, request, created_at, updated_at)
  select r.hook_id, r.account_id, r.integration_id, r.lead_id,
    case when not exists (select from dests d where d.i = r.i) then 'accepted'
      when r.hold is not null then 'held' else 'pending' end,
    case when not exists (select from dests d where d.i = r.i) then 'NO_ACTIVE_DESTINATION' else r.hold end,
    r.request, r.now, r.now
  from placed r order by r.i
  returning id, status
),
queued as (
  ${enqueueDeliveriesSql('dests', 'q.i, q.ord')}
),
counted as (
  insert into lead_usage as n (account_id, month, shard, leads)
  select account_id, ${utcMonthSql('now')}, $3::text::smallint, count(*) from placed where hold is null
  group by 1, 2 order by 1, 2
  on conflict (account_id, month, shard) do update set leads = n.leads + excluded.leads
  returning 1
),
holding as (
  insert into account_holds (account_id, reason, since)
  select distinct on (r.account_id) r.account_id, r.hold, r.now from placed r
  where r.hold is not null and exists (select from dests d where d.i = r.i)
  order by r.account_id, r.i
  on conflict (account_id) do nothing
  returning 1
),
duplicate as (
  insert into hooks (id, account_id, integration_id, status, reason, request, created_at, updated_at)
  select v.duplicate_id, v.account_id, v.integration_id, 'duplicate', 'DUPLICATE_OF: ' || v.original, ${withBody('v')},
    v.now, v.now
  from verdict v where not v.taken order by v.i
  returning id
)
select it.i, v.i is not null as found, coalesce(v.taken, false) as taken, v.original::text as original, h.status,
  (select count(*) from lead)::int as leads, (select count(*) from queued)::int as queued,
  (select count(*) from duplicate)::int as duplicates
from items it
left join verdict v on v.i = it.i
left join hook h on h.id = it.hook_id
order by it.i`,
};
