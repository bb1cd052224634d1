CREATE TABLE "property_occupancy_areas" (
	"property_id" text NOT NULL,
	"occupancy_group" text NOT NULL,
	"gross_floor_area" integer NOT NULL,
	CONSTRAINT "property_occupancy_areas_pkey" PRIMARY KEY("property_id","occupancy_group"),
	CONSTRAINT "property_occupancy_areas_group_check" CHECK ("property_occupancy_areas"."occupancy_group" in ('A', 'B', 'B-ambulatory-health', 'E', 'F', 'H', 'I-1', 'I-2', 'I-3', 'I-4', 'M', 'R-1', 'R-2', 'S', 'U')),
	CONSTRAINT "property_occupancy_areas_area_check" CHECK ("property_occupancy_areas"."gross_floor_area" > 0)
);
--> statement-breakpoint
ALTER TABLE "property_occupancy_areas" ADD CONSTRAINT "property_occupancy_areas_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE cascade ON UPDATE no action;