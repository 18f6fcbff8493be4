// Quotations in prose (schema/plan.py QuoteWrite): (speaker:Entity)-[:SAID]->(q:Quote)-[:TO]->(addressee:Entity),
// each hanging off its episode; listed per group in episode and position order.
CREATE CONSTRAINT quote_uuid IF NOT EXISTS FOR (q:Quote) REQUIRE q.uuid IS UNIQUE;
CREATE INDEX quote_group_episode IF NOT EXISTS FOR (q:Quote) ON (q.group_id, q.episode_uuid);
