CREATE TABLE "alert_mail_sites" (
	"user_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	"last_sent_at" timestamp with time zone,
	"claimed_until" timestamp with time zone,
	CONSTRAINT "alert_mail_sites_user_id_site_id_pk" PRIMARY KEY("user_id","site_id")
);
--> statement-breakpoint
CREATE TABLE "alert_mails" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	"alert_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" integer,
	"username" text,
	"action" text NOT NULL,
	"entity" text NOT NULL,
	"entity_id" bigint,
	"before" jsonb,
	"after" jsonb
);
--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "severity" text DEFAULT 'minor' NOT NULL;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "state" text DEFAULT 'active' NOT NULL;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "cleared_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "acknowledged_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "acknowledged_by" text;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "acknowledged_by_id" integer;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "note" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_min_severity" text;--> statement-breakpoint
CREATE INDEX "alert_mails_pending_idx" ON "alert_mails" USING btree ("user_id","site_id") WHERE sent_at is null;--> statement-breakpoint
CREATE INDEX "audit_log_entity_idx" ON "audit_log" USING btree ("entity","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "alerts_active_terminal_idx" ON "alerts" USING btree ("terminal_id","event_type") WHERE state = 'active';--> statement-breakpoint
CREATE INDEX "alerts_active_agent_idx" ON "alerts" USING btree ("agent_id","id" DESC NULLS LAST) WHERE state = 'active';--> statement-breakpoint
CREATE INDEX "alerts_active_company_idx" ON "alerts" USING btree ("company_id","id" DESC NULLS LAST) WHERE state = 'active';--> statement-breakpoint
CREATE INDEX "alerts_active_site_idx" ON "alerts" USING btree ("site_id","id" DESC NULLS LAST) WHERE state = 'active';--> statement-breakpoint
-- Severities from the event catalogue (docs/event-types.md); an uncatalogued type stays 'minor'.
UPDATE "alerts" SET "severity" = CASE "event_type"
	WHEN 3 THEN 'critical' WHEN 14 THEN 'critical' WHEN 15 THEN 'critical'
	WHEN 1 THEN 'major' WHEN 6 THEN 'major' WHEN 7 THEN 'major' WHEN 8 THEN 'major' WHEN 11 THEN 'major'
	WHEN 12 THEN 'major' WHEN 13 THEN 'major'
	WHEN 4 THEN 'info' WHEN 5 THEN 'info' WHEN 9 THEN 'info' WHEN 10 THEN 'info'
	ELSE 'minor' END
	WHERE "severity" = 'minor' AND "event_type" <> 2;--> statement-breakpoint
-- Each 'Terminal online' alert (type 4) clears the terminal's offline alert (type 3) before it, then goes:
-- an outage is one offline alert, cleared when the terminal reported again.
UPDATE "alerts" AS off SET "state" = 'cleared', "cleared_at" = back."started_at"
	FROM "alerts" AS back
	WHERE back."event_type" = 4 AND off."event_type" = 3 AND off."state" = 'active'
	AND off."id" = (SELECT max(x."id") FROM "alerts" x
		WHERE x."terminal_id" = back."terminal_id" AND x."event_type" = 3 AND x."id" < back."id");--> statement-breakpoint
DELETE FROM "alerts" WHERE "event_type" = 4;--> statement-breakpoint
-- Offline alerts of terminals that are online now, or older than a later offline alert, are over too.
UPDATE "alerts" AS a SET "state" = 'cleared', "cleared_at" = t."connectivity_changed_at"
	FROM "terminals" t
	WHERE a."event_type" = 3 AND a."state" = 'active' AND t."id" = a."terminal_id" AND t."connectivity" = 'on';--> statement-breakpoint
UPDATE "alerts" AS a SET "state" = 'cleared', "cleared_at" = a."started_at"
	WHERE a."event_type" = 3 AND a."state" = 'active'
	AND EXISTS (SELECT 1 FROM "alerts" x WHERE x."terminal_id" = a."terminal_id" AND x."event_type" = 3 AND x."id" > a."id");
