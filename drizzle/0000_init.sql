CREATE TABLE "system_state" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"key_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"is_active" boolean DEFAULT true NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"full_name" text NOT NULL,
	"company" text,
	"tier" text DEFAULT 'free' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_login" timestamp with time zone,
	CONSTRAINT "users_email_lower_check" CHECK ("users"."email" = lower("users"."email")),
	CONSTRAINT "users_tier_check" CHECK ("users"."tier" in ('free', 'pro', 'enterprise'))
);
--> statement-breakpoint
CREATE TABLE "portfolios" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "properties" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"portfolio_id" text,
	"name" text NOT NULL,
	"address" text NOT NULL,
	"city" text NOT NULL,
	"state" text NOT NULL,
	"zip_code" text NOT NULL,
	"property_type" text NOT NULL,
	"sqft" integer,
	"unit_count" integer,
	"year_built" integer,
	"utility_account_number" text,
	"meter_number" text,
	"tariff_id" text,
	"monthly_usage_kwh" numeric(14, 3),
	"monthly_demand_kw" numeric(14, 3),
	"has_solar" boolean DEFAULT false NOT NULL,
	"solar_capacity_kw" numeric(14, 3),
	"annual_revenue" numeric(14, 2),
	"noi" numeric(14, 2),
	"energy_pct_of_noi" numeric(14, 2),
	"monthly_energy_cost" numeric(14, 2),
	"annual_energy_cost" numeric(14, 2),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "properties_state_check" CHECK ("properties"."state" in ('AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA', 'ME', 'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND', 'OH', 'OK', 'OR', 'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY', 'DC', 'AS', 'GU', 'MP', 'PR', 'VI', 'UM')),
	CONSTRAINT "properties_zip_check" CHECK ("properties"."zip_code" ~ '^[0-9]{5}$'),
	CONSTRAINT "properties_type_check" CHECK ("properties"."property_type" in ('residential', 'commercial', 'industrial', 'mixed_use')),
	CONSTRAINT "properties_non_negative_check" CHECK (coalesce("properties"."sqft", 0) >= 0 and coalesce("properties"."unit_count", 0) >= 0 and coalesce("properties"."year_built", 0) >= 0
        and coalesce("properties"."monthly_usage_kwh", 0) >= 0 and coalesce("properties"."monthly_demand_kw", 0) >= 0
        and coalesce("properties"."solar_capacity_kw", 0) >= 0 and coalesce("properties"."annual_revenue", 0) >= 0
        and coalesce("properties"."noi", 0) >= 0)
);
--> statement-breakpoint
CREATE TABLE "property_owner_counts" (
	"owner_id" text PRIMARY KEY NOT NULL,
	"property_count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "utility_bills" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"property_id" text NOT NULL,
	"utility_type" text NOT NULL,
	"period_start" date NOT NULL,
	"period_end" date NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"usage_kwh" numeric(14, 3),
	"demand_kw" numeric(14, 3),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "utility_bills_property_period_type_key" UNIQUE("property_id","period_start","period_end","utility_type"),
	CONSTRAINT "utility_bills_type_check" CHECK ("utility_bills"."utility_type" in ('electric', 'gas', 'water', 'sewer', 'trash')),
	CONSTRAINT "utility_bills_period_check" CHECK ("utility_bills"."period_end" >= "utility_bills"."period_start"),
	CONSTRAINT "utility_bills_non_negative_check" CHECK ("utility_bills"."amount" >= 0 and coalesce("utility_bills"."usage_kwh", 0) >= 0 and coalesce("utility_bills"."demand_kw", 0) >= 0)
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"type" text NOT NULL,
	"property_id" text,
	"message" text NOT NULL,
	"dedupe_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone,
	CONSTRAINT "notifications_type_check" CHECK (length("notifications"."type") > 0)
);
--> statement-breakpoint
CREATE TABLE "rate_analyses" (
	"id" text PRIMARY KEY NOT NULL,
	"property_id" text NOT NULL,
	"owner_id" text NOT NULL,
	"current_tariff_id" text,
	"current_monthly_cost" numeric(14, 2),
	"recommended_tariff_id" text NOT NULL,
	"monthly_savings" numeric(14, 2),
	"annual_savings" numeric(14, 2),
	"result" jsonb NOT NULL,
	"analyzed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rate_analyses_savings_check" CHECK (coalesce("rate_analyses"."monthly_savings", 0) >= 0)
);
--> statement-breakpoint
CREATE TABLE "tariffs" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"utility_id" text NOT NULL,
	"utility_name" text NOT NULL,
	"state" text,
	"sector" text NOT NULL,
	"rate_type" text NOT NULL,
	"has_tou" boolean NOT NULL,
	"has_demand" boolean NOT NULL,
	"has_net_metering" boolean NOT NULL,
	"effective_date" date,
	"expiration_date" date,
	"description" text NOT NULL,
	"eligibility" text NOT NULL,
	"source_url" text NOT NULL,
	"last_updated" timestamp with time zone NOT NULL,
	"structure" jsonb NOT NULL,
	CONSTRAINT "tariffs_sector_check" CHECK ("tariffs"."sector" in ('residential', 'commercial', 'industrial', 'agricultural', 'lighting')),
	CONSTRAINT "tariffs_rate_type_check" CHECK ("tariffs"."rate_type" in ('flat', 'tiered', 'tou', 'demand', 'real_time'))
);
--> statement-breakpoint
CREATE TABLE "utilities" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"abbreviation" text,
	"state" text,
	"type" text,
	"website" text,
	"phone" text,
	"service_territory" text,
	"customers_served" integer,
	"zip_codes_served" integer DEFAULT 0 NOT NULL,
	"tariff_count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "utility_zip_codes" (
	"zip_code" text NOT NULL,
	"utility_id" text NOT NULL,
	"source" text NOT NULL,
	CONSTRAINT "utility_zip_codes_zip_code_utility_id_pk" PRIMARY KEY("zip_code","utility_id")
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "portfolios" ADD CONSTRAINT "portfolios_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "properties" ADD CONSTRAINT "properties_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "properties" ADD CONSTRAINT "properties_portfolio_id_portfolios_id_fk" FOREIGN KEY ("portfolio_id") REFERENCES "public"."portfolios"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "property_owner_counts" ADD CONSTRAINT "property_owner_counts_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "utility_bills" ADD CONSTRAINT "utility_bills_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rate_analyses" ADD CONSTRAINT "rate_analyses_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rate_analyses" ADD CONSTRAINT "rate_analyses_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_key_hash_key" ON "api_keys" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "api_keys_user_id_idx" ON "api_keys" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_key" ON "users" USING btree ("email");--> statement-breakpoint
CREATE INDEX "portfolios_owner_created_idx" ON "portfolios" USING btree ("owner_id","created_at","id");--> statement-breakpoint
CREATE INDEX "properties_owner_created_idx" ON "properties" USING btree ("owner_id","created_at","id");--> statement-breakpoint
CREATE INDEX "properties_portfolio_idx" ON "properties" USING btree ("portfolio_id");--> statement-breakpoint
CREATE INDEX "properties_tariff_idx" ON "properties" USING btree ("tariff_id");--> statement-breakpoint
CREATE INDEX "notifications_user_created_idx" ON "notifications" USING btree ("user_id","created_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "notifications_user_unread_idx" ON "notifications" USING btree ("user_id","created_at" DESC NULLS LAST) WHERE "notifications"."read_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_user_dedupe_key" ON "notifications" USING btree ("user_id","dedupe_key");--> statement-breakpoint
CREATE INDEX "rate_analyses_property_analyzed_idx" ON "rate_analyses" USING btree ("property_id","analyzed_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "rate_analyses_owner_idx" ON "rate_analyses" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "tariffs_utility_id_idx" ON "tariffs" USING btree ("utility_id");--> statement-breakpoint
CREATE INDEX "tariffs_state_idx" ON "tariffs" USING btree ("state");--> statement-breakpoint
CREATE INDEX "tariffs_sector_idx" ON "tariffs" USING btree ("sector");--> statement-breakpoint
CREATE INDEX "tariffs_rate_type_idx" ON "tariffs" USING btree ("rate_type");--> statement-breakpoint
CREATE INDEX "tariffs_has_tou_idx" ON "tariffs" USING btree ("has_tou");--> statement-breakpoint
CREATE INDEX "tariffs_has_demand_idx" ON "tariffs" USING btree ("has_demand");--> statement-breakpoint
CREATE INDEX "tariffs_has_net_metering_idx" ON "tariffs" USING btree ("has_net_metering");--> statement-breakpoint
CREATE INDEX "tariffs_order_idx" ON "tariffs" USING btree ("utility_name","name","id");--> statement-breakpoint
CREATE INDEX "tariffs_utility_name_trgm_idx" ON "tariffs" USING gin ("utility_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "utilities_state_idx" ON "utilities" USING btree ("state");--> statement-breakpoint
CREATE INDEX "utilities_order_idx" ON "utilities" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "utilities_name_trgm_idx" ON "utilities" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "utility_zip_codes_utility_id_idx" ON "utility_zip_codes" USING btree ("utility_id");