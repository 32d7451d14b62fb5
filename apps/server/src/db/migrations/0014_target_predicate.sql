-- The stored-target predicate, defined once (docs/targets.md): a target stored as its scope kind, scope id and tags
-- reaches a live terminal whose scope column is that id and that carries every one of the tags. The repositories
-- embed it (repositories/target-sql.ts) and the alerts' maintenance trigger calls it. A single SQL expression,
-- immutable and not strict, so PostgreSQL inlines it into the statement that calls it.
CREATE FUNCTION "target_reaches"(p_kind text, p_id integer, p_tags text[], t_id integer, t_site integer,
                                 t_company integer, t_agent integer, t_tags text[], t_decommissioned timestamptz)
	RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
	SELECT t_decommissioned IS NULL AND t_tags @> p_tags
	   AND CASE p_kind WHEN 'agent' THEN t_agent = p_id
	                   WHEN 'company' THEN t_company = p_id
	                   WHEN 'site' THEN t_site = p_id
	                   ELSE t_id = p_id END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "alerts_silence_in_maintenance"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	-- Every alert raised while a maintenance window covers its terminal is stored silenced, whoever raises it.
	IF NEW.maintenance_id IS NULL THEN
		SELECT w.id INTO NEW.maintenance_id
		  FROM maintenance_windows w
		  JOIN terminals t ON t.id = NEW.terminal_id
		  JOIN sites s ON s.id = t.site_id
		 WHERE w.starts_at <= now() AND w.ends_at > now()
		   AND target_reaches(w.scope_kind, w.scope_id, w.tags, t.id, t.site_id, t.company_id, t.agent_id, t.tags,
		                      t.decommissioned_at)
		   AND maintenance_covers(w.starts_at, w.ends_at, w.weekdays, w.start_local, w.duration_min, s.timezone, now())
		 ORDER BY w.id
		 LIMIT 1;
	END IF;
	NEW.silenced := NEW.maintenance_id IS NOT NULL;
	RETURN NEW;
END $$;
