-- Rollups gain a utility type and usage in the type's unit; metrics the annual cost per utility type.
-- Both are derived from the bills: they are emptied here, with the snapshots, so the next read
-- of each owner recomputes them (a missing snapshot is stale).
DELETE FROM "analytics_owner_snapshots";--> statement-breakpoint
TRUNCATE "analytics_monthly_rollups", "analytics_property_metrics";--> statement-breakpoint
ALTER TABLE "analytics_monthly_rollups" ADD COLUMN "utility_type" text NOT NULL;--> statement-breakpoint
ALTER TABLE "analytics_monthly_rollups" ADD COLUMN "usage_milli" bigint NOT NULL;--> statement-breakpoint
ALTER TABLE "analytics_property_metrics" ADD COLUMN "annual_by_utility" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
-- energy_pct_of_noi is computed from the one annual cost when a property is read.
ALTER TABLE "properties" DROP COLUMN "energy_pct_of_noi";--> statement-breakpoint
ALTER TABLE "analytics_monthly_rollups" DROP COLUMN "kwh_milli";
