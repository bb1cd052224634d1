CREATE TABLE "tariff_refresh_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"utilities" jsonb NOT NULL,
	"cursor" jsonb NOT NULL,
	"modified_after" integer,
	"report" jsonb NOT NULL,
	"error" text,
	"created_at" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	CONSTRAINT "tariff_refresh_runs_status_check" CHECK ("tariff_refresh_runs"."status" in ('queued', 'running', 'succeeded', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "tariff_refreshed_records" (
	"label" text PRIMARY KEY NOT NULL,
	"eia_id" text NOT NULL,
	"record" jsonb NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tariffs" ADD COLUMN "source" text DEFAULT 'bundled' NOT NULL;--> statement-breakpoint
ALTER TABLE "tariffs" ADD COLUMN "source_updated_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "tariff_refresh_runs_created_idx" ON "tariff_refresh_runs" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "tariff_refreshed_records_eia_idx" ON "tariff_refreshed_records" USING btree ("eia_id");--> statement-breakpoint
ALTER TABLE "tariffs" ADD CONSTRAINT "tariffs_source_check" CHECK ("tariffs"."source" in ('bundled', 'refreshed'));