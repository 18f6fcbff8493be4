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
