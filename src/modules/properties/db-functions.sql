-- Properties: each owner's property count and list version, kept by a trigger (the list's total without a count query).
-- The one current definition: migrations are generated from this file (npm run db:functions), and
-- test/db-functions.test.ts checks that a migrated database holds exactly these definitions.

CREATE OR REPLACE FUNCTION property_owner_counts_maintain() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.owner_id = NEW.owner_id THEN
    -- UPDATE OF fires when a column is in the SET list, changed or not: only a real change moves the version.
    IF (OLD.id, OLD.created_at, OLD.name, OLD.address, OLD.city, OLD.state, OLD.zip_code, OLD.property_type, OLD.sqft,
        OLD.unit_count, OLD.monthly_usage_kwh, OLD.portfolio_id)
       IS DISTINCT FROM (NEW.id, NEW.created_at, NEW.name, NEW.address, NEW.city, NEW.state, NEW.zip_code, NEW.property_type,
        NEW.sqft, NEW.unit_count, NEW.monthly_usage_kwh, NEW.portfolio_id) THEN
      UPDATE property_owner_counts SET list_version = list_version + 1 WHERE owner_id = NEW.owner_id;
    END IF;
    RETURN NULL;
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    UPDATE property_owner_counts SET property_count = property_count - 1, list_version = list_version + 1
      WHERE owner_id = OLD.owner_id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO property_owner_counts (owner_id, property_count, list_version) VALUES (NEW.owner_id, 1, 1)
    ON CONFLICT (owner_id) DO UPDATE SET property_count = property_owner_counts.property_count + 1,
      list_version = property_owner_counts.list_version + 1;
  END IF;
  RETURN NULL;
END
$$;

DROP TRIGGER IF EXISTS properties_owner_count ON properties;
CREATE TRIGGER properties_owner_count AFTER INSERT OR DELETE OR UPDATE OF id, owner_id, created_at, name, address, city, state, zip_code, property_type, sqft, unit_count, monthly_usage_kwh, portfolio_id ON properties FOR EACH ROW EXECUTE FUNCTION property_owner_counts_maintain();
