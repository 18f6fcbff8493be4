"""Manual edits: merging two entities and correcting a fact. Values are parameters; no labels are formatted."""

from strata.graph.queries.commit import KEEP_END_HISTORY

# Relationships cannot be re-pointed: each fact is re-created on the surviving entity with the same properties
# (uuid included) and the old one deleted, in one statement.
MOVE_OUTGOING = """
MATCH (a:Entity {uuid: $from_uuid, group_id: $group_id})-[r:RELATES_TO]->(o:Entity)
WITH r, o, properties(r) AS props
DELETE r
WITH o, props
MATCH (b:Entity {uuid: $into_uuid, group_id: $group_id})
CREATE (b)-[n:RELATES_TO]->(o)
SET n = props
RETURN props.uuid AS uuid, b.uuid AS subject_uuid, props.predicate AS predicate, o.uuid AS object_uuid
"""

MOVE_INCOMING = """
MATCH (s:Entity)-[r:RELATES_TO]->(a:Entity {uuid: $from_uuid, group_id: $group_id})
WITH r, s, properties(r) AS props
DELETE r
WITH s, props
MATCH (b:Entity {uuid: $into_uuid, group_id: $group_id})
CREATE (s)-[n:RELATES_TO]->(b)
SET n = props
RETURN props.uuid AS uuid, s.uuid AS subject_uuid, props.predicate AS predicate, b.uuid AS object_uuid
"""

# A fact between the two merged entities would relate the survivor to itself: it is expired with the merge
# (kept as history, and current again if the merge is undone).
EXPIRE_SELF_LOOPS = """
MATCH (b:Entity {uuid: $into_uuid, group_id: $group_id})-[r:RELATES_TO]->(b)
WHERE r.uuid IN $moved AND r.expired_at IS NULL
SET r.expired_at = $now, r.expired_reason = 'merged_into_itself'
RETURN collect(r.uuid) AS uuids
"""

MOVE_MENTIONS = """
MATCH (ep:Episode)-[m:MENTIONS]->(a:Entity {uuid: $from_uuid, group_id: $group_id})
MATCH (b:Entity {uuid: $into_uuid, group_id: $group_id})
MERGE (ep)-[n:MENTIONS]->(b)
ON CREATE SET n.spans = m.spans, n.surface_forms = m.surface_forms
DELETE m
RETURN count(*) AS moved
"""

# After a merge the same statement can exist twice (once per former entity): the oldest stays and takes the
# others' provenance; the others are expired with `duplicate_of`, kept as history like any retracted fact.
DEDUPLICATE_FACTS = """
MATCH (b:Entity {uuid: $into_uuid, group_id: $group_id})-[r:RELATES_TO]-(:Entity)
WHERE r.group_id = $group_id AND r.expired_at IS NULL
WITH DISTINCT r
WITH r ORDER BY r.created_at, r.uuid
WITH startNode(r) AS s, endNode(r) AS o, r.predicate AS predicate, r.valid_at AS valid_at,
     coalesce(r.negated, false) AS negated, collect(r) AS same
WHERE size(same) > 1
WITH same[0] AS keep, same[1..] AS duplicates
UNWIND duplicates AS d
WITH keep, d, [i IN range(0, size(coalesce(d.statement_episodes, [])) - 1)
               WHERE NOT d.statement_episodes[i] IN coalesce(keep.statement_episodes, [])] AS extra
SET keep.statements = coalesce(keep.statements, []) + [i IN extra | d.statements[i]],
    keep.statement_speakers = coalesce(keep.statement_speakers, []) + [i IN extra | d.statement_speakers[i]],
    keep.statement_episodes = coalesce(keep.statement_episodes, []) + [i IN extra | d.statement_episodes[i]],
    keep.episodes = coalesce(keep.episodes, [])
      + [x IN coalesce(d.episodes, []) WHERE NOT x IN coalesce(keep.episodes, [])],
    keep.evidence = coalesce(keep.evidence, [])
      + [x IN coalesce(d.evidence, []) WHERE NOT x IN coalesce(keep.evidence, [])],
    keep.asserted_by = coalesce(keep.asserted_by, [])
      + [x IN coalesce(d.asserted_by, []) WHERE NOT x IN coalesce(keep.asserted_by, [])],
    keep.agents = coalesce(keep.agents, [])
      + [x IN coalesce(d.agents, []) WHERE NOT x IN coalesce(keep.agents, [])],
    d.expired_at = $now, d.duplicate_of = keep.uuid
RETURN count(d) AS duplicates, collect(d.uuid) AS uuids
"""

RETIRE_MERGED = """
MATCH (a:Entity {uuid: $from_uuid, group_id: $group_id}), (b:Entity {uuid: $into_uuid, group_id: $group_id})
SET b.aliases = reduce(acc = b.aliases, x IN coalesce(a.aliases, []) + [a.name] |
                      CASE WHEN x IN acc OR x = b.name THEN acc ELSE acc + x END),
    b.updated_at = $now,
    a.expired_at = $now, a.merged_into = b.uuid
RETURN b.uuid AS uuid
"""

BOTH_ENTITIES = """
MATCH (e:Entity) WHERE e.uuid IN [$from_uuid, $into_uuid] AND e.group_id = $group_id AND e.expired_at IS NULL
RETURN count(e) AS n
"""

GET_FACT = """
MATCH (s:Entity)-[r:RELATES_TO {uuid: $uuid}]->(o:Entity) WHERE r.group_id = $group_id AND r.expired_at IS NULL
RETURN s.uuid AS subject_uuid, o.uuid AS object_uuid, properties(r) AS props
"""

# A new end joins the end history first (graph/queries/commit.py KEEP_END_HISTORY), so a read with an earlier
# known_at still sees the end believed then.
UPDATE_FACT_TEXT = """
MATCH ()-[r:RELATES_TO {uuid: $uuid}]->() WHERE r.group_id = $group_id
SET r.fact = $fact, r.corrected_at = $now, r.correction_reason = $reason, r.stated_invalid_at = $invalid_at
WITH r
CALL (r) {
  WITH r WHERE $invalid_at IS NOT NULL AND (r.invalid_at IS NULL OR r.invalid_at <> $invalid_at)
""" + KEEP_END_HISTORY + """
  SET r.invalid_at = $invalid_at
}
WITH r WHERE $embedding IS NOT NULL
CALL db.create.setRelationshipVectorProperty(r, 'fact_embedding', $embedding)
"""

# The corrected version replaces the old one: the old is expired (kept as history) and points at the new.
REPLACE_FACT = """
MATCH (s0:Entity)-[old:RELATES_TO {uuid: $uuid}]->(:Entity) WHERE old.group_id = $group_id
MATCH (s:Entity {uuid: $subject_uuid, group_id: $group_id}), (o:Entity {uuid: $object_uuid, group_id: $group_id})
WITH old, s, o
SET old.expired_at = $now, old.corrected_by = $new_uuid
MERGE (s)-[n:RELATES_TO {uuid: $new_uuid}]->(o)
SET n += $props, n.predicate = $predicate, n.predicate_text = $predicate_text, n.fact = $fact, n.valid_at = $valid_at,
    n.stated_invalid_at = $invalid_at, n.invalid_at = $invalid_at, n.invalidated_by = null,
    n.invalidated_at = null, n.prev_invalid_at = null, n.prev_invalidated_at = null, n.end_changed_at = null,
    n.end_before = null,
    n.expired_at = null, n.corrected_by = null, n.created_at = $now, n.corrects = $uuid,
    n.correction_reason = $reason, n.fact_embedding = null
WITH n WHERE $embedding IS NOT NULL
CALL db.create.setRelationshipVectorProperty(n, 'fact_embedding', $embedding)
"""

ENSURE_PREDICATE = """
MERGE (x:Predicate {group_id: $group_id, name: $predicate})
ON CREATE SET x.description = '', x.created_at = $now, x.count = 0
"""

# A manual merge is recorded like the automatic ones (graph/queries/commit.py RECORD_MERGES), with the merged
# entity's uuid so it can be told apart again.
RECORD_MANUAL_MERGE = """
MATCH (f:Entity {uuid: $from_uuid}), (e:Entity {uuid: $into_uuid})
MERGE (m:MergeRecord {uuid: $record_uuid})
ON CREATE SET m.group_id = $group_id, m.entity_uuid = $into_uuid, m.forms = [f.name] + coalesce(f.aliases, []),
              m.rule = 'manual', m.reason = coalesce($reason, ''), m.merged_uuid = $from_uuid, m.created_at = $now,
              m.snapshot = $snapshot, m.duplicates = $duplicates, m.actor = $actor
MERGE (m)-[:MERGED_INTO]->(e)
"""
