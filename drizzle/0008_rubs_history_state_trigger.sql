-- rubs_history_state counts a property's calculations and moves `version` with every change to them,
-- so GET /billing/history serves a cached page only while the version it was read at is current.
-- Calculations are written once and never updated by the service; an UPDATE (by hand) counts as a
-- delete and an insert, so it moves the version too.
CREATE OR REPLACE FUNCTION rubs_history_state_maintain() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    UPDATE rubs_history_state SET calculations = calculations - 1, version = version + 1
      WHERE property_id = OLD.property_id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO rubs_history_state (property_id, calculations, version) VALUES (NEW.property_id, 1, 1)
    ON CONFLICT (property_id) DO UPDATE SET calculations = rubs_history_state.calculations + 1,
      version = rubs_history_state.version + 1;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER rubs_calculations_history_state
  AFTER INSERT OR DELETE OR UPDATE ON rubs_calculations
  FOR EACH ROW EXECUTE FUNCTION rubs_history_state_maintain();
