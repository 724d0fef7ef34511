-- The month's leads from before lead_usage existed count towards the month's limit: one shard per
-- account holds what the leads table has for the current UTC month (ingest adds the rest).
INSERT INTO "lead_usage" ("account_id", "month", "shard", "leads")
SELECT "account_id", date_trunc('month', now() AT TIME ZONE 'UTC')::date, 0, count(*)
FROM "leads"
WHERE "created_at" >= date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
GROUP BY "account_id"
ON CONFLICT DO NOTHING;
