ALTER TABLE "telegram_link_codes" ALTER COLUMN "collection_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "telegram_link_codes" ALTER COLUMN "item_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "telegram_link_codes" ADD COLUMN "purpose" text DEFAULT 'manager' NOT NULL;--> statement-breakpoint
ALTER TABLE "guardian_settings" ADD COLUMN "telegram" jsonb;
