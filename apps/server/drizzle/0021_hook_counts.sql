CREATE TABLE "hook_counts" (
	"account_id" uuid NOT NULL,
	"status" text NOT NULL,
	"n" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "hook_counts" ADD CONSTRAINT "hook_counts_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "hook_counts_account_idx" ON "hook_counts" USING btree ("account_id");--> statement-breakpoint
-- No hook may change between the count below and the triggers that keep it (the migrations run in one transaction).
LOCK TABLE "hooks" IN SHARE ROW EXCLUSIVE MODE;--> statement-breakpoint
INSERT INTO "hook_counts" ("account_id", "status", "n")
  SELECT "account_id", "status", count(*) FROM "hooks" GROUP BY 1, 2;--> statement-breakpoint
-- One row per account and status a statement touched, whatever wrote it (ingest, the worker,
-- renew, removal, retention). An account being deleted is skipped: its rows go with it.
CREATE FUNCTION "hook_counts_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO hook_counts (account_id, status, n)
    SELECT r.account_id, r.status, count(*) FROM hook_counts_new r
    WHERE EXISTS (SELECT 1 FROM users u WHERE u.id = r.account_id)
    GROUP BY 1, 2;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "hook_counts_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO hook_counts (account_id, status, n)
    SELECT r.account_id, r.status, -count(*) FROM hook_counts_old r
    WHERE EXISTS (SELECT 1 FROM users u WHERE u.id = r.account_id)
    GROUP BY 1, 2;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "hook_counts_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO hook_counts (account_id, status, n)
    SELECT c.account_id, c.status, sum(c.d) FROM (
      SELECT account_id, status, 1 AS d FROM hook_counts_new
      UNION ALL
      SELECT account_id, status, -1 FROM hook_counts_old
    ) c
    WHERE EXISTS (SELECT 1 FROM users u WHERE u.id = c.account_id)
    GROUP BY 1, 2
    HAVING sum(c.d) <> 0;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "hook_counts_on_insert" AFTER INSERT ON "hooks" REFERENCING NEW TABLE AS hook_counts_new FOR EACH STATEMENT EXECUTE FUNCTION "hook_counts_inserted"();--> statement-breakpoint
CREATE TRIGGER "hook_counts_on_delete" AFTER DELETE ON "hooks" REFERENCING OLD TABLE AS hook_counts_old FOR EACH STATEMENT EXECUTE FUNCTION "hook_counts_deleted"();--> statement-breakpoint
CREATE TRIGGER "hook_counts_on_update" AFTER UPDATE ON "hooks" REFERENCING OLD TABLE AS hook_counts_old NEW TABLE AS hook_counts_new FOR EACH STATEMENT EXECUTE FUNCTION "hook_counts_updated"();
