"""Writes of the per-episode commit. Every value arrives as a parameter; labels through `$(...)`.

Times inside row lists travel as ISO-8601 strings and are read back with ``toString``: the driver's own
datetime conversion costs ~40 us a value in Python (0.4 s of a 10,000-fact commit), Cypher's parse nothing.
"""

UPSERT_SOURCE = """
MERGE (s:Source {uuid: $source.uuid})
ON CREATE SET s.group_id = $source.group_id, s.name = $source.name, s.kind = $source.kind, s.uri = $source.uri,
              s.content_hash = $source.content_hash, s.created_at = $source.created_at,
              s.metadata_json = $source.metadata_json
"""

UPSERT_EPISODE = """
MERGE (ep:Episode {uuid: $ep.uuid})
ON CREATE SET ep += $ep, ep.created_at = $now
SET ep.status = 'done', ep.error = null, ep.committed_at = coalesce(ep.committed_at, $now),
    ep.extractor = $extractor, ep.summary = coalesce($summary, ep.summary),
    // counts travel with the status, so a worker lost right after the commit leaves nothing to backfill
    ep.fact_count = $fact_count, ep.entity_count = $entity_count
WITH ep
OPTIONAL MATCH (s:Source {uuid: ep.source_uuid})
FOREACH (_ IN CASE WHEN s IS NULL THEN [] ELSE [1] END | MERGE (s)-[:HAS_EPISODE]->(ep))
WITH ep
OPTIONAL MATCH (prev:Episode {source_uuid: ep.source_uuid, seq: ep.seq - 1}) WHERE ep.source_uuid IS NOT NULL
FOREACH (_ IN CASE WHEN prev IS NULL THEN [] ELSE [1] END | MERGE (prev)-[:NEXT]->(ep))
WITH ep
OPTIONAL MATCH (next:Episode {source_uuid: ep.source_uuid, seq: ep.seq + 1}) WHERE ep.source_uuid IS NOT NULL
FOREACH (_ IN CASE WHEN next IS NULL THEN [] ELSE [1] END | MERGE (ep)-[:NEXT]->(next))
"""

UPSERT_ENTITIES = """
UNWIND $rows AS row
MERGE (e:Entity {uuid: row.uuid})
ON CREATE SET e.group_id = $group_id, e.group_tag = $group_tag, e.key = row.key, e.name = row.name,
              e.type = row.type, e.aliases = row.aliases, e.summary = row.summary, e.description = row.summary,
              e.created_at = $now, e.updated_at = $now
WITH e, row, [a IN row.aliases WHERE NOT a IN e.aliases] AS new_aliases
// Only what changes is written: an entity every episode mentions would otherwise be rewritten (and
// re-indexed in full text) by every episode.
FOREACH (_ IN CASE WHEN size(new_aliases) > 0 THEN [1] ELSE [] END |
  SET e.aliases = e.aliases + new_aliases, e.updated_at = $now)
// The extractor's description: the summary until one is written from the graph (ingest/summaries.py), and
// part of what that summary is made from.
FOREACH (_ IN CASE WHEN coalesce(e.description, '') = '' AND coalesce(row.summary, '') <> '' THEN [1] ELSE [] END |
  SET e.description = row.summary)
FOREACH (_ IN CASE WHEN coalesce(e.summary, '') = '' AND coalesce(row.summary, '') <> '' THEN [1] ELSE [] END |
  SET e.summary = row.summary)
FOREACH (_ IN CASE WHEN e.expired_at IS NOT NULL THEN [1] ELSE [] END | SET e.expired_at = null)
SET e:$(row.type)
WITH e, row WHERE row.embedding IS NOT NULL AND e.name_embedding IS NULL
CALL db.create.setNodeVectorProperty(e, 'name_embedding', row.embedding)
"""

# An episode committed again after its retraction takes its mentions back (graph/queries/retract.py).
UPSERT_MENTIONS = """
MATCH (ep:Episode {uuid: $episode_uuid})
CALL (ep) {
  MATCH (ep)-[old:RETRACTED_MENTION]->(:Entity)
  DELETE old
}
UNWIND $rows AS row
MATCH (e:Entity {uuid: row.entity_uuid})
MERGE (ep)-[m:MENTIONS]->(e)
SET m.spans = row.spans, m.surface_forms = row.surface_forms
"""

UPSERT_FACTS = """
UNWIND $rows AS f
MATCH (s:Entity {uuid: f.subject_uuid}), (o:Entity {uuid: f.object_uuid})
MERGE (s)-[r:RELATES_TO {uuid: f.uuid}]->(o)
ON CREATE SET r.group_id = $group_id, r.group_tag = $group_tag, r.predicate = f.predicate, r.fact = f.fact,
              r.predicate_text = f.predicate_text, r.role = f.role,
              r.valid_at = datetime(f.valid_at), r.stated_invalid_at = datetime(f.invalid_at),
              r.invalid_at = datetime(f.invalid_at), r.negated = f.negated,
              r.confidence = f.confidence, r.created_at = $now, r.extractor = $extractor,
              r.episodes = [$episode_uuid], r.evidence = f.evidence, r.asserted_by = f.asserted_by,
              r.agents = f.agents, r.story_at = f.story_at, r.story_chapter = f.story_chapter,
              r.story_source = f.story_source, r.statement_episodes = [$episode_uuid],
              r.statements = [coalesce(f.fact, '')], r.statement_speakers = [coalesce(head(f.asserted_by), '')]
// Another episode stating the same fact appends its provenance (and revives a retracted fact) and its statement:
// its words and speaker, which a purge of the other episodes leaves the fact (graph/queries/purge.py). A fact
// written before statements were kept starts with its episodes as statements of unknown words ('').
ON MATCH SET r.statements = coalesce(r.statements, [x IN r.episodes | '']),
             r.statement_speakers = coalesce(r.statement_speakers, [x IN r.episodes | '']),
             r.statement_episodes = coalesce(r.statement_episodes, r.episodes),
             r.statements = CASE WHEN $episode_uuid IN r.statement_episodes THEN r.statements
                                 ELSE r.statements + coalesce(f.fact, '') END,
             r.statement_speakers = CASE WHEN $episode_uuid IN r.statement_episodes THEN r.statement_speakers
                                         ELSE r.statement_speakers + coalesce(head(f.asserted_by), '') END,
             r.statement_episodes = CASE WHEN $episode_uuid IN r.statement_episodes THEN r.statement_episodes
                                         ELSE r.statement_episodes + $episode_uuid END,
             r.episodes = CASE WHEN $episode_uuid IN r.episodes THEN r.episodes ELSE r.episodes + $episode_uuid END,
             r.evidence = r.evidence + [x IN f.evidence WHERE NOT x IN r.evidence],
             r.asserted_by = r.asserted_by + [x IN f.asserted_by WHERE NOT x IN r.asserted_by],
             r.agents = r.agents + [x IN f.agents WHERE NOT x IN r.agents],
             r.expired_at = null
// A fact stands where the story first states it, whichever window commits first (story_at last: the two
// before it test the old value).
FOREACH (_ IN CASE WHEN f.story_at IS NOT NULL AND (r.story_at IS NULL OR f.story_at < r.story_at) THEN [1]
              ELSE [] END |
  SET r.story_chapter = f.story_chapter, r.story_source = f.story_source, r.story_at = f.story_at)
WITH r, f WHERE f.embedding IS NOT NULL AND r.fact_embedding IS NULL
CALL db.create.setRelationshipVectorProperty(r, 'fact_embedding', f.embedding)
"""

UPSERT_PASSAGES = """
MATCH (ep:Episode {uuid: $episode_uuid})
UNWIND $rows AS p
MERGE (x:Passage {uuid: p.uuid})
ON CREATE SET x.group_id = $group_id, x.group_tag = $group_tag, x.episode_uuid = $episode_uuid,
              x.start = p.start, x.end = p.end, x.text = p.text, x.speaker = p.speaker,
              x.context = coalesce(p.context, p.text)
MERGE (ep)-[:HAS_PASSAGE]->(x)
WITH x, p
CALL (x, p) {
  WITH x, p WHERE p.embedding IS NOT NULL AND x.embedding IS NULL
  CALL db.create.setNodeVectorProperty(x, 'embedding', p.embedding)
}
// Search finds passages by their context; a passage written without one is its own (as migration 0013 sets).
CALL (x, p) {
  WITH x, coalesce(p.context_embedding, p.embedding) AS vector WHERE vector IS NOT NULL AND x.context_embedding IS NULL
  CALL db.create.setNodeVectorProperty(x, 'context_embedding', vector)
}
"""

# Notes hang off the passage they rewrite and point at the entities they name; they carry no vectors of their
# own: their text is part of the passage's indexed context (resolve/passages.py), so search finds them there.
UPSERT_NOTES = """
UNWIND $rows AS n
MERGE (x:Note {uuid: n.uuid})
ON CREATE SET x.group_id = $group_id, x.episode_uuid = $episode_uuid, x.text = n.text, x.start = n.start,
              x.end = n.end, x.valid_at = datetime(n.valid_at), x.speaker = n.speaker, x.created_at = $now
WITH x, n
CALL (x, n) {
  MATCH (p:Passage {uuid: n.passage_uuid})
  MERGE (p)-[:HAS_NOTE]->(x)
}
CALL (x, n) {
  UNWIND n.entity_uuids AS id
  MATCH (e:Entity {uuid: id})
  MERGE (x)-[:ABOUT]->(e)
}
"""

# Quotes hang off their episode; the speaker SAID them, they are TO their addressees (resolved entities only;
# the names as written stay on the quote).
UPSERT_QUOTES = """
UNWIND $rows AS q
MATCH (ep:Episode {uuid: $episode_uuid})
MERGE (x:Quote {uuid: q.uuid})
ON CREATE SET x.group_id = $group_id, x.episode_uuid = $episode_uuid, x.created_at = $now
SET x.text = q.text, x.start = q.start, x.end = q.end, x.position = q.position, x.speaker = q.speaker,
    x.addressees = q.addressees, x.method = q.method, x.confidence = q.confidence, x.narrator = q.narrator
MERGE (ep)-[:HAS_QUOTE]->(x)
WITH x, q
CALL (x, q) {
  MATCH (e:Entity {uuid: q.speaker_uuid})
  MERGE (e)-[:SAID]->(x)
}
CALL (x, q) {
  UNWIND q.addressee_uuids AS id
  MATCH (e:Entity {uuid: id})
  MERGE (x)-[:TO]->(e)
}
"""

UPSERT_PREDICATES = """
UNWIND $rows AS p
MERGE (x:Predicate {group_id: $group_id, name: p.name})
ON CREATE SET x.description = p.description, x.functional = p.functional, x.created_at = $now
SET x.functional = coalesce(x.functional, p.functional),
    x.description = CASE WHEN coalesce(x.description, '') = '' THEN p.description ELSE x.description END,
    // Never reset: a retracted negation can still reopen what it closed.
    x.has_negations = coalesce(x.has_negations, false) OR p.negated
"""

# One record per (episode, entity): a retried episode writes the same record again.
RECORD_MERGES = """
UNWIND $rows AS row
MATCH (e:Entity {uuid: row.entity_uuid})
MERGE (m:MergeRecord {uuid: row.uuid})
ON CREATE SET m.group_id = $group_id, m.entity_uuid = row.entity_uuid, m.forms = row.forms, m.rule = row.rule,
              m.reason = row.reason, m.score = row.score, m.mention_form = row.mention_form,
              m.candidate_form = row.candidate_form, m.episode_uuid = row.episode_uuid, m.created_at = $now
MERGE (m)-[:MERGED_INTO]->(e)
"""

RECORD_SUGGESTIONS = """
UNWIND $rows AS row
MATCH (a:Entity {uuid: row.entity_uuid}), (b:Entity {uuid: row.candidate_uuid})
WHERE NOT EXISTS { (a)<-[x:POSSIBLY_SAME_AS]-(b) WHERE x.rejected_at IS NOT NULL }  // rejected: never again
MERGE (a)-[s:POSSIBLY_SAME_AS]->(b)
ON CREATE SET s.score = row.score, s.created_at = $now, s.group_id = $group_id
"""

# Facts of functional slots and of (subject, predicate, object) pairs, for the temporal rules: one query per
# slot kind, each anchored on the entity's unique uuid index. The first large batch in a new group is planned
# from statistics that do not count it yet (the facts are in the same transaction); a single query with a
# UNION branch per kind was then planned as relationship-index scans run for every slot (30M rows for 3,000
# slots), and the hint keeps the anchored expand whatever the statistics say.
_SLOT_FACT_FIELDS = """
WITH DISTINCT r, s, o WHERE r.group_id = $group_id AND r.expired_at IS NULL
RETURN r.uuid AS uuid, s.uuid AS subject_uuid, r.predicate AS predicate, o.uuid AS object_uuid, r.role AS role,
       toString(r.valid_at) AS valid_at, toString(r.stated_invalid_at) AS stated_invalid_at,
       toString(r.invalid_at) AS invalid_at, r.invalidated_by AS invalidated_by,
       toString(r.created_at) AS created_at, coalesce(r.negated, false) AS negated,
       r.story_at AS story_at, r.story_until AS story_until
"""

SUBJECT_SLOT_FACTS = """
UNWIND $slots AS slot
MATCH (s:Entity {uuid: slot.entity_uuid})-[r:RELATES_TO]->(o:Entity)
USING INDEX s:Entity(uuid)
WHERE r.predicate = slot.predicate
""" + _SLOT_FACT_FIELDS

OBJECT_SLOT_FACTS = """
UNWIND $slots AS slot
MATCH (s:Entity)-[r:RELATES_TO]->(o:Entity {uuid: slot.entity_uuid})
USING INDEX o:Entity(uuid)
WHERE r.predicate = slot.predicate
""" + _SLOT_FACT_FIELDS

# Pair slots are asked for only for predicates that have had a negation in the group (`Predicate.has_negations`);
# a pair matters only when a negation (live or retracted) exists in it: that is what can close or reopen.
PAIR_SLOT_FACTS = """
UNWIND $slots AS slot
MATCH (s:Entity {uuid: slot.entity_uuid})-[r:RELATES_TO]->(o:Entity {uuid: slot.other_uuid})
USING INDEX s:Entity(uuid)
WHERE r.predicate = slot.predicate
WITH s, o, collect(r) AS rs WHERE any(x IN rs WHERE x.negated)
UNWIND rs AS r
""" + _SLOT_FACT_FIELDS

SLOT_FACTS_BY_KIND = {"subject": SUBJECT_SLOT_FACTS, "object": OBJECT_SLOT_FACTS, "pair": PAIR_SLOT_FACTS}

# Before a fact's end changes, its state joins the end history (read by graph/queries/read.py BELIEVED_END), so
# "what did we believe at known_at" survives every later change: `end_changed_at` gains $now and `end_before`
# the end until now (ISO, '' for open). A fact whose end changed before histories were kept starts its history
# from the one earlier state it has. SET items apply in order: each reads the values before this change.
KEEP_END_HISTORY = """
SET r.end_changed_at = coalesce(r.end_changed_at,
        CASE WHEN r.invalidated_at IS NULL THEN []
             WHEN r.prev_invalidated_at IS NULL THEN [r.invalidated_at]
             ELSE [r.prev_invalidated_at, r.invalidated_at] END) + [$now],
    r.end_before = coalesce(r.end_before,
        CASE WHEN r.invalidated_at IS NULL THEN []
             WHEN r.prev_invalidated_at IS NULL THEN [coalesce(toString(r.stated_invalid_at), '')]
             ELSE [coalesce(toString(r.stated_invalid_at), ''), coalesce(toString(r.prev_invalid_at), '')] END)
        + [coalesce(toString(r.invalid_at), '')],
    r.invalidated_at = $now
REMOVE r.prev_invalid_at, r.prev_invalidated_at
"""

APPLY_SLOT_UPDATES = """
UNWIND $rows AS u
MATCH ()-[r:RELATES_TO {uuid: u.uuid}]->()
CALL (r, u) {
  WITH r, u WHERE u.end_changed
""" + KEEP_END_HISTORY + """
}
SET r.invalid_at = datetime(u.invalid_at), r.invalidated_by = u.invalidated_by, r.story_until = u.story_until
"""

EPISODE_IS_COMMITTED = """
MATCH (ep:Episode {uuid: $uuid}) RETURN ep.status = 'done' AS done
"""
