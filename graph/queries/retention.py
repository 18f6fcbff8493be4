"""Retention (graph/retention.py): per-group policies, hiding what a policy makes due, restoring what it no
longer does, purging what is hidden, and the last use of memories for salience.

Hidden values move to ``archived_*`` properties of the same node or relationship: no index covers those names,
so the items leave full-text and vector search, and every other property (time, provenance) stays. Batches are
bounded (``$batch``); each statement returns how many rows it touched, and the caller loops until 0.
"""

GET_POLICY = """
MATCH (p:RetentionPolicy {group_id: $group_id}) RETURN properties(p) AS props
"""

# A null field removes the property: the default (keep everything) is the absence of a setting.
PUT_POLICY = """
MERGE (p:RetentionPolicy {group_id: $group_id})
SET p += $fields, p.updated_at = $now, p.updated_by = $actor
"""

APPLIED = """
MATCH (p:RetentionPolicy {group_id: $group_id}) SET p.applied_at = $now
"""

POLICY_GROUPS = """
MATCH (p:RetentionPolicy) RETURN p.group_id AS group_id ORDER BY group_id
"""

HALF_LIFE = """
OPTIONAL MATCH (p:RetentionPolicy {group_id: $group_id}) RETURN p.salience_half_life_days AS half_life
"""

# --- episodes' raw text: content, chat messages and structured statements (passages follow their own cutoff,
# which is never earlier)
_EPISODE_DUE = """
MATCH (ep:Episode) WHERE ep.group_id = $group_id AND ep.status = 'done' AND ep.compacted_at IS NULL
  AND $before IS NOT NULL AND ep.created_at < $before
"""
_EPISODE_BACK = """
MATCH (ep:Episode) WHERE ep.group_id = $group_id AND ep.archived_content IS NOT NULL
  AND ($before IS NULL OR ep.created_at >= $before)
"""
EPISODES_DUE = _EPISODE_DUE + "RETURN count(ep) AS n"
EPISODES_BACK = _EPISODE_BACK + "RETURN count(ep) AS n"
HIDE_EPISODES = _EPISODE_DUE + """WITH ep LIMIT $batch
SET ep.archived_content = ep.content, ep.archived_messages_json = ep.messages_json,
    ep.archived_facts_json = ep.facts_json, ep.content = '', ep.messages_json = '[]', ep.facts_json = '[]',
    ep.compacted_at = $now
RETURN count(ep) AS n
"""
RESTORE_EPISODES = _EPISODE_BACK + """WITH ep LIMIT $batch
SET ep.content = ep.archived_content, ep.messages_json = ep.archived_messages_json,
    ep.facts_json = ep.archived_facts_json
REMOVE ep.archived_content, ep.archived_messages_json, ep.archived_facts_json, ep.compacted_at
RETURN count(ep) AS n
"""

# --- passages: text, context and both vectors
_PASSAGE_DUE = """
MATCH (ep:Episode)-[:HAS_PASSAGE]->(p:Passage)
WHERE ep.group_id = $group_id AND ep.status = 'done' AND p.hidden_at IS NULL
  AND $before IS NOT NULL AND ep.created_at < $before
"""
_PASSAGE_BACK = """
MATCH (ep:Episode)-[:HAS_PASSAGE]->(p:Passage)
WHERE ep.group_id = $group_id AND p.archived_text IS NOT NULL AND ($before IS NULL OR ep.created_at >= $before)
"""
PASSAGES_DUE = _PASSAGE_DUE + "RETURN count(p) AS n"
PASSAGES_BACK = _PASSAGE_BACK + "RETURN count(p) AS n"
HIDE_PASSAGES = _PASSAGE_DUE + """WITH p LIMIT $batch
SET p.archived_text = p.text, p.archived_context = p.context, p.archived_embedding = p.embedding,
    p.archived_context_embedding = p.context_embedding, p.text = '', p.context = '', p.hidden_at = $now
REMOVE p.embedding, p.context_embedding
RETURN count(p) AS n
"""
RESTORE_PASSAGES = _PASSAGE_BACK + """WITH p LIMIT $batch
SET p.text = p.archived_text, p.context = p.archived_context, p.embedding = p.archived_embedding,
    p.context_embedding = p.archived_context_embedding
REMOVE p.archived_text, p.archived_context, p.archived_embedding, p.archived_context_embedding, p.hidden_at
RETURN count(p) AS n
"""

# --- fact history: facts that ended before the cutoff, in valid time and as learned (a stated future end is not
# an end yet; an old end learned today is news), or expired (retracted, merged as a duplicate) before it
_ENDED = """(r.invalid_at < $before AND coalesce(r.invalidated_at, r.created_at) < $before)
       OR r.expired_at < $before"""
_FACT_DUE = """
MATCH ()-[r:RELATES_TO]->() WHERE r.group_id = $group_id AND r.compacted_at IS NULL
  AND r.fact_embedding IS NOT NULL AND $before IS NOT NULL AND (""" + _ENDED + """)
"""
_FACT_BACK = """
MATCH ()-[r:RELATES_TO]->() WHERE r.group_id = $group_id AND r.archived_fact_embedding IS NOT NULL
  AND ($before IS NULL OR NOT coalesce(""" + _ENDED + """, false))
"""
FACTS_DUE = _FACT_DUE + "RETURN count(r) AS n"
FACTS_BACK = _FACT_BACK + "RETURN count(r) AS n"
HIDE_FACTS = _FACT_DUE + """WITH r LIMIT $batch
SET r.archived_fact_embedding = r.fact_embedding, r.compacted_at = $now
REMOVE r.fact_embedding
RETURN count(r) AS n
"""
RESTORE_FACTS = _FACT_BACK + """WITH r LIMIT $batch
SET r.fact_embedding = coalesce(r.fact_embedding, r.archived_fact_embedding)
REMOVE r.archived_fact_embedding, r.compacted_at
RETURN count(r) AS n
"""

# --- retention purge: what is hidden goes for good (the marks stay, so reads can say it was compacted)
PURGE_EPISODES = """
MATCH (ep:Episode) WHERE ep.group_id = $group_id AND ep.archived_content IS NOT NULL
WITH ep LIMIT $batch
REMOVE ep.archived_content, ep.archived_messages_json, ep.archived_facts_json SET ep.text_purged_at = $now
RETURN count(ep) AS n
"""
PURGE_PASSAGES = """
MATCH (ep:Episode)-[:HAS_PASSAGE]->(p:Passage) WHERE ep.group_id = $group_id AND p.archived_text IS NOT NULL
WITH p LIMIT $batch
REMOVE p.archived_text, p.archived_context, p.archived_embedding, p.archived_context_embedding
RETURN count(p) AS n
"""
PURGE_FACTS = """
MATCH ()-[r:RELATES_TO]->() WHERE r.group_id = $group_id AND r.archived_fact_embedding IS NOT NULL
WITH r LIMIT $batch
REMOVE r.archived_fact_embedding SET r.history_purged_at = $now
RETURN count(r) AS n
"""

# --- salience: when search last returned a memory, and when it was learned
TOUCH = """
CALL () {
  UNWIND $facts AS id
  MATCH ()-[r:RELATES_TO {uuid: id}]->() WHERE r.group_id = $group_id SET r.last_used_at = $now
}
CALL () {
  UNWIND $entities AS id
  MATCH (e:Entity {uuid: id}) WHERE e.group_id = $group_id SET e.last_used_at = $now
}
CALL () {
  UNWIND $passages AS id
  MATCH (:Passage {uuid: id})-[:HAS_NOTE]->(n:Note) WHERE n.group_id = $group_id SET n.last_used_at = $now
}
"""

LAST_USE = """
CALL () {
  UNWIND $facts AS id
  MATCH ()-[r:RELATES_TO {uuid: id}]->() WHERE r.group_id = $group_id
  RETURN r.uuid AS uuid, r.last_used_at AS last_used_at, r.created_at AS learned_at
  UNION
  UNWIND $entities AS id
  MATCH (e:Entity {uuid: id}) WHERE e.group_id = $group_id
  RETURN e.uuid AS uuid, e.last_used_at AS last_used_at, e.created_at AS learned_at
}
RETURN uuid, last_used_at, learned_at
"""

# What the group holds in the values retention hides, in bytes (strings: characters; vectors: 4 bytes a number).
CONTENT_SIZE = """
CALL () {
  MATCH (ep:Episode) WHERE ep.group_id = $group_id
  RETURN sum(size(coalesce(ep.content, '')) + size(coalesce(ep.messages_json, ''))
             + size(coalesce(ep.facts_json, ''))) AS raw_text,
         sum(size(coalesce(ep.archived_content, '')) + size(coalesce(ep.archived_messages_json, ''))
             + size(coalesce(ep.archived_facts_json, ''))) AS raw_text_hidden
}
CALL () {
  MATCH (ep:Episode)-[:HAS_PASSAGE]->(p:Passage) WHERE ep.group_id = $group_id
  RETURN sum(size(coalesce(p.text, '')) + size(coalesce(p.context, ''))
             + 4 * (size(coalesce(p.embedding, [])) + size(coalesce(p.context_embedding, [])))) AS passages,
         sum(size(coalesce(p.archived_text, '')) + size(coalesce(p.archived_context, ''))
             + 4 * (size(coalesce(p.archived_embedding, []))
                    + size(coalesce(p.archived_context_embedding, [])))) AS passages_hidden
}
CALL () {
  MATCH ()-[r:RELATES_TO]->() WHERE r.group_id = $group_id
  RETURN sum(4 * size(coalesce(r.fact_embedding, []))) AS fact_vectors,
         sum(4 * size(coalesce(r.archived_fact_embedding, []))) AS fact_vectors_hidden
}
RETURN raw_text, raw_text_hidden, passages, passages_hidden, fact_vectors, fact_vectors_hidden
"""
