// Range indexes for group scoping, lookups by key and time-window filters.
CREATE INDEX source_group IF NOT EXISTS FOR (n:Source) ON (n.group_id, n.content_hash);
CREATE INDEX episode_group IF NOT EXISTS FOR (n:Episode) ON (n.group_id);
CREATE INDEX episode_source_seq IF NOT EXISTS FOR (n:Episode) ON (n.source_uuid, n.seq);
CREATE INDEX episode_status IF NOT EXISTS FOR (n:Episode) ON (n.status);
CREATE INDEX entity_group IF NOT EXISTS FOR (n:Entity) ON (n.group_id);
CREATE INDEX entity_key IF NOT EXISTS FOR (n:Entity) ON (n.key);
CREATE INDEX passage_episode IF NOT EXISTS FOR (n:Passage) ON (n.episode_uuid);
CREATE INDEX fact_group IF NOT EXISTS FOR ()-[r:RELATES_TO]-() ON (r.group_id);
CREATE INDEX fact_predicate IF NOT EXISTS FOR ()-[r:RELATES_TO]-() ON (r.predicate);
CREATE INDEX fact_valid_at IF NOT EXISTS FOR ()-[r:RELATES_TO]-() ON (r.valid_at);
CREATE INDEX fact_invalid_at IF NOT EXISTS FOR ()-[r:RELATES_TO]-() ON (r.invalid_at);
CREATE INDEX fact_expired_at IF NOT EXISTS FOR ()-[r:RELATES_TO]-() ON (r.expired_at);
