DROP INDEX "deliveries_due_idx";--> statement-breakpoint
CREATE INDEX "deliveries_leased_idx" ON "deliveries" USING btree ("lease_until") WHERE "deliveries"."status" = 'running';--> statement-breakpoint
CREATE INDEX "deliveries_due_idx" ON "deliveries" USING btree ("next_attempt_at","seq") WHERE "deliveries"."status" = 'pending';