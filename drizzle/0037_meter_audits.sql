CREATE TABLE "meter_audits" (
	"meter_id" text PRIMARY KEY NOT NULL,
	"read_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "meter_audits" ADD CONSTRAINT "meter_audits_meter_id_meters_id_fk" FOREIGN KEY ("meter_id") REFERENCES "public"."meters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_findings_property_idx" ON "audit_findings" USING btree ("property_id");