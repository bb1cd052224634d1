-- RUBS results are stored as plain JSON text now (they were deflated before): let PostgreSQL compress them again (TOAST's default).
ALTER TABLE "rubs_calculations" ALTER COLUMN "result" SET STORAGE EXTENDED;
