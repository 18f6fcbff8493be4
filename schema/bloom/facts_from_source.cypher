// The facts stated by the source named $source (a book, a chat export, an API caller's source name): the
// facts whose provenance is one of its episodes, retracted ones left out.
MATCH (ep:Episode {group_id: group_id})
WHERE ep.source_name = $source AND ep.status <> 'retracted'
MATCH (ep)-[:MENTIONS]->(a:Entity)-[r:RELATES_TO]->(b:Entity)
WHERE ep.uuid IN r.episodes AND r.expired_at IS NULL
OPTIONAL MATCH (s:Source)-[:HAS_EPISODE]->(ep)
RETURN DISTINCT a, r, b, s
LIMIT 1000
