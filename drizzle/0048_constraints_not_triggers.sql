DROP INDEX "utility_bills_meter_period_key";--> statement-breakpoint
CREATE INDEX "utility_bills_meter_period_idx" ON "utility_bills" USING btree ("meter_id","period_start","period_end");--> statement-breakpoint
-- Two bills of one meter never overlap (both ends of a period are billed days): the constraint of
-- 0029 again, in place of the statement triggers of 0032 (decision record 0014). Stored bills
-- already meet it: the triggers refused every overlap.
DROP TRIGGER IF EXISTS utility_bills_no_overlap_insert ON utility_bills;--> statement-breakpoint
DROP TRIGGER IF EXISTS utility_bills_no_overlap_update ON utility_bills;--> statement-breakpoint
DROP FUNCTION IF EXISTS utility_bills_check_overlap();--> statement-breakpoint
ALTER TABLE "utility_bills" ADD CONSTRAINT "utility_bills_no_overlap"
  EXCLUDE USING gist ("meter_id" WITH =, daterange("period_start", "period_end", '[]') WITH &&);--> statement-breakpoint
-- A user's unread notifications are counted when asked, on the partial index
-- notifications_user_unread_idx: the counter of 0039 and the triggers of 0040 go.
DROP TRIGGER IF EXISTS notifications_unread_insert ON notifications;--> statement-breakpoint
DROP TRIGGER IF EXISTS notifications_unread_update ON notifications;--> statement-breakpoint
DROP TRIGGER IF EXISTS notifications_unread_delete ON notifications;--> statement-breakpoint
DROP FUNCTION IF EXISTS notification_unread_counts_maintain();--> statement-breakpoint
DROP TABLE "notification_unread_counts" CASCADE;
