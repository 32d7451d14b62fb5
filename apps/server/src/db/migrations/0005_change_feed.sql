CREATE TABLE "change_feed_state" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"pruned_through" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"xid" "xid8" NOT NULL,
	"kind" text NOT NULL,
	"agent_id" integer,
	"company_id" integer,
	"site_id" integer,
	"terminal_id" integer,
	"pump_id" integer,
	"user_id" integer,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shared_settings" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "changes_at_idx" ON "changes" USING btree ("at");--> statement-breakpoint
INSERT INTO "change_feed_state" ("id", "pruned_through") VALUES (1, 0);
