CREATE TABLE "report_schedules" (
	"id" serial PRIMARY KEY NOT NULL,
	"report" text NOT NULL,
	"scope_kind" text NOT NULL,
	"scope_id" integer NOT NULL,
	"agent_id" integer NOT NULL,
	"company_id" integer,
	"site_id" integer,
	"every" text NOT NULL,
	"format" text NOT NULL,
	"recipients" text[] NOT NULL,
	"next_run_at" timestamp with time zone NOT NULL,
	"run_requested" boolean DEFAULT false NOT NULL,
	"claimed_until" timestamp with time zone,
	"last_run_at" timestamp with time zone,
	"last_error" text,
	"created_by" text NOT NULL,
	"created_by_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "report_schedules_owner_idx" ON "report_schedules" USING btree ("created_by_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "report_schedules_due_idx" ON "report_schedules" USING btree ("next_run_at") WHERE deleted_at is null;