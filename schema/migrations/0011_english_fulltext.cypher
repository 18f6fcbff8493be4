// Facts and passages are prose: their full-text indexes use the `english` analyzer (Porter stemming, English
// stop words), so "where does Maya live" finds "Maya lives in Berlin" and "lived" finds "live". Entity names
// keep `standard-no-stop-words` (no stemming of names, "The Who" keeps its words). Neo4j allows one full-text
// index per schema, so each is dropped and created again under its name (population is asynchronous).
DROP INDEX fact_text IF EXISTS;
CREATE FULLTEXT INDEX fact_text IF NOT EXISTS FOR ()-[r:RELATES_TO]-() ON EACH [r.fact, r.predicate, r.group_tag]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
DROP INDEX passage_text IF EXISTS;
CREATE FULLTEXT INDEX passage_text IF NOT EXISTS FOR (n:Passage) ON EACH [n.text, n.group_tag]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
