CREATE TABLE "fb_ad_accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"connection_id" uuid NOT NULL,
	"ad_account_id" text NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fb_connections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"fb_user_id" text NOT NULL,
	"name" text NOT NULL,
	"email" text,
	"user_token" jsonb NOT NULL,
	"token_expires_at" timestamp with time zone,
	"status" text DEFAULT 'ok' NOT NULL,
	"status_reason" text,
	"broken_notified_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fb_pages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"connection_id" uuid NOT NULL,
	"page_id" text NOT NULL,
	"name" text NOT NULL,
	"category" text,
	"page_token" jsonb NOT NULL,
	"is_subscribed" boolean DEFAULT false NOT NULL,
	"subscribed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "fb_ad_accounts" ADD CONSTRAINT "fb_ad_accounts_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fb_ad_accounts" ADD CONSTRAINT "fb_ad_accounts_connection_id_fb_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."fb_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fb_connections" ADD CONSTRAINT "fb_connections_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fb_pages" ADD CONSTRAINT "fb_pages_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fb_pages" ADD CONSTRAINT "fb_pages_connection_id_fb_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."fb_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "fb_ad_accounts_connection_ad_account_idx" ON "fb_ad_accounts" USING btree ("connection_id","ad_account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "fb_connections_account_user_idx" ON "fb_connections" USING btree ("account_id","fb_user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "fb_pages_connection_page_idx" ON "fb_pages" USING btree ("connection_id","page_id");--> statement-breakpoint
CREATE INDEX "fb_pages_page_idx" ON "fb_pages" USING btree ("page_id");