-- amoCRM's backups move into the connectors' generic records (issue 29): one record of kind `backups` per snapshot, same ids and times.
INSERT INTO "connector_records" ("id", "account_id", "integration_id", "kind", "key", "status", "open", "data", "created_at", "updated_at")
SELECT "id", "account_id", "integration_id", 'backups', "id"::text, 'kept', false, "data", "created_at", "created_at"
FROM "amocrm_backups";--> statement-breakpoint
DROP TABLE "amocrm_backups" CASCADE;
