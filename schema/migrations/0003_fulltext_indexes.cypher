// Full-text (BM25) indexes: entity names and aliases, fact sentences and predicates, episode and passage text.
CREATE FULLTEXT INDEX entity_fulltext IF NOT EXISTS FOR (n:Entity) ON EACH [n.name, n.aliases, n.summary];
CREATE FULLTEXT INDEX fact_fulltext IF NOT EXISTS FOR ()-[r:RELATES_TO]-() ON EACH [r.fact, r.predicate];
CREATE FULLTEXT INDEX episode_fulltext IF NOT EXISTS FOR (n:Episode) ON EACH [n.content];
CREATE FULLTEXT INDEX passage_fulltext IF NOT EXISTS FOR (n:Passage) ON EACH [n.text];
