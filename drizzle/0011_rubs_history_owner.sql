-- rubs_history_state carries the property's owner, so GET /billing/history checks ownership and
-- reads the history's version from this one row.
ALTER TABLE "rubs_history_state" ADD COLUMN "owner_id" text;--> statement-breakpoint
UPDATE "rubs_history_state" s SET "owner_id" = p."owner_id" FROM "properties" p WHERE p."id" = s."property_id";--> statement-breakpoint
ALTER TABLE "rubs_history_state" ALTER COLUMN "owner_id" SET NOT NULL;--> statement-breakpoint
CREATE OR REPLACE FUNCTION rubs_history_state_maintain() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    UPDATE rubs_history_state SET calculations = calculations - 1, version = version + 1
      WHERE property_id = OLD.property_id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO rubs_history_state (property_id, owner_id, calculations, version)
      SELECT NEW.property_id, p.owner_id, 1, 1 FROM properties p WHERE p.id = NEW.property_id
    ON CONFLICT (property_id) DO UPDATE SET calculations = rubs_history_state.calculations + 1,
      version = rubs_history_state.version + 1;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A property that changes owner (not an API operation, but possible in SQL) takes its history along.
CREATE OR REPLACE FUNCTION rubs_history_state_owner() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE rubs_history_state SET owner_id = NEW.owner_id, version = version + 1 WHERE property_id = NEW.id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER properties_rubs_history_owner
  AFTER UPDATE OF owner_id ON properties
  FOR EACH ROW WHEN (OLD.owner_id IS DISTINCT FROM NEW.owner_id) EXECUTE FUNCTION rubs_history_state_owner();
