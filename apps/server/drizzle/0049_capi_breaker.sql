ALTER TABLE "conversion_events" ALTER COLUMN "event_name" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "conversion_events" ALTER COLUMN "external_lead_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "conversion_events" ALTER COLUMN "event_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "conversion_settings" ADD COLUMN "failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "conversion_settings" ADD COLUMN "pauses" integer DEFAULT 0 NOT NULL;