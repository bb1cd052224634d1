-- Issue 52: each property's emissions and projected building-performance penalty of the latest complete
-- calendar year join its analytics metrics, and the owner's snapshot sums them. Snapshots stored before lack
-- those sums: they are deleted, so each owner's next read (or job) recomputes every property.
ALTER TABLE "analytics_property_metrics" ADD COLUMN "emissions_year" integer;--> statement-breakpoint
ALTER TABLE "analytics_property_metrics" ADD COLUMN "emissions_kg" bigint;--> statement-breakpoint
ALTER TABLE "analytics_property_metrics" ADD COLUMN "penalty_period" text;--> statement-breakpoint
ALTER TABLE "analytics_property_metrics" ADD COLUMN "penalty_cents" bigint;--> statement-breakpoint
ALTER TABLE "analytics_property_metrics" ADD COLUMN "penalty_alerts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
DELETE FROM "analytics_owner_snapshots";--> statement-breakpoint
-- A property's occupancy areas set its building-performance limit: a change marks its metrics (analytics/db-functions.sql).
DROP TRIGGER IF EXISTS analytics_occupancy_areas_delete ON property_occupancy_areas;--> statement-breakpoint
CREATE TRIGGER analytics_occupancy_areas_delete AFTER DELETE ON property_occupancy_areas REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_property_rows_changed();--> statement-breakpoint
DROP TRIGGER IF EXISTS analytics_occupancy_areas_insert ON property_occupancy_areas;--> statement-breakpoint
CREATE TRIGGER analytics_occupancy_areas_insert AFTER INSERT ON property_occupancy_areas REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_property_rows_changed();--> statement-breakpoint
DROP TRIGGER IF EXISTS analytics_occupancy_areas_update ON property_occupancy_areas;--> statement-breakpoint
CREATE TRIGGER analytics_occupancy_areas_update AFTER UPDATE ON property_occupancy_areas REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_property_rows_changed();
