// Retention policies (graph/retention.py): at most one (:RetentionPolicy {group_id, raw_text_days, passages_days,
// compact_history_days, salience_half_life_days, updated_at, updated_by, applied_at}) per group.
CREATE CONSTRAINT retention_policy_group IF NOT EXISTS FOR (p:RetentionPolicy) REQUIRE p.group_id IS UNIQUE;
