CREATE TABLE "audit_findings" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"owner_id" text NOT NULL,
	"property_id" text NOT NULL,
	"meter_id" text NOT NULL,
	"bill_id" text NOT NULL,
	"reason" text NOT NULL,
	"severity" text NOT NULL,
	"amount_cents" bigint,
	"message" text NOT NULL,
	"details" jsonb NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"resolution" text,
	"note" text,
	"resolved_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "audit_findings_bill_reason_key" UNIQUE("bill_id","reason"),
	CONSTRAINT "audit_findings_severity_check" CHECK ("audit_findings"."severity" in ('low', 'medium', 'high')),
	CONSTRAINT "audit_findings_status_check" CHECK ("audit_findings"."status" in ('open', 'resolved')),
	CONSTRAINT "audit_findings_resolution_check" CHECK ("audit_findings"."resolution" in ('disputed', 'accepted', 'corrected'))
);
--> statement-breakpoint
CREATE TABLE "audit_settings" (
	"owner_id" text PRIMARY KEY NOT NULL,
	"tolerance_percent" numeric(5, 2) DEFAULT 3 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bill_audits" (
	"bill_id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"property_id" text NOT NULL,
	"meter_id" text NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"expected_cents" bigint,
	"variance_cents" bigint,
	"variance_percent" numeric(12, 1),
	"tariff_id" text,
	"expected_lines" jsonb,
	"audited_at" timestamp with time zone NOT NULL,
	CONSTRAINT "bill_audits_status_check" CHECK ("bill_audits"."status" in ('ok', 'variance', 'unpriceable'))
);
--> statement-breakpoint
ALTER TABLE "utility_bills" ADD COLUMN "line_items" jsonb;--> statement-breakpoint
ALTER TABLE "audit_findings" ADD CONSTRAINT "audit_findings_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_findings" ADD CONSTRAINT "audit_findings_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_findings" ADD CONSTRAINT "audit_findings_bill_id_utility_bills_id_fk" FOREIGN KEY ("bill_id") REFERENCES "public"."utility_bills"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_settings" ADD CONSTRAINT "audit_settings_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bill_audits" ADD CONSTRAINT "bill_audits_bill_id_utility_bills_id_fk" FOREIGN KEY ("bill_id") REFERENCES "public"."utility_bills"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bill_audits" ADD CONSTRAINT "bill_audits_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_findings_owner_idx" ON "audit_findings" USING btree ("owner_id","status","created_at");--> statement-breakpoint
CREATE INDEX "bill_audits_meter_idx" ON "bill_audits" USING btree ("meter_id");