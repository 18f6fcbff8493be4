"""Bulk writes for synthetic benchmark graphs: plain CREATEs in UNWIND batches, no resolution, no temporal rules.

The generator computes every property (including each succession's end and ``invalidated_by``) up front, so a
batch is one round trip. Only for fresh ``bench-`` groups; the per-episode commit stays the way real data goes in.
"""

BULK_ENTITIES = """
UNWIND $rows AS row
CREATE (e:Entity {uuid: row.uuid, group_id: $group_id, group_tag: $group_tag, key: row.key,
                  name: row.name, type: row.type, aliases: [], summary: row.summary, created_at: $now,
                  updated_at: $now})
SET e:$(row.type)
WITH e, row
CALL db.create.setNodeVectorProperty(e, 'name_embedding', row.embedding)
"""

BULK_EPISODES = """
UNWIND $rows AS row
CREATE (ep:Episode {uuid: row.uuid, group_id: $group_id, kind: 'facts', content: row.content,
                    content_hash: row.content_hash, source_name: row.source_name, reference_time: row.reference_time,
                    reference_time_inferred: false, status: 'done', created_at: $now, committed_at: $now,
                    metadata_json: '{}', messages_json: '[]', speakers: [], seq: row.seq, span_start: 0,
                    span_end: size(row.content), extractor: 'bench'})
CREATE (p:Passage {uuid: row.passage_uuid, group_id: $group_id, group_tag: $group_tag,
                   episode_uuid: row.uuid, start: 0, end: size(row.content), text: row.content,
                   context: row.content})
CREATE (ep)-[:HAS_PASSAGE]->(p)
WITH ep, p, row
CALL db.create.setNodeVectorProperty(p, 'embedding', row.embedding)
WITH ep, p, row
CALL db.create.setNodeVectorProperty(p, 'context_embedding', row.embedding)
WITH ep, row
UNWIND row.mentions AS m
MATCH (e:Entity {uuid: m.entity_uuid})
CREATE (ep)-[:MENTIONS {spans: m.spans, surface_forms: [e.name]}]->(e)
"""

BULK_FACTS = """
UNWIND $rows AS f
MATCH (s:Entity {uuid: f.subject_uuid}), (o:Entity {uuid: f.object_uuid})
CREATE (s)-[r:RELATES_TO {uuid: f.uuid, group_id: $group_id, group_tag: $group_tag,
                          predicate: f.predicate, fact: f.fact,
                          valid_at: f.valid_at, stated_invalid_at: null, invalid_at: f.invalid_at,
                          invalidated_by: f.invalidated_by, invalidated_at: f.invalidated_at, negated: false,
                          confidence: 1.0, created_at: $now, extractor: 'bench', episodes: [f.episode_uuid],
                          evidence: [f.evidence], asserted_by: [], agents: ['bench']}]->(o)
WITH r, f
CALL db.create.setRelationshipVectorProperty(r, 'fact_embedding', f.embedding)
"""

BULK_PREDICATES = """
UNWIND $rows AS p
CREATE (:Predicate {group_id: $group_id, name: p.name, description: p.description, functional: p.functional,
                    count: p.count, created_at: $now})
"""

# Deletes in bounded batches (one transaction each); the caller loops until a batch deletes nothing.
DROP_FACTS_BATCH = """
MATCH ()-[r:RELATES_TO]->() WHERE r.group_id = $group_id
WITH r LIMIT $batch DELETE r RETURN count(*) AS n
"""

DROP_NODES_BATCH = """
MATCH (n) WHERE n.group_id = $group_id
WITH n LIMIT $batch DETACH DELETE n RETURN count(*) AS n
"""

DELETE_KEY = "MATCH (k:ApiKey {id: $id}) DETACH DELETE k"
