-- Horoshop's own tables move into the sources' generic ones (issue 29): each source's poll cursor
-- and webhook subscription into connector_state (the cursor in the connector's shape,
-- {"polledUntil": "<ISO time>"}), each order it took into connector_seen (same times and counts).
INSERT INTO "connector_state" ("integration_id", "account_id", "cursor", "poll_from", "last_poll_at", "last_poll_error", "subscription_id", "subscription_status", "subscription_registered_at", "subscription_removed_at", "updated_at")
SELECT "integration_id", "account_id",
  CASE WHEN "polled_until" IS NULL THEN NULL
    ELSE jsonb_build_object('polledUntil', to_char("polled_until" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) END,
  "poll_from", "last_poll_at", "last_poll_error", "webhook_id", "webhook_status", "webhook_registered_at", "webhook_removed_at", "updated_at"
FROM "horoshop_sources";--> statement-breakpoint
INSERT INTO "connector_seen" ("integration_id", "account_id", "item_id", "via", "times_seen", "hook_id", "summary", "first_seen_at", "last_seen_at")
SELECT "integration_id", "account_id", "order_id", "via", "times_seen", "hook_id",
  jsonb_build_object('name', "name", 'phone', "phone", 'total', "total", 'currency', "currency"),
  "received_at", "last_seen_at"
FROM "horoshop_orders";--> statement-breakpoint
DROP TABLE "horoshop_orders" CASCADE;--> statement-breakpoint
DROP TABLE "horoshop_sources" CASCADE;
