CREATE TABLE "catalogue_shipped_destinations" (
	"slug" text PRIMARY KEY NOT NULL,
	"shipped_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- What an existing install already offers counts as shipped: every destination type it has, and every
-- type a source already lists. A fresh database has none; the first seed ships them all.
INSERT INTO "catalogue_shipped_destinations" ("slug")
SELECT "slug" FROM "integration_settings" WHERE "kind" = 'destination'
UNION
SELECT jsonb_array_elements_text("destinations") FROM "integration_settings" WHERE "kind" = 'source'
ON CONFLICT DO NOTHING;
