"""The embedder each group's vectors were made with (graph/embedder_meta.py) and the moves between embedders
(graph/reembed.py)."""

GROUP_EMBEDDER = """
MATCH (m:GroupEmbedder {group_id: $group_id})
RETURN m.name AS name, m.dimension AS dimension
"""

RECORD_EMBEDDER = """
MERGE (m:GroupEmbedder {group_id: $group_id})
SET m.name = $name, m.dimension = $dimension, m.recorded_at = datetime()
"""

OTHER_EMBEDDERS = """
MATCH (m:GroupEmbedder) WHERE m.name <> $name OR m.dimension <> $dimension
RETURN m.group_id AS group_id, m.name AS name, m.dimension AS dimension
ORDER BY group_id LIMIT $limit
"""

# Whether a group holds any vector (a group from before embedders were recorded: its vectors are MiniLM's).
HAS_VECTORS = """
CALL () {
  MATCH (e:Entity) WHERE e.group_id = $group_id AND e.name_embedding IS NOT NULL RETURN 1 AS one LIMIT 1
  UNION
  MATCH ()-[r:RELATES_TO]->() WHERE r.group_id = $group_id AND r.fact_embedding IS NOT NULL RETURN 1 AS one LIMIT 1
}
RETURN count(*) > 0 AS found
"""

# A page of a group's embedded items not yet embedded by $name (`embedded_by`), with the texts to embed.
STALE_PASSAGES = """
MATCH (ep:Episode) WHERE ep.group_id = $group_id
MATCH (ep)-[:HAS_PASSAGE]->(p:Passage)
WHERE p.embedding IS NOT NULL AND coalesce(p.embedded_by, '') <> $name
RETURN p.uuid AS uuid, [p.text, coalesce(p.context, p.text)] AS texts LIMIT $limit
"""
STALE_FACTS = """
MATCH (s)-[r:RELATES_TO]->(o) WHERE r.group_id = $group_id AND r.fact_embedding IS NOT NULL
  AND coalesce(r.embedded_by, '') <> $name
RETURN r.uuid AS uuid, [coalesce(r.fact, s.name + ' ' + r.predicate + ' ' + o.name)] AS texts LIMIT $limit
"""
STALE_ENTITIES = """
MATCH (e:Entity) WHERE e.group_id = $group_id AND e.name_embedding IS NOT NULL
  AND coalesce(e.embedded_by, '') <> $name
RETURN e.uuid AS uuid, [e.name] AS texts LIMIT $limit
"""

SET_PASSAGE_VECTORS = """
UNWIND $rows AS row
MATCH (p:Passage {uuid: row.uuid}) WHERE p.group_id = $group_id
SET p.embedding = row.vectors[0], p.context_embedding = row.vectors[1], p.embedded_by = $name
"""
SET_FACT_VECTORS = """
UNWIND $rows AS row
MATCH ()-[r:RELATES_TO {uuid: row.uuid}]->() WHERE r.group_id = $group_id
SET r.fact_embedding = row.vectors[0], r.embedded_by = $name
"""
SET_ENTITY_VECTORS = """
UNWIND $rows AS row
MATCH (e:Entity {uuid: row.uuid}) WHERE e.group_id = $group_id
SET e.name_embedding = row.vectors[0], e.embedded_by = $name
"""
