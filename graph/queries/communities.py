"""Cypher for communities (graph/communities.py)."""

# The weighted graph a community run partitions, read in one bounded query: one row per pair of live entities,
# its weight the sum of its current facts (each 1 + ln(evidence): stated often, tied closer) and of its
# character interaction (ln(1 + scenes + 2 x quotes): a hundred scenes together weigh like four or five facts,
# not a hundred). The strongest $max_edges pairs are kept.
EDGES = """
CALL () {
  MATCH (s:Entity)-[r:RELATES_TO]->(o:Entity)
  WHERE r.group_id = $group_id AND r.expired_at IS NULL AND NOT coalesce(r.negated, false)
    AND (r.invalid_at IS NULL OR r.invalid_at > $now) AND r.story_until IS NULL
    AND s <> o AND s.expired_at IS NULL AND o.expired_at IS NULL
  WITH s, o, size(coalesce(r.evidence, [])) AS spans, size(coalesce(r.episodes, [])) AS episodes
  RETURN s.uuid AS a, o.uuid AS b,
         1.0 + log(toFloat(CASE WHEN spans > episodes THEN spans WHEN episodes > 0 THEN episodes ELSE 1 END)) AS w
  UNION ALL
  MATCH (s:Entity {group_id: $group_id})-[i:INTERACTS_WITH]->(o:Entity)
  WHERE s.expired_at IS NULL AND o.expired_at IS NULL AND s <> o
  RETURN s.uuid AS a, o.uuid AS b, log(1.0 + toFloat(coalesce(i.weight, 0))) AS w
}
WITH CASE WHEN a < b THEN a ELSE b END AS a, CASE WHEN a < b THEN b ELSE a END AS b, w
WITH a, b, sum(w) AS weight WHERE weight > 0
RETURN a, b, weight ORDER BY weight DESC, a, b LIMIT $max_edges
"""

ENTITY_INFO = """
UNWIND $uuids AS id
MATCH (e:Entity {uuid: id}) WHERE e.group_id = $group_id
RETURN e.uuid AS uuid, e.name AS name, coalesce(e.type, 'Entity') AS type, coalesce(e.summary, '') AS summary
"""

# A run replaces the group's communities in one transaction: a community whose members did not change keeps
# its uuid (uuid5 of the sorted members) and node; the others go.
DROP_OTHERS = """
MATCH (c:Community {group_id: $group_id}) WHERE NOT c.uuid IN $keep
DETACH DELETE c
"""

UPSERT = """
UNWIND $rows AS row
MERGE (c:Community {uuid: row.uuid})
SET c.group_id = $group_id, c.group_tag = $group_tag, c.title = row.title, c.summary = row.summary,
    c.size = row.size, c.level = row.level, c.computed_at = $now
WITH c, row
CALL (c, row) {
  UNWIND range(0, size(row.members) - 1) AS k
  WITH k, row.members[k] AS m
  MATCH (e:Entity {uuid: m.uuid}) WHERE e.group_id = $group_id
  MERGE (c)-[h:HAS_MEMBER]->(e)
  SET h.strength = m.strength, h.rank = k
}
"""

_COMMUNITY = """
CALL (c) {
  MATCH (c)-[h:HAS_MEMBER]->(e:Entity)
  WITH h, e ORDER BY h.rank LIMIT $members
  RETURN collect({uuid: e.uuid, name: e.name, type: coalesce(e.type, 'Entity'), strength: h.strength}) AS members
}
RETURN c.uuid AS uuid, c.group_id AS group_id, c.title AS title, coalesce(c.summary, '') AS summary,
       c.size AS size, coalesce(c.level, 0) AS level, toString(c.computed_at) AS computed_at, members, score
"""

LIST = """
MATCH (c:Community {group_id: $group_id})
WITH c, null AS score ORDER BY c.size DESC, c.title LIMIT $limit
""" + _COMMUNITY

SEARCH = """
CALL db.index.fulltext.queryNodes('community_text', $lucene, {limit: $limit}) YIELD node, score
WITH node AS c, score WHERE c.group_id = $group_id
""" + _COMMUNITY

OF_ENTITY = """
MATCH (c:Community {group_id: $group_id})-[:HAS_MEMBER]->(:Entity {uuid: $entity_uuid})
WITH c, null AS score ORDER BY c.size DESC LIMIT $limit
""" + _COMMUNITY

# Groups whose summaries were written since $since: what changed enough for the schedule to recompute.
CHANGED_GROUPS = """
MATCH (e:Entity) WHERE e.summarized_at > $since
RETURN DISTINCT e.group_id AS group_id LIMIT $limit
"""
