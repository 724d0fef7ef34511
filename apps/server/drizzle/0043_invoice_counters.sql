CREATE TABLE "invoice_counters" (
	"year" integer PRIMARY KEY NOT NULL,
	"last" integer NOT NULL
);
--> statement-breakpoint
-- Invoices issued before the counter were numbered by their order: the counter goes on after the
-- highest of each year, so no number is issued twice.
INSERT INTO "invoice_counters" ("year", "last")
SELECT substring("number" from '^LR-([0-9]{4})-')::integer, max(substring("number" from '-([0-9]+)$')::integer)
FROM "invoices"
WHERE "number" ~ '^LR-[0-9]{4}-[0-9]+$'
GROUP BY 1;
