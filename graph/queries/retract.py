"""Retraction (soft: expire, keep history) and purge (hard delete for data-removal requests)."""

MARK_EPISODE_RETRACTED = """
MATCH (ep:Episode {uuid: $episode_uuid, group_id: $group_id})
SET ep.status = 'retracted', ep.retracted_at = $now
RETURN ep.uuid AS uuid
"""

# Facts the episode supported: every fact endpoint is mentioned by its episode, so start from MENTIONS.
RELEASE_FACTS = """
MATCH (ep:Episode {uuid: $episode_uuid})-[:MENTIONS]->(:Entity)-[r:RELATES_TO]->(:Entity)
WHERE $episode_uuid IN r.episodes
WITH DISTINCT r
SET r.episodes = [x IN r.episodes WHERE x <> $episode_uuid],
    r.evidence = [x IN r.evidence WHERE NOT x STARTS WITH $episode_uuid + ':']
SET r.expired_at = CASE WHEN size(r.episodes) = 0 THEN $now ELSE r.expired_at END
RETURN startNode(r).uuid AS subject_uuid, r.predicate AS predicate, endNode(r).uuid AS object_uuid,
       size(r.episodes) = 0 AS expired
"""

DROP_MENTIONS = """
MATCH (ep:Episode {uuid: $episode_uuid})-[m:MENTIONS]->(e:Entity)
DELETE m
WITH DISTINCT e
WHERE NOT EXISTS { (:Episode)-[:MENTIONS]->(e) }
  AND NOT EXISTS { (e)-[r:RELATES_TO]-() WHERE r.expired_at IS NULL }
SET e.expired_at = $now
RETURN count(e) AS dropped
"""

SOURCE_EPISODES = """
MATCH (s:Source {uuid: $source_uuid, group_id: $group_id})-[:HAS_EPISODE]->(ep:Episode)
WHERE ep.status <> 'retracted'
RETURN ep.uuid AS uuid ORDER BY ep.seq
"""

MARK_SOURCE_RETRACTED = """
MATCH (s:Source {uuid: $source_uuid, group_id: $group_id}) SET s.retracted_at = $now RETURN s.uuid AS uuid
"""

PURGE_EPISODE = """
MATCH (ep:Episode {uuid: $episode_uuid, group_id: $group_id})
OPTIONAL MATCH (ep)-[:MENTIONS]->(:Entity)-[r:RELATES_TO]->(:Entity)
WHERE r.episodes = [$episode_uuid] OR (size(r.episodes) = 0 AND r.expired_at IS NOT NULL)
WITH ep, collect(DISTINCT r) AS only_here
FOREACH (r IN only_here | DELETE r)
WITH ep
OPTIONAL MATCH (ep)-[:HAS_PASSAGE]->(p:Passage)
OPTIONAL MATCH (p)-[:HAS_NOTE]->(n:Note)
DETACH DELETE n, p
WITH DISTINCT ep
OPTIONAL MATCH (ep)-[:HAS_QUOTE]->(qt:Quote)
DETACH DELETE qt
WITH DISTINCT ep
OPTIONAL MATCH (ep)-[:MENTIONS]->(e:Entity)
WITH ep, collect(DISTINCT e) AS mentioned
DETACH DELETE ep
WITH mentioned
UNWIND mentioned AS e
WITH e WHERE NOT EXISTS { (:Episode)-[:MENTIONS]->(e) } AND NOT EXISTS { (e)-[:RELATES_TO]-() }
DETACH DELETE e
"""
