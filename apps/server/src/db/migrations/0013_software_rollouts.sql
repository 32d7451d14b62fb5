CREATE TABLE "rollout_terminals" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"rollout_id" integer NOT NULL,
	"terminal_id" integer NOT NULL,
	"wave" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"from_version" text,
	"detail" text,
	"command_id" bigint,
	"sent_at" timestamp with time zone,
	"acked_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rollouts" (
	"id" serial PRIMARY KEY NOT NULL,
	"agent_id" integer NOT NULL,
	"package_id" integer NOT NULL,
	"target" jsonb NOT NULL,
	"waves" jsonb NOT NULL,
	"wave_wait_s" integer NOT NULL,
	"window_start" text,
	"window_end" text,
	"max_failure_pct" double precision NOT NULL,
	"state" text DEFAULT 'running' NOT NULL,
	"wave" integer DEFAULT 1 NOT NULL,
	"wave_started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paused_reason" text,
	"accepted_failures" integer DEFAULT 0 NOT NULL,
	"created_by" text NOT NULL,
	"created_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"tracked_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "software_chunks" (
	"package_id" integer NOT NULL,
	"seq" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "software_chunks_package_id_seq_pk" PRIMARY KEY("package_id","seq")
);
--> statement-breakpoint
CREATE TABLE "software_packages" (
	"id" serial PRIMARY KEY NOT NULL,
	"agent_id" integer NOT NULL,
	"name" text NOT NULL,
	"version" text NOT NULL,
	"kind" text NOT NULL,
	"size" bigint DEFAULT 0 NOT NULL,
	"sha256" text DEFAULT '' NOT NULL,
	"state" text DEFAULT 'uploading' NOT NULL,
	"created_by" text NOT NULL,
	"created_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "rollout_terminals_uq" ON "rollout_terminals" USING btree ("rollout_id","terminal_id");--> statement-breakpoint
CREATE INDEX "rollout_terminals_status_idx" ON "rollout_terminals" USING btree ("rollout_id","status","wave");--> statement-breakpoint
CREATE INDEX "rollout_terminals_command_idx" ON "rollout_terminals" USING btree ("command_id");--> statement-breakpoint
CREATE INDEX "rollouts_agent_idx" ON "rollouts" USING btree ("agent_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "rollouts_open_idx" ON "rollouts" USING btree ("id") WHERE state in ('running', 'paused');--> statement-breakpoint
CREATE INDEX "software_packages_agent_idx" ON "software_packages" USING btree ("agent_id","id" DESC NULLS LAST);