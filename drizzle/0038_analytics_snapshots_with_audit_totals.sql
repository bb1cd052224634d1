-- Dashboard stats' open audit findings and dollars at issue are now part of the owner's snapshot
-- sums (they were read live). Snapshots stored before lack them: each owner's next read recomputes.
DELETE FROM analytics_owner_snapshots;
