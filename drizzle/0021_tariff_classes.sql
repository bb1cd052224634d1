ALTER TABLE "tariffs" ADD COLUMN "service_type" text DEFAULT 'bundled' NOT NULL;--> statement-breakpoint
ALTER TABLE "tariffs" ADD COLUMN "voltage" text;--> statement-breakpoint
ALTER TABLE "tariffs" ADD COLUMN "purpose" text DEFAULT 'general' NOT NULL;--> statement-breakpoint
ALTER TABLE "tariffs" ADD COLUMN "class_note" text;--> statement-breakpoint
ALTER TABLE "tariffs" ADD CONSTRAINT "tariffs_service_type_check" CHECK ("tariffs"."service_type" in ('bundled', 'delivery_only', 'supply_only'));--> statement-breakpoint
ALTER TABLE "tariffs" ADD CONSTRAINT "tariffs_voltage_check" CHECK ("tariffs"."voltage" in ('secondary', 'primary', 'transmission'));