CREATE TABLE "sign_in_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "sign_in_limits_expires_idx" ON "sign_in_limits" USING btree ("expires_at");