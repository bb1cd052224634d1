-- Two bills of one meter never overlap (both ends of a period are billed days). Checked once per
-- statement over the rows it wrote (transition tables), after taking the row locks of their meters
-- in id order: a concurrent writer of the same meter waits, then sees these rows when it checks.
-- Given that the stored bills of a meter do not overlap, a written row overlaps one when a bill of
-- its meter starts inside its period, or the bill starting last before it ends on or after its start.
CREATE OR REPLACE FUNCTION utility_bills_check_overlap() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  clash record;
BEGIN
  PERFORM 1 FROM meters WHERE id IN (SELECT DISTINCT meter_id FROM new_rows) ORDER BY id FOR NO KEY UPDATE;
  SELECT n.id, n.period_start, n.period_end, o.id AS other_id INTO clash
  FROM new_rows n
  CROSS JOIN LATERAL (
    (SELECT b.id FROM utility_bills b
      WHERE b.meter_id = n.meter_id AND b.id <> n.id AND b.period_start BETWEEN n.period_start AND n.period_end LIMIT 1)
    UNION ALL
    (SELECT p.id FROM (
      SELECT b.id, b.period_end FROM utility_bills b
      WHERE b.meter_id = n.meter_id AND b.id <> n.id AND b.period_start < n.period_start
      ORDER BY b.period_start DESC LIMIT 1) p
    WHERE p.period_end >= n.period_start)
  ) o
  LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'bill % (% to %) overlaps bill % of its meter', clash.id, clash.period_start, clash.period_end, clash.other_id
      USING ERRCODE = 'exclusion_violation', CONSTRAINT = 'utility_bills_no_overlap';
  END IF;
  RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS utility_bills_no_overlap_insert ON utility_bills;
CREATE TRIGGER utility_bills_no_overlap_insert AFTER INSERT ON utility_bills REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION utility_bills_check_overlap();
DROP TRIGGER IF EXISTS utility_bills_no_overlap_update ON utility_bills;
CREATE TRIGGER utility_bills_no_overlap_update AFTER UPDATE ON utility_bills REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION utility_bills_check_overlap();
