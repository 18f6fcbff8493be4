"""Suggested duplicates (`POSSIBLY_SAME_AS`, written by resolution and the consolidation pass) for review."""

# Pending suggestions: both entities current, neither accepted nor rejected; strongest first.
PENDING = """
MATCH (a:Entity)-[s:POSSIBLY_SAME_AS]->(b:Entity)
WHERE s.group_id = $group_id AND s.rejected_at IS NULL AND a.expired_at IS NULL AND b.expired_at IS NULL
  AND ($entity_uuid IS NULL OR $entity_uuid IN [a.uuid, b.uuid])
  // a pair suggested both ways round is listed once
  AND (a.uuid < b.uuid OR NOT EXISTS { (b)-[:POSSIBLY_SAME_AS]->(a) })
WITH a, b, s ORDER BY s.score DESC, a.name, b.name SKIP $offset LIMIT $limit
RETURN a.uuid AS entity_uuid, a.name AS entity_name, a.type AS entity_type,
       COUNT { (a)<-[:MENTIONS]-() } AS entity_mentions,
       b.uuid AS candidate_uuid, b.name AS candidate_name, b.type AS candidate_type,
       COUNT { (b)<-[:MENTIONS]-() } AS candidate_mentions,
       s.score AS score, s.rule AS rule, s.created_at AS created_at
"""

# The suggestion between two entities, either way round.
BETWEEN = """
MATCH (a:Entity {uuid: $a, group_id: $group_id})-[s:POSSIBLY_SAME_AS]-(b:Entity {uuid: $b, group_id: $group_id})
RETURN s.rejected_at AS rejected_at, a.expired_at IS NULL AND b.expired_at IS NULL AS current
"""

# Rejected for good: the pair is marked (either way round) so no later pass suggests it again.
REJECT = """
MATCH (a:Entity {uuid: $a, group_id: $group_id})-[s:POSSIBLY_SAME_AS]-(b:Entity {uuid: $b, group_id: $group_id})
SET s.rejected_at = $now, s.rejected_by = $actor, s.reason = $reason
RETURN count(s) AS rejected
"""

ACCEPTED = """
MATCH (a:Entity {uuid: $a, group_id: $group_id})-[s:POSSIBLY_SAME_AS]-(b:Entity {uuid: $b, group_id: $group_id})
DELETE s
"""

# Pairs kept apart among some entities: a rejected suggestion either way round (an undone merge writes one).
KEPT_APART = """
MATCH (a:Entity)-[s:POSSIBLY_SAME_AS]-(b:Entity)
WHERE a.uuid IN $uuids AND s.group_id = $group_id AND s.rejected_at IS NOT NULL
RETURN a.uuid AS uuid, collect(DISTINCT b.uuid) AS apart
"""

# An undone merge: the two are not the same, so the pair is marked rejected (a suggestion no one reviews).
KEEP_APART = """
MATCH (a:Entity {uuid: $a, group_id: $group_id}), (b:Entity {uuid: $b, group_id: $group_id})
OPTIONAL MATCH (b)-[back:POSSIBLY_SAME_AS]->(a)
FOREACH (x IN CASE WHEN back IS NULL THEN [] ELSE [back] END |
  SET x.rejected_at = coalesce(x.rejected_at, $now), x.rejected_by = coalesce(x.rejected_by, $actor),
      x.reason = coalesce(x.reason, $reason))
MERGE (a)-[s:POSSIBLY_SAME_AS]->(b)
ON CREATE SET s.group_id = $group_id, s.created_at = $now, s.rule = 'undo'
SET s.rejected_at = coalesce(s.rejected_at, $now), s.rejected_by = coalesce(s.rejected_by, $actor),
    s.reason = coalesce(s.reason, $reason)
"""
