-- The start of an owner's recompute in one round trip: its lock, then what it reads under it.
-- A function, because each statement in it takes a new snapshot: the read sees what the previous
-- holder of the lock committed (one statement reading after waiting for a lock would not).
-- Sets the transaction up too: memory for the rollup statement's sorts, and a commit that does
-- not wait for its WAL to reach the disk (what a recompute writes is derived from committed data
-- and recomputed if a crash loses it). The marks are read with the version they are compared
-- with, so no write can fall between the two.
CREATE OR REPLACE FUNCTION analytics_lock_owner_and_read(owner text)
RETURNS TABLE (version float8, snapshot_version float8, snapshot_month text, dirty json)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(7312, hashtext(owner));
  PERFORM set_config('work_mem', '64MB', true), set_config('synchronous_commit', 'off', true);
  RETURN QUERY
    SELECT coalesce(v.version, 0)::float8, s.data_version::float8, s.as_of_month::text,
      (SELECT coalesce(json_agg(json_build_array(d.property_id, d.rollup_from, d.rollup_to)), '[]'::json)
        FROM analytics_dirty_properties d
        WHERE d.owner_id = u.id AND d.marked_version <= coalesce(v.version, 0))
    FROM users u
    LEFT JOIN owner_data_versions v ON v.owner_id = u.id
    LEFT JOIN analytics_owner_snapshots s ON s.owner_id = u.id
    WHERE u.id = owner;
END $$;
