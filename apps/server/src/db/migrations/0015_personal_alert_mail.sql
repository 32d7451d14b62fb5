ALTER TABLE "contact_points" ADD COLUMN "user_id" integer;--> statement-breakpoint
ALTER TABLE "contact_points" ADD CONSTRAINT "contact_points_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "contact_points_user_uq" ON "contact_points" USING btree ("user_id");--> statement-breakpoint
CREATE OR REPLACE FUNCTION "personal_alert_mail_sync"(uid integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	u record;
	o_kind text;
	o_id integer;
	ag integer;
	co integer;
	si integer;
	gone integer;
BEGIN
	SELECT id, username, email, agent_id, email_min_severity INTO u FROM users WHERE id = uid;
	IF FOUND AND u.email_min_severity IS NOT NULL THEN
		IF u.agent_id IS NOT NULL THEN
			o_kind := 'agent'; o_id := u.agent_id; ag := u.agent_id;
		ELSE
			SELECT c.id, c.agent_id INTO o_id, ag
			  FROM user_companies uc JOIN companies c ON c.id = uc.company_id
			 WHERE uc.user_id = uid ORDER BY c.id LIMIT 1;
			IF FOUND THEN
				o_kind := 'company'; co := o_id;
			ELSE
				SELECT s.id, s.company_id, s.agent_id INTO o_id, co, ag
				  FROM user_sites us JOIN sites s ON s.id = us.site_id
				 WHERE us.user_id = uid ORDER BY s.id LIMIT 1;
				IF FOUND THEN o_kind := 'site'; si := o_id; END IF;
			END IF;
		END IF;
	END IF;
	IF o_kind IS NULL THEN
		-- Preference off (or a user without a scope yet): the contact point goes, and out of every policy.
		DELETE FROM contact_points WHERE user_id = uid RETURNING id INTO gone;
		IF gone IS NOT NULL THEN
			UPDATE notification_policies
			   SET contact_point_ids = array_remove(contact_point_ids, gone),
			       escalate_to_ids = array_remove(escalate_to_ids, gone)
			 WHERE gone = any(contact_point_ids) OR gone = any(escalate_to_ids);
		END IF;
		RETURN;
	END IF;
	INSERT INTO contact_points (name, kind, addresses, owner_kind, owner_id, agent_id, company_id, site_id,
	                            created_by, created_by_id, user_id)
	VALUES ('Alert mail: ' || u.username, 'email', ARRAY[u.email], o_kind, o_id, ag, co, si, u.username, u.id, u.id)
	ON CONFLICT (user_id) DO UPDATE
	   SET addresses = excluded.addresses, owner_kind = excluded.owner_kind, owner_id = excluded.owner_id,
	       agent_id = excluded.agent_id, company_id = excluded.company_id, site_id = excluded.site_id;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "users_alert_mail_sync"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM personal_alert_mail_sync(NEW.id);
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "users_alert_mail_sync" AFTER INSERT OR UPDATE OF email, email_min_severity, agent_id ON "users"
	FOR EACH ROW EXECUTE FUNCTION "users_alert_mail_sync"();--> statement-breakpoint
CREATE OR REPLACE FUNCTION "user_scope_alert_mail_sync"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM personal_alert_mail_sync(CASE WHEN TG_OP = 'DELETE' THEN OLD.user_id ELSE NEW.user_id END);
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "user_companies_alert_mail_sync" AFTER INSERT OR DELETE ON "user_companies"
	FOR EACH ROW EXECUTE FUNCTION "user_scope_alert_mail_sync"();--> statement-breakpoint
CREATE TRIGGER "user_sites_alert_mail_sync" AFTER INSERT OR DELETE ON "user_sites"
	FOR EACH ROW EXECUTE FUNCTION "user_scope_alert_mail_sync"();--> statement-breakpoint
SELECT personal_alert_mail_sync(id) FROM users WHERE email_min_severity IS NOT NULL;
