CREATE TABLE "parser_mailboxes" (
	"integration_id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"uid_validity" bigint,
	"last_uid" bigint DEFAULT 0 NOT NULL,
	"pending_uids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"last_poll_at" timestamp with time zone,
	"last_error" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "parser_mails" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"integration_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"via" text NOT NULL,
	"source_key" text,
	"mail_from" text DEFAULT '' NOT NULL,
	"subject" text DEFAULT '' NOT NULL,
	"message_id" text,
	"size" integer NOT NULL,
	"raw" "bytea",
	"status" text DEFAULT 'received' NOT NULL,
	"reason" text,
	"hook_id" uuid,
	"fields" jsonb,
	"attachments" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"claimed_until" timestamp with time zone,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "parser_mailboxes" ADD CONSTRAINT "parser_mailboxes_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "parser_mailboxes" ADD CONSTRAINT "parser_mailboxes_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "parser_mails" ADD CONSTRAINT "parser_mails_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "parser_mails" ADD CONSTRAINT "parser_mails_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "parser_mails_recent_idx" ON "parser_mails" USING btree ("integration_id","received_at");--> statement-breakpoint
CREATE INDEX "parser_mails_received_idx" ON "parser_mails" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "parser_mails_pending_idx" ON "parser_mails" USING btree ("received_at") WHERE "parser_mails"."status" = 'received';--> statement-breakpoint
CREATE UNIQUE INDEX "parser_mails_source_key_idx" ON "parser_mails" USING btree ("integration_id","source_key") WHERE "parser_mails"."source_key" is not null;