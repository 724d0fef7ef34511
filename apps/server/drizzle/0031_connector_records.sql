CREATE TABLE "connector_records" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"integration_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"delivery_id" uuid,
	"hook_id" uuid,
	"lead_id" uuid,
	"status" text NOT NULL,
	"open" boolean DEFAULT false NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"checked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "connector_records" ADD CONSTRAINT "connector_records_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connector_records" ADD CONSTRAINT "connector_records_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "connector_records_account_idx" ON "connector_records" USING btree ("account_id","kind","created_at");--> statement-breakpoint
CREATE INDEX "connector_records_integration_idx" ON "connector_records" USING btree ("integration_id","kind","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "connector_records_key_idx" ON "connector_records" USING btree ("integration_id","kind","key");--> statement-breakpoint
CREATE INDEX "connector_records_open_idx" ON "connector_records" USING btree ("kind","checked_at") WHERE "connector_records"."open";