ALTER TABLE "users" ADD COLUMN "tokens_valid_after" timestamp with time zone;--> statement-breakpoint
CREATE FUNCTION "users_disable_ends_tokens"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF NEW.disabled_at IS NOT NULL AND OLD.disabled_at IS NULL THEN
		NEW.tokens_valid_after := clock_timestamp();
	END IF;
	RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "users_disable_ends_tokens" BEFORE UPDATE OF "disabled_at" ON "users"
	FOR EACH ROW EXECUTE FUNCTION "users_disable_ends_tokens"();
