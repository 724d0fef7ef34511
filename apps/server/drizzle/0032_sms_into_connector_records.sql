-- The SMS log moves into the connectors' generic records (issue 29): one record of kind `sms` per message, same ids and times.
INSERT INTO "connector_records" ("id", "account_id", "integration_id", "kind", "key", "delivery_id", "hook_id", "lead_id", "status", "open", "data", "checked_at", "created_at", "updated_at")
SELECT "id", "account_id", "integration_id", 'sms', "msg_id", "delivery_id", "hook_id", "lead_id", "status",
  ("status" = 'sent' OR ("status" = 'delivered' AND "channel" <> 'sms')),
  jsonb_build_object('recipient', "recipient", 'phone', "phone", 'channel', "channel", 'text', "text", 'msgId', "msg_id",
    'parts', "parts", 'providerStatus', "provider_status", 'cost', "cost"::double precision),
  "checked_at", "created_at", "updated_at"
FROM "sms_messages";--> statement-breakpoint
DROP TABLE "sms_messages" CASCADE;
