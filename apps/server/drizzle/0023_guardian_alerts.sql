CREATE TABLE "guardian_alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"integration_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"silent_since" timestamp with time zone,
	"expected" double precision,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone,
	"notified_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "guardian_alerts" ADD CONSTRAINT "guardian_alerts_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guardian_alerts" ADD CONSTRAINT "guardian_alerts_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "guardian_alerts_open_idx" ON "guardian_alerts" USING btree ("integration_id","kind") WHERE "guardian_alerts"."closed_at" is null;--> statement-breakpoint
CREATE INDEX "guardian_alerts_account_idx" ON "guardian_alerts" USING btree ("account_id","opened_at");