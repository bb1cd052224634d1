CREATE TABLE "custom_tariff_versions" (
	"tariff_id" text NOT NULL,
	"effective_date" date NOT NULL,
	"expiration_date" date,
	"structure" jsonb NOT NULL,
	"applicability" jsonb NOT NULL,
	"assumptions" jsonb NOT NULL,
	"source" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "custom_tariff_versions_tariff_id_effective_date_pk" PRIMARY KEY("tariff_id","effective_date"),
	CONSTRAINT "custom_tariff_versions_source_check" CHECK ("custom_tariff_versions"."source" in ('urdb', 'rates'))
);
--> statement-breakpoint
CREATE TABLE "custom_tariffs" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"name" text NOT NULL,
	"utility_id" text,
	"utility_name" text NOT NULL,
	"state" text,
	"sector" text NOT NULL,
	"utility_type" text NOT NULL,
	"unit" text NOT NULL,
	"service_type" text NOT NULL,
	"description" text NOT NULL,
	"source_url" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"retired_at" timestamp with time zone,
	CONSTRAINT "custom_tariffs_sector_check" CHECK ("custom_tariffs"."sector" in ('residential', 'commercial', 'industrial', 'agricultural', 'lighting')),
	CONSTRAINT "custom_tariffs_utility_type_check" CHECK ("custom_tariffs"."utility_type" in ('electric', 'gas', 'water', 'sewer')),
	CONSTRAINT "custom_tariffs_service_type_check" CHECK ("custom_tariffs"."service_type" in ('bundled', 'delivery_only', 'supply_only'))
);
--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "supply_tariff_id" text;--> statement-breakpoint
ALTER TABLE "meters" ADD COLUMN "supply_tariff_id" text;--> statement-breakpoint
ALTER TABLE "custom_tariff_versions" ADD CONSTRAINT "custom_tariff_versions_tariff_id_custom_tariffs_id_fk" FOREIGN KEY ("tariff_id") REFERENCES "public"."custom_tariffs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_tariffs" ADD CONSTRAINT "custom_tariffs_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "custom_tariffs_owner_idx" ON "custom_tariffs" USING btree ("owner_id","created_at");