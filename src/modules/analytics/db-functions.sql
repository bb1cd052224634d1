-- Analytics: every write that changes what analytics show moves its owner's data version and marks the properties
-- (and months) to recompute (analytics/README.md, "The precompute and freshness").
-- The one current definition: migrations are generated from this file (npm run db:functions), and
-- test/db-functions.test.ts checks that a migrated database holds exactly these definitions.

-- A date's month as an index (year x 12 + month - 1), as months.ts counts them.
CREATE OR REPLACE FUNCTION analytics_month_index(d date) RETURNS integer LANGUAGE sql IMMUTABLE AS $$
  SELECT extract(year FROM d)::int * 12 + extract(month FROM d)::int - 1;
$$;

-- Marks: [[owner, property or null, first month or null, last month or null], ...]; moves each owner's version once.
CREATE OR REPLACE FUNCTION analytics_mark_changed(marks jsonb) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  WITH m AS (
    SELECT e->>0 AS owner_id, e->>1 AS property_id, (e->>2)::int AS rollup_from, (e->>3)::int AS rollup_to
    FROM jsonb_array_elements(coalesce(marks, '[]'::jsonb)) e
  ),
  p AS (
    SELECT owner_id, property_id, min(rollup_from) AS rollup_from, max(rollup_to) AS rollup_to
    FROM m WHERE property_id IS NOT NULL GROUP BY owner_id, property_id
  ),
  bumped AS (
    INSERT INTO owner_data_versions AS v (owner_id, version, changed_at)
    SELECT DISTINCT owner_id, 1, now() FROM m
    ON CONFLICT (owner_id) DO UPDATE SET version = v.version + 1, changed_at = now()
    RETURNING v.owner_id, v.version
  )
  INSERT INTO analytics_dirty_properties AS d (owner_id, property_id, marked_version, rollup_from, rollup_to)
  SELECT p.owner_id, p.property_id, b.version, p.rollup_from, p.rollup_to FROM p JOIN bumped b ON b.owner_id = p.owner_id
  ON CONFLICT (owner_id, property_id) DO UPDATE SET marked_version = excluded.marked_version,
    rollup_from = least(d.rollup_from, excluded.rollup_from), rollup_to = greatest(d.rollup_to, excluded.rollup_to);
END
$$;

-- Moves the versions of owners that already have one (deletes: nothing left to mark).
CREATE OR REPLACE FUNCTION analytics_bump_existing(owners text[]) RETURNS void LANGUAGE sql AS $$
  UPDATE owner_data_versions SET version = version + 1, changed_at = now() WHERE owner_id = ANY(owners);
$$;

CREATE OR REPLACE FUNCTION analytics_bills_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids text[];
  starts date[];
  ends date[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(n.property_id), array_agg(n.period_start), array_agg(n.period_end) INTO ids, starts, ends FROM new_rows n;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(o.property_id), array_agg(o.period_start), array_agg(o.period_end) INTO ids, starts, ends FROM old_rows o;
  ELSE
    SELECT array_agg(b.property_id), array_agg(b.period_start), array_agg(b.period_end) INTO ids, starts, ends FROM (
      SELECT n.property_id, n.period_start, n.period_end FROM new_rows n
      UNION ALL SELECT o.property_id, o.period_start, o.period_end FROM old_rows o) b;
  END IF;
  PERFORM analytics_mark_changed((
    SELECT jsonb_agg(jsonb_build_array(p.owner_id, p.id, r.rollup_from, r.rollup_to)) FROM properties p JOIN (
      SELECT b.id, min(analytics_month_index(least(b.s, b.e))) AS rollup_from, max(analytics_month_index(greatest(b.s, b.e))) AS rollup_to
      FROM unnest(ids, starts, ends) AS b(id, s, e) GROUP BY b.id) r ON r.id = p.id));
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION analytics_properties_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM analytics_mark_changed((SELECT jsonb_agg(jsonb_build_array(n.owner_id, n.id, NULL, NULL)) FROM new_rows n));
  ELSIF TG_OP = 'UPDATE' THEN
    -- UPDATE fires for every row in the statement, changed or not: only a real change counts.
    PERFORM analytics_mark_changed((
      SELECT jsonb_agg(jsonb_build_array(x.owner_id, x.id, x.rollup_from, x.rollup_to)) FROM (
        SELECT n.owner_id, n.id,
          CASE WHEN o.owner_id <> n.owner_id THEN 0 END AS rollup_from,
          CASE WHEN o.owner_id <> n.owner_id THEN 2147483647 END AS rollup_to
        FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE o IS DISTINCT FROM n
        UNION ALL
        SELECT o.owner_id, o.id, 0, 2147483647 FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE o.owner_id <> n.owner_id
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
  PERFORM analytics_mark_changed((SELECT jsonb_agg(jsonb_build_array(p.owner_id, p.id, NULL, NULL)) FROM properties p WHERE p.id = ANY(ids)));
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION analytics_portfolios_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM analytics_bump_existing(ARRAY(SELECT DISTINCT o.owner_id FROM old_rows o));
  ELSE
    PERFORM analytics_mark_changed((SELECT jsonb_agg(jsonb_build_array(n.owner_id, NULL, NULL, NULL)) FROM new_rows n));
  END IF;
  RETURN NULL;
END
$$;

-- A recompute's first statement: the owner's lock (held to the commit), then its freshness and marks.
CREATE OR REPLACE FUNCTION analytics_lock_owner_and_read(owner text) RETURNS TABLE(version double precision, snapshot_version double precision, snapshot_month text, dirty json) LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(7312, hashtext(owner));
  RETURN QUERY
    SELECT coalesce(v.version, 0)::float8, s.data_version::float8, s.as_of_month::text,
      (SELECT coalesce(json_agg(json_build_array(d.property_id, d.rollup_from, d.rollup_to)), '[]'::json)
        FROM analytics_dirty_properties d
        WHERE d.owner_id = u.id AND d.marked_version <= coalesce(v.version, 0))
    FROM users u
    LEFT JOIN owner_data_versions v ON v.owner_id = u.id
    LEFT JOIN analytics_owner_snapshots s ON s.owner_id = u.id
    WHERE u.id = owner;
END $$;

-- Each watched table: one statement-level trigger per operation over its transition tables, calling the function
-- that marks what the change touched. Dropped first, so that running this again (re)creates the same triggers.
DO $$
DECLARE
  t record;
BEGIN
  FOR t IN
    SELECT w.table_name, w.trigger_prefix || '_' || lower(o.operation) AS trigger_name, o.operation, o.referencing,
      w.function_name
    FROM (VALUES
      (1, 'portfolios', 'analytics_portfolios', 'analytics_portfolios_changed'),
      (2, 'properties', 'analytics_properties', 'analytics_properties_changed'),
      (3, 'rate_analyses', 'analytics_rate_analyses', 'analytics_property_rows_changed'),
      -- Open high-severity bill-audit findings are a health deduction: a change of them marks the property's metrics.
      (4, 'audit_findings', 'analytics_audit_findings', 'analytics_property_rows_changed'),
      -- A property's occupancy areas set its building-performance limit (emissions module): a change marks its metrics.
      (5, 'property_occupancy_areas', 'analytics_occupancy_areas', 'analytics_property_rows_changed'),
      -- Its Portfolio Manager property uses set Local Law 97's limits from 2026 and BERDO's: a change marks its metrics too.
      (6, 'property_use_areas', 'analytics_property_uses', 'analytics_property_rows_changed'),
      (7, 'utility_bills', 'analytics_bills', 'analytics_bills_changed')
    ) AS w(table_order, table_name, trigger_prefix, function_name)
    CROSS JOIN (VALUES
      (1, 'DELETE', 'OLD TABLE AS old_rows'),
      (2, 'INSERT', 'NEW TABLE AS new_rows'),
      (3, 'UPDATE', 'OLD TABLE AS old_rows NEW TABLE AS new_rows')
    ) AS o(operation_order, operation, referencing)
    ORDER BY w.table_order, o.operation_order
  LOOP
    EXECUTE format('DROP TRIGGER IF EXISTS %I ON %I', t.trigger_name, t.table_name);
    EXECUTE format('CREATE TRIGGER %I AFTER %s ON %I REFERENCING %s FOR EACH STATEMENT EXECUTE FUNCTION %I()',
      t.trigger_name, t.operation, t.table_name, t.referencing, t.function_name);
  END LOOP;
END
$$;
