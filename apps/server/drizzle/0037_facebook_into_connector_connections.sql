-- Facebook's own tables move into the account connections' generic ones (issue 29), same ids (the
-- sealed tokens are bound to them) and times: each connected profile into connector_connections
-- (type facebook), its pages (kind page, the category in details, the page token, the subscription)
-- and ad accounts (kind adAccount) into connector_assets, every stored leadgen event, processed or
-- not, into connector_inbound_events (the form id in data), the backfill cursors into
-- connector_cursors. Guardian alerts keep pointing at the same connection ids.
INSERT INTO "connector_connections" ("id", "account_id", "type", "external_id", "name", "email", "secret", "expires_at", "status", "status_reason", "broken_notified_at", "created_at", "updated_at")
SELECT "id", "account_id", 'facebook', "fb_user_id", "name", "email", "user_token", "token_expires_at", "status", "status_reason", "broken_notified_at", "created_at", "updated_at"
FROM "fb_connections";--> statement-breakpoint
INSERT INTO "connector_assets" ("id", "account_id", "connection_id", "kind", "external_id", "name", "details", "secret", "subscribed", "subscribed_at", "created_at", "updated_at")
SELECT "id", "account_id", "connection_id", 'page', "page_id", "name", jsonb_build_object('category', "category"), "page_token", "is_subscribed", "subscribed_at", "created_at", "updated_at"
FROM "fb_pages";--> statement-breakpoint
INSERT INTO "connector_assets" ("id", "account_id", "connection_id", "kind", "external_id", "name")
SELECT "id", "account_id", "connection_id", 'adAccount', "ad_account_id", "name"
FROM "fb_ad_accounts";--> statement-breakpoint
INSERT INTO "connector_inbound_events" ("id", "type", "external_id", "asset_id", "data", "origin", "status", "attempts", "next_at", "done_connections", "last_error", "received_at", "updated_at")
SELECT "id", 'facebook', "leadgen_id", "page_id",
  CASE WHEN "form_id" IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('formId', "form_id") END,
  "origin", "status", "attempts", "next_at", "done_connections", "last_error", "received_at", "updated_at"
FROM "fb_leadgen_events";--> statement-breakpoint
INSERT INTO "connector_cursors" ("type", "key", "asset_id", "until")
SELECT 'facebook', "form_id", "page_id", "swept_until" FROM "fb_backfill_cursors";--> statement-breakpoint
ALTER TABLE "guardian_alerts" DROP CONSTRAINT "guardian_alerts_connection_id_fb_connections_id_fk";--> statement-breakpoint
ALTER TABLE "guardian_alerts" ADD CONSTRAINT "guardian_alerts_connection_id_connector_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."connector_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
DROP TABLE "fb_ad_accounts" CASCADE;--> statement-breakpoint
DROP TABLE "fb_pages" CASCADE;--> statement-breakpoint
DROP TABLE "fb_connections" CASCADE;--> statement-breakpoint
DROP TABLE "fb_backfill_cursors" CASCADE;--> statement-breakpoint
DROP TABLE "fb_leadgen_events" CASCADE;
