CREATE TABLE "device_tokens" (
	"terminal_id" integer PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "device_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "meta" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reset_tokens" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reset_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "revoked_tokens" (
	"jti" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "command_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"command_id" integer NOT NULL,
	"state" text NOT NULL,
	"detail" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "commands" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"terminal_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"agent_id" integer NOT NULL,
	"pump_id" integer,
	"pump_no" integer,
	"reboot_type" text,
	"state" text DEFAULT 'queued' NOT NULL,
	"requested_by" integer,
	"requested_by_name" text,
	"detail" text,
	"payload" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alerts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"terminal_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"agent_id" integer NOT NULL,
	"event_type" smallint NOT NULL,
	"text" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "connectivity_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"terminal_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"agent_id" integer NOT NULL,
	"status" text NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pump_status_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"pump_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	"terminal_id" integer NOT NULL,
	"reported_status" smallint NOT NULL,
	"code" integer NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shocks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"terminal_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"agent_id" integer NOT NULL,
	"reading" double precision NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "telemetry" (
	"id" bigserial PRIMARY KEY NOT NULL,
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
);
--> statement-breakpoint
CREATE TABLE "transactions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"terminal_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"volume_l" numeric(12, 3) NOT NULL,
	"amount" numeric(14, 2) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "agents" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "companies" (
	"id" serial PRIMARY KEY NOT NULL,
	"agent_id" integer NOT NULL,
	"name" text NOT NULL,
	"logo" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pumps" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"terminal_id" integer NOT NULL,
	"pump_no" integer NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"last_synapse_status" smallint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sites" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"agent_id" integer NOT NULL,
	"title" text NOT NULL,
	"number" text NOT NULL,
	"city" text,
	"lat" double precision,
	"lng" double precision,
	"timezone" text DEFAULT 'Europe/London' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "terminals" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"agent_id" integer NOT NULL,
	"terminal_no" text NOT NULL,
	"card_acceptor_name" text NOT NULL,
	"lat" double precision,
	"lng" double precision,
	"connectivity" text DEFAULT 'unknown' NOT NULL,
	"connectivity_changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone,
	"battery_life" double precision,
	"flash_left" double precision,
	"temperature_main_board" double precision,
	"temperature_inside_cabinet" double precision,
	"humidity_inside_cabinet" double precision,
	"telemetry_at" timestamp with time zone,
	"pump_controller" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "time_zones" (
	"id" serial PRIMARY KEY NOT NULL,
	"agent_id" integer,
	"company_id" integer,
	"title" text NOT NULL,
	"area" text NOT NULL,
	"tz_title" text NOT NULL,
	"iana" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_companies" (
	"user_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	CONSTRAINT "user_companies_user_id_company_id_pk" PRIMARY KEY("user_id","company_id")
);
--> statement-breakpoint
CREATE TABLE "user_sites" (
	"user_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	CONSTRAINT "user_sites_user_id_site_id_pk" PRIMARY KEY("user_id","site_id")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"email" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"password_hash" text NOT NULL,
	"avatar" text,
	"picture" text,
	"agent_id" integer,
	"password_changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tickets" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"forward_state" text DEFAULT 'stored' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"zendesk_id" text,
	"last_error" text,
	"next_attempt_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pumps" ADD CONSTRAINT "pumps_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pumps" ADD CONSTRAINT "pumps_terminal_id_terminals_id_fk" FOREIGN KEY ("terminal_id") REFERENCES "public"."terminals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sites" ADD CONSTRAINT "sites_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sites" ADD CONSTRAINT "sites_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "terminals" ADD CONSTRAINT "terminals_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "time_zones" ADD CONSTRAINT "time_zones_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "time_zones" ADD CONSTRAINT "time_zones_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_companies" ADD CONSTRAINT "user_companies_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_companies" ADD CONSTRAINT "user_companies_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_sites" ADD CONSTRAINT "user_sites_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_sites" ADD CONSTRAINT "user_sites_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reset_tokens_user_idx" ON "reset_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "command_events_command_idx" ON "command_events" USING btree ("command_id","id");--> statement-breakpoint
CREATE INDEX "commands_terminal_state_idx" ON "commands" USING btree ("terminal_id","state");--> statement-breakpoint
CREATE INDEX "commands_site_idx" ON "commands" USING btree ("site_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "commands_company_idx" ON "commands" USING btree ("company_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "commands_agent_idx" ON "commands" USING btree ("agent_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "commands_pump_idx" ON "commands" USING btree ("pump_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "commands_state_expires_idx" ON "commands" USING btree ("state","expires_at");--> statement-breakpoint
CREATE INDEX "alerts_agent_idx" ON "alerts" USING btree ("agent_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "alerts_company_idx" ON "alerts" USING btree ("company_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "alerts_site_idx" ON "alerts" USING btree ("site_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "alerts_agent_type_idx" ON "alerts" USING btree ("agent_id","event_type","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "alerts_company_type_idx" ON "alerts" USING btree ("company_id","event_type","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "alerts_site_type_idx" ON "alerts" USING btree ("site_id","event_type","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "connectivity_events_agent_idx" ON "connectivity_events" USING btree ("agent_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "connectivity_events_company_idx" ON "connectivity_events" USING btree ("company_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "connectivity_events_site_idx" ON "connectivity_events" USING btree ("site_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "pump_status_site_idx" ON "pump_status_entries" USING btree ("site_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "pump_status_pump_idx" ON "pump_status_entries" USING btree ("pump_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "shocks_company_idx" ON "shocks" USING btree ("company_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "shocks_site_idx" ON "shocks" USING btree ("site_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "shocks_agent_idx" ON "shocks" USING btree ("agent_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "telemetry_site_idx" ON "telemetry" USING btree ("site_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "telemetry_terminal_idx" ON "telemetry" USING btree ("terminal_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "transactions_site_at_idx" ON "transactions" USING btree ("site_id","at");--> statement-breakpoint
CREATE INDEX "companies_agent_idx" ON "companies" USING btree ("agent_id");--> statement-breakpoint
CREATE INDEX "pumps_site_idx" ON "pumps" USING btree ("site_id");--> statement-breakpoint
CREATE UNIQUE INDEX "pumps_site_no_uq" ON "pumps" USING btree ("site_id","pump_no");--> statement-breakpoint
CREATE INDEX "sites_company_idx" ON "sites" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "sites_agent_idx" ON "sites" USING btree ("agent_id");--> statement-breakpoint
CREATE INDEX "terminals_site_idx" ON "terminals" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "terminals_company_idx" ON "terminals" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "terminals_agent_idx" ON "terminals" USING btree ("agent_id");--> statement-breakpoint
CREATE INDEX "terminals_last_seen_idx" ON "terminals" USING btree ("last_seen_at");--> statement-breakpoint
CREATE UNIQUE INDEX "terminals_no_uq" ON "terminals" USING btree ("terminal_no");--> statement-breakpoint
CREATE INDEX "time_zones_agent_idx" ON "time_zones" USING btree ("agent_id");--> statement-breakpoint
CREATE INDEX "time_zones_company_idx" ON "time_zones" USING btree ("company_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_uq" ON "users" USING btree (lower("username"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_uq" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "tickets_forward_idx" ON "tickets" USING btree ("forward_state","next_attempt_at");