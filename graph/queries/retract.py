"""Retraction (soft: expire, keep history; the hard delete is graph/queries/purge.py)."""

MARK_EPISODE_RETRACTED = """
MATCH (ep:Episode {uuid: $episode_uuid, group_id: $group_id})
SET ep.status = 'retracted', ep.retracted_at = $now
RETURN ep.uuid AS uuid
"""

# Facts the episode supported: every fact endpoint is mentioned by its episode, so start from MENTIONS. The
# statements stay (who said the fact, in which words): history, and what a later purge reads. A fact written
# before statements were kept gets its supporting episodes as statements of unknown words ('').
RELEASE_FACTS = """
MATCH (ep:Episode {uuid: $episode_uuid})-[:MENTIONS]->(:Entity)-[r:RELATES_TO]->(:Entity)
WHERE $episode_uuid IN r.episodes
WITH DISTINCT r
SET r.statements = coalesce(r.statements, [x IN r.episodes | '']),
    r.statement_speakers = coalesce(r.statement_speakers, [x IN r.episodes | '']),
    r.statement_episodes = coalesce(r.statement_episodes, r.episodes)
SET r.episodes = [x IN r.episodes WHERE x <> $episode_uuid],
    r.evidence = [x IN r.evidence WHERE NOT x STARTS WITH $episode_uuid + ':']
SET r.expired_at = CASE WHEN size(r.episodes) = 0 THEN $now ELSE r.expired_at END
RETURN startNode(r).uuid AS subject_uuid, r.predicate AS predicate, endNode(r).uuid AS object_uuid,
       size(r.episodes) = 0 AS expired
"""

# A retracted mention becomes RETRACTED_MENTION (same spans and forms): no read follows it, a purge does, and
# the episode's next commit (posted again) replaces it with MENTIONS.
DROP_MENTIONS = """
MATCH (ep:Episode {uuid: $episode_uuid})-[m:MENTIONS]->(e:Entity)
MERGE (ep)-[k:RETRACTED_MENTION]->(e)
SET k.spans = m.spans, k.surface_forms = m.surface_forms
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
