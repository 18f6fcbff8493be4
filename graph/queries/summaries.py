"""Cypher for entity summaries (graph/summaries.py).

An entity whose facts or notes changed is marked ``summary_stale`` (true, or absent: the range index of
migration 0019 then holds only the stale ones). A refresh claims the stale entities it will write (clears the
mark first, so a commit that lands while the summary is being written marks the entity again), reads what
each summary is made from, and writes the summaries that changed.
"""

# Marked by the commit and by every change of a slot (retraction, merge, correction): one write per entity
# until its summary is written again, however many episodes touch it meanwhile.
MARK_STALE = """
UNWIND $uuids AS id
MATCH (e:Entity {uuid: id})
WHERE e.group_id = $group_id AND e.summary_stale IS NULL
SET e.summary_stale = true
"""

# The stale entities among $uuids whose summary is due: never written, or written at least $due_before ago.
CLAIM_TOUCHED = """
UNWIND $uuids AS id
MATCH (e:Entity {uuid: id})
WHERE e.group_id = $group_id AND e.summary_stale = true
  AND ($force OR e.summarized_at IS NULL OR e.summarized_at <= $due_before)
WITH e ORDER BY e.uuid LIMIT $limit
SET e.summary_stale = null
RETURN e.uuid AS uuid
"""

# Every stale entity of the group (the job's end, the sweep), a batch at a time.
CLAIM_STALE = """
MATCH (e:Entity)
WHERE e.summary_stale = true AND e.group_id = $group_id
  AND ($force OR e.summarized_at IS NULL OR e.summarized_at <= $due_before)
WITH e ORDER BY e.uuid LIMIT $limit
SET e.summary_stale = null
RETURN e.uuid AS uuid
"""

# Put back the marks of a claim whose summaries could not be written (the error reaches the caller).
UNCLAIM = """
UNWIND $uuids AS id
MATCH (e:Entity {uuid: id}) WHERE e.group_id = $group_id
SET e.summary_stale = true
"""

STALE_GROUPS = """
MATCH (e:Entity) WHERE e.summary_stale = true
RETURN e.group_id AS group_id, count(*) AS stale ORDER BY stale DESC LIMIT $limit
"""

GROUP_ENTITIES = """
MATCH (e:Entity) WHERE e.group_id = $group_id AND e.expired_at IS NULL AND e.uuid > $after
RETURN e.uuid AS uuid ORDER BY e.uuid
"""

# What each summary is made from: the entity's current facts, most salient first (a functional slot's value,
# then the most often stated, then the latest; ended, expired and negated facts left out), its latest notes and
# the characters it appears with most. Bounded per entity, so a hub with thousands of facts costs one scan of its
# relationships and short lists; its interlocutors (spoke_to, $interaction) have a list of their own, or a
# character's many quoted exchanges would fill the list of its relations.
_CURRENT_FACTS = """
  MATCH (e)-[r:RELATES_TO]-(x:Entity)
  WHERE r.group_id = $group_id AND r.expired_at IS NULL AND NOT coalesce(r.negated, false)
    AND (r.invalid_at IS NULL OR r.invalid_at > $now) AND r.story_until IS NULL
    AND (r.valid_at IS NULL OR r.valid_at <= $now) AND x.expired_at IS NULL AND {which}
  OPTIONAL MATCH (p:Predicate {{group_id: $group_id, name: r.predicate}})
  WITH r, x, p, startNode(r) = e AS outgoing,
       size(coalesce(r.evidence, [])) AS spans, size(coalesce(r.episodes, [])) AS episodes
  WITH r, x, p, outgoing, CASE WHEN spans > episodes THEN spans ELSE episodes END AS evidence
  ORDER BY p.functional IS NOT NULL DESC, evidence DESC, coalesce(r.story_at, -1) DESC, r.valid_at DESC, r.uuid
  LIMIT {limit}
  RETURN collect({{uuid: r.uuid, predicate: r.predicate, sentence: coalesce(r.fact, ''),
                  subject_name: CASE WHEN outgoing THEN e.name ELSE x.name END,
                  object_name: CASE WHEN outgoing THEN x.name ELSE e.name END, outgoing: outgoing,
                  other_uuid: x.uuid, functional: p.functional, evidence: evidence,
                  valid_at: toString(r.valid_at), story_at: r.story_at}}) AS {name}
"""

DIGESTS = """
UNWIND $uuids AS id
MATCH (e:Entity {uuid: id}) WHERE e.group_id = $group_id AND e.expired_at IS NULL
CALL (e) {""" + _CURRENT_FACTS.format(which="NOT r.predicate IN $interaction", limit="$max_facts",
                                      name="relations") + """}
CALL (e) {""" + _CURRENT_FACTS.format(which="r.predicate IN $interaction", limit="$max_interactions",
                                      name="exchanges") + """}
CALL (e) {
  MATCH (e)-[i:INTERACTS_WITH]-(x:Entity) WHERE x.expired_at IS NULL
  WITH x ORDER BY i.weight DESC, x.name LIMIT $max_partners
  RETURN collect(x.name) AS partners
}
CALL (e) {
  MATCH (n:Note)-[:ABOUT]->(e) WHERE n.group_id = $group_id
  MATCH (ep:Episode {uuid: n.episode_uuid}) WHERE ep.status = 'done'
  WITH n, ep ORDER BY ep.reference_time DESC, n.start DESC LIMIT $max_notes
  RETURN collect({uuid: n.uuid, text: n.text, said_at: toString(ep.reference_time)}) AS notes
}
RETURN e.uuid AS uuid, e.name AS name, coalesce(e.type, 'Entity') AS type, coalesce(e.aliases, []) AS aliases,
       coalesce(e.description, '') AS description, coalesce(e.summary, '') AS summary,
       e.summary_hash AS summary_hash, relations + exchanges AS facts, notes, partners
"""

# The summary text is written only when it changed (it is full-text indexed); the fingerprint and time always.
WRITE_SUMMARIES = """
UNWIND $rows AS row
MATCH (e:Entity {uuid: row.uuid}) WHERE e.group_id = $group_id
SET e.summary_hash = row.summary_hash, e.summary_method = row.method, e.summarized_at = $now
WITH e, row WHERE coalesce(e.summary, '') <> row.summary
SET e.summary = row.summary
RETURN count(e) AS changed
"""

SUMMARIES_OF = """
UNWIND range(0, size($uuids) - 1) AS i
MATCH (e:Entity {uuid: $uuids[i]})
WHERE e.group_id = $group_id AND e.expired_at IS NULL AND coalesce(e.summary, '') <> ''
RETURN e.uuid AS uuid, e.name AS name, coalesce(e.type, 'Entity') AS type, e.summary AS summary
ORDER BY i
"""
