"""Cypher for the character network (graph/network.py).

Scenes are episodes that mention both characters; quotes are (speaker)-[:SAID]->(:Quote)-[:TO]->(addressee).
A story cut (graph/story.py) keeps what one book showed before a position: episodes whose story_position
is before it.
"""

# Recompute stored INTERACTS_WITH edges from the evidence, so a commit, retraction, merge or undo leaves the
# edges exactly what the graph supports (no counters to drift). Two ways to name the pairs, one tail.
_CAST_PAIRS = """
MATCH (e:Entity) WHERE e.uuid IN $uuids AND e.group_id = $group_id AND e.type IN $types
WITH collect(e) AS cast
UNWIND cast AS a
UNWIND cast AS b
WITH a, b WHERE a.uuid < b.uuid
"""

# Every pair one of $uuids forms with another entity through scenes, quotes or a stored edge: what changes
# when the entity gains or loses mentions (a merge, its undo, a split).
_PARTNER_PAIRS = """
UNWIND $uuids AS id
MATCH (e:Entity {uuid: id})
CALL (e) {
  MATCH (e)<-[:MENTIONS]-(:Episode)-[:MENTIONS]->(x:Entity) RETURN x
  UNION
  MATCH (e)-[:SAID|TO]-(:Quote)-[:SAID|TO]-(x:Entity) RETURN x
  UNION
  MATCH (e)-[:INTERACTS_WITH]-(x:Entity) RETURN x
}
WITH e, x WHERE e <> x
WITH DISTINCT CASE WHEN e.uuid < x.uuid THEN [e, x] ELSE [x, e] END AS pair
WITH pair[0] AS a, pair[1] AS b
"""

_REFRESH = """
CALL (a, b) {
  OPTIONAL MATCH (a)<-[:MENTIONS]-(ep:Episode)-[:MENTIONS]->(b)
  WITH ep ORDER BY ep.reference_time, ep.seq
  WITH collect(ep) AS eps
  RETURN size(eps) AS scenes, head(eps) AS first, last(eps) AS last
}
WITH a, b, scenes, first, last,
     COUNT { (a)-[:SAID]->(:Quote)-[:TO]->(b) } AS a_to_b,
     COUNT { (b)-[:SAID]->(:Quote)-[:TO]->(a) } AS b_to_a
OPTIONAL MATCH (a)-[old:INTERACTS_WITH]->(b)
WITH a, b, scenes, first, last, a_to_b, b_to_a, old,
     scenes + a_to_b + b_to_a > 0 AND a.expired_at IS NULL AND b.expired_at IS NULL
     AND a.type IN $types AND b.type IN $types AS seen
FOREACH (_ IN CASE WHEN old IS NOT NULL AND NOT seen THEN [1] ELSE [] END | DELETE old)
WITH a, b, scenes, first, last, a_to_b, b_to_a, seen WHERE seen
MERGE (a)-[r:INTERACTS_WITH]->(b)
SET r.group_id = $group_id, r.scenes = scenes, r.a_to_b = a_to_b, r.b_to_a = b_to_a,
    r.weight = scenes + 2 * (a_to_b + b_to_a),
    r.first_episode = first.uuid, r.first_chapter = first.chapter,
    r.first_position = coalesce(first.story_position, first.span_start),
    r.last_episode = last.uuid, r.last_chapter = last.chapter,
    r.last_position = coalesce(last.story_position, last.span_start),
    r.updated_at = $now
RETURN count(r) AS refreshed
"""

REFRESH_CAST = _CAST_PAIRS + _REFRESH
REFRESH_PARTNERS = _PARTNER_PAIRS + _REFRESH

EPISODE_CAST = """
MATCH (:Episode {uuid: $episode_uuid})-[:MENTIONS]->(e:Entity)
RETURN collect(e.uuid) AS uuids
"""

# Scenes computed at read time, so they can stop at a story position.
SCENES = """
MATCH (ep:Episode {group_id: $group_id})-[:MENTIONS]->(e:Entity)
WHERE ep.status <> 'retracted' AND e.expired_at IS NULL AND e.type IN $types
  AND ($story_source IS NULL OR (ep.source_uuid = $story_source AND ep.story_position < $story_at))
WITH ep, collect(e) AS cast
UNWIND cast AS a
UNWIND cast AS b
WITH ep, a, b WHERE a.uuid < b.uuid AND ($entity_uuid IS NULL OR $entity_uuid IN [a.uuid, b.uuid])
WITH a, b, ep ORDER BY ep.reference_time, ep.seq
WITH a, b, collect(ep) AS eps
WITH a, b, size(eps) AS scenes, head(eps) AS f, last(eps) AS l
RETURN a.uuid AS a_uuid, a.name AS a_name, b.uuid AS b_uuid, b.name AS b_name, scenes,
       {episode_uuid: f.uuid, chapter: f.chapter, position: coalesce(f.story_position, f.span_start)} AS first,
       {episode_uuid: l.uuid, chapter: l.chapter, position: coalesce(l.story_position, l.span_start)} AS last
"""

QUOTE_PAIRS = """
MATCH (s:Entity)-[:SAID]->(q:Quote {group_id: $group_id})-[:TO]->(t:Entity)
MATCH (ep:Episode {uuid: q.episode_uuid})
WHERE ep.status <> 'retracted' AND s.expired_at IS NULL AND t.expired_at IS NULL AND s <> t
  AND s.type IN $types AND t.type IN $types
  AND ($story_source IS NULL OR (ep.source_uuid = $story_source AND ep.story_position + q.start < $story_at))
  AND ($entity_uuid IS NULL OR $entity_uuid IN [s.uuid, t.uuid])
RETURN s.uuid AS speaker_uuid, s.name AS speaker_name, t.uuid AS addressee_uuid, t.name AS addressee_name,
       count(q) AS quotes
"""
