CREATE TABLE "fb_backfill_cursors" (
	"form_id" text PRIMARY KEY NOT NULL,
	"page_id" text NOT NULL,
	"swept_until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fb_leadgen_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"leadgen_id" text NOT NULL,
	"page_id" text NOT NULL,
	"form_id" text,
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
CREATE UNIQUE INDEX "fb_leadgen_events_leadgen_idx" ON "fb_leadgen_events" USING btree ("leadgen_id");--> statement-breakpoint
CREATE INDEX "fb_leadgen_events_due_idx" ON "fb_leadgen_events" USING btree ("status","next_at");