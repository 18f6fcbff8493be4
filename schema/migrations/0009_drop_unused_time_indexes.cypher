// No query seeks facts by valid_at, invalid_at or expired_at across groups: every read is anchored on a
// group, an entity or a uuid, and `expired_at IS NULL` cannot use an index. Each index still cost a
// B-tree insert per fact on every commit, and fact_valid_at could tempt the planner into a range scan over
// every group's facts for an as-of listing.
DROP INDEX fact_valid_at IF EXISTS;
DROP INDEX fact_invalid_at IF EXISTS;
DROP INDEX fact_expired_at IF EXISTS;
