-- The stored RUBS result (about 0.5 MB of JSON for 10,000 units) compressed with lz4, which takes a
-- tenth of the default pglz's time for it (about 1 ms instead of 11 per calculation); a server
-- built without lz4 (PGlite) keeps pglz.
DO $$
BEGIN
  ALTER TABLE rubs_calculations ALTER COLUMN result SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  NULL;
END
$$;
