CREATE TABLE "billing_configs" (
	"id" text PRIMARY KEY NOT NULL,
	"property_id" text NOT NULL,
	"method" text NOT NULL,
	"utility_types" text[] NOT NULL,
	"common_area_percent" numeric(9, 4) DEFAULT 0 NOT NULL,
	"admin_fee_percent" numeric(9, 4) DEFAULT 0 NOT NULL,
	"billing_day" integer DEFAULT 1 NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"vacancy_policy" text DEFAULT 'redistribute' NOT NULL,
	"rounding" text DEFAULT 'per_unit' NOT NULL,
	"sqft_weight_percent" numeric(9, 4) DEFAULT 50 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "billing_configs_method_check" CHECK ("billing_configs"."method" in ('sqft', 'occupant_count', 'unit_count', 'custom_weight', 'sqft_occupant')),
	CONSTRAINT "billing_configs_vacancy_policy_check" CHECK ("billing_configs"."vacancy_policy" in ('redistribute', 'owner_pays')),
	CONSTRAINT "billing_configs_rounding_check" CHECK ("billing_configs"."rounding" in ('per_unit', 'exact')),
	CONSTRAINT "billing_configs_utility_types_check" CHECK (cardinality("billing_configs"."utility_types") >= 1 and "billing_configs"."utility_types" <@ array['electric', 'gas', 'water', 'sewer', 'trash']::text[]),
	CONSTRAINT "billing_configs_ranges_check" CHECK ("billing_configs"."common_area_percent" between 0 and 50 and "billing_configs"."admin_fee_percent" between 0 and 15
        and "billing_configs"."billing_day" between 1 and 28 and "billing_configs"."sqft_weight_percent" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "rubs_calculations" (
	"id" text PRIMARY KEY NOT NULL,
	"property_id" text NOT NULL,
	"billing_config_id" text NOT NULL,
	"source" text NOT NULL,
	"billing_period_start" date NOT NULL,
	"billing_period_end" date NOT NULL,
	"utility_type" text NOT NULL,
	"method" text NOT NULL,
	"total_amount" numeric(14, 2) NOT NULL,
	"units_billed" integer NOT NULL,
	"units_vacant" integer NOT NULL,
	"result" json NOT NULL,
	"calculated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "rubs_calculations_source_check" CHECK ("rubs_calculations"."source" in ('request', 'pms')),
	CONSTRAINT "rubs_calculations_utility_type_check" CHECK ("rubs_calculations"."utility_type" in ('electric', 'gas', 'water', 'sewer', 'trash')),
	CONSTRAINT "rubs_calculations_period_check" CHECK ("rubs_calculations"."billing_period_end" >= "rubs_calculations"."billing_period_start")
);
--> statement-breakpoint
CREATE TABLE "pms_connections" (
	"connection_id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pms_property_links" (
	"property_id" text PRIMARY KEY NOT NULL,
	"connection_id" text NOT NULL,
	"pms_property_id" text NOT NULL,
	"linked_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sync_requested_at" timestamp with time zone,
	"last_synced_at" timestamp with time zone,
	"last_sync_error" text,
	CONSTRAINT "pms_property_links_connection_property_key" UNIQUE("connection_id","pms_property_id")
);
--> statement-breakpoint
CREATE TABLE "pms_units" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"property_id" text NOT NULL,
	"pms_unit_id" text NOT NULL,
	"unit_number" text NOT NULL,
	"sqft" numeric(14, 3),
	"bedrooms" integer,
	"bathrooms" numeric(14, 3),
	"status" text NOT NULL,
	"resident_name" text,
	"occupant_count" integer,
	"lease_start" date,
	"lease_end" date,
	"source_updated_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pms_units_property_unit_key" UNIQUE("property_id","pms_unit_id"),
	CONSTRAINT "pms_units_status_check" CHECK ("pms_units"."status" in ('vacant', 'occupied')),
	CONSTRAINT "pms_units_non_negative_check" CHECK (coalesce("pms_units"."sqft", 0) >= 0 and coalesce("pms_units"."bedrooms", 0) >= 0 and coalesce("pms_units"."bathrooms", 0) >= 0
        and coalesce("pms_units"."occupant_count", 0) >= 0)
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"id" text PRIMARY KEY NOT NULL,
	"body_sha256" text NOT NULL,
	"raw_body" "bytea",
	"body_bytes" integer NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"connection_id" text,
	"event" text,
	"resource_type" text,
	"event_timestamp" timestamp with time zone,
	"seq" bigint,
	"status" text NOT NULL,
	"detail" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"processed_at" timestamp with time zone,
	"dead_lettered_at" timestamp with time zone,
	CONSTRAINT "webhook_events_status_check" CHECK ("webhook_events"."status" in ('pending', 'success', 'failed', 'ignored')),
	CONSTRAINT "webhook_events_pending_seq_check" CHECK ("webhook_events"."status" <> 'pending' or ("webhook_events"."seq" is not null and "webhook_events"."connection_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "webhook_streams" (
	"connection_id" text PRIMARY KEY NOT NULL,
	"last_seq" bigint DEFAULT 0 NOT NULL,
	"applied_seq" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "billing_configs" ADD CONSTRAINT "billing_configs_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rubs_calculations" ADD CONSTRAINT "rubs_calculations_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rubs_calculations" ADD CONSTRAINT "rubs_calculations_billing_config_id_billing_configs_id_fk" FOREIGN KEY ("billing_config_id") REFERENCES "public"."billing_configs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pms_connections" ADD CONSTRAINT "pms_connections_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pms_property_links" ADD CONSTRAINT "pms_property_links_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pms_property_links" ADD CONSTRAINT "pms_property_links_connection_id_pms_connections_connection_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."pms_connections"("connection_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pms_units" ADD CONSTRAINT "pms_units_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "billing_configs_one_active_per_property" ON "billing_configs" USING btree ("property_id") WHERE "billing_configs"."is_active";--> statement-breakpoint
CREATE INDEX "billing_configs_property_created_idx" ON "billing_configs" USING btree ("property_id","created_at");--> statement-breakpoint
CREATE INDEX "rubs_calculations_property_calculated_idx" ON "rubs_calculations" USING btree ("property_id","calculated_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "rubs_calculations_config_idx" ON "rubs_calculations" USING btree ("billing_config_id");--> statement-breakpoint
CREATE INDEX "pms_connections_owner_idx" ON "pms_connections" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "pms_units_property_number_idx" ON "pms_units" USING btree ("property_id","unit_number","id");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_events_body_sha256_key" ON "webhook_events" USING btree ("body_sha256");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_events_connection_seq_key" ON "webhook_events" USING btree ("connection_id","seq");--> statement-breakpoint
CREATE INDEX "webhook_events_connection_received_idx" ON "webhook_events" USING btree ("connection_id","received_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "webhook_events_pending_idx" ON "webhook_events" USING btree ("received_at") WHERE "webhook_events"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_events_dead_letter_idx" ON "webhook_events" USING btree ("dead_lettered_at" DESC NULLS LAST) WHERE "webhook_events"."dead_lettered_at" is not null;