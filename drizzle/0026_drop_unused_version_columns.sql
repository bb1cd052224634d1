ALTER TABLE "property_owner_counts" DROP COLUMN "list_version";--> statement-breakpoint
ALTER TABLE "rubs_history_state" DROP COLUMN "version";