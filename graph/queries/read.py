# A fact holds at ($as_of, $known_at) when it was believed at known_at (created, not yet expired) and true
# at as_of under the end we believed at known_at. `invalidated_at` is when `invalid_at` last changed; before
# that, the end history says what it was: `end_changed_at[i]` is when it changed, `end_before[i]` the end just
# before (an ISO string, '' for open). A fact whose end changed before histories were kept (`end_changed_at`
# null) has one earlier state in `prev_invalid_at`/`prev_invalidated_at`, and before that its stated end.
# The same rule in Python: resolve/temporal.py `holds` (tests/integration/test_temporal_rule.py compares them).
BELIEVED_END = """
  CASE WHEN r.invalidated_at IS NULL OR r.invalidated_at <= $known_at THEN r.invalid_at
       WHEN r.end_changed_at IS NULL THEN
         CASE WHEN r.prev_invalidated_at <= $known_at THEN r.prev_invalid_at ELSE r.stated_invalid_at END
       ELSE head([i IN range(0, size(r.end_changed_at) - 1) WHERE r.end_changed_at[i] > $known_at
                  | CASE WHEN coalesce(r.end_before[i], '') = '' THEN null ELSE datetime(r.end_before[i]) END]
                 + [r.invalid_at])
  END
"""

# A story cut ($story_at, $story_source: graph/story.py) replaces the valid-time cut: a book's facts stated
# before the position and not closed by a statement before it. With history, everything stated before it.
STORY_STATED = """($story_at IS NULL OR (r.story_source = $story_source AND r.story_at < $story_at))"""

TEMPORAL_FILTER = STORY_STATED + """
  AND ($include_history OR (
    NOT coalesce(r.negated, false)
    AND coalesce(r.created_at <= $known_at, true) AND (r.expired_at IS NULL OR r.expired_at > $known_at)
    AND CASE WHEN $story_at IS NULL
      THEN coalesce(r.valid_at <= $as_of, true)
           AND coalesce(""" + BELIEVED_END + """, $as_of + duration('P1D')) > $as_of
      ELSE r.story_until IS NULL OR r.story_until >= $story_at END
  ))
"""

FACT_FILTER = """
MATCH (s:Entity)-[r:RELATES_TO]->(o:Entity)
WHERE r.group_id = $group_id
  AND ($predicate IS NULL OR r.predicate = $predicate)
  AND ($role IS NULL OR r.role = $role)
  AND (($subject IS NULL AND $subject_key IS NULL) OR s.uuid = $subject OR s.key = $subject_key)
  AND (($object IS NULL AND $object_key IS NULL) OR o.uuid = $object OR o.key = $object_key)
  AND ($subject_type IS NULL OR s.type = $subject_type)
  AND ($object_type IS NULL OR o.type = $object_type)
  AND ($agent IS NULL OR $agent IN coalesce(r.agents, []))
  AND ($after IS NULL OR r.uuid > $after)
  AND """ + TEMPORAL_FILTER

FACT_FIELDS = """
r.uuid AS uuid, r.group_id AS group_id, s.uuid AS subject_uuid, s.name AS subject_name, r.predicate AS predicate,
o.uuid AS object_uuid, o.name AS object_name, r.fact AS fact, r.valid_at AS valid_at, r.invalid_at AS invalid_at,
r.created_at AS created_at, r.invalidated_at AS invalidated_at, r.invalidated_by AS invalidated_by,
r.expired_at AS expired_at, r.confidence AS confidence, r.episodes AS episodes, r.asserted_by AS asserted_by,
r.agents AS agents, r.extractor AS extractor, coalesce(r.negated, false) AS negated, r.evidence AS evidence,
r.predicate_text AS predicate_text, r.story_at AS story_at, r.story_chapter AS story_chapter,
r.story_until AS story_until, r.role AS role
"""

LIST_FACTS = FACT_FILTER + " RETURN " + FACT_FIELDS + " ORDER BY r.uuid LIMIT $limit"

# One predicate, no subject or object: the (group_id, predicate, uuid) index yields the facts already in uuid
# order from the cursor on, so a page reads about $limit facts whatever the listing's size.
LIST_PREDICATE_FACTS = """
MATCH (s:Entity)-[r:RELATES_TO]->(o:Entity) USING INDEX r:RELATES_TO(group_id, predicate, uuid)
WHERE r.group_id = $group_id AND r.predicate = $predicate AND r.uuid > coalesce($after, '')
  AND ($role IS NULL OR r.role = $role)
  AND ($subject_type IS NULL OR s.type = $subject_type)
  AND ($object_type IS NULL OR o.type = $object_type)
  AND ($agent IS NULL OR $agent IN coalesce(r.agents, []))
  AND """ + TEMPORAL_FILTER + """
WITH r, s, o ORDER BY r.group_id, r.predicate, r.uuid LIMIT $limit
RETURN """ + FACT_FIELDS + """
ORDER BY r.uuid
"""

COUNT_FACTS = FACT_FILTER.replace("AND ($after IS NULL OR r.uuid > $after)", "") + " RETURN count(r) AS n"

# A merged-away entity keeps its key; it answers with `merged_into` so the lookup follows it to the survivor
# (merges are sticky: a later mention of the old name lands on the entity it was merged into).
ENTITY_BY_KEY = """
UNWIND $keys AS key
MATCH (e:Entity {group_id: $group_id, key: key}) WHERE e.expired_at IS NULL OR e.merged_into IS NOT NULL
RETURN key AS query, e.uuid AS uuid, e.name AS name, e.type AS type, e.aliases AS aliases, 1.0 AS score,
       e.name_embedding AS embedding, COUNT { (e)<-[:MENTIONS]-() } AS mentions, e.merged_into AS merged_into
"""

# One step along merge chains: where each entity went (null for a live one; absent when gone).
MERGE_STEP = """
UNWIND $uuids AS id
MATCH (e:Entity {uuid: id}) WHERE e.group_id = $group_id AND (e.expired_at IS NULL OR e.merged_into IS NOT NULL)
RETURN e.uuid AS uuid, e.merged_into AS merged_into
"""

LIVE_ENTITIES = """
UNWIND $uuids AS id
MATCH (e:Entity {uuid: id}) WHERE e.group_id = $group_id AND e.expired_at IS NULL
RETURN e.uuid AS uuid, e.name AS name, e.type AS type, e.aliases AS aliases, e.name_embedding AS embedding,
       COUNT { (e)<-[:MENTIONS]-() } AS mentions
"""

# The best $limit live entities of the group for each query, from an index call yielding (query, node, score).
_TOP_ENTITIES_PER_QUERY = """
WITH query, node AS e, score WHERE e.group_id = $group_id AND e.expired_at IS NULL
WITH query, e, score ORDER BY score DESC
WITH query, collect({e: e, score: score})[..$limit] AS hits
UNWIND hits AS hit
WITH query, hit.e AS e, hit.score AS score
RETURN query.name AS query, e.uuid AS uuid, e.name AS name, e.type AS type, e.aliases AS aliases, score,
       e.name_embedding AS embedding, COUNT { (e)<-[:MENTIONS]-() } AS mentions
"""

ENTITY_FULLTEXT = """
UNWIND $queries AS query
CALL db.index.fulltext.queryNodes('entity_text', query.lucene, {limit: $limit * 4}) YIELD node, score
""" + _TOP_ENTITIES_PER_QUERY

# Per query, how many entries the index gave (`raw`: equal to $depth means it had more) beside the group's best:
# the index is shared by every group, so a small group's names can be crowded out of the first $depth. No vectors
# come back: the score is the cosine to the query (normalized to [0, 1]), and shipping 384 floats per candidate
# was a quarter of a book episode's ingestion time.
ENTITY_VECTOR = """
UNWIND $queries AS query
CALL (query) {
  CALL db.index.vector.queryNodes('entity_name_embedding', $depth, query.embedding) YIELD node, score
  WITH collect({e: node, score: score}) AS raw
  WITH raw, [h IN raw WHERE h.e.group_id = $group_id AND h.e.expired_at IS NULL][..$limit] AS kept
  UNWIND CASE WHEN kept = [] THEN [null] ELSE kept END AS h
  WITH raw, h, h.e AS e
  RETURN size(raw) AS raw, [x IN collect(CASE WHEN e IS NULL THEN null ELSE
         {uuid: e.uuid, name: e.name, type: e.type, aliases: e.aliases, score: h.score,
          mentions: COUNT { (e)<-[:MENTIONS]-() }} END) WHERE x IS NOT NULL] AS hits
}
RETURN query.name AS query, raw, false AS exact, hits
"""

# The same lookup keeping to the group's own names when it has few (at most $scan_max, $scan_cap = $scan_max + 1):
# its entities are found through the group index and their vectors read once for every query, each query's
# cosine to each is exact, and no other group's names can crowd them out (`exact`: never asked again). A larger
# group asks the shared index per query as ENTITY_VECTOR does.
ENTITY_VECTOR_SCANNING = """
CALL () {
  MATCH (e:Entity) WHERE e.group_id = $group_id
  WITH e LIMIT $scan_cap
  RETURN collect(e) AS own
}
WITH size(own) <= $scan_max AS exact, own
WITH exact, CASE WHEN exact THEN [e IN own WHERE e.expired_at IS NULL AND e.name_embedding IS NOT NULL
                                   | {e: e, v: e.name_embedding}] ELSE [] END AS named
UNWIND $queries AS query
CALL (query, exact, named) {
  CALL (query, exact, named) {
    WITH query, named WHERE exact
    UNWIND named AS x
    RETURN collect({e: x.e, score: vector.similarity.cosine(x.v, query.embedding)}) AS scanned
  }
  CALL (query, exact) {
    WITH query WHERE NOT exact
    CALL db.index.vector.queryNodes('entity_name_embedding', $depth, query.embedding) YIELD node, score
    RETURN collect({e: node, score: score}) AS indexed
  }
  WITH scanned + indexed AS raw
  CALL (raw) {
    UNWIND raw AS h
    WITH h.e AS e, h.score AS score WHERE e.group_id = $group_id AND e.expired_at IS NULL
    WITH e, score ORDER BY score DESC LIMIT $limit
    RETURN collect({uuid: e.uuid, name: e.name, type: e.type, aliases: e.aliases, score: score,
                    mentions: COUNT { (e)<-[:MENTIONS]-() }}) AS hits
  }
  RETURN size(raw) AS raw, hits
}
RETURN query.name AS query, raw, exact, hits
"""

GET_ENTITY = """
MATCH (e:Entity {uuid: $uuid}) WHERE $group_id IS NULL OR e.group_id = $group_id
RETURN e.uuid AS uuid, e.group_id AS group_id, e.name AS name, e.key AS key, e.type AS type,
       e.aliases AS aliases, e.summary AS summary, e.created_at AS created_at, e.updated_at AS updated_at,
       e.expired_at AS expired_at
"""

ENTITY_TIMELINE = """
MATCH (e:Entity {uuid: $uuid})-[r:RELATES_TO]-(other:Entity)
WHERE r.group_id = $group_id AND ($include_expired OR r.expired_at IS NULL) AND """ + STORY_STATED + """
WITH r, startNode(r) AS s, endNode(r) AS o
RETURN """ + FACT_FIELDS + """
ORDER BY r.valid_at, r.story_at, r.uuid
"""

# Notes about an entity from episodes that still stand (a retracted episode's notes are not memory), latest
# said first; the episode's reference time is when it was said.
ENTITY_NOTES = """
MATCH (n:Note)-[:ABOUT]->(e:Entity {uuid: $uuid}) WHERE n.group_id = $group_id
MATCH (ep:Episode {uuid: n.episode_uuid}) WHERE ep.status = 'done'
RETURN n.uuid AS uuid, n.text AS text, toString(n.valid_at) AS valid_at, n.speaker AS speaker,
       n.episode_uuid AS episode_uuid, n.start AS start, n.end AS end, toString(ep.reference_time) AS said_at,
       [(n)-[:ABOUT]->(x:Entity) | x.name] AS about
ORDER BY ep.reference_time DESC, n.start
LIMIT $limit
"""

# Counts are computed when asked (one index lookup per predicate) rather than kept up to date on every write.
PREDICATES = """
MATCH (p:Predicate {group_id: $group_id})
RETURN p.name AS name, p.description AS description, p.functional AS functional,
       COUNT { ()-[r:RELATES_TO {predicate: p.name}]->() WHERE r.group_id = $group_id AND r.expired_at IS NULL }
       AS count
ORDER BY p.name
"""

PREDICATE_NAMES = """
MATCH (p:Predicate {group_id: $group_id})
RETURN p.name AS name, p.description AS description, p.functional AS functional, 0 AS count
ORDER BY p.name
"""

GROUP_COUNTS = """
CALL () { MATCH (e:Entity {group_id: $group_id}) WHERE e.expired_at IS NULL RETURN count(e) AS entities }
CALL () { MATCH ()-[r:RELATES_TO]->() WHERE r.group_id = $group_id RETURN count(r) AS facts,
          sum(CASE WHEN r.expired_at IS NULL AND r.invalid_at IS NULL THEN 1 ELSE 0 END) AS open_facts }
CALL () { MATCH (ep:Episode {group_id: $group_id}) RETURN count(ep) AS episodes }
RETURN entities, facts, open_facts, episodes
"""

# Entities the earlier episodes of the same source mention most: the extractor's roster.
ROSTER = """
MATCH (prev:Episode {source_uuid: $source_uuid}) WHERE prev.seq < $seq AND prev.status = 'done'
MATCH (prev)-[:MENTIONS]->(e:Entity) WHERE e.expired_at IS NULL
WITH e, count(*) AS mentions ORDER BY mentions DESC, e.name LIMIT $limit
RETURN e.name AS name, e.type AS type, e.aliases AS aliases
"""

# Without a source: the entities the group's latest committed episodes mention most. Bounded by $episodes, not
# by the group (counting every entity's mentions took seconds an episode in a group of 147k entities).
GROUP_ROSTER = """
MATCH (ep:Episode {group_id: $group_id}) WHERE ep.committed_at IS NOT NULL
WITH ep ORDER BY ep.committed_at DESC LIMIT $episodes
MATCH (ep)-[:MENTIONS]->(e:Entity) WHERE e.expired_at IS NULL
WITH e, count(*) AS mentions ORDER BY mentions DESC, e.name LIMIT $limit
RETURN e.name AS name, e.type AS type, e.aliases AS aliases
"""

PREVIOUS_SUMMARY = """
MATCH (prev:Episode {source_uuid: $source_uuid}) WHERE prev.seq < $seq AND prev.summary IS NOT NULL
RETURN prev.summary AS summary ORDER BY prev.seq DESC LIMIT 1
"""

# Quotes of a group from episodes that still stand, in reading order. A speaker or addressee filter is an entity
# uuid or a name: the linked entity's name or aliases, or the name the text gave (folded to lower case).
_QUOTE_FILTER = """
MATCH (qt:Quote {group_id: $group_id})
WHERE $episode_uuid IS NULL OR qt.episode_uuid = $episode_uuid
MATCH (ep:Episode {uuid: qt.episode_uuid}) WHERE ep.status = 'done'
OPTIONAL MATCH (s:Entity)-[:SAID]->(qt)
WITH qt, ep, s
WHERE $speaker IS NULL OR s.uuid = $speaker OR toLower(qt.speaker) = toLower($speaker)
   OR toLower(s.name) = toLower($speaker) OR any(a IN coalesce(s.aliases, []) WHERE toLower(a) = toLower($speaker))
WITH qt, ep, s
WHERE $addressee IS NULL OR any(a IN coalesce(qt.addressees, []) WHERE toLower(a) = toLower($addressee))
   OR EXISTS { MATCH (qt)-[:TO]->(t:Entity) WHERE t.uuid = $addressee OR toLower(t.name) = toLower($addressee)
               OR any(a IN coalesce(t.aliases, []) WHERE toLower(a) = toLower($addressee)) }
"""

LIST_QUOTES = _QUOTE_FILTER + """
RETURN qt.uuid AS uuid, qt.text AS text, coalesce(qt.speaker, s.name) AS speaker, s.uuid AS speaker_uuid,
       coalesce(qt.addressees, []) AS addressees, [(qt)-[:TO]->(t:Entity) | t.uuid] AS addressee_uuids,
       qt.episode_uuid AS episode_uuid, qt.start AS start, qt.end AS end,
       ep.span_start + qt.start AS source_start, ep.span_start + qt.end AS source_end, qt.position AS position,
       qt.method AS method, coalesce(qt.confidence, 0.0) AS confidence
ORDER BY ep.source_uuid, ep.seq, qt.position, qt.uuid
SKIP $offset LIMIT $limit
"""

COUNT_QUOTES = _QUOTE_FILTER + " RETURN count(qt) AS n"

# Why names joined an entity, newest first (graph/commit.py RECORD_MERGES).
MERGE_RECORDS = """
MATCH (m:MergeRecord {group_id: $group_id, entity_uuid: $uuid})
RETURN m.uuid AS uuid, m.entity_uuid AS entity_uuid, m.forms AS forms, m.rule AS rule, m.reason AS reason,
       m.score AS score, m.mention_form AS mention_form, m.candidate_form AS candidate_form,
       m.episode_uuid AS episode_uuid, m.created_at AS created_at, m.merged_uuid AS merged_uuid,
       m.split_from AS split_from, m.source_uuid AS source_uuid, m.undone_at AS undone_at, m.actor AS actor
ORDER BY m.created_at DESC, m.uuid LIMIT $limit
"""

# Who asserted what in a group: each agent's episodes and the current facts it stated.
AGENTS = """
MATCH (ep:Episode) WHERE ep.group_id = $group_id AND ep.agent IS NOT NULL AND ep.status <> 'retracted'
WITH ep.agent AS agent, count(ep) AS episodes, min(ep.created_at) AS first_at, max(ep.created_at) AS last_at
CALL (agent) {
  MATCH ()-[r:RELATES_TO]->() WHERE r.group_id = $group_id AND agent IN coalesce(r.agents, [])
    AND r.expired_at IS NULL
  RETURN count(r) AS facts
}
RETURN agent, episodes, facts, first_at, last_at
ORDER BY episodes DESC, agent
"""

# Every live fact of one slot read whole, history included (the answer stage, memory/answers.py): the
# predicate (and role) on the given entities, as object, and as subject too when ``$either_side`` (a couple is
# stored either way). One anchored read for all the entities a name may stand for.
SLOT_HISTORY = """
UNWIND $entities AS uuid
CALL (uuid) {
  MATCH (s:Entity)-[r:RELATES_TO]->(o:Entity {uuid: uuid}) RETURN r, s, o
  UNION
  MATCH (s:Entity {uuid: uuid})-[r:RELATES_TO]->(o:Entity) WHERE $either_side RETURN r, s, o
}
WITH DISTINCT r, s, o
WHERE r.group_id = $group_id AND r.predicate = $predicate AND ($role IS NULL OR r.role = $role)
  AND r.expired_at IS NULL
RETURN """ + FACT_FIELDS + """
LIMIT $limit
"""
