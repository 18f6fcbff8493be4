"""The per-book consolidation pass (graph/consolidate.py) and undoing a merge from its record."""

# The current entities a source's episodes mention, with the episodes (seq) and the first story position.
CAST = """
MATCH (ep:Episode {group_id: $group_id})-[m:MENTIONS]->(e:Entity {group_id: $group_id})
WHERE ($source_uuid IS NULL OR ep.source_uuid = $source_uuid) AND e.expired_at IS NULL
WITH e, collect(DISTINCT ep.seq) AS episodes, min(coalesce(ep.story_position, ep.seq)) AS first_position,
     collect(coalesce(m.surface_forms, [])) AS seen
RETURN e.uuid AS uuid, e.name AS name, coalesce(e.aliases, []) AS aliases, coalesce(e.type, 'Entity') AS type,
       episodes, first_position, seen,
       // kept apart: a rejected suggestion either way round (strata.resolve.apart)
       [(e)-[s:POSSIBLY_SAME_AS]-(o:Entity) WHERE s.rejected_at IS NOT NULL | o.uuid] AS apart
"""

SOURCES = """
MATCH (s:Source {group_id: $group_id}) RETURN s.uuid AS uuid ORDER BY s.created_at, s.uuid
"""

# Marriages and engagements between cast members that the text does not negate.
MARRIAGES = """
MATCH (a:Entity)-[r:RELATES_TO]->(b:Entity)
WHERE a.uuid IN $uuids AND b.uuid IN $uuids AND r.group_id = $group_id AND r.expired_at IS NULL
  AND r.predicate IN $predicates AND NOT coalesce(r.negated, false)
CALL (r) {  // the first episode stating it, each read by its uuid (not every episode of the group per row)
  UNWIND coalesce(r.episodes, []) AS episode_uuid
  OPTIONAL MATCH (ep:Episode {uuid: episode_uuid}) WHERE ep.group_id = $group_id
  RETURN min(ep.seq) AS seq
}
RETURN a.uuid AS a, b.uuid AS b, r.story_at AS position, r.predicate AS predicate, seq
"""

# A quote spoken to someone, and the next quote of the same episode by another speaker: who answers a name.
REPLIES = """
MATCH (ep:Episode {group_id: $group_id})-[:HAS_QUOTE]->(q1:Quote)-[:TO]->(a:Entity)
WHERE ($source_uuid IS NULL OR ep.source_uuid = $source_uuid) AND size(coalesce(q1.addressees, [])) > 0
MATCH (s:Entity)-[:SAID]->(q1)
MATCH (ep)-[:HAS_QUOTE]->(q2:Quote {position: q1.position + 1})<-[:SAID]-(r:Entity)
WHERE r <> s
RETURN a.uuid AS addressed, r.uuid AS replier
"""

# The narrator's quotes of a source ("said I"), each with its episode and the entity that said it, if any.
NARRATOR_QUOTES = """
MATCH (ep:Episode {group_id: $group_id})-[:HAS_QUOTE]->(x:Quote)
WHERE ($source_uuid IS NULL OR ep.source_uuid = $source_uuid) AND x.narrator
OPTIONAL MATCH (e:Entity)-[:SAID]->(x)
RETURN x.uuid AS quote, ep.uuid AS episode, e.uuid AS speaker
"""

# The book's narrator said the narrator's quotes nobody said yet.
ASSIGN_NARRATOR = """
MATCH (e:Entity {uuid: $entity_uuid, group_id: $group_id})
UNWIND $quotes AS id
MATCH (x:Quote {uuid: id, group_id: $group_id})
WHERE NOT EXISTS { (:Entity)-[:SAID]->(x) }
MERGE (e)-[:SAID]->(x)
SET x.speaker = e.name, x.confidence = $confidence
RETURN count(x) AS n
"""

# What a merge is about to move, kept on its record so the merge can be undone exactly.
MERGE_SNAPSHOT = """
MATCH (a:Entity {uuid: $from_uuid, group_id: $group_id}), (b:Entity {uuid: $into_uuid, group_id: $group_id})
OPTIONAL MATCH (ep:Episode)-[m:MENTIONS]->(a)
WITH a, b, collect(CASE WHEN ep IS NULL THEN NULL ELSE {episode_uuid: ep.uuid, spans: m.spans,
     surface_forms: m.surface_forms, into_had: EXISTS { (ep)-[:MENTIONS]->(b) }} END) AS mentions
OPTIONAL MATCH (a)-[r:RELATES_TO]-(:Entity)
WITH a, b, mentions, collect(DISTINCT {uuid: r.uuid, out: startNode(r) = a}) AS facts
OPTIONAL MATCH (a)-[s:SAID]->(qs:Quote)
WITH a, b, mentions, facts, collect(qs.uuid) AS said
OPTIONAL MATCH (qt:Quote)-[:TO]->(a)
RETURN mentions, [f IN facts WHERE f.uuid IS NOT NULL] AS facts, said, collect(qt.uuid) AS told,
       coalesce(b.aliases, []) AS into_aliases
"""

MOVE_SAID = """
MATCH (a:Entity {uuid: $from_uuid, group_id: $group_id})-[s:SAID]->(q:Quote)
MATCH (b:Entity {uuid: $into_uuid, group_id: $group_id})
MERGE (b)-[:SAID]->(q)
DELETE s
"""

MOVE_TO = """
MATCH (q:Quote)-[t:TO]->(a:Entity {uuid: $from_uuid, group_id: $group_id})
MATCH (b:Entity {uuid: $into_uuid, group_id: $group_id})
MERGE (q)-[:TO]->(b)
DELETE t
"""

RECORD_PASS_MERGE = """
MATCH (e:Entity {uuid: $into_uuid, group_id: $group_id})
MERGE (m:MergeRecord {uuid: $record_uuid})
ON CREATE SET m.group_id = $group_id, m.entity_uuid = $into_uuid, m.forms = $forms, m.rule = $rule,
              m.reason = $reason, m.score = $score, m.mention_form = $mention_form,
              m.candidate_form = $candidate_form, m.merged_uuid = $from_uuid, m.source_uuid = $source_uuid,
              m.snapshot = $snapshot, m.duplicates = $duplicates, m.created_at = $now
MERGE (m)-[:MERGED_INTO]->(e)
"""

SUGGEST = """
UNWIND $rows AS row
MATCH (a:Entity {uuid: row.entity_uuid, group_id: $group_id})
MATCH (b:Entity {uuid: row.candidate_uuid, group_id: $group_id})
WHERE a.expired_at IS NULL AND b.expired_at IS NULL
  AND NOT EXISTS { (a)<-[x:POSSIBLY_SAME_AS]-(b) WHERE x.rejected_at IS NOT NULL }  // rejected: never again
MERGE (a)-[s:POSSIBLY_SAME_AS]->(b)
ON CREATE SET s.score = row.score, s.created_at = $now, s.group_id = $group_id, s.rule = row.rule
"""

GET_RECORD = """
MATCH (m:MergeRecord {uuid: $record_uuid, group_id: $group_id})-[:MERGED_INTO]->(e:Entity {uuid: $uuid})
RETURN properties(m) AS props
"""

# Undo: the merged entity is current again, its facts, mentions and quotes come back, duplicates reopen.
UNDO_REVIVE = """
MATCH (a:Entity {uuid: $from_uuid, group_id: $group_id}), (b:Entity {uuid: $into_uuid, group_id: $group_id})
SET a.expired_at = null, a.merged_into = null, a.updated_at = $now, b.aliases = $into_aliases, b.updated_at = $now
"""

UNDO_FACTS = """
UNWIND $facts AS f
MATCH (s:Entity)-[r:RELATES_TO {uuid: f.uuid}]->(o:Entity)
WHERE r.group_id = $group_id AND ((f.out AND s.uuid = $into_uuid) OR (NOT f.out AND o.uuid = $into_uuid))
WITH f, r, s, o, properties(r) AS props
DELETE r
WITH f, s, o, props
MATCH (a:Entity {uuid: $from_uuid, group_id: $group_id})
WITH props, CASE WHEN f.out THEN a ELSE s END AS ns, CASE WHEN f.out THEN o ELSE a END AS no
CREATE (ns)-[n:RELATES_TO]->(no)
SET n = props
RETURN ns.uuid AS subject_uuid, props.predicate AS predicate, no.uuid AS object_uuid
"""

UNDO_DUPLICATES = """
MATCH ()-[r:RELATES_TO]->() WHERE r.uuid IN $uuids AND r.group_id = $group_id
SET r.expired_at = null, r.duplicate_of = null, r.expired_reason = null
RETURN startNode(r).uuid AS subject_uuid, r.predicate AS predicate, endNode(r).uuid AS object_uuid
"""

UNDO_MENTIONS = """
UNWIND $mentions AS m
MATCH (ep:Episode {uuid: m.episode_uuid}), (a:Entity {uuid: $from_uuid, group_id: $group_id})
MERGE (ep)-[n:MENTIONS]->(a)
SET n.spans = m.spans, n.surface_forms = m.surface_forms
WITH ep, m WHERE NOT m.into_had
MATCH (ep)-[x:MENTIONS]->(:Entity {uuid: $into_uuid})
DELETE x
"""

UNDO_QUOTES = """
MATCH (a:Entity {uuid: $from_uuid, group_id: $group_id}), (b:Entity {uuid: $into_uuid, group_id: $group_id})
CALL (a, b) {
  MATCH (b)-[s:SAID]->(q:Quote) WHERE q.uuid IN $said
  MERGE (a)-[:SAID]->(q) DELETE s
}
CALL (a, b) {
  MATCH (q:Quote)-[t:TO]->(b) WHERE q.uuid IN $told
  MERGE (q)-[:TO]->(a) DELETE t
}
"""

MARK_UNDONE = """
MATCH (m:MergeRecord {uuid: $record_uuid}) SET m.undone_at = $now
"""

# The pass's own merges of a group (or source) not yet undone, newest first: undoing them in this order
# takes the pass back step by step.
PASS_RECORDS = """
MATCH (m:MergeRecord {group_id: $group_id})-[:MERGED_INTO]->(e:Entity)
WHERE (m.merged_uuid IS NOT NULL OR m.rule STARTS WITH 'split:') AND m.undone_at IS NULL AND m.rule <> 'manual'
  AND ($source_uuid IS NULL OR m.source_uuid = $source_uuid)
RETURN m.uuid AS uuid, e.uuid AS entity_uuid ORDER BY m.created_at DESC, m.uuid DESC
"""
