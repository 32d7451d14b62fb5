CREATE TABLE "contact_points" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"addresses" text[] DEFAULT '{}'::text[] NOT NULL,
	"url" text,
	"secret" text,
	"owner_kind" text NOT NULL,
	"owner_id" integer NOT NULL,
	"agent_id" integer NOT NULL,
	"company_id" integer,
	"site_id" integer,
	"created_by" text NOT NULL,
	"created_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"alert_id" bigint,
	"contact_point_id" integer NOT NULL,
	"event" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_status_code" integer,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"delivered_at" timestamp with time zone,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification_escalations" (
	"alert_id" bigint NOT NULL,
	"policy_id" integer NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	CONSTRAINT "notification_escalations_alert_id_policy_id_pk" PRIMARY KEY("alert_id","policy_id")
);
--> statement-breakpoint
CREATE TABLE "notification_policies" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"scope_kind" text NOT NULL,
	"scope_id" integer NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"agent_id" integer NOT NULL,
	"company_id" integer,
	"site_id" integer,
	"min_severity" text DEFAULT 'info' NOT NULL,
	"event_types" smallint[] DEFAULT '{}'::smallint[] NOT NULL,
	"rule_ids" integer[] DEFAULT '{}'::int[] NOT NULL,
	"contact_point_ids" integer[] DEFAULT '{}'::int[] NOT NULL,
	"escalate_after_s" integer,
	"escalate_to_ids" integer[] DEFAULT '{}'::int[] NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_by" text NOT NULL,
	"created_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD CONSTRAINT "notification_deliveries_contact_point_id_contact_points_id_fk" FOREIGN KEY ("contact_point_id") REFERENCES "public"."contact_points"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_escalations" ADD CONSTRAINT "notification_escalations_policy_id_notification_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."notification_policies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contact_points_agent_idx" ON "contact_points" USING btree ("agent_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "notification_deliveries_once_uq" ON "notification_deliveries" USING btree ("alert_id","contact_point_id","event") WHERE alert_id is not null;--> statement-breakpoint
CREATE INDEX "notification_deliveries_due_idx" ON "notification_deliveries" USING btree ("next_attempt_at") WHERE status in ('pending', 'retrying');--> statement-breakpoint
CREATE INDEX "notification_deliveries_cp_idx" ON "notification_deliveries" USING btree ("contact_point_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "notification_escalations_due_idx" ON "notification_escalations" USING btree ("due_at");--> statement-breakpoint
CREATE INDEX "notification_policies_agent_idx" ON "notification_policies" USING btree ("agent_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "notification_policies_enabled_idx" ON "notification_policies" USING btree ("scope_kind","scope_id") WHERE enabled;--> statement-breakpoint
CREATE FUNCTION "notification_enqueue_raised"(p_ids bigint[]) RETURNS void LANGUAGE sql AS $$
	-- alert.raised to the contact points of every enabled policy an active, unsilenced alert matches (its target
	-- reaches the alert's terminal, at or above min_severity, in event_types and rule_ids when they are not empty),
	-- once per contact point; and the escalations those policies will owe while it stays unacknowledged.
	WITH m AS (
		SELECT a.id AS alert_id, a.started_at, p.id AS policy_id, p.contact_point_ids, p.escalate_after_s,
		       p.escalate_to_ids
		  FROM alerts a
		  JOIN terminals t ON t.id = a.terminal_id
		  JOIN notification_policies p ON p.enabled
		   AND t.decommissioned_at IS NULL AND t.tags @> p.tags
		   AND CASE p.scope_kind WHEN 'agent' THEN t.agent_id = p.scope_id
		                         WHEN 'company' THEN t.company_id = p.scope_id
		                         WHEN 'site' THEN t.site_id = p.scope_id
		                         ELSE t.id = p.scope_id END
		   AND array_position(ARRAY['critical', 'major', 'minor', 'info'], a.severity)
		       <= array_position(ARRAY['critical', 'major', 'minor', 'info'], p.min_severity)
		   AND (cardinality(p.event_types) = 0 OR a.event_type = ANY (p.event_types))
		   AND (cardinality(p.rule_ids) = 0 OR a.rule_id = ANY (p.rule_ids))
		 WHERE a.id = ANY (p_ids) AND a.state = 'active' AND NOT a.silenced
	), esc AS (
		INSERT INTO notification_escalations (alert_id, policy_id, due_at)
		SELECT alert_id, policy_id, started_at + make_interval(secs => escalate_after_s)
		  FROM m
		 WHERE escalate_after_s IS NOT NULL AND cardinality(escalate_to_ids) > 0
		ON CONFLICT DO NOTHING
	)
	INSERT INTO notification_deliveries (alert_id, contact_point_id, event)
	SELECT DISTINCT m.alert_id, c.id, 'alert.raised'
	  FROM m CROSS JOIN LATERAL unnest(m.contact_point_ids) AS x(id)
	  JOIN contact_points c ON c.id = x.id
	ON CONFLICT (alert_id, contact_point_id, event) WHERE alert_id IS NOT NULL DO NOTHING
$$;--> statement-breakpoint
CREATE FUNCTION "alerts_notify_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	-- Every alert raised, whoever raises it (device events, the watchdog, rules), in the raising statement's
	-- transaction: one set-based insert per statement, nothing at all while no policy is enabled.
	IF EXISTS (SELECT 1 FROM notification_policies WHERE enabled) THEN
		PERFORM notification_enqueue_raised(ARRAY(SELECT id FROM new_alerts WHERE NOT silenced AND state = 'active'));
	END IF;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "alerts_notify_inserted" AFTER INSERT ON "alerts"
	REFERENCING NEW TABLE AS new_alerts
	FOR EACH STATEMENT EXECUTE FUNCTION "alerts_notify_inserted"();
--> statement-breakpoint
CREATE FUNCTION "alerts_notify_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	-- An alert whose maintenance window stopped covering it while still active is notified now.
	IF EXISTS (SELECT 1 FROM notification_policies WHERE enabled) THEN
		PERFORM notification_enqueue_raised(ARRAY(
			SELECT n.id FROM new_alerts n JOIN old_alerts o ON o.id = n.id
			 WHERE o.silenced AND NOT n.silenced AND n.state = 'active'));
	END IF;
	-- A cleared alert: alert.cleared to the contact points that got alert.raised.
	IF NOT EXISTS (SELECT 1 FROM contact_points) THEN
		RETURN NULL;
	END IF;
	INSERT INTO notification_deliveries (alert_id, contact_point_id, event)
	SELECT d.alert_id, d.contact_point_id, 'alert.cleared'
	  FROM new_alerts n
	  JOIN old_alerts o ON o.id = n.id
	  JOIN notification_deliveries d ON d.alert_id = n.id AND d.event = 'alert.raised'
	 WHERE o.state = 'active' AND n.state = 'cleared'
	ON CONFLICT (alert_id, contact_point_id, event) WHERE alert_id IS NOT NULL DO NOTHING;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "alerts_notify_updated" AFTER UPDATE ON "alerts"
	REFERENCING OLD TABLE AS old_alerts NEW TABLE AS new_alerts
	FOR EACH STATEMENT EXECUTE FUNCTION "alerts_notify_updated"();
