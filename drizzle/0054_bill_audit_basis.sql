ALTER TABLE "bill_audits" ADD COLUMN "basis" text;--> statement-breakpoint
ALTER TABLE "bill_audits" ADD COLUMN "basis_note" text;--> statement-breakpoint
ALTER TABLE "bill_audits" ADD CONSTRAINT "bill_audits_basis_check" CHECK ("bill_audits"."basis" in ('intervals', 'bill'));