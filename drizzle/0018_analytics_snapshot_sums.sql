-- Snapshots store the sums the aggregates are computed from on reading. They are derived data:
-- without one, an owner's next read (or the scheduler) recomputes it in full.
DELETE FROM "analytics_owner_snapshots";--> statement-breakpoint
ALTER TABLE "analytics_owner_snapshots" ADD COLUMN "sums" jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "analytics_owner_snapshots" DROP COLUMN "aggregates";
