CREATE TABLE "billing_config_versions" (
	"config_id" text NOT NULL,
	"version" integer NOT NULL,
	"terms" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "billing_config_versions_config_id_version_pk" PRIMARY KEY("config_id","version")
);
--> statement-breakpoint
CREATE TABLE "rubs_invoice_counters" (
	"property_id" text PRIMARY KEY NOT NULL,
	"last_number" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rubs_postings" (
	"calculation_id" text NOT NULL,
	"unit_id" text NOT NULL,
	"occupancy" integer NOT NULL,
	"action" text NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"status" text NOT NULL,
	"provider_charge_id" text,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "rubs_postings_calculation_id_unit_id_occupancy_action_pk" PRIMARY KEY("calculation_id","unit_id","occupancy","action"),
	CONSTRAINT "rubs_postings_action_check" CHECK ("rubs_postings"."action" in ('post', 'reverse')),
	CONSTRAINT "rubs_postings_status_check" CHECK ("rubs_postings"."status" in ('pending', 'posted', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "billing_configs" ADD COLUMN "methods_by_utility" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_configs" ADD COLUMN "occupant_factors" jsonb;--> statement-breakpoint
ALTER TABLE "billing_configs" ADD COLUMN "max_charge" numeric(14, 2);--> statement-breakpoint
ALTER TABLE "billing_configs" ADD COLUMN "min_charge" numeric(14, 2);--> statement-breakpoint
ALTER TABLE "billing_configs" ADD COLUMN "billing_fee" numeric(14, 2) DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_configs" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_configs" ADD COLUMN "updated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "rubs_calculations" ADD COLUMN "billing_config_version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "rubs_calculations" ADD COLUMN "status" text DEFAULT 'active' NOT NULL;--> statement-breakpoint
ALTER TABLE "rubs_calculations" ADD COLUMN "supersedes" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "rubs_calculations" ADD COLUMN "superseded_by" text;--> statement-breakpoint
ALTER TABLE "rubs_calculations" ADD COLUMN "void_reason" text;--> statement-breakpoint
ALTER TABLE "rubs_calculations" ADD COLUMN "voided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "rubs_calculations" ADD COLUMN "first_invoice_number" integer;--> statement-breakpoint
ALTER TABLE "billing_config_versions" ADD CONSTRAINT "billing_config_versions_config_id_billing_configs_id_fk" FOREIGN KEY ("config_id") REFERENCES "public"."billing_configs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rubs_invoice_counters" ADD CONSTRAINT "rubs_invoice_counters_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rubs_postings" ADD CONSTRAINT "rubs_postings_calculation_id_rubs_calculations_id_fk" FOREIGN KEY ("calculation_id") REFERENCES "public"."rubs_calculations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "rubs_calculations_active_idx" ON "rubs_calculations" USING btree ("property_id","utility_type","billing_period_start") WHERE "rubs_calculations"."status" = 'active';--> statement-breakpoint
ALTER TABLE "billing_configs" ADD CONSTRAINT "billing_configs_charges_check" CHECK ("billing_configs"."billing_fee" >= 0 and coalesce("billing_configs"."min_charge", 0) >= 0
        and ("billing_configs"."max_charge" is null or "billing_configs"."max_charge" >= coalesce("billing_configs"."min_charge", 0)));--> statement-breakpoint
ALTER TABLE "rubs_calculations" ADD CONSTRAINT "rubs_calculations_status_check" CHECK ("rubs_calculations"."status" in ('active', 'superseded', 'void'));--> statement-breakpoint
-- Every configuration made before versions is version 1, kept as it is answered (presenters.ts presentConfig).
INSERT INTO "billing_config_versions" ("config_id", "version", "terms", "created_at")
SELECT c.id, 1, jsonb_build_object(
  'id', c.id, 'property_id', c.property_id, 'method', c.method, 'utility_types', to_jsonb(c.utility_types),
  'common_area_percent', c.common_area_percent::float8, 'admin_fee_percent', c.admin_fee_percent::float8,
  'billing_day', c.billing_day, 'is_active', c.is_active, 'vacancy_policy', c.vacancy_policy, 'rounding', c.rounding,
  'sqft_weight_percent', c.sqft_weight_percent::float8, 'methods_by_utility', c.methods_by_utility,
  'occupant_factors', c.occupant_factors, 'max_charge', c.max_charge::float8, 'min_charge', c.min_charge::float8,
  'billing_fee', c.billing_fee::float8, 'version', 1,
  'created_at', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'updated_at', null
), c.created_at
FROM "billing_configs" c;
