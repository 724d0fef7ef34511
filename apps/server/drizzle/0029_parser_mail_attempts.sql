ALTER TABLE "parser_mails" ADD COLUMN "detail" text;--> statement-breakpoint
ALTER TABLE "parser_mails" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;