// The extractor's roster of a group without a source reads the group's latest committed episodes
// (graph/queries/read.py GROUP_ROSTER): equality on group_id, newest committed_at first, a few read.
CREATE INDEX episode_group_committed IF NOT EXISTS FOR (n:Episode) ON (n.group_id, n.committed_at);
