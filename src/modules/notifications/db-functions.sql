-- Notifications: each user's unread count, kept by statement triggers, so dashboard
-- stats read alerts_unread by key instead of counting an owner's thousands of bill-audit notices on every read.
-- The one current definition: migrations are generated from this file (npm run db:functions), and
-- test/db-functions.test.ts checks that a migrated database holds exactly these definitions.

-- Per statement, per user: the unread rows it added minus those it removed. A user's row is made with their first
-- notification (read or not), so reads and deletes only update it (an upsert would check its negative change first).
CREATE OR REPLACE FUNCTION notification_unread_counts_maintain() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO notification_unread_counts AS c (user_id, unread)
    SELECT n.user_id, count(*) FILTER (WHERE n.read_at IS NULL) FROM new_rows n GROUP BY n.user_id
    ON CONFLICT (user_id) DO UPDATE SET unread = c.unread + excluded.unread;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE notification_unread_counts c SET unread = c.unread - o.n
    FROM (SELECT user_id, count(*) AS n FROM old_rows WHERE read_at IS NULL GROUP BY user_id) o
    WHERE c.user_id = o.user_id;
  ELSE
    UPDATE notification_unread_counts c SET unread = c.unread + d.n
    FROM (
      SELECT user_id, sum(n) AS n FROM (
        SELECT user_id, count(*) AS n FROM new_rows WHERE read_at IS NULL GROUP BY user_id
        UNION ALL
        SELECT user_id, -count(*) FROM old_rows WHERE read_at IS NULL GROUP BY user_id
      ) x GROUP BY user_id
    ) d
    WHERE c.user_id = d.user_id AND d.n <> 0;
  END IF;
  RETURN NULL;
END
$$;

DROP TRIGGER IF EXISTS notifications_unread_insert ON notifications;
CREATE TRIGGER notifications_unread_insert AFTER INSERT ON notifications REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION notification_unread_counts_maintain();
DROP TRIGGER IF EXISTS notifications_unread_update ON notifications;
CREATE TRIGGER notifications_unread_update AFTER UPDATE ON notifications REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION notification_unread_counts_maintain();
DROP TRIGGER IF EXISTS notifications_unread_delete ON notifications;
CREATE TRIGGER notifications_unread_delete AFTER DELETE ON notifications REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION notification_unread_counts_maintain();
