// Entity summaries (ingest/summaries.py): the entities whose facts or notes changed since their summary was
// written (`summary_stale`, true or absent, so the index holds only those), and when each summary was written
// (the community schedule recomputes the groups whose summaries changed since its last run).
CREATE INDEX entity_summary_stale IF NOT EXISTS FOR (n:Entity) ON (n.summary_stale);
CREATE INDEX entity_summarized_at IF NOT EXISTS FOR (n:Entity) ON (n.summarized_at);
// Communities (ingest/communities.py): (:Community {uuid, group_id, title, summary, size, level, computed_at})
// -[:HAS_MEMBER]->(:Entity), found by full text over title and summary within a group (group_tag, migration 0010).
CREATE CONSTRAINT community_uuid IF NOT EXISTS FOR (c:Community) REQUIRE c.uuid IS UNIQUE;
CREATE INDEX community_group IF NOT EXISTS FOR (c:Community) ON (c.group_id, c.size);
CREATE FULLTEXT INDEX community_text IF NOT EXISTS FOR (c:Community) ON EACH [c.title, c.summary, c.group_tag]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
