ALTER TABLE "posts" ADD COLUMN "title_en" text;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "text_en" text;--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_en_whole" CHECK (("posts"."title_en" is null) = ("posts"."text_en" is null));