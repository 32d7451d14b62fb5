-- Telemetry history (docs/decisions/0017-telemetry-history.md): raw telemetry becomes a table partitioned by day on
-- `at`, hourly roll-ups partitioned by month on `hour`. drizzle-kit cannot express PARTITION BY, so this migration
-- is written by hand; the Drizzle schema (db/schema/events.ts, db/schema/telemetry-history.ts) keeps its shape.
--
-- Partitions are named <parent>_pYYYYMMDD (the first day they hold, UTC). A <parent>_default partition takes what
-- no partition covers (a device may date a reading anywhere from 2000 to 2099); creating a partition moves the rows
-- of its range out of the default one first.
CREATE FUNCTION history_ensure_partitions(parent text, key text, unit text, from_at timestamptz, to_at timestamptz)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  lo timestamp := date_trunc(unit, from_at AT TIME ZONE 'UTC');
  hi timestamp;
  part text;
  made integer := 0;
BEGIN
  WHILE lo < (to_at AT TIME ZONE 'UTC') LOOP
    hi := lo + ('1 ' || unit)::interval;
    part := parent || '_p' || to_char(lo, 'YYYYMMDD');
    IF to_regclass(quote_ident(part)) IS NULL THEN
      -- CREATE ... PARTITION OF would lock the whole table against writes; ATTACH PARTITION does not.
      EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS)', part, parent);
      EXECUTE format(
        'WITH moved AS (DELETE FROM %I WHERE %I >= $1 AND %I < $2 RETURNING *) INSERT INTO %I SELECT * FROM moved',
        parent || '_default', key, key, part
      ) USING lo AT TIME ZONE 'UTC', hi AT TIME ZONE 'UTC';
      EXECUTE format(
        'ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)',
        parent, part, lo AT TIME ZONE 'UTC', hi AT TIME ZONE 'UTC'
      );
      made := made + 1;
    END IF;
    lo := hi;
  END LOOP;
  RETURN made;
END $$;
--> statement-breakpoint
-- Drops every partition whose range ends at or before `before_at`, and the default partition's rows older than it.
CREATE FUNCTION history_drop_partitions(parent text, key text, unit text, before_at timestamptz)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  r record;
  made integer := 0;
BEGIN
  FOR r IN
    SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = parent::regclass AND c.relname ~ ('^' || parent || '_p[0-9]{8}$')
     ORDER BY c.relname
  LOOP
    IF ((to_date(right(r.relname, 8), 'YYYYMMDD')::timestamp + ('1 ' || unit)::interval) AT TIME ZONE 'UTC')
       <= before_at THEN
      EXECUTE format('DROP TABLE %I', r.relname);
      made := made + 1;
    END IF;
  END LOOP;
  EXECUTE format('DELETE FROM %I WHERE %I < $1', parent || '_default', key) USING before_at;
  RETURN made;
END $$;
--> statement-breakpoint
-- The existing table steps aside; its sequence stays (ids go on where they were) and moves to the new table.
ALTER TABLE "telemetry" RENAME TO "telemetry_unpartitioned";--> statement-breakpoint
ALTER TABLE "telemetry_unpartitioned" RENAME CONSTRAINT "telemetry_pkey" TO "telemetry_unpartitioned_pkey";--> statement-breakpoint
ALTER INDEX "telemetry_site_idx" RENAME TO "telemetry_unpartitioned_site_idx";--> statement-breakpoint
ALTER INDEX "telemetry_terminal_idx" RENAME TO "telemetry_unpartitioned_terminal_idx";--> statement-breakpoint
ALTER SEQUENCE "telemetry_id_seq" OWNED BY NONE;--> statement-breakpoint
CREATE TABLE "telemetry" (
	"id" bigint DEFAULT nextval('telemetry_id_seq') NOT NULL,
	"terminal_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"battery_life" double precision,
	"flash_left" double precision,
	"temperature_main_board" double precision,
	"temperature_inside_cabinet" double precision,
	"humidity_inside_cabinet" double precision,
	"lat" double precision,
	"lng" double precision
) PARTITION BY RANGE ("at");--> statement-breakpoint
ALTER SEQUENCE "telemetry_id_seq" OWNED BY "telemetry"."id";--> statement-breakpoint
CREATE TABLE "telemetry_default" PARTITION OF "telemetry" DEFAULT;--> statement-breakpoint
-- One partition per day the existing rows cover, up to a week ahead.
SELECT history_ensure_partitions(
  'telemetry', 'at', 'day',
  coalesce((SELECT min("at") FROM "telemetry_unpartitioned"), now()),
  greatest(coalesce((SELECT max("at") FROM "telemetry_unpartitioned"), now()), now()) + interval '7 days'
);--> statement-breakpoint
-- Rows first, indexes after: one sorted build per partition instead of row-by-row inserts into every index.
INSERT INTO "telemetry" SELECT * FROM "telemetry_unpartitioned";--> statement-breakpoint
DO $$
BEGIN
  IF (SELECT count(*) FROM "telemetry") <> (SELECT count(*) FROM "telemetry_unpartitioned") THEN
    RAISE EXCEPTION 'telemetry: the partitioned copy does not hold every row';
  END IF;
END $$;--> statement-breakpoint
DROP TABLE "telemetry_unpartitioned";--> statement-breakpoint
ALTER TABLE "telemetry" ADD CONSTRAINT "telemetry_id_at_pk" PRIMARY KEY("id","at");--> statement-breakpoint
CREATE INDEX "telemetry_site_idx" ON "telemetry" USING btree ("site_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "telemetry_terminal_at_idx" ON "telemetry" USING btree ("terminal_id","at");--> statement-breakpoint
CREATE TABLE "telemetry_hourly" (
	"terminal_id" integer NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"battery_life_n" integer DEFAULT 0 NOT NULL,
	"battery_life_sum" double precision,
	"battery_life_min" double precision,
	"battery_life_max" double precision,
	"flash_left_n" integer DEFAULT 0 NOT NULL,
	"flash_left_sum" double precision,
	"flash_left_min" double precision,
	"flash_left_max" double precision,
	"temperature_main_board_n" integer DEFAULT 0 NOT NULL,
	"temperature_main_board_sum" double precision,
	"temperature_main_board_min" double precision,
	"temperature_main_board_max" double precision,
	"temperature_inside_cabinet_n" integer DEFAULT 0 NOT NULL,
	"temperature_inside_cabinet_sum" double precision,
	"temperature_inside_cabinet_min" double precision,
	"temperature_inside_cabinet_max" double precision,
	"humidity_inside_cabinet_n" integer DEFAULT 0 NOT NULL,
	"humidity_inside_cabinet_sum" double precision,
	"humidity_inside_cabinet_min" double precision,
	"humidity_inside_cabinet_max" double precision,
	CONSTRAINT "telemetry_hourly_terminal_id_hour_pk" PRIMARY KEY("terminal_id","hour")
) PARTITION BY RANGE ("hour");--> statement-breakpoint
CREATE TABLE "telemetry_hourly_default" PARTITION OF "telemetry_hourly" DEFAULT;--> statement-breakpoint
CREATE TABLE "telemetry_rollup_pending" (
	"terminal_id" integer NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	CONSTRAINT "telemetry_rollup_pending_terminal_id_hour_pk" PRIMARY KEY("terminal_id","hour")
);--> statement-breakpoint
CREATE TABLE "rollup_state" (
	"key" text PRIMARY KEY NOT NULL,
	"rolled_until" timestamp with time zone NOT NULL
);
