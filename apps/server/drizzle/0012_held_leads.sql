CREATE TABLE "account_holds" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"reason" text NOT NULL,
	"since" timestamp with time zone NOT NULL,
	"notified_at" timestamp with time zone,
	"drop_covers_until" timestamp with time zone,
	"drop_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "lead_usage" (
	"account_id" uuid NOT NULL,
	"month" date NOT NULL,
	"shard" smallint NOT NULL,
	"leads" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "lead_usage_account_id_month_shard_pk" PRIMARY KEY("account_id","month","shard")
);
--> statement-breakpoint
ALTER TABLE "account_holds" ADD CONSTRAINT "account_holds_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_usage" ADD CONSTRAINT "lead_usage_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deliveries_held_idx" ON "deliveries" USING btree ("account_id","next_attempt_at") WHERE "deliveries"."status" = 'held';