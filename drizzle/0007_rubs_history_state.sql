CREATE TABLE "rubs_history_state" (
	"property_id" text PRIMARY KEY NOT NULL,
	"calculations" integer DEFAULT 0 NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "rubs_history_state" ADD CONSTRAINT "rubs_history_state_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE cascade ON UPDATE no action;