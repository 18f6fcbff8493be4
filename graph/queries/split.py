"""Splitting names off an entity (graph/split.py): the names, their mentions, the facts and quotes only they
support move to another entity. Values are parameters; the label is validated and passed with $(...)."""

ENTITY = """
MATCH (e:Entity {uuid: $uuid, group_id: $group_id}) WHERE e.expired_at IS NULL
RETURN e.name AS name, coalesce(e.aliases, []) AS aliases, coalesce(e.type, 'Entity') AS type
"""

MENTION_FORMS = """
MATCH (ep:Episode)-[m:MENTIONS]->(e:Entity {uuid: $uuid, group_id: $group_id})
RETURN ep.uuid AS episode_uuid, coalesce(m.surface_forms, []) AS forms
"""

# The target: an existing entity, or the one the names' key makes (revived when a merge had expired it).
ENSURE_TARGET = """
MERGE (t:Entity {group_id: $group_id, key: $key})
ON CREATE SET t.uuid = $new_uuid, t.group_tag = $group_tag, t.name = $name, t.type = $type, t.aliases = [],
              t.summary = '', t.created_at = $now
SET t.expired_at = null, t.merged_into = null, t.updated_at = $now, t:$($label)
RETURN t.uuid AS uuid
"""

MOVE_MENTIONS = """
MATCH (e:Entity {uuid: $uuid, group_id: $group_id}), (t:Entity {uuid: $into_uuid, group_id: $group_id})
MATCH (ep:Episode)-[m:MENTIONS]->(e) WHERE ep.uuid IN $episodes
MERGE (ep)-[n:MENTIONS]->(t)
ON CREATE SET n.spans = m.spans, n.surface_forms = m.surface_forms
DELETE m
"""

# Facts whose every supporting episode moved go with them (re-created, same uuid, after the old is deleted).
MOVE_FACTS = """
MATCH (s:Entity)-[r:RELATES_TO]->(o:Entity)
WHERE r.group_id = $group_id AND (s.uuid = $uuid OR o.uuid = $uuid) AND size(coalesce(r.episodes, [])) > 0
  AND all(x IN r.episodes WHERE x IN $episodes)
WITH r, s, o, properties(r) AS props, s.uuid = $uuid AS out
DELETE r
WITH s, o, props, out
MATCH (t:Entity {uuid: $into_uuid, group_id: $group_id})
WITH props, CASE WHEN out THEN t ELSE s END AS ns, CASE WHEN out THEN o ELSE t END AS no
WHERE ns <> no
CREATE (ns)-[n:RELATES_TO]->(no)
SET n = props
RETURN ns.uuid AS subject_uuid, props.predicate AS predicate, no.uuid AS object_uuid
"""

MOVE_QUOTES = """
MATCH (e:Entity {uuid: $uuid, group_id: $group_id}), (t:Entity {uuid: $into_uuid, group_id: $group_id})
CALL (e, t) {
  MATCH (e)-[s:SAID]->(q:Quote) WHERE q.episode_uuid IN $episodes
  MERGE (t)-[:SAID]->(q) DELETE s
}
CALL (e, t) {
  MATCH (q:Quote)-[x:TO]->(e) WHERE q.episode_uuid IN $episodes
  MERGE (q)-[:TO]->(t) DELETE x
}
"""

SET_ALIASES = """
MATCH (e:Entity {uuid: $uuid, group_id: $group_id}), (t:Entity {uuid: $into_uuid, group_id: $group_id})
SET e.aliases = $keep, e.updated_at = $now,
    t.aliases = t.aliases + [x IN $forms WHERE NOT x IN t.aliases AND x <> t.name]
"""

RECORD_SPLIT = """
MATCH (t:Entity {uuid: $into_uuid, group_id: $group_id})
MERGE (m:MergeRecord {uuid: $record_uuid})
ON CREATE SET m.group_id = $group_id, m.entity_uuid = $into_uuid, m.forms = $forms, m.rule = $rule,
              m.reason = $reason, m.split_from = $uuid, m.episodes = $episodes, m.source_uuid = $source_uuid,
              m.created_at = $now
MERGE (m)-[:MERGED_INTO]->(t)
"""

# After a split is undone, an entity the split made and that nothing mentions any more goes back to history.
EXPIRE_IF_EMPTY = """
MATCH (t:Entity {uuid: $uuid, group_id: $group_id})
WHERE NOT EXISTS { (:Episode)-[:MENTIONS]->(t) } AND NOT EXISTS { (t)-[:RELATES_TO]-() }
SET t.expired_at = $now, t.merged_into = $into_uuid
RETURN t.uuid AS uuid
"""
