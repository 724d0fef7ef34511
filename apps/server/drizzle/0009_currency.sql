CREATE TABLE "currency_rates" (
	"code" text PRIMARY KEY NOT NULL,
	"rate" double precision NOT NULL,
	"rate_date" text NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL
);
