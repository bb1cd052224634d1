-- Keeps property_owner_counts equal to the number of properties per owner, whatever writes the table.
-- DELETE only decrements: on a user's cascade delete the counter row goes too (re-inserting it would break its FK).
CREATE OR REPLACE FUNCTION property_owner_counts_maintain() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
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
--> statement-breakpoint
CREATE TRIGGER properties_owner_count AFTER INSERT OR DELETE OR UPDATE OF owner_id ON properties
  FOR EACH ROW EXECUTE FUNCTION property_owner_counts_maintain();
--> statement-breakpoint
INSERT INTO property_owner_counts (owner_id, property_count)
  SELECT owner_id, count(*) FROM properties GROUP BY owner_id
  ON CONFLICT (owner_id) DO UPDATE SET property_count = excluded.property_count;
