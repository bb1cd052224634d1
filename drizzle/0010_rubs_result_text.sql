-- The stored result is read back whole by the service only: text skips the server's JSON parse of
-- a 10,000-unit result on every write. A type change resets the storage, so EXTERNAL again.
ALTER TABLE "rubs_calculations" ALTER COLUMN "result" SET DATA TYPE text;--> statement-breakpoint
ALTER TABLE "rubs_calculations" ALTER COLUMN "result" SET STORAGE EXTERNAL;
