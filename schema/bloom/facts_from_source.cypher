// The facts the source named $source states (its episodes are their provenance), retracted ones left out.
MATCH (s:Source {group_id: group_id})
WHERE s.name = $source
MATCH (s)-[:HAS_EPISODE]->(ep:Episode)-[:MENTIONS]->(a:Entity)-[r:RELATES_TO]->(b:Entity)
WHERE ep.uuid IN r.episodes AND r.expired_at IS NULL
RETURN DISTINCT s, a, r, b
LIMIT 1000
