-- Tenant billing: each property's RUBS history count and owner, kept by triggers.
-- The one current definition: migrations are generated from this file (npm run db:functions), and
-- test/db-functions.test.ts checks that a migrated database holds exactly these definitions.

CREATE OR REPLACE FUNCTION rubs_history_state_maintain() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    UPDATE rubs_history_state SET calculations = calculations - 1
      WHERE property_id = OLD.property_id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO rubs_history_state (property_id, owner_id, calculations)
      SELECT NEW.property_id, p.owner_id, 1 FROM properties p WHERE p.id = NEW.property_id
    ON CONFLICT (property_id) DO UPDATE SET calculations = rubs_history_state.calculations + 1;
  END IF;
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION rubs_history_state_owner() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE rubs_history_state SET owner_id = NEW.owner_id WHERE property_id = NEW.id;
  RETURN NULL;
END
$$;

DROP TRIGGER IF EXISTS properties_rubs_history_owner ON properties;
CREATE TRIGGER properties_rubs_history_owner AFTER UPDATE OF owner_id ON properties FOR EACH ROW WHEN ((old.owner_id IS DISTINCT FROM new.owner_id)) EXECUTE FUNCTION rubs_history_state_owner();
DROP TRIGGER IF EXISTS rubs_calculations_history_state ON rubs_calculations;
CREATE TRIGGER rubs_calculations_history_state AFTER INSERT OR DELETE OR UPDATE ON rubs_calculations FOR EACH ROW EXECUTE FUNCTION rubs_history_state_maintain();
