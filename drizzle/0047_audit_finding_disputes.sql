ALTER TABLE "audit_findings" DROP CONSTRAINT "audit_findings_status_check";--> statement-breakpoint
ALTER TABLE "audit_findings" ADD COLUMN "disputed_on" date;--> statement-breakpoint
ALTER TABLE "audit_findings" ADD COLUMN "claim_reference" text;--> statement-breakpoint
ALTER TABLE "audit_findings" ADD COLUMN "amount_claimed_cents" bigint;--> statement-breakpoint
ALTER TABLE "audit_findings" ADD COLUMN "credit_cents" bigint;--> statement-breakpoint
ALTER TABLE "audit_findings" ADD COLUMN "credit_bill_id" text;--> statement-breakpoint
ALTER TABLE "audit_findings" ADD COLUMN "dispute_closed_on" date;--> statement-breakpoint
ALTER TABLE "audit_findings" ADD CONSTRAINT "audit_findings_credit_bill_id_utility_bills_id_fk" FOREIGN KEY ("credit_bill_id") REFERENCES "public"."utility_bills"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_findings_credit_bill_idx" ON "audit_findings" USING btree ("credit_bill_id") WHERE "audit_findings"."credit_bill_id" is not null;--> statement-breakpoint
CREATE INDEX "audit_findings_open_dispute_idx" ON "audit_findings" USING btree ("disputed_on") WHERE "audit_findings"."status" = 'disputed';--> statement-breakpoint
ALTER TABLE "audit_findings" ADD CONSTRAINT "audit_findings_dispute_check" CHECK (("audit_findings"."status" in ('disputed', 'credited', 'denied'))
      = ("audit_findings"."disputed_on" is not null and "audit_findings"."claim_reference" is not null and "audit_findings"."amount_claimed_cents" is not null)
      and char_length(coalesce("audit_findings"."claim_reference", 'x')) between 1 and 100
      and coalesce("audit_findings"."amount_claimed_cents", 1) > 0
      and ("audit_findings"."amount_cents" is null or "audit_findings"."amount_cents" <= 0 or coalesce("audit_findings"."amount_claimed_cents", 0) <= "audit_findings"."amount_cents"));--> statement-breakpoint
ALTER TABLE "audit_findings" ADD CONSTRAINT "audit_findings_credit_check" CHECK (("audit_findings"."status" = 'credited') = ("audit_findings"."credit_cents" is not null)
      and ("audit_findings"."status" = 'credited' or "audit_findings"."credit_bill_id" is null)
      and coalesce("audit_findings"."credit_cents", 1) > 0 and coalesce("audit_findings"."credit_cents", 0) <= coalesce("audit_findings"."amount_claimed_cents", 0)
      and ("audit_findings"."status" in ('credited', 'denied')) = ("audit_findings"."dispute_closed_on" is not null)
      and coalesce("audit_findings"."dispute_closed_on" >= "audit_findings"."disputed_on", true));--> statement-breakpoint
ALTER TABLE "audit_findings" ADD CONSTRAINT "audit_findings_status_check" CHECK ("audit_findings"."status" in ('open', 'resolved', 'disputed', 'credited', 'denied'));