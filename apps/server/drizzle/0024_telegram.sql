CREATE TABLE "telegram_cards" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"lead_id" uuid NOT NULL,
	"integration_id" uuid NOT NULL,
	"item_id" text NOT NULL,
	"item_name" text,
	"chat_id" bigint NOT NULL,
	"message_id" bigint NOT NULL,
	"language" text NOT NULL,
	"text" text NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"passed_to" text,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "telegram_cards_lead_destination_item" UNIQUE("lead_id","integration_id","item_id")
);
--> statement-breakpoint
CREATE TABLE "telegram_link_codes" (
	"code" text PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"collection_id" uuid NOT NULL,
	"item_id" text NOT NULL,
	"integration_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "telegram_cards" ADD CONSTRAINT "telegram_cards_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "telegram_cards" ADD CONSTRAINT "telegram_cards_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "telegram_cards" ADD CONSTRAINT "telegram_cards_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "telegram_link_codes" ADD CONSTRAINT "telegram_link_codes_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "telegram_link_codes" ADD CONSTRAINT "telegram_link_codes_collection_id_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."collections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "telegram_link_codes" ADD CONSTRAINT "telegram_link_codes_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "telegram_cards_lead_idx" ON "telegram_cards" USING btree ("lead_id");--> statement-breakpoint
CREATE INDEX "telegram_link_codes_item_idx" ON "telegram_link_codes" USING btree ("collection_id","item_id");--> statement-breakpoint
-- Sources shipped before Telegram (issue 19) may send to it too, as new ones do (catalogue.seed: every destination type); an operator's own list keeps its other entries.
UPDATE "integration_settings" SET "destinations" = "destinations" || '["telegram"]'::jsonb WHERE "kind" = 'source' AND NOT ("destinations" @> '["telegram"]'::jsonb);
