"""Hybrid search channels: full-text (BM25) and vector indexes over facts, entities and passages, plus
graph expansion from entities. Every value is a parameter; index names are constants.

Neo4j 5.26 vector indexes are not filtered, so each channel over-fetches ($k) and then filters by group,
time and type; the caller sizes $k. Channels return only uuid and score: the few fused winners are read
whole afterwards (``*_BY_UUID``), which keeps each channel's reply small.
"""

from strata.graph.queries.read import TEMPORAL_FILTER

FACT_HIT_FILTER = """
  r.group_id = $group_id
  AND ($predicates IS NULL OR r.predicate IN $predicates)
  AND ($types IS NULL OR s.type IN $types OR o.type IN $types)
  AND """ + TEMPORAL_FILTER

FACT_HIT_FIELDS = """
r.uuid AS uuid, r.group_id AS group_id, s.uuid AS subject_uuid, s.name AS subject_name, r.predicate AS predicate,
o.uuid AS object_uuid, o.name AS object_name, r.fact AS fact, r.valid_at AS valid_at, r.invalid_at AS invalid_at,
r.created_at AS created_at, r.invalidated_at AS invalidated_at, r.invalidated_by AS invalidated_by,
r.expired_at AS expired_at, r.confidence AS confidence, r.episodes AS episodes, r.asserted_by AS asserted_by,
r.agents AS agents, r.extractor AS extractor, coalesce(r.negated, false) AS negated, r.evidence AS evidence,
CASE WHEN $with_embedding THEN r.fact_embedding END AS embedding
"""

FACT_FULLTEXT = """
CALL db.index.fulltext.queryRelationships('fact_fulltext', $lucene, {limit: $k}) YIELD relationship, score
WITH relationship AS r, score, startNode(relationship) AS s, endNode(relationship) AS o
WHERE """ + FACT_HIT_FILTER + """
RETURN r.uuid AS uuid, score ORDER BY score DESC LIMIT $limit
"""

FACT_VECTOR = """
CALL db.index.vector.queryRelationships('fact_embedding', $k, $embedding) YIELD relationship, score
WITH relationship AS r, score, startNode(relationship) AS s, endNode(relationship) AS o
WHERE """ + FACT_HIT_FILTER + """
RETURN r.uuid AS uuid, score ORDER BY score DESC LIMIT $limit
"""

# Facts around the given entities (matched by the entity channels or named by the client as `center`).
FACT_EXPANSION = """
UNWIND range(0, size($entities) - 1) AS i
MATCH (c:Entity {uuid: $entities[i]})-[r:RELATES_TO]-(:Entity)
WITH i, r, startNode(r) AS s, endNode(r) AS o
WHERE """ + FACT_HIT_FILTER + """
WITH r, min(i) AS rank_of_entity
RETURN r.uuid AS uuid, 1.0 / (1 + rank_of_entity) AS score
ORDER BY rank_of_entity, r.valid_at DESC, r.uuid LIMIT $limit
"""

ENTITY_HIT_FIELDS = """
e.uuid AS uuid, e.group_id AS group_id, e.name AS name, e.key AS key, e.type AS type, e.aliases AS aliases,
e.summary AS summary, e.created_at AS created_at, e.updated_at AS updated_at,
CASE WHEN $with_embedding THEN e.name_embedding END AS embedding
"""

ENTITY_FILTER = """
e.group_id = $group_id AND e.expired_at IS NULL AND ($types IS NULL OR e.type IN $types)
  AND ($user_known_at IS NULL OR e.created_at <= $user_known_at)
"""

ENTITY_FULLTEXT = """
CALL db.index.fulltext.queryNodes('entity_fulltext', $lucene, {limit: $k}) YIELD node AS e, score
WITH e, score WHERE """ + ENTITY_FILTER + """
RETURN e.uuid AS uuid, score ORDER BY score DESC LIMIT $limit
"""

ENTITY_VECTOR = """
CALL db.index.vector.queryNodes('entity_name_embedding', $k, $embedding) YIELD node AS e, score
WITH e, score WHERE """ + ENTITY_FILTER + """
RETURN e.uuid AS uuid, score ORDER BY score DESC LIMIT $limit
"""

PASSAGE_FILTER = """
p.group_id = $group_id
WITH p, score
MATCH (ep:Episode {uuid: p.episode_uuid})
WHERE ep.status = 'done' AND ep.group_id = $group_id
  AND ($user_as_of IS NULL OR ep.reference_time <= $user_as_of)
  AND ($user_known_at IS NULL OR ep.created_at <= $user_known_at)
"""

PASSAGE_FIELDS = """
p.uuid AS uuid, p.episode_uuid AS episode_uuid, p.start AS start, p.end AS end, p.text AS text,
p.speaker AS speaker, CASE WHEN $with_embedding THEN p.embedding END AS embedding
"""

PASSAGE_FULLTEXT = """
CALL db.index.fulltext.queryNodes('passage_fulltext', $lucene, {limit: $k}) YIELD node AS p, score
WITH p, score WHERE """ + PASSAGE_FILTER + """
RETURN p.uuid AS uuid, score ORDER BY score DESC LIMIT $limit
"""

PASSAGE_VECTOR = """
CALL db.index.vector.queryNodes('passage_embedding', $k, $embedding) YIELD node AS p, score
WITH p, score WHERE """ + PASSAGE_FILTER + """
RETURN p.uuid AS uuid, score ORDER BY score DESC LIMIT $limit
"""

# The fused winners, read whole once the channels (which return only uuid and score) are fused, each with the
# episodes its provenance points into (a handful per hit), so one round trip gives hits and provenance.
EPISODE_MAP = """
{uuid: ep.uuid, source_uuid: ep.source_uuid, source_name: coalesce(src.name, ep.source_name), seq: ep.seq,
 kind: ep.kind, speakers: ep.speakers, reference_time: ep.reference_time, metadata_json: ep.metadata_json,
 messages_json: ep.messages_json, content: ep.content}
"""

# Evidence keys are "episode:start:end"; evidence episodes come first, then episodes that stated it without a span.
FACTS_BY_UUID = """
UNWIND $uuids AS id
MATCH ()-[r:RELATES_TO {uuid: id}]->()
WITH r, startNode(r) AS s, endNode(r) AS o WHERE r.group_id = $group_id
CALL (r) {
  WITH [x IN coalesce(r.evidence, []) | split(x, ':')[0]] + coalesce(r.episodes, []) AS named
  UNWIND reduce(ids = [], x IN named | CASE WHEN x IN ids THEN ids ELSE ids + x END)[..$per_item] AS episode_uuid
  MATCH (ep:Episode {uuid: episode_uuid}) WHERE ep.group_id = $group_id
  OPTIONAL MATCH (src:Source {uuid: ep.source_uuid})
  RETURN collect(""" + EPISODE_MAP + """) AS provenance_episodes
}
RETURN """ + FACT_HIT_FIELDS + """, provenance_episodes
"""

# Where each entity was mentioned, newest episodes first; bounded for hub entities (a city mentioned by
# thousands of episodes): a few dozen mentions are read, the newest of those are returned.
ENTITIES_BY_UUID = """
UNWIND $uuids AS id
MATCH (e:Entity {uuid: id}) WHERE e.group_id = $group_id
CALL (e) {
  MATCH (ep:Episode)-[m:MENTIONS]->(e) WHERE ep.group_id = $group_id AND ep.status = 'done'
  WITH ep, m LIMIT 50
  WITH ep, m ORDER BY ep.reference_time DESC LIMIT $per_item
  OPTIONAL MATCH (src:Source {uuid: ep.source_uuid})
  RETURN collect({episode_uuid: ep.uuid, spans: m.spans}) AS mentions,
         collect(""" + EPISODE_MAP + """) AS provenance_episodes
}
RETURN """ + ENTITY_HIT_FIELDS + """, mentions, provenance_episodes
"""

PASSAGES_BY_UUID = """
UNWIND $uuids AS id
MATCH (p:Passage {uuid: id}) WHERE p.group_id = $group_id
CALL (p) {
  MATCH (ep:Episode {uuid: p.episode_uuid}) WHERE ep.group_id = $group_id
  OPTIONAL MATCH (src:Source {uuid: ep.source_uuid})
  RETURN collect(""" + EPISODE_MAP + """) AS provenance_episodes
}
RETURN """ + PASSAGE_FIELDS + """, provenance_episodes
"""

BRUTE_FORCE_FACTS = """
MATCH ()-[r:RELATES_TO]->() WHERE r.group_id = $group_id AND r.fact_embedding IS NOT NULL
WITH r, vector.similarity.cosine(r.fact_embedding, $embedding) AS score
ORDER BY score DESC LIMIT $limit
RETURN r.uuid AS uuid, score
"""
