-- A stored RUBS result is written once and read back whole; a 10,000-unit result is about 0.7 MB.
-- EXTERNAL keeps it out of line without trying to compress it: the write takes about half as long.
ALTER TABLE "rubs_calculations" ALTER COLUMN "result" SET STORAGE EXTERNAL;
