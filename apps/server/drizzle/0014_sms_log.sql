CREATE TABLE "sms_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"integration_id" uuid NOT NULL,
	"delivery_id" uuid,
	"hook_id" uuid,
	"lead_id" uuid,
	"recipient" text NOT NULL,
	"phone" text NOT NULL,
	"channel" text NOT NULL,
	"text" text NOT NULL,
	"msg_id" text NOT NULL,
	"parts" integer NOT NULL,
	"status" text DEFAULT 'sent' NOT NULL,
	"provider_status" text,
	"cost" numeric(12, 4),
	"checked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sms_messages" ADD CONSTRAINT "sms_messages_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sms_messages" ADD CONSTRAINT "sms_messages_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sms_messages_account_idx" ON "sms_messages" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "sms_messages_integration_idx" ON "sms_messages" USING btree ("integration_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "sms_messages_msg_idx" ON "sms_messages" USING btree ("integration_id","msg_id");--> statement-breakpoint
CREATE INDEX "sms_messages_open_idx" ON "sms_messages" USING btree ("checked_at") WHERE "sms_messages"."status" = 'sent' or ("sms_messages"."status" = 'delivered' and "sms_messages"."channel" <> 'sms');