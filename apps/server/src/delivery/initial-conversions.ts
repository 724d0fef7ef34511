// A delivered lead's initial conversion event (issue 33), made by the statement that stores the
// delivery: in the same commit, so neither a crash nor a busy sender loses or delays it. The CTE
// below reads `done` (the deliveries that statement just marked delivered: hook_id, delivered_at)
// and writes one `conversion_events` row for a lead whose source sends conversions and was
// switched on before the delivery; the unique (lead, stage) key keeps it to the first delivery.
// Its name, the platform's lead id and the event id are the sender's to read (modules/conversions).
// With no source switched on this joins an empty set: the usual success pays one index probe.

/** The CTE `conversion` (name it after `done` in a WITH list); answers the ids it made. */
export const INITIAL_CONVERSIONS_CTE = `conversion as (
    insert into conversion_events (account_id, integration_id, lead_id, stage, at, next_attempt_at)
    select h.account_id, h.integration_id, h.lead_id, 'lead', done.delivered_at, done.delivered_at
    from done
    join hooks h on h.id = done.hook_id and h.lead_id is not null
    join conversion_settings s on s.integration_id = h.integration_id
    where done.delivered_at is not null and s.enabled and s.dataset_id is not null
      and s.enabled_at <= done.delivered_at
    on conflict (lead_id, stage) do nothing
    returning id
  )`;
