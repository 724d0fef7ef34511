-- The delivery worker's claim (apps/server/src/delivery/queue.ts, CLAIM): one call takes up to
-- how_many due deliveries under a lease and answers each with its lead and destination.
--
-- A function so that its plan can be pinned: pending deliveries are read in the order of
-- deliveries_due_idx (due time, then creation) and the read stops at the batch's end. Left to its
-- statistics, which lag behind a queue that fills and empties within seconds, PostgreSQL chose a
-- bitmap scan of every due row (and of the index entries of deliveries already claimed, which a
-- bitmap scan never marks dead) followed by a sort: a claim that grew with the backlog, 3 ms per
-- claim at 3,000 due in the bench. Without bitmap scans the ordered index scan is the plan (its
-- alternatives, a full scan or a sort, cost more whatever the statistics say). No JIT either: a
-- claim touches a few rows, and on PostgreSQL 15 a disabled plan's cost would pass jit_above_cost
-- and compile it (300 ms). The rows a claim returns are put in order by the worker.
CREATE FUNCTION claim_deliveries(now timestamptz, lease_until timestamptz, worker text, how_many int, threshold int)
RETURNS TABLE (delivery jsonb, lead jsonb, destination jsonb, hook_deliveries int, outcome_unknown boolean)
LANGUAGE sql
VOLATILE
SET enable_bitmapscan = off
SET jit = off
AS $$
  with due as (
    select d.id, d.next_attempt_at as at, d.seq from deliveries d
    where d.status = 'pending' and d.next_attempt_at <= now
      -- Nothing of a paused destination; only the oldest unfinished delivery (the probe) of one
      -- that failed `threshold` times in a row. A condition on each row, not a join.
      and not exists (select 1 from destination_health h
        where h.destination_id = d.destination_id
          and (h.paused_until > now
            or (h.consecutive_failures >= threshold
              and d.seq <> (select min(o.seq) from deliveries o
                            where o.destination_id = d.destination_id and o.status in ('pending', 'running')))))
    order by d.next_attempt_at, d.seq
    limit how_many
    for update skip locked
  ), expired as (
    -- Running deliveries whose lease ran out (a worker died): deliveries_leased_idx.
    select d.id, d.lease_until as at, d.seq from deliveries d
    where d.status = 'running' and d.lease_until < now
      and not exists (select 1 from destination_health h
        where h.destination_id = d.destination_id
          and (h.paused_until > now
            or (h.consecutive_failures >= threshold
              and d.seq <> (select min(o.seq) from deliveries o
                            where o.destination_id = d.destination_id and o.status in ('pending', 'running')))))
    order by d.lease_until
    limit how_many
    for update skip locked
  ), picked as (
    select id from (select * from due union all select * from expired) p order by at, seq limit how_many
  ), claimed as (
    update deliveries d set status = 'running', lease_until = claim_deliveries.lease_until,
      leased_by = worker, attempts = d.attempts + 1, first_attempt_at = coalesce(d.first_attempt_at, now)
    from picked where d.id = picked.id
    returning d.*
  )
  select to_jsonb(c), to_jsonb(l), to_jsonb(i),
    (select count(*)::int from deliveries o where o.hook_id = c.hook_id),
    -- An earlier attempt may have reached the destination without its result being stored: an
    -- earlier claim left no attempt row (the worker died or lost its lease mid-call), or an attempt
    -- row says ok (a success whose result was not stored), or a retryable failure with no answer
    -- or a 5xx (a timeout, a dropped connection, a server error after the record was made). The
    -- first attempt is never in doubt.
    (c.attempts > 1 and (
      (select count(*) from delivery_attempts a where a.delivery_id = c.id) < c.attempts - 1
      or exists (select 1 from delivery_attempts a where a.delivery_id = c.id
        and (a.outcome = 'ok' or (a.outcome = 'retryable' and (a.http_status is null or a.http_status >= 500))))
    ))
  from claimed c
  left join leads l on l.id = c.lead_id
  left join integrations i on i.id = c.destination_id
$$;
