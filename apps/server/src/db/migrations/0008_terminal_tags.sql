ALTER TABLE "terminals" ADD COLUMN "tags" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "terminals" ADD COLUMN "software_version" text;--> statement-breakpoint
CREATE INDEX "terminals_tags_idx" ON "terminals" USING gin ("tags");