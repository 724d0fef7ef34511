CREATE TABLE "crm_watches" (
	"integration_id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"secret" jsonb NOT NULL,
	"remote_id" text,
	"subscribed_at" timestamp with time zone,
	"attempted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "crm_watches" ADD CONSTRAINT "crm_watches_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_watches" ADD CONSTRAINT "crm_watches_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "crm_watches_pending_idx" ON "crm_watches" USING btree ("attempted_at");--> statement-breakpoint
CREATE INDEX "deliveries_external_idx" ON "deliveries" USING btree ("destination_id","external_id") WHERE "deliveries"."external_id" is not null;