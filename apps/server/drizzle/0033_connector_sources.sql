CREATE TABLE "connector_seen" (
	"integration_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"item_id" text NOT NULL,
	"via" text NOT NULL,
	"times_seen" integer DEFAULT 1 NOT NULL,
	"hook_id" uuid,
	"summary" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "connector_seen_integration_id_item_id_pk" PRIMARY KEY("integration_id","item_id")
);
--> statement-breakpoint
CREATE TABLE "connector_state" (
	"integration_id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"cursor" jsonb,
	"poll_from" timestamp with time zone,
	"last_poll_at" timestamp with time zone,
	"last_poll_error" text,
	"subscription_id" text,
	"subscription_status" text DEFAULT 'none' NOT NULL,
	"subscription_registered_at" timestamp with time zone,
	"subscription_removed_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "connector_seen" ADD CONSTRAINT "connector_seen_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connector_seen" ADD CONSTRAINT "connector_seen_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connector_state" ADD CONSTRAINT "connector_state_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connector_state" ADD CONSTRAINT "connector_state_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "connector_seen_recent_idx" ON "connector_seen" USING btree ("integration_id","first_seen_at");--> statement-breakpoint
CREATE INDEX "connector_seen_first_seen_idx" ON "connector_seen" USING btree ("first_seen_at");