CREATE TABLE "analytics_dirty_properties" (
	"owner_id" text NOT NULL,
	"property_id" text NOT NULL,
	"marked_version" bigint NOT NULL,
	CONSTRAINT "analytics_dirty_properties_owner_id_property_id_pk" PRIMARY KEY("owner_id","property_id")
);
--> statement-breakpoint
CREATE TABLE "analytics_monthly_rollups" (
	"property_id" text NOT NULL,
	"owner_id" text NOT NULL,
	"month" date NOT NULL,
	"cost_cents" bigint NOT NULL,
	"kwh_milli" bigint NOT NULL,
	"billed_days" integer NOT NULL,
	"bill_count" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_owner_snapshots" (
	"owner_id" text PRIMARY KEY NOT NULL,
	"data_version" bigint NOT NULL,
	"as_of_month" date NOT NULL,
	"computed_at" timestamp with time zone NOT NULL,
	"aggregates" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_property_metrics" (
	"property_id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"annual_cost_cents" bigint,
	"annual_kwh_milli" bigint,
	"basis" text,
	"savings_cents" bigint,
	"current_tariff_id" text,
	"recommended_tariff_id" text,
	"health_score" integer NOT NULL,
	"health_status" text NOT NULL,
	"health_issues" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "owner_data_versions" (
	"owner_id" text PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "analytics_owner_snapshots" ADD CONSTRAINT "analytics_owner_snapshots_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "owner_data_versions" ADD CONSTRAINT "owner_data_versions_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "analytics_monthly_rollups_owner_month_idx" ON "analytics_monthly_rollups" USING btree ("owner_id","month","property_id");--> statement-breakpoint
CREATE INDEX "analytics_property_metrics_owner_idx" ON "analytics_property_metrics" USING btree ("owner_id");