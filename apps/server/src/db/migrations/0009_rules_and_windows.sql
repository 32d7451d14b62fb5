CREATE TABLE "alert_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"scope_kind" text NOT NULL,
	"scope_id" integer NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"agent_id" integer NOT NULL,
	"company_id" integer,
	"site_id" integer,
	"signal" text NOT NULL,
	"op" text NOT NULL,
	"threshold" double precision NOT NULL,
	"for_s" integer DEFAULT 0 NOT NULL,
	"clear_threshold" double precision,
	"severity" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_by" text NOT NULL,
	"created_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "maintenance_windows" (
	"id" serial PRIMARY KEY NOT NULL,
	"scope_kind" text NOT NULL,
	"scope_id" integer NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"agent_id" integer NOT NULL,
	"company_id" integer,
	"site_id" integer,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"weekdays" smallint[],
	"start_local" text,
	"duration_min" integer,
	"reason" text DEFAULT '' NOT NULL,
	"created_by" text NOT NULL,
	"created_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_early_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "rule_states" (
	"terminal_id" integer NOT NULL,
	"rule_id" integer NOT NULL,
	"pending_since" timestamp with time zone,
	"firing" boolean DEFAULT false NOT NULL,
	"last_at" timestamp with time zone,
	"last_value" double precision,
	CONSTRAINT "rule_states_terminal_id_rule_id_pk" PRIMARY KEY("terminal_id","rule_id")
);
--> statement-breakpoint
CREATE TABLE "sales_hours" (
	"terminal_id" integer NOT NULL,
	"local_hour" timestamp NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "sales_hours_terminal_id_local_hour_pk" PRIMARY KEY("terminal_id","local_hour")
);
--> statement-breakpoint
CREATE TABLE "sales_terminals" (
	"terminal_id" integer PRIMARY KEY NOT NULL,
	"last_at" timestamp with time zone,
	"baseline_hour" timestamp,
	"baseline" double precision DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "rule_id" integer;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "silenced" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "maintenance_id" integer;--> statement-breakpoint
CREATE INDEX "alert_rules_agent_idx" ON "alert_rules" USING btree ("agent_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "alert_rules_enabled_idx" ON "alert_rules" USING btree ("signal") WHERE enabled and deleted_at is null;--> statement-breakpoint
CREATE INDEX "maintenance_windows_agent_idx" ON "maintenance_windows" USING btree ("agent_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "maintenance_windows_ends_idx" ON "maintenance_windows" USING btree ("ends_at");--> statement-breakpoint
CREATE INDEX "rule_states_pending_idx" ON "rule_states" USING btree ("pending_since") WHERE pending_since is not null and not firing;--> statement-breakpoint
CREATE INDEX "rule_states_rule_idx" ON "rule_states" USING btree ("rule_id");--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_rule_active_uq" ON "alerts" USING btree ("rule_id","terminal_id") WHERE state = 'active' and rule_id is not null;--> statement-breakpoint
CREATE INDEX "alerts_silenced_active_idx" ON "alerts" USING btree ("maintenance_id") WHERE silenced and state = 'active';--> statement-breakpoint
CREATE FUNCTION "maintenance_covers"(p_starts timestamptz, p_ends timestamptz, p_weekdays smallint[], p_start text,
                                     p_duration_min integer, p_tz text, p_at timestamptz)
	RETURNS boolean LANGUAGE sql STABLE AS $$
	-- A one-off window covers [starts_at, ends_at). A weekly one covers, inside that range, each occurrence: the local
	-- day (a listed ISO weekday) at the local start time in the site's zone, for duration_min real minutes (an
	-- occurrence may run past midnight, so the days before are looked at too). A start the clocks skip (spring
	-- forward) begins at the moment they jump; PostgreSQL's reading of local times does that.
	SELECT p_at >= p_starts AND p_at < p_ends AND (
		p_weekdays IS NULL OR EXISTS (
			SELECT 1
			  FROM generate_series(0, (p_duration_min + 1439) / 1440) AS back(d)
			 CROSS JOIN LATERAL (SELECT ((p_at AT TIME ZONE p_tz)::date - back.d) AS day) dd
			 CROSS JOIN LATERAL (SELECT ((dd.day + p_start::time) AT TIME ZONE p_tz) AS s) occ
			 WHERE extract(isodow FROM dd.day)::int = ANY (p_weekdays)
			   AND p_at >= occ.s AND p_at < occ.s + make_interval(mins => p_duration_min)))
$$;--> statement-breakpoint
CREATE FUNCTION "alerts_silence_in_maintenance"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	-- Every alert raised while a maintenance window covers its terminal is stored silenced, whoever raises it.
	IF NEW.maintenance_id IS NULL THEN
		SELECT w.id INTO NEW.maintenance_id
		  FROM maintenance_windows w
		  JOIN terminals t ON t.id = NEW.terminal_id
		  JOIN sites s ON s.id = t.site_id
		 WHERE w.starts_at <= now() AND w.ends_at > now()
		   AND t.decommissioned_at IS NULL AND t.tags @> w.tags
		   AND CASE w.scope_kind WHEN 'agent' THEN t.agent_id = w.scope_id
		                         WHEN 'company' THEN t.company_id = w.scope_id
		                         WHEN 'site' THEN t.site_id = w.scope_id
		                         ELSE t.id = w.scope_id END
		   AND maintenance_covers(w.starts_at, w.ends_at, w.weekdays, w.start_local, w.duration_min, s.timezone, now())
		 ORDER BY w.id
		 LIMIT 1;
	END IF;
	NEW.silenced := NEW.maintenance_id IS NOT NULL;
	RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "alerts_silence_in_maintenance" BEFORE INSERT ON "alerts"
	FOR EACH ROW EXECUTE FUNCTION "alerts_silence_in_maintenance"();
--> statement-breakpoint
-- The no_sales baseline of a fleet upgraded with history: the last four weeks of sales, by local hour of each site.
INSERT INTO "sales_hours" ("terminal_id", "local_hour", "n")
SELECT x.terminal_id, date_trunc('hour', x.at AT TIME ZONE s.timezone), count(*)
  FROM transactions x JOIN sites s ON s.id = x.site_id
 WHERE x.at >= now() - interval '29 days'
 GROUP BY 1, 2;--> statement-breakpoint
INSERT INTO "sales_terminals" ("terminal_id", "last_at")
SELECT terminal_id, max(at) FROM transactions WHERE at >= now() - interval '29 days' GROUP BY 1;
