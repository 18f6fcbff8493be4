// Full-text queries keep to one group inside Lucene: every indexed node and fact carries its group as
// text (`group_tag`, 'grpstart <group_id> grpend', the form graph/lucene.py queries), and the new indexes
// index it beside the searchable fields. The old indexes ranked every group's documents together, so a
// small group's matches could fall outside the top k of a shared index.
MATCH (e:Entity) WHERE e.group_tag IS NULL SET e.group_tag = 'grpstart ' + e.group_id + ' grpend';
MATCH ()-[r:RELATES_TO]->() WHERE r.group_tag IS NULL SET r.group_tag = 'grpstart ' + r.group_id + ' grpend';
MATCH (p:Passage) WHERE p.group_tag IS NULL SET p.group_tag = 'grpstart ' + p.group_id + ' grpend';
CREATE FULLTEXT INDEX entity_text IF NOT EXISTS FOR (n:Entity) ON EACH [n.name, n.aliases, n.summary, n.group_tag];
CREATE FULLTEXT INDEX fact_text IF NOT EXISTS FOR ()-[r:RELATES_TO]-() ON EACH [r.fact, r.predicate, r.group_tag];
CREATE FULLTEXT INDEX passage_text IF NOT EXISTS FOR (n:Passage) ON EACH [n.text, n.group_tag];
DROP INDEX entity_fulltext IF EXISTS;
DROP INDEX fact_fulltext IF EXISTS;
DROP INDEX passage_fulltext IF EXISTS;
