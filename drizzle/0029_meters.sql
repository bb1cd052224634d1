CREATE EXTENSION IF NOT EXISTS btree_gist;--> statement-breakpoint
CREATE TABLE "meters" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"property_id" text NOT NULL,
	"utility_type" text NOT NULL,
	"unit" text NOT NULL,
	"name" text NOT NULL,
	"account_number" text,
	"meter_number" text,
	"tariff_id" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "meters_id_property_type_key" UNIQUE("id","property_id","utility_type"),
	CONSTRAINT "meters_type_check" CHECK ("meters"."utility_type" in ('electric', 'gas', 'water', 'sewer', 'trash', 'steam', 'other')),
	CONSTRAINT "meters_unit_check" CHECK ((utility_type, unit) in (('electric', 'kWh'), ('gas', 'therms'), ('gas', 'ccf'), ('gas', 'mcf'), ('gas', 'cf'), ('gas', 'kBtu'), ('gas', 'MMBtu'), ('water', 'kgal'), ('water', 'gallons'), ('water', 'ccf'), ('water', 'cf'), ('water', 'm3'), ('sewer', 'kgal'), ('sewer', 'gallons'), ('sewer', 'ccf'), ('sewer', 'cf'), ('sewer', 'm3'), ('trash', 'tons'), ('trash', 'lbs'), ('steam', 'klbs'), ('steam', 'lbs'), ('steam', 'Mlbs'), ('steam', 'kBtu'), ('steam', 'therms'), ('steam', 'MMBtu'), ('other', 'kBtu'), ('other', 'MMBtu')))
);
--> statement-breakpoint
ALTER TABLE "utility_bills" DROP CONSTRAINT "utility_bills_property_period_type_key";--> statement-breakpoint
ALTER TABLE "utility_bills" DROP CONSTRAINT "utility_bills_type_check";--> statement-breakpoint
ALTER TABLE "utility_bills" DROP CONSTRAINT "utility_bills_amount_usage_check";--> statement-breakpoint
ALTER TABLE "utility_bills" ADD COLUMN "meter_id" text;--> statement-breakpoint
ALTER TABLE "utility_bills" ADD COLUMN "usage" numeric(14, 3);--> statement-breakpoint
ALTER TABLE "utility_bills" ADD COLUMN "unit" text;--> statement-breakpoint
ALTER TABLE "utility_bills" ADD COLUMN "is_estimated" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "meters" ADD CONSTRAINT "meters_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "meters_one_default_per_type" ON "meters" USING btree ("property_id","utility_type") WHERE "meters"."is_default";--> statement-breakpoint
CREATE INDEX "meters_property_idx" ON "meters" USING btree ("property_id","created_at");--> statement-breakpoint
CREATE INDEX "utility_bills_property_period_idx" ON "utility_bills" USING btree ("property_id","period_start","period_end");--> statement-breakpoint
-- Every existing bill goes to its property's default meter of its utility type (created here).
INSERT INTO "meters" ("property_id", "utility_type", "unit", "name", "is_default", "created_at", "updated_at")
SELECT "property_id", "utility_type",
  CASE "utility_type" WHEN 'electric' THEN 'kWh' WHEN 'gas' THEN 'therms' WHEN 'water' THEN 'kgal' WHEN 'sewer' THEN 'kgal'
    WHEN 'trash' THEN 'tons' WHEN 'steam' THEN 'klbs' ELSE 'kBtu' END,
  initcap("utility_type") || ' meter', true, min("created_at"), min("created_at")
FROM "utility_bills" GROUP BY "property_id", "utility_type";--> statement-breakpoint
UPDATE "utility_bills" b SET "meter_id" = m."id", "unit" = m."unit"
FROM "meters" m WHERE m."property_id" = b."property_id" AND m."utility_type" = b."utility_type" AND m."is_default";--> statement-breakpoint
UPDATE "utility_bills" SET "usage" = "usage_kwh" WHERE "utility_type" = 'electric';--> statement-breakpoint
-- Bills of one type whose periods overlapped were allowed before meters (only identical periods were
-- refused): each one overlapping an earlier bill on its meter moves to the first further meter of its
-- type where it overlaps nothing, created when there is none ("Electric meter 2", ...).
DO $$
DECLARE
  b record;
  target text;
BEGIN
  FOR b IN
    SELECT x."id", x."property_id", x."utility_type", x."period_start", x."period_end", x."created_at"
    FROM "utility_bills" x
    WHERE EXISTS (
      SELECT 1 FROM "utility_bills" y
      WHERE y."property_id" = x."property_id" AND y."utility_type" = x."utility_type" AND y."id" <> x."id"
        AND y."period_start" <= x."period_end" AND y."period_end" >= x."period_start")
    ORDER BY x."property_id", x."utility_type", x."period_start", x."period_end", x."created_at", x."id"
  LOOP
    CONTINUE WHEN NOT EXISTS (
      SELECT 1 FROM "utility_bills" x JOIN "utility_bills" y
        ON y."property_id" = x."property_id" AND y."meter_id" = x."meter_id" AND y."id" <> x."id"
        AND y."period_start" <= x."period_end" AND y."period_end" >= x."period_start"
        AND (y."period_start", y."period_end", y."created_at", y."id") < (x."period_start", x."period_end", x."created_at", x."id")
      WHERE x."id" = b."id");
    SELECT m."id" INTO target FROM "meters" m
    WHERE m."property_id" = b."property_id" AND m."utility_type" = b."utility_type" AND NOT EXISTS (
      SELECT 1 FROM "utility_bills" y
      WHERE y."property_id" = b."property_id" AND y."meter_id" = m."id" AND y."id" <> b."id"
        AND y."period_start" <= b."period_end" AND y."period_end" >= b."period_start")
    ORDER BY m."created_at", m."id" LIMIT 1;
    IF target IS NULL THEN
      INSERT INTO "meters" ("property_id", "utility_type", "unit", "name", "created_at", "updated_at")
      SELECT b."property_id", b."utility_type", d."unit",
        initcap(b."utility_type") || ' meter ' || (count(*) + 1), b."created_at", b."created_at"
      FROM "meters" m JOIN "meters" d ON d."property_id" = m."property_id" AND d."utility_type" = m."utility_type" AND d."is_default"
      WHERE m."property_id" = b."property_id" AND m."utility_type" = b."utility_type"
      GROUP BY d."unit"
      RETURNING "id" INTO target;
    END IF;
    UPDATE "utility_bills" SET "meter_id" = target WHERE "id" = b."id";
  END LOOP;
END $$;--> statement-breakpoint
ALTER TABLE "utility_bills" ALTER COLUMN "meter_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "utility_bills" ALTER COLUMN "unit" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "utility_bills" ADD CONSTRAINT "utility_bills_meter_fk" FOREIGN KEY ("meter_id","property_id","utility_type") REFERENCES "public"."meters"("id","property_id","utility_type") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "utility_bills" ADD CONSTRAINT "utility_bills_unit_check" CHECK ((utility_type, unit) in (('electric', 'kWh'), ('gas', 'therms'), ('gas', 'ccf'), ('gas', 'mcf'), ('gas', 'cf'), ('gas', 'kBtu'), ('gas', 'MMBtu'), ('water', 'kgal'), ('water', 'gallons'), ('water', 'ccf'), ('water', 'cf'), ('water', 'm3'), ('sewer', 'kgal'), ('sewer', 'gallons'), ('sewer', 'ccf'), ('sewer', 'cf'), ('sewer', 'm3'), ('trash', 'tons'), ('trash', 'lbs'), ('steam', 'klbs'), ('steam', 'lbs'), ('steam', 'Mlbs'), ('steam', 'kBtu'), ('steam', 'therms'), ('steam', 'MMBtu'), ('other', 'kBtu'), ('other', 'MMBtu')));--> statement-breakpoint
ALTER TABLE "utility_bills" ADD CONSTRAINT "utility_bills_type_check" CHECK ("utility_bills"."utility_type" in ('electric', 'gas', 'water', 'sewer', 'trash', 'steam', 'other'));--> statement-breakpoint
ALTER TABLE "utility_bills" ADD CONSTRAINT "utility_bills_amount_usage_check" CHECK ("utility_bills"."amount" >= -1000000 and coalesce("utility_bills"."usage", 0) >= 0 and coalesce("utility_bills"."usage_kwh", 0) >= 0 and coalesce("utility_bills"."demand_kw", 0) >= 0);--> statement-breakpoint
-- Two bills of one meter never overlap (both ends of a period are billed days).
ALTER TABLE "utility_bills" ADD CONSTRAINT "utility_bills_meter_period_excl"
  EXCLUDE USING gist ("meter_id" WITH =, daterange("period_start", "period_end", '[]') WITH &&);
