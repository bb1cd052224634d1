CREATE TABLE "webhook_cursors" (
	"connection_id" text PRIMARY KEY NOT NULL,
	"applied_seq" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- The appliers' pointers move to their own table, so an apply transaction never holds the receiver's row.
INSERT INTO "webhook_cursors" ("connection_id", "applied_seq") SELECT "connection_id", "applied_seq" FROM "webhook_streams";
--> statement-breakpoint
ALTER TABLE "webhook_streams" DROP COLUMN "applied_seq";
