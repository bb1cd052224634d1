ALTER TABLE "meters" ADD COLUMN "covers" text DEFAULT 'whole_building' NOT NULL;--> statement-breakpoint
ALTER TABLE "utility_bills" ADD COLUMN "heat_content" numeric(6, 4);--> statement-breakpoint
ALTER TABLE "meter_audits" ADD COLUMN "requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "meters" ADD CONSTRAINT "meters_covers_check" CHECK ("meters"."covers" in ('whole_building', 'common_area', 'tenant'));--> statement-breakpoint
ALTER TABLE "utility_bills" ADD CONSTRAINT "utility_bills_heat_content_check" CHECK ("utility_bills"."heat_content" is null or ("utility_bills"."utility_type" = 'gas' and "utility_bills"."heat_content" > 0));