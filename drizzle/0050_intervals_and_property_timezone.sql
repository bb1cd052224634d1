CREATE TABLE "meter_interval_days" (
	"meter_id" text NOT NULL,
	"day" date NOT NULL,
	"interval_minutes" smallint NOT NULL,
	"wh" integer[] NOT NULL,
	CONSTRAINT "meter_interval_days_pkey" PRIMARY KEY("meter_id","day"),
	CONSTRAINT "meter_interval_days_minutes_check" CHECK ("meter_interval_days"."interval_minutes" in (5, 15, 30, 60)),
	CONSTRAINT "meter_interval_days_slots_check" CHECK (cardinality("meter_interval_days"."wh") = 1440 / "meter_interval_days"."interval_minutes")
);
--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "timezone" text;--> statement-breakpoint
ALTER TABLE "meter_interval_days" ADD CONSTRAINT "meter_interval_days_meter_id_meters_id_fk" FOREIGN KEY ("meter_id") REFERENCES "public"."meters"("id") ON DELETE cascade ON UPDATE no action;