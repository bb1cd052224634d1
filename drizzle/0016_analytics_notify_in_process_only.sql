-- The analytics triggers NOTIFY only where someone listens: the embedded database's web process, which
-- turns energy_api.notify_in_process on for its one session (platform/db/client.ts). On a PostgreSQL
-- server nobody listens, and a transaction that has issued NOTIFY takes a lock shared by the whole
-- cluster at commit, held through its WAL flush: every bill, property or notification write then
-- commits one at a time, whatever owner or database it is for.
CREATE OR REPLACE FUNCTION analytics_notify_wanted() RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT coalesce(current_setting('energy_api.notify_in_process', true), '') = 'on';
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION analytics_mark_changed(pairs jsonb) RETURNS void LANGUAGE sql AS $$
  SELECT pg_notify('analytics_owner_changed', o.owner_id)
  FROM (SELECT DISTINCT e->>0 AS owner_id FROM jsonb_array_elements(coalesce(pairs, '[]'::jsonb)) e) o
  WHERE analytics_notify_wanted();
  WITH p AS (
    SELECT DISTINCT e->>0 AS owner_id, e->>1 AS property_id FROM jsonb_array_elements(coalesce(pairs, '[]'::jsonb)) e
  ),
  bumped AS (
    INSERT INTO owner_data_versions AS v (owner_id, version, changed_at)
    SELECT DISTINCT owner_id, 1, now() FROM p
    ON CONFLICT (owner_id) DO UPDATE SET version = v.version + 1, changed_at = now()
    RETURNING v.owner_id, v.version
  )
  INSERT INTO analytics_dirty_properties AS d (owner_id, property_id, marked_version)
  SELECT p.owner_id, p.property_id, b.version FROM p JOIN bumped b ON b.owner_id = p.owner_id
  WHERE p.property_id IS NOT NULL
  ON CONFLICT (owner_id, property_id) DO UPDATE SET marked_version = excluded.marked_version;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION analytics_bump_existing(owners text[]) RETURNS void LANGUAGE sql AS $$
  SELECT pg_notify('analytics_owner_changed', o) FROM unnest(owners) o WHERE analytics_notify_wanted();
  UPDATE owner_data_versions SET version = version + 1, changed_at = now() WHERE owner_id = ANY(owners);
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION analytics_alerts_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT analytics_notify_wanted() THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('analytics_alerts_changed', u) FROM (SELECT DISTINCT o.user_id AS u FROM old_rows o) x;
  ELSE
    PERFORM pg_notify('analytics_alerts_changed', u) FROM (SELECT DISTINCT n.user_id AS u FROM new_rows n) x;
  END IF;
  RETURN NULL;
END
$$;
