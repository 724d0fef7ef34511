CREATE TABLE "horoshop_orders" (
	"integration_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"order_id" text NOT NULL,
	"name" text,
	"phone" text,
	"total" text,
	"currency" text,
	"via" text NOT NULL,
	"times_seen" integer DEFAULT 1 NOT NULL,
	"hook_id" uuid,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "horoshop_orders_integration_id_order_id_pk" PRIMARY KEY("integration_id","order_id")
);
--> statement-breakpoint
CREATE TABLE "horoshop_sources" (
	"integration_id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"webhook_id" text,
	"webhook_status" text DEFAULT 'none' NOT NULL,
	"webhook_registered_at" timestamp with time zone,
	"webhook_removed_at" timestamp with time zone,
	"polled_until" timestamp with time zone,
	"poll_from" timestamp with time zone,
	"last_poll_at" timestamp with time zone,
	"last_poll_error" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "horoshop_orders" ADD CONSTRAINT "horoshop_orders_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "horoshop_orders" ADD CONSTRAINT "horoshop_orders_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "horoshop_sources" ADD CONSTRAINT "horoshop_sources_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "horoshop_sources" ADD CONSTRAINT "horoshop_sources_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "horoshop_orders_recent_idx" ON "horoshop_orders" USING btree ("integration_id","received_at");--> statement-breakpoint
CREATE INDEX "horoshop_orders_received_idx" ON "horoshop_orders" USING btree ("received_at");