CREATE TABLE "locales" (
	"code" text PRIMARY KEY NOT NULL,
	"iso" text NOT NULL,
	"file" text NOT NULL,
	"domain" text DEFAULT '' NOT NULL,
	"dir" text DEFAULT 'ltr' NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "translations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"locale" text NOT NULL,
	"namespace" text NOT NULL,
	"key" text NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "impersonator_id" uuid;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "impersonator_login" text;--> statement-breakpoint
ALTER TABLE "translations" ADD CONSTRAINT "translations_locale_locales_code_fk" FOREIGN KEY ("locale") REFERENCES "public"."locales"("code") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "translations_locale_key_idx" ON "translations" USING btree ("locale","namespace","key");--> statement-breakpoint
CREATE INDEX "translations_locale_idx" ON "translations" USING btree ("locale","updated_at");--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_impersonator_id_users_id_fk" FOREIGN KEY ("impersonator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
INSERT INTO "locales" ("code", "iso", "file", "domain", "dir", "name") VALUES ('uk', 'uk-UA', 'uk.json', '', 'ltr', 'Українська'), ('en', 'en-US', 'en.json', '', 'ltr', 'English');