-- Properties: each owner's property count, kept by a trigger (the list's total without a count query).
-- The one current definition: migrations are generated from this file (npm run db:functions), and
-- test/db-functions.test.ts checks that a migrated database holds exactly these definitions.

CREATE OR REPLACE FUNCTION property_owner_counts_maintain() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- UPDATE OF fires when owner_id is in the SET list, changed or not.
  IF TG_OP = 'UPDATE' AND OLD.owner_id = NEW.owner_id THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    UPDATE property_owner_counts SET property_count = property_count - 1 WHERE owner_id = OLD.owner_id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO property_owner_counts (owner_id, property_count) VALUES (NEW.owner_id, 1)
    ON CONFLICT (owner_id) DO UPDATE SET property_count = property_owner_counts.property_count + 1;
  END IF;
  RETURN NULL;
END
$$;

DROP TRIGGER IF EXISTS properties_owner_count ON properties;
CREATE TRIGGER properties_owner_count AFTER INSERT OR DELETE OR UPDATE OF owner_id ON properties FOR EACH ROW EXECUTE FUNCTION property_owner_counts_maintain();
