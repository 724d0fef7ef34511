CREATE TABLE "guardian_settings" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"mail_drought" boolean DEFAULT true NOT NULL,
	"mail_expiry" boolean DEFAULT true NOT NULL,
	"weekly_mail" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "guardian_weekly_mails" (
	"account_id" uuid NOT NULL,
	"week" date NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "guardian_weekly_mails_account_id_week_pk" PRIMARY KEY("account_id","week")
);
--> statement-breakpoint
ALTER TABLE "guardian_alerts" ALTER COLUMN "integration_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "guardian_alerts" ADD COLUMN "connection_id" uuid;--> statement-breakpoint
ALTER TABLE "guardian_alerts" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "guardian_alerts" ADD COLUMN "days_ahead" integer;--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "credential_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "guardian_settings" ADD CONSTRAINT "guardian_settings_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guardian_weekly_mails" ADD CONSTRAINT "guardian_weekly_mails_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guardian_alerts" ADD CONSTRAINT "guardian_alerts_connection_id_fb_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."fb_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "guardian_alerts_open_connection_idx" ON "guardian_alerts" USING btree ("connection_id","kind") WHERE "guardian_alerts"."closed_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "guardian_alerts_expiry_idx" ON "guardian_alerts" USING btree ("integration_id","expires_at","days_ahead") WHERE "guardian_alerts"."kind" = 'expiry' and "guardian_alerts"."integration_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "guardian_alerts_connection_expiry_idx" ON "guardian_alerts" USING btree ("connection_id","expires_at","days_ahead") WHERE "guardian_alerts"."kind" = 'expiry' and "guardian_alerts"."connection_id" is not null;