ALTER TABLE "properties" DROP CONSTRAINT "properties_non_negative_check";--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "supply_rate_per_kwh" numeric(10, 6);--> statement-breakpoint
ALTER TABLE "properties" ADD CONSTRAINT "properties_non_negative_check" CHECK (coalesce("properties"."sqft", 0) >= 0 and coalesce("properties"."unit_count", 0) >= 0 and coalesce("properties"."year_built", 0) >= 0
        and coalesce("properties"."monthly_usage_kwh", 0) >= 0 and coalesce("properties"."monthly_demand_kw", 0) >= 0
        and coalesce("properties"."supply_rate_per_kwh", 0) between 0 and 5
        and coalesce("properties"."solar_capacity_kw", 0) >= 0 and coalesce("properties"."annual_revenue", 0) >= 0
        and coalesce("properties"."noi", 0) >= 0);