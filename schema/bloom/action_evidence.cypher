// Where the selected facts come from: their episodes, the sources of those, the passages their evidence
// spans cover, and the episodes' mentions of the two ends.
MATCH (a:Entity)-[r:RELATES_TO]->(b:Entity)
WHERE elementId(r) IN $relationships AND r.group_id = group_id
MATCH (ep:Episode)
WHERE ep.uuid IN r.episodes
OPTIONAL MATCH m = (ep)-[:MENTIONS]->(x:Entity)
WHERE x = a OR x = b
OPTIONAL MATCH src = (:Source)-[:HAS_EPISODE]->(ep)
OPTIONAL MATCH said = (ep)-[:HAS_PASSAGE]->(ps:Passage)
WHERE any(ev IN coalesce(r.evidence, []) WHERE split(ev, ':')[0] = ep.uuid
          AND toInteger(split(ev, ':')[1]) < ps.end AND toInteger(split(ev, ':')[2]) > ps.start)
RETURN ep, m, src, said
LIMIT 500
