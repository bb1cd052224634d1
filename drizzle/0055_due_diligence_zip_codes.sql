CREATE TABLE "due_diligence_zip_codes" (
	"owner_id" text NOT NULL,
	"zip_code" text NOT NULL,
	"last_used_at" timestamp with time zone NOT NULL,
	CONSTRAINT "due_diligence_zip_codes_owner_id_zip_code_pk" PRIMARY KEY("owner_id","zip_code")
);
--> statement-breakpoint
ALTER TABLE "due_diligence_zip_codes" ADD CONSTRAINT "due_diligence_zip_codes_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "due_diligence_zip_codes_used_idx" ON "due_diligence_zip_codes" USING btree ("last_used_at");