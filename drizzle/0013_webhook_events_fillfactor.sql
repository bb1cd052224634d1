-- Room in every page of the inbox for the new version of a row marked processed: with no index on
-- the processing columns, that update is then HOT (heap-only, no index entry written).
ALTER TABLE "webhook_events" SET (fillfactor = 60);
