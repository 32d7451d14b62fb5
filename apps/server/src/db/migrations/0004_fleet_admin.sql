DROP INDEX "pumps_site_no_uq";--> statement-breakpoint
DROP INDEX "terminals_no_uq";--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "agent_id" integer;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "decommissioned_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "pumps" ADD COLUMN "decommissioned_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "address" text;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "decommissioned_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "terminals" ADD COLUMN "decommissioned_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "disabled_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "audit_log_agent_idx" ON "audit_log" USING btree ("agent_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "companies_agent_name_uq" ON "companies" USING btree ("agent_id",lower("name")) WHERE decommissioned_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX "sites_company_number_uq" ON "sites" USING btree ("company_id","number") WHERE decommissioned_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX "pumps_site_no_uq" ON "pumps" USING btree ("site_id","pump_no") WHERE decommissioned_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX "terminals_no_uq" ON "terminals" USING btree ("terminal_no") WHERE decommissioned_at is null;