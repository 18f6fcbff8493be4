"""The rescoring stage's reads and writes (graph/rescore.py): each candidate's texts and its cached vectors
under the rescoring model, and the vectors computed for those that lacked them. The property names are the
model's (``$text_key``, ``$context_key``), validated in graph/rescore.py and passed as parameters."""

# kind, uuid, the texts to embed (a passage: its text and its context; a fact: its sentence; an entity: its
# name) and their cached vectors (null where missing).
RESCORE_ITEMS = """
CALL () {
  UNWIND $passage_uuids AS id
  MATCH (p:Passage {uuid: id}) WHERE p.group_id = $group_id
  RETURN 'episode' AS kind, p.uuid AS uuid, [p.text, coalesce(p.context, p.text)] AS texts,
         [p[$text_key], p[$context_key]] AS vectors
  UNION ALL
  UNWIND $fact_uuids AS id
  MATCH ()-[r:RELATES_TO {uuid: id}]->() WHERE r.group_id = $group_id
  RETURN 'fact' AS kind, r.uuid AS uuid, [r.fact] AS texts, [r[$text_key]] AS vectors
  UNION ALL
  UNWIND $entity_uuids AS id
  MATCH (e:Entity {uuid: id}) WHERE e.group_id = $group_id
  RETURN 'entity' AS kind, e.uuid AS uuid, [e.name] AS texts, [e[$text_key]] AS vectors
}
RETURN kind, uuid, texts, vectors
"""

# The same items scored against the question in the database: each cached vector's similarity on the index
# scale, (1 + cosine) / 2, null where the vector is missing; a text only where its vector is missing (only scores
# cross the wire for what is cached, not 384 floats or a passage's text each).
RESCORE_SCORES = """
CALL () {
  UNWIND $passage_uuids AS id
  MATCH (p:Passage {uuid: id}) WHERE p.group_id = $group_id
  WITH p, [p[$text_key], p[$context_key]] AS cached, [p.text, coalesce(p.context, p.text)] AS texts
  RETURN 'episode' AS kind, p.uuid AS uuid, [k IN range(0, 1) | CASE WHEN cached[k] IS NULL THEN texts[k] END] AS texts,
         [x IN cached | CASE WHEN x IS NULL THEN null ELSE vector.similarity.cosine(x, $query) END] AS sims
  UNION ALL
  UNWIND $fact_uuids AS id
  MATCH ()-[r:RELATES_TO {uuid: id}]->() WHERE r.group_id = $group_id
  RETURN 'fact' AS kind, r.uuid AS uuid, [CASE WHEN r[$text_key] IS NULL THEN r.fact END] AS texts,
         [CASE WHEN r[$text_key] IS NULL THEN null ELSE vector.similarity.cosine(r[$text_key], $query) END] AS sims
  UNION ALL
  UNWIND $entity_uuids AS id
  MATCH (e:Entity {uuid: id}) WHERE e.group_id = $group_id
  RETURN 'entity' AS kind, e.uuid AS uuid, [CASE WHEN e[$text_key] IS NULL THEN e.name END] AS texts,
         [CASE WHEN e[$text_key] IS NULL THEN null ELSE vector.similarity.cosine(e[$text_key], $query) END] AS sims
}
RETURN kind, uuid, texts, sims
"""

# Rows {uuid, props}: props maps the model's property names to the vectors computed now.
STORE_PASSAGE_VECTORS = """
UNWIND $rows AS row
MATCH (p:Passage {uuid: row.uuid}) WHERE p.group_id = $group_id
SET p += row.props
"""
STORE_FACT_VECTORS = """
UNWIND $rows AS row
MATCH ()-[r:RELATES_TO {uuid: row.uuid}]->() WHERE r.group_id = $group_id
SET r += row.props
"""
STORE_ENTITY_VECTORS = """
UNWIND $rows AS row
MATCH (e:Entity {uuid: row.uuid}) WHERE e.group_id = $group_id
SET e += row.props
"""

# A group's passages still lacking the model's vectors, a page at a time (`strata reembed --rescore`).
PASSAGES_WITHOUT = """
MATCH (ep:Episode) WHERE ep.group_id = $group_id
MATCH (ep)-[:HAS_PASSAGE]->(p:Passage) WHERE p[$text_key] IS NULL
RETURN p.uuid AS uuid LIMIT $limit
"""
