"""Cypher for the Bloom perspective's schema read (graph/bloom.py)."""

# Which entity types each relationship type joins in the group: Bloom's path segments. Facts come through
# the fact_group index; interactions from the group's entities (INTERACTS_WITH has no index of its own).
TYPE_SEGMENTS = """
CALL () {
  MATCH (s:Entity)-[r:RELATES_TO]->(o:Entity)
  WHERE r.group_id = $group_id AND r.expired_at IS NULL
  RETURN DISTINCT 'RELATES_TO' AS rel, s.type AS source, o.type AS target
  UNION
  MATCH (s:Entity {group_id: $group_id})-[:INTERACTS_WITH]->(o:Entity)
  RETURN DISTINCT 'INTERACTS_WITH' AS rel, s.type AS source, o.type AS target
}
WITH rel, source, target WHERE source IS NOT NULL AND target IS NOT NULL
RETURN rel, source, target ORDER BY rel, source, target
"""
