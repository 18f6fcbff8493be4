// Full-text queries can keep to one group inside Lucene: every indexed node and fact carries its group as
// one token (`group_tag`, spelled as graph/lucene.py `group_tag` spells it), and the new indexes index it
// beside the searchable fields. With the old indexes, every group's documents competed for one top k, so
// a small group's matches could fall outside it. The backfills commit in batches (large graphs).
MATCH (e:Entity) WHERE e.group_tag IS NULL
CALL (e) {
  SET e.group_tag = 'grp' + replace(replace(replace(replace(e.group_id, '-', 'x2d'), '_', 'x5f'), '.', 'x2e'), ':', 'x3a')
} IN TRANSACTIONS OF 10000 ROWS;
MATCH ()-[r:RELATES_TO]->() WHERE r.group_tag IS NULL
CALL (r) {
  SET r.group_tag = 'grp' + replace(replace(replace(replace(r.group_id, '-', 'x2d'), '_', 'x5f'), '.', 'x2e'), ':', 'x3a')
} IN TRANSACTIONS OF 10000 ROWS;
MATCH (p:Passage) WHERE p.group_tag IS NULL
CALL (p) {
  SET p.group_tag = 'grp' + replace(replace(replace(replace(p.group_id, '-', 'x2d'), '_', 'x5f'), '.', 'x2e'), ':', 'x3a')
} IN TRANSACTIONS OF 10000 ROWS;
CREATE FULLTEXT INDEX entity_text IF NOT EXISTS FOR (n:Entity) ON EACH [n.name, n.aliases, n.summary, n.group_tag];
CREATE FULLTEXT INDEX fact_text IF NOT EXISTS FOR ()-[r:RELATES_TO]-() ON EACH [r.fact, r.predicate, r.group_tag];
CREATE FULLTEXT INDEX passage_text IF NOT EXISTS FOR (n:Passage) ON EACH [n.text, n.group_tag];
DROP INDEX entity_fulltext IF EXISTS;
DROP INDEX fact_fulltext IF EXISTS;
DROP INDEX passage_fulltext IF EXISTS;
