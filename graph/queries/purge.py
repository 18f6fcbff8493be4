"""Purge: hard deletion for data-removal requests (graph/purge.py). Every value arrives as a parameter.

The episodes of a purge are retracted first (graph/queries/retract.py), which keeps what the purge needs: the
mentions as RETRACTED_MENTION and each fact's statements (`statement_episodes`, `statements`,
`statement_speakers`: which episode said it, in which words, by whom).
"""

EPISODES = """
MATCH (ep:Episode) WHERE ep.uuid IN $episodes AND ep.group_id = $group_id
RETURN ep.uuid AS uuid, ep.status AS status, ep.agent AS agent
"""

SOURCE_EPISODES = """
MATCH (s:Source {uuid: $source_uuid, group_id: $group_id})
CALL (s) {
  OPTIONAL MATCH (s)-[:HAS_EPISODE]->(a:Episode) RETURN collect(a.uuid) AS linked
}
CALL (s) {
  OPTIONAL MATCH (b:Episode {source_uuid: s.uuid}) RETURN collect(b.uuid) AS named
}
RETURN s.uuid AS uuid, linked + [x IN named WHERE NOT x IN linked] AS episodes
"""

# The entities the episodes name (mentions, retracted or not, with their surface forms), speak through (quotes)
# or write about (notes): those that may lose their last support, or names that came only from the purge.
CAST = """
UNWIND $episodes AS id
MATCH (ep:Episode {uuid: id})
CALL (ep) {
  MATCH (ep)-[m:MENTIONS|RETRACTED_MENTION]->(e:Entity) RETURN e, coalesce(m.surface_forms, []) AS forms
  UNION
  MATCH (ep)-[:HAS_QUOTE]->(:Quote)-[:SAID|TO]-(e:Entity) RETURN e, [] AS forms
  UNION
  MATCH (ep)-[:HAS_PASSAGE]->(:Passage)-[:HAS_NOTE]->(:Note)-[:ABOUT]->(e:Entity) RETURN e, [] AS forms
}
RETURN e.uuid AS uuid, e.merged_into AS merged_into, forms
"""

# Every fact of the group an episode of the purge stated (a retracted episode is gone from `episodes` but not
# from the statements). Scans the group's facts once per batch of episodes.
FACTS_OF = """
MATCH ()-[r:RELATES_TO]->() WHERE r.group_id = $group_id
  AND any(x IN coalesce(r.statement_episodes, []) + coalesce(r.episodes, []) WHERE x IN $episodes)
RETURN r.uuid AS uuid
"""

# An episode retracted before retractions kept their links (no mention of any kind left) tells nothing of what
# it supported: what no episode supports at all any more in the group goes with it (facts written before
# statements were kept that have no episode left, and the expired entities nothing supports), and the names of
# the group's entities that its text holds count as its mentions' forms.
LEGACY_RETRACTED = """
MATCH (ep:Episode) WHERE ep.uuid IN $episodes AND ep.status = 'retracted'
  AND NOT EXISTS { (ep)-[:RETRACTED_MENTION|MENTIONS]->(:Entity) }
RETURN ep.uuid AS uuid
"""

LEGACY_FORMS = """
MATCH (ep:Episode) WHERE ep.uuid IN $episodes
WITH collect(ep.content) AS texts
MATCH (e:Entity) WHERE e.group_id = $group_id
WITH e, [a IN [e.name] + coalesce(e.aliases, []) WHERE any(t IN texts WHERE t CONTAINS a)] AS forms
WHERE size(forms) > 0
RETURN e.uuid AS uuid, forms
"""

LEGACY_ORPHAN_FACTS = """
MATCH (s:Entity)-[r:RELATES_TO]->(o:Entity)
WHERE r.group_id = $group_id AND r.statement_episodes IS NULL AND size(coalesce(r.episodes, [])) = 0
WITH s, o, r, r.predicate AS predicate, r.expired_at IS NULL AS current
DELETE r
RETURN s.uuid AS subject_uuid, predicate, o.uuid AS object_uuid, current
"""

LEGACY_ORPHAN_ENTITIES = """
MATCH (e:Entity) WHERE e.group_id = $group_id AND e.expired_at IS NOT NULL AND e.merged_into IS NULL
RETURN e.uuid AS uuid
"""

# Facts no episode outside the purge states (live or retracted) go.
DELETE_FACTS = """
UNWIND $uuids AS id
MATCH (s:Entity)-[r:RELATES_TO {uuid: id}]->(o:Entity)
WITH s, r, o, [x IN coalesce(r.statement_episodes, []) + coalesce(r.episodes, []) WHERE NOT x IN $episodes] AS others
WHERE size(others) = 0
WITH s, o, r, r.predicate AS predicate, r.expired_at IS NULL AS current
DELETE r
RETURN s.uuid AS subject_uuid, predicate, o.uuid AS object_uuid, current
"""

# Facts other episodes state too stay, without the purge's provenance. The sentence stays when a kept statement
# says it in those words (or a person corrected it); else it becomes a kept statement's words (or, when the
# words of the kept statements are unknown: facts stated before statements were kept, the names and the
# predicate), and the caller embeds it again.
UPDATE_FACTS = """
UNWIND $uuids AS id
MATCH (s:Entity)-[r:RELATES_TO {uuid: id}]->(o:Entity)
WITH s, r, o, coalesce(r.statement_episodes, []) AS se, coalesce(r.statements, []) AS st,
     coalesce(r.statement_speakers, []) AS sp
WITH s, r, o, se, st, sp, [i IN range(0, size(se) - 1) WHERE NOT se[i] IN $episodes] AS kept,
     [i IN range(0, size(se) - 1) WHERE se[i] IN $episodes] AS gone
WITH s, r, o, se, st, sp, kept,
     [i IN kept WHERE coalesce(st[i], '') <> '' | st[i]] AS kept_words,
     [i IN gone | st[i]] AS gone_words,
     [i IN kept WHERE coalesce(sp[i], '') <> '' | sp[i]] AS kept_speakers,
     [i IN gone WHERE coalesce(sp[i], '') <> '' | sp[i]] AS gone_speakers,
     COLLECT { MATCH (k:Episode) WHERE k.uuid IN [i IN kept | se[i]] + coalesce(r.episodes, [])
               AND k.agent IS NOT NULL RETURN k.agent } AS kept_agents
WITH s, r, o, se, st, sp, kept, kept_words, kept_speakers, gone_speakers, kept_agents,
     r.fact IN kept_words OR (r.corrected_at IS NOT NULL AND NOT r.fact IN gone_words) AS same_words
SET r.episodes = [x IN coalesce(r.episodes, []) WHERE NOT x IN $episodes],
    r.evidence = [x IN coalesce(r.evidence, []) WHERE NOT any(e IN $episodes WHERE x STARTS WITH e + ':')],
    r.asserted_by = [x IN coalesce(r.asserted_by, []) WHERE x IN kept_speakers OR NOT x IN gone_speakers],
    r.agents = [x IN coalesce(r.agents, []) WHERE x IN kept_agents OR NOT x IN $agents],
    r.statements = [i IN kept | st[i]], r.statement_speakers = [i IN kept | sp[i]],
    r.statement_episodes = [i IN kept | se[i]]
WITH s, r, o, same_words, kept_words
CALL (s, r, o, same_words, kept_words) {
  WITH s, r, o, kept_words WHERE NOT same_words
  SET r.fact = coalesce(head(kept_words), s.name + ' ' + replace(r.predicate, '_', ' ') + ' ' + o.name),
      r.predicate_text = null, r.fact_embedding = null
}
RETURN r.uuid AS uuid, r.fact AS fact, NOT same_words AS reworded
"""

SET_FACT_EMBEDDINGS = """
UNWIND $rows AS row
MATCH ()-[r:RELATES_TO {uuid: row.uuid}]->()
CALL db.create.setRelationshipVectorProperty(r, 'fact_embedding', row.embedding)
"""

DELETE_NOTES = """
MATCH (n:Note) WHERE n.group_id = $group_id AND n.episode_uuid IN $episodes
DETACH DELETE n
RETURN count(n) AS n
"""

DELETE_PASSAGES = """
MATCH (p:Passage) WHERE p.episode_uuid IN $episodes AND p.group_id = $group_id
DETACH DELETE p
RETURN count(p) AS n
"""

DELETE_QUOTES = """
MATCH (q:Quote) WHERE q.group_id = $group_id AND q.episode_uuid IN $episodes
DETACH DELETE q
RETURN count(q) AS n
"""

# The episodes themselves (their mentions, retracted mentions, NEXT links and job links go with them).
DELETE_EPISODES = """
MATCH (ep:Episode) WHERE ep.uuid IN $episodes AND ep.group_id = $group_id
OPTIONAL MATCH (j:Job)-[:INCLUDES]->(ep)
WITH ep, collect(j.uuid) AS jobs
WITH ep, jobs, ep.source_uuid AS source_uuid, ep.seq AS seq
DETACH DELETE ep
RETURN jobs, source_uuid, seq
"""

# A later episode's running summary (the extraction context, carried from episode to episode) may hold what a
# purged episode said: it goes (the next extraction of the source starts a new one).
FORGET_SUMMARIES = """
UNWIND $cuts AS cut
MATCH (later:Episode {source_uuid: cut.source_uuid}) WHERE later.seq > cut.seq AND later.summary IS NOT NULL
SET later.summary = null
"""

DELETE_EMPTY_SOURCES = """
UNWIND $uuids AS id
MATCH (s:Source {uuid: id})
WHERE NOT EXISTS { (s)-[:HAS_EPISODE]->(:Episode) } AND NOT EXISTS { MATCH (e:Episode {source_uuid: id}) }
DETACH DELETE s
RETURN count(s) AS n
"""

DELETE_EMPTY_JOBS = """
UNWIND $uuids AS id
MATCH (j:Job {uuid: id}) WHERE NOT EXISTS { (j)-[:INCLUDES]->(:Episode) }
DETACH DELETE j
RETURN count(j) AS n
"""

# Entities nothing supports any more: no mention (live or retracted), fact, quote or note. A retired entity
# (merged into another) has none either; it goes only when its name came from the purge.
DELETE_UNSUPPORTED_ENTITIES = """
UNWIND $uuids AS id
MATCH (e:Entity {uuid: id})
WHERE NOT EXISTS { (:Episode)-[:MENTIONS|RETRACTED_MENTION]->(e) }
  AND NOT EXISTS { (e)-[:RELATES_TO]-(:Entity) }
  AND NOT EXISTS { (e)-[:SAID]->(:Quote) } AND NOT EXISTS { (:Quote)-[:TO]->(e) }
  AND NOT EXISTS { (:Note)-[:ABOUT]->(e) }
  AND (e.merged_into IS NULL OR e.name IN $forms)
WITH e, [e.name] + coalesce(e.aliases, []) AS names
DETACH DELETE e
RETURN names
"""

# What the entities that stay are still called: the surface forms of their remaining mentions.
ENTITY_FORMS = """
UNWIND $uuids AS id
MATCH (e:Entity {uuid: id})
CALL (e) {
  OPTIONAL MATCH (:Episode)-[m:MENTIONS|RETRACTED_MENTION]->(e)
  UNWIND coalesce(m.surface_forms, []) AS form
  RETURN collect(form) AS forms
}
RETURN e.uuid AS uuid, e.name AS name, e.type AS type, e.key AS key, coalesce(e.aliases, []) AS aliases,
       coalesce(e.summary, '') AS summary, forms
"""

KEY_TAKEN = """
MATCH (x:Entity {group_id: $group_id, key: $key}) WHERE x.uuid <> $uuid RETURN count(x) > 0 AS taken
"""

UPDATE_ENTITY = """
MATCH (e:Entity {uuid: $uuid})
SET e.name = $name, e.key = $key, e.aliases = $aliases, e.summary = $summary, e.description = null,
    e.summary_hash = null, e.summary_stale = true, e.updated_at = $now
WITH e WHERE $renamed
SET e.name_embedding = null
WITH e WHERE $embedding IS NOT NULL
CALL db.create.setNodeVectorProperty(e, 'name_embedding', $embedding)
"""

# Other entities' summaries and the group's communities name entities by the names they had: one naming a name
# the purge removed is blanked (the summary is written again from what stays: ingest/summaries.py) or dropped
# (the next community run makes it again).
FORGET_NAMES = """
CALL () {
  MATCH (e:Entity) WHERE e.group_id = $group_id AND coalesce(e.summary, '') <> ''
    AND any(n IN $names WHERE e.summary CONTAINS n)
  SET e.summary = '', e.summary_hash = null, e.summary_stale = true
  RETURN count(e) AS summaries
}
CALL () {
  MATCH (c:Community) WHERE c.group_id = $group_id
    AND any(n IN $names WHERE c.title CONTAINS n OR coalesce(c.summary, '') CONTAINS n)
  DETACH DELETE c
  RETURN count(*) AS communities
}
RETURN summaries, communities
"""

# Merge records that name the purge: of its episodes (also inside a merge's snapshot of what moved), with a
# name that came only from it, or whose entity is gone.
DELETE_MERGE_RECORDS = """
MATCH (m:MergeRecord) WHERE m.group_id = $group_id
  AND (m.episode_uuid IN $episodes
       OR any(x IN $episodes WHERE coalesce(m.snapshot, '') CONTAINS x)
       OR any(f IN coalesce(m.forms, []) + [coalesce(m.mention_form, ''), coalesce(m.candidate_form, '')]
              WHERE f IN $names)
       OR NOT EXISTS { (m)-[:MERGED_INTO]->(:Entity) })
DETACH DELETE m
RETURN count(m) AS n
"""

# Predicates the purged facts used that no fact of the group uses any more.
DELETE_UNUSED_PREDICATES = """
UNWIND $names AS name
MATCH (p:Predicate {group_id: $group_id, name: name})
WHERE NOT EXISTS { MATCH ()-[r:RELATES_TO]->() WHERE r.group_id = $group_id AND r.predicate = name }
DELETE p
RETURN count(p) AS n
"""

# The audit record: what was purged, when, by whom, how much; never content.
RECORD_PURGE = """
CREATE (p:PurgeRecord {uuid: $record.uuid})
SET p += $record
"""

# An episode a live worker holds: its lease not expired (one without a lease was claimed before leases existed).
# An expired lease is a dead holder's (a killed `ingest --inline`, a worker gone): it does not block a purge.
PROCESSING = """
MATCH (ep:Episode) WHERE ep.group_id = $group_id AND ep.status = 'processing'
  AND coalesce(ep.lease_until >= datetime(), true)
  AND ($episodes IS NULL OR ep.uuid IN $episodes)
RETURN count(ep) AS n
"""

# A whole group: counted first (for the audit record), then deleted label by label in bounded batches, each
# anchored on the label's group index, then whatever else carries the group (except earlier audit records).
GROUP_COUNTS = """
CALL () { MATCH (x:Episode) WHERE x.group_id = $group_id RETURN count(x) AS episodes }
CALL () { MATCH ()-[r:RELATES_TO]->() WHERE r.group_id = $group_id RETURN count(r) AS facts_deleted }
CALL () { MATCH (x:Entity) WHERE x.group_id = $group_id RETURN count(x) AS entities_deleted }
CALL () { MATCH (x:Passage) WHERE x.group_id = $group_id RETURN count(x) AS passages }
CALL () { MATCH (x:Note) WHERE x.group_id = $group_id RETURN count(x) AS notes }
CALL () { MATCH (x:Quote) WHERE x.group_id = $group_id RETURN count(x) AS quotes }
CALL () { MATCH (x:MergeRecord) WHERE x.group_id = $group_id RETURN count(x) AS merge_records }
CALL () { MATCH (x:Predicate) WHERE x.group_id = $group_id RETURN count(x) AS predicates }
CALL () { MATCH (x:Source) WHERE x.group_id = $group_id RETURN count(x) AS sources }
CALL () { MATCH (x:Job) WHERE x.group_id = $group_id RETURN count(x) AS jobs }
RETURN episodes, facts_deleted, entities_deleted, passages, notes, quotes, merge_records, predicates, sources, jobs
"""

GROUP_BATCHES = [
    "MATCH ()-[r:RELATES_TO]->() WHERE r.group_id = $group_id WITH r LIMIT $batch DELETE r RETURN count(*) AS n",
    "MATCH (x:Note) WHERE x.group_id = $group_id WITH x LIMIT $batch DETACH DELETE x RETURN count(*) AS n",
    "MATCH (x:Quote) WHERE x.group_id = $group_id WITH x LIMIT $batch DETACH DELETE x RETURN count(*) AS n",
    """MATCH (ep:Episode)-[:HAS_PASSAGE]->(x:Passage) WHERE ep.group_id = $group_id
       WITH x LIMIT $batch DETACH DELETE x RETURN count(*) AS n""",
    "MATCH (x:Episode) WHERE x.group_id = $group_id WITH x LIMIT $batch DETACH DELETE x RETURN count(*) AS n",
    "MATCH (x:Entity) WHERE x.group_id = $group_id WITH x LIMIT $batch DETACH DELETE x RETURN count(*) AS n",
    "MATCH (x:MergeRecord) WHERE x.group_id = $group_id WITH x LIMIT $batch DETACH DELETE x RETURN count(*) AS n",
    "MATCH (x:Predicate) WHERE x.group_id = $group_id WITH x LIMIT $batch DETACH DELETE x RETURN count(*) AS n",
    "MATCH (x:Source) WHERE x.group_id = $group_id WITH x LIMIT $batch DETACH DELETE x RETURN count(*) AS n",
    "MATCH (x:Job) WHERE x.group_id = $group_id WITH x LIMIT $batch DETACH DELETE x RETURN count(*) AS n",
    "MATCH (x:Community) WHERE x.group_id = $group_id WITH x LIMIT $batch DETACH DELETE x RETURN count(*) AS n",
    """MATCH (x) WHERE x.group_id = $group_id AND NOT x:PurgeRecord
       WITH x LIMIT $batch DETACH DELETE x RETURN count(*) AS n""",
]
