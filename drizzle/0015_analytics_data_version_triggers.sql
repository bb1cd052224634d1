-- Analytics freshness (src/modules/analytics/README.md): every change analytics show moves the owner's
-- data version and marks the properties whose rollups and metrics must be recomputed, whoever writes
-- (API, jobs, CSV import, raw SQL). Statement-level triggers with transition tables, so a bulk insert
-- of thousands of bills bumps the version once per statement, not once per row.

-- Bumps the version of each owner in `pairs` ([[owner_id, property_id or null], ...]) and marks the
-- properties with the new version. Only for owners that exist (inserts and updates). Also NOTIFYs
-- analytics_owner_changed with each owner id: the embedded database delivers it in-process before
-- the write resolves, so the web process can trust its cached data version until it arrives.
CREATE OR REPLACE FUNCTION analytics_mark_changed(pairs jsonb) RETURNS void LANGUAGE sql AS $$
  SELECT pg_notify('analytics_owner_changed', o.owner_id)
  FROM (SELECT DISTINCT e->>0 AS owner_id FROM jsonb_array_elements(coalesce(pairs, '[]'::jsonb)) e) o;
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
-- Deletes only bump existing versions: on a user's cascade delete, inserting a version row for the
-- user being deleted would break its foreign key (rollups and metrics of a deleted property go by cascade).
CREATE OR REPLACE FUNCTION analytics_bump_existing(owners text[]) RETURNS void LANGUAGE sql AS $$
  SELECT pg_notify('analytics_owner_changed', o) FROM unnest(owners) o;
  UPDATE owner_data_versions SET version = version + 1, changed_at = now() WHERE owner_id = ANY(owners);
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION analytics_properties_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM analytics_mark_changed((SELECT jsonb_agg(jsonb_build_array(n.owner_id, n.id)) FROM new_rows n));
  ELSIF TG_OP = 'UPDATE' THEN
    -- UPDATE fires for every row in the statement, changed or not: only a real change counts.
    PERFORM analytics_mark_changed((
      SELECT jsonb_agg(jsonb_build_array(x.owner_id, x.id)) FROM (
        SELECT n.owner_id, n.id FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE o IS DISTINCT FROM n
        UNION
        SELECT o.owner_id, o.id FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE o.owner_id <> n.owner_id
      ) x));
  ELSE
    PERFORM analytics_bump_existing(ARRAY(SELECT DISTINCT o.owner_id FROM old_rows o));
    -- The precomputed rows of deleted properties (no foreign key: see analytics/tables.ts).
    DELETE FROM analytics_monthly_rollups WHERE property_id IN (SELECT o.id FROM old_rows o);
    DELETE FROM analytics_property_metrics WHERE property_id IN (SELECT o.id FROM old_rows o);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Bills, and rate analyses: the owner is the property's; rows of properties being deleted (cascades) are skipped.
CREATE OR REPLACE FUNCTION analytics_property_rows_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids text[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    ids := ARRAY(SELECT DISTINCT n.property_id FROM new_rows n);
  ELSIF TG_OP = 'DELETE' THEN
    ids := ARRAY(SELECT DISTINCT o.property_id FROM old_rows o);
  ELSE
    ids := ARRAY(SELECT n.property_id FROM new_rows n UNION SELECT o.property_id FROM old_rows o);
  END IF;
  PERFORM analytics_mark_changed((SELECT jsonb_agg(jsonb_build_array(p.owner_id, p.id)) FROM properties p WHERE p.id = ANY(ids)));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION analytics_portfolios_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM analytics_bump_existing(ARRAY(SELECT DISTINCT o.owner_id FROM old_rows o));
  ELSE
    PERFORM analytics_mark_changed((SELECT jsonb_agg(jsonb_build_array(n.owner_id, NULL)) FROM new_rows n));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER analytics_properties_insert AFTER INSERT ON properties
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_properties_changed();
--> statement-breakpoint
CREATE TRIGGER analytics_properties_update AFTER UPDATE ON properties
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_properties_changed();
--> statement-breakpoint
CREATE TRIGGER analytics_properties_delete AFTER DELETE ON properties
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_properties_changed();
--> statement-breakpoint
CREATE TRIGGER analytics_bills_insert AFTER INSERT ON utility_bills
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_property_rows_changed();
--> statement-breakpoint
CREATE TRIGGER analytics_bills_update AFTER UPDATE ON utility_bills
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_property_rows_changed();
--> statement-breakpoint
CREATE TRIGGER analytics_bills_delete AFTER DELETE ON utility_bills
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_property_rows_changed();
--> statement-breakpoint
CREATE TRIGGER analytics_rate_analyses_insert AFTER INSERT ON rate_analyses
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_property_rows_changed();
--> statement-breakpoint
CREATE TRIGGER analytics_rate_analyses_update AFTER UPDATE ON rate_analyses
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_property_rows_changed();
--> statement-breakpoint
CREATE TRIGGER analytics_rate_analyses_delete AFTER DELETE ON rate_analyses
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_property_rows_changed();
--> statement-breakpoint
CREATE TRIGGER analytics_portfolios_insert AFTER INSERT ON portfolios
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_portfolios_changed();
--> statement-breakpoint
CREATE TRIGGER analytics_portfolios_update AFTER UPDATE ON portfolios
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_portfolios_changed();
--> statement-breakpoint
CREATE TRIGGER analytics_portfolios_delete AFTER DELETE ON portfolios
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_portfolios_changed();
--> statement-breakpoint
-- Unread notifications are counted live by the dashboard; the embedded database's web process caches
-- the count, invalidated by this NOTIFY (no data version: they change no precomputed figure).
CREATE OR REPLACE FUNCTION analytics_alerts_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('analytics_alerts_changed', u) FROM (SELECT DISTINCT o.user_id AS u FROM old_rows o) x;
  ELSE
    PERFORM pg_notify('analytics_alerts_changed', u) FROM (SELECT DISTINCT n.user_id AS u FROM new_rows n) x;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER analytics_alerts_insert AFTER INSERT ON notifications
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_alerts_changed();
--> statement-breakpoint
CREATE TRIGGER analytics_alerts_update AFTER UPDATE ON notifications
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_alerts_changed();
--> statement-breakpoint
CREATE TRIGGER analytics_alerts_delete AFTER DELETE ON notifications
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_alerts_changed();
--> statement-breakpoint
-- Owners with data before this migration start at version 1 (their first read precomputes).
INSERT INTO owner_data_versions (owner_id, version)
  SELECT u.id, 1 FROM users u
  WHERE EXISTS (SELECT 1 FROM properties p WHERE p.owner_id = u.id) OR EXISTS (SELECT 1 FROM portfolios f WHERE f.owner_id = u.id)
  ON CONFLICT (owner_id) DO NOTHING;
