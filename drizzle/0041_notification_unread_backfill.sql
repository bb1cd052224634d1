-- The counts of users with notifications stored before the triggers of 0040 (exact: recounted).
INSERT INTO notification_unread_counts AS c (user_id, unread)
SELECT user_id, count(*) FILTER (WHERE read_at IS NULL) FROM notifications GROUP BY user_id
ON CONFLICT (user_id) DO UPDATE SET unread = excluded.unread;
