-- users.plan_id becomes a uuid referencing plans (the next migration adds the key). PostgreSQL
-- cannot cast text to uuid without USING, which drizzle-kit does not write. No plans existed
-- before this, so no plan_id pointed at one: every value becomes null (demo), as the key requires.
ALTER TABLE "users" ALTER COLUMN "plan_id" SET DATA TYPE uuid USING NULL::uuid;
