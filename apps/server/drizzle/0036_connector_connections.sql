CREATE TABLE "connector_assets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"connection_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"external_id" text NOT NULL,
	"name" text NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"secret" jsonb,
	"subscribed" boolean DEFAULT false NOT NULL,
	"subscribed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "connector_connections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"type" text NOT NULL,
	"external_id" text NOT NULL,
	"name" text NOT NULL,
	"email" text,
	"secret" jsonb NOT NULL,
	"expires_at" timestamp with time zone,
	"status" text DEFAULT 'ok' NOT NULL,
	"status_reason" text,
	"broken_notified_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "connector_cursors" (
	"type" text NOT NULL,
	"key" text NOT NULL,
	"asset_id" text NOT NULL,
	"until" timestamp with time zone NOT NULL,
	CONSTRAINT "connector_cursors_type_key_pk" PRIMARY KEY("type","key")
);
--> statement-breakpoint
CREATE TABLE "connector_inbound_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"type" text NOT NULL,
	"external_id" text NOT NULL,
	"asset_id" text NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"origin" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_at" timestamp with time zone DEFAULT now() NOT NULL,
	"done_connections" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"last_error" text,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "connector_assets" ADD CONSTRAINT "connector_assets_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connector_assets" ADD CONSTRAINT "connector_assets_connection_id_connector_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."connector_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connector_connections" ADD CONSTRAINT "connector_connections_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "connector_assets_connection_kind_external_idx" ON "connector_assets" USING btree ("connection_id","kind","external_id");--> statement-breakpoint
CREATE INDEX "connector_assets_kind_external_idx" ON "connector_assets" USING btree ("kind","external_id");--> statement-breakpoint
CREATE UNIQUE INDEX "connector_connections_account_type_external_idx" ON "connector_connections" USING btree ("account_id","type","external_id");--> statement-breakpoint
CREATE UNIQUE INDEX "connector_inbound_events_type_external_idx" ON "connector_inbound_events" USING btree ("type","external_id");--> statement-breakpoint
CREATE INDEX "connector_inbound_events_due_idx" ON "connector_inbound_events" USING btree ("status","next_at");