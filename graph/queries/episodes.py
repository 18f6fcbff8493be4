"""Episode lifecycle and batch jobs: store queued work, status transitions, job counts, the stuck sweep.

Statuses: queued -> processing -> done | failed (and back to queued on a retry or a re-drive). The commit
itself sets `done` (graph/queries/commit.py UPSERT_EPISODE), so `done` and the written graph are one
transaction.
"""

# A source job's uuid is derived from (group, source hash): a second submission MERGEs onto the first.
CREATE_JOB = """
MERGE (j:Job {uuid: $job.uuid})
ON CREATE SET j += $job, j.created_at = $now, j.new = true
WITH j, coalesce(j.new, false) AS created
REMOVE j.new
RETURN created, j.uuid AS uuid
"""

STORE_SOURCE = """
MERGE (s:Source {uuid: $source.uuid})
ON CREATE SET s.group_id = $source.group_id, s.name = $source.name, s.kind = $source.kind, s.uri = $source.uri,
              s.content_hash = $source.content_hash, s.created_at = $source.created_at,
              s.metadata_json = $source.metadata_json
"""

# New episodes start queued; a failed or retracted one submitted again is queued again (a retracted one is
# processed again: its commit restores what the retraction took); others stay as they are (a done episode
# posted again is a no-op).
STORE_EPISODES = """
MATCH (j:Job {uuid: $job_uuid})
UNWIND $episodes AS row
MERGE (e:Episode {uuid: row.uuid})
ON CREATE SET e += row, e.status = 'queued', e.created_at = $now, e.job_uuid = $job_uuid
FOREACH (_ IN CASE WHEN e.status IN ['failed', 'retracted'] THEN [1] ELSE [] END |
  SET e.status = 'queued', e.requeued_at = $now, e.enqueued_at = null)
MERGE (j)-[:INCLUDES]->(e)
WITH e
OPTIONAL MATCH (s:Source {uuid: e.source_uuid})
FOREACH (_ IN CASE WHEN s IS NULL THEN [] ELSE [1] END | MERGE (s)-[:HAS_EPISODE]->(e))
RETURN e.uuid AS uuid, e.status AS status, e.seq AS seq
ORDER BY seq
"""

# The same source submitted again: only its retracted episodes are queued again (what still stands, and episodes
# another segmentation of the file would make, are left alone: the submission is a duplicate).
REQUEUE_RETRACTED = """
MATCH (:Job {uuid: $job_uuid})-[:INCLUDES]->(e:Episode) WHERE e.uuid IN $uuids AND e.status = 'retracted'
SET e.status = 'queued', e.requeued_at = $now, e.enqueued_at = null
RETURN e.uuid AS uuid ORDER BY e.seq
"""

MARK_ENQUEUED = """
UNWIND $uuids AS uuid
MATCH (e:Episode {uuid: uuid}) WHERE e.status = 'queued'
SET e.enqueued_at = $now
"""

EPISODE_PROPERTIES = """
MATCH (e:Episode {uuid: $uuid}) RETURN properties(e) AS props
"""

SOURCE_PROPERTIES = """
MATCH (s:Source {uuid: $uuid}) RETURN properties(s) AS props
"""

# Claim for processing. `processing` is claimable too: that is a redelivered task of a dead worker (and
# processing twice is harmless: every write is a MERGE on a deterministic id).
CLAIM_EPISODE = """
MATCH (e:Episode {uuid: $uuid})
WITH e, e.status AS before, e.status IN ['queued', 'processing'] AS claim
FOREACH (_ IN CASE WHEN claim THEN [1] ELSE [] END |
  SET e.status = 'processing', e.started_at = $now, e.attempts = coalesce(e.attempts, 0) + 1, e.worker = $worker)
RETURN before, claim, e.fact_count IS NULL AS uncounted
"""

# LLM usage adds up over attempts (what an episode cost, failed attempts included): $usage holds
# strata.schema.usage.LLMUsage.properties().
_ADD_LLM_USAGE = """
SET e.llm_calls = coalesce(e.llm_calls, 0) + $usage.llm_calls,
    e.llm_prompt_tokens = coalesce(e.llm_prompt_tokens, 0) + $usage.llm_prompt_tokens,
    e.llm_completion_tokens = coalesce(e.llm_completion_tokens, 0) + $usage.llm_completion_tokens,
    e.llm_extraction_calls = coalesce(e.llm_extraction_calls, 0) + $usage.llm_extraction_calls,
    e.llm_adjudication_calls = coalesce(e.llm_adjudication_calls, 0) + $usage.llm_adjudication_calls,
    e.llm_summary_calls = coalesce(e.llm_summary_calls, 0) + $usage.llm_summary_calls,
    e.llm_cache_hits = coalesce(e.llm_cache_hits, 0) + $usage.llm_cache_hits
"""

ADD_LLM_USAGE = """
MATCH (e:Episode {uuid: $uuid})
""" + _ADD_LLM_USAGE

MARK_COMMITTED = """
MATCH (e:Episode {uuid: $uuid})
SET e.fact_count = $facts, e.entity_count = $entities, e.finished_at = $now, e.error = null,
    e.extract_ms = $extract_ms, e.commit_ms = $commit_ms
""" + _ADD_LLM_USAGE

# Between Celery retries the episode waits as `queued`, keeping the last error for the curious.
MARK_RETRYING = """
MATCH (e:Episode {uuid: $uuid}) WHERE e.status = 'processing'
SET e.status = 'queued', e.last_error = $error
"""

MARK_FAILED = """
MATCH (e:Episode {uuid: $uuid}) WHERE NOT e.status IN ['done', 'retracted']
SET e.status = 'failed', e.error = $error, e.last_error = $error, e.failed_at = $now
RETURN e.uuid AS uuid
"""

JOB_COUNTS = """
MATCH (j:Job {uuid: $uuid})
CALL (j) {
  OPTIONAL MATCH (j)-[:INCLUDES]->(e:Episode)
  RETURN {llm_calls: sum(coalesce(e.llm_calls, 0)), llm_prompt_tokens: sum(coalesce(e.llm_prompt_tokens, 0)),
          llm_completion_tokens: sum(coalesce(e.llm_completion_tokens, 0)),
          llm_extraction_calls: sum(coalesce(e.llm_extraction_calls, 0)),
          llm_adjudication_calls: sum(coalesce(e.llm_adjudication_calls, 0)),
          llm_summary_calls: sum(coalesce(e.llm_summary_calls, 0)),
          llm_cache_hits: sum(coalesce(e.llm_cache_hits, 0))} AS llm
}
OPTIONAL MATCH (j)-[:INCLUDES]->(e:Episode)
WITH j, llm, e.status AS status, count(e) AS n, sum(coalesce(e.fact_count, 0)) AS facts
RETURN j.uuid AS uuid, j.group_id AS group_id, j.source_uuid AS source_uuid, j.created_at AS created_at, llm,
       collect({status: status, n: n, facts: facts}) AS counts
"""

# A source uploaded again after its retraction stands again: the flag goes with the episodes queued again.
RESTORE_SOURCE = """
MATCH (s:Source {uuid: $source_uuid}) SET s.retracted_at = null
"""

JOB_OF_SOURCE = """
MATCH (j:Job {source_uuid: $source_uuid}) RETURN j.uuid AS uuid ORDER BY j.created_at LIMIT 1
"""

RETRY_FAILED = """
MATCH (e:Episode {status: 'failed'})
WHERE ($group_id IS NULL OR e.group_id = $group_id)
  AND ($job_uuid IS NULL OR EXISTS { (:Job {uuid: $job_uuid})-[:INCLUDES]->(e) })
SET e.status = 'queued', e.error = null, e.redriven_at = $now, e.enqueued_at = null
RETURN e.uuid AS uuid
"""

# Stuck: `processing` since before the cutoff (its worker died and the broker did not redeliver), or
# `queued` but never handed to the broker (the submitter died between store and enqueue).
SWEEP_STUCK = """
MATCH (e:Episode) WHERE e.status IN ['processing', 'queued']
WITH e WHERE (e.status = 'processing' AND e.started_at < $cutoff)
          OR (e.status = 'queued' AND e.enqueued_at IS NULL AND e.created_at < $cutoff)
WITH e LIMIT $limit
SET e.status = 'queued', e.enqueued_at = null, e.swept_at = $now
RETURN e.uuid AS uuid
"""

STATUS_COUNTS = """
MATCH (e:Episode) WHERE e.status IS NOT NULL
RETURN e.status AS status, count(e) AS n
"""

EPISODE_INFO = """
MATCH (e:Episode {uuid: $uuid})
CALL (e) {
  OPTIONAL MATCH (e)-[m:MENTIONS]->(x:Entity)
  RETURN collect(CASE WHEN x IS NULL THEN null ELSE {uuid: x.uuid, name: x.name, type: x.type,
                 surface_forms: m.surface_forms} END) AS entities
}
CALL (e) {
  OPTIONAL MATCH (e)-[:MENTIONS]->(:Entity)-[r:RELATES_TO]->(o:Entity)
  WHERE e.uuid IN r.episodes
  WITH DISTINCT r, startNode(r) AS s, o
  RETURN collect(CASE WHEN r IS NULL THEN null ELSE {uuid: r.uuid, subject: s.name, predicate: r.predicate,
                 object: o.name, fact: r.fact, valid_at: r.valid_at, invalid_at: r.invalid_at} END) AS facts
}
RETURN e.uuid AS uuid, e.group_id AS group_id, e.source_uuid AS source_uuid, e.job_uuid AS job_uuid,
       e.seq AS seq, e.kind AS kind, e.status AS status, e.error AS error, e.last_error AS last_error,
       coalesce(e.attempts, 0) AS attempts, e.created_at AS created_at, e.started_at AS started_at,
       e.finished_at AS finished_at, e.extractor AS extractor, entities, facts,
       {llm_calls: e.llm_calls, llm_prompt_tokens: e.llm_prompt_tokens, llm_completion_tokens: e.llm_completion_tokens,
        llm_extraction_calls: e.llm_extraction_calls, llm_adjudication_calls: e.llm_adjudication_calls,
        llm_summary_calls: e.llm_summary_calls, llm_cache_hits: e.llm_cache_hits} AS llm
"""

UNENQUEUED = """
MATCH (:Job {uuid: $job_uuid})-[:INCLUDES]->(e:Episode) WHERE e.status = 'queued' AND e.enqueued_at IS NULL
RETURN e.uuid AS uuid ORDER BY e.seq
"""

# A worker that died (or lost Neo4j) between the commit (status done) and MARK_COMMITTED left no counts:
# count what the episode supports, so job totals stay exact.
BACKFILL_COUNTS = """
MATCH (e:Episode {uuid: $uuid}) WHERE e.status = 'done' AND e.fact_count IS NULL
CALL (e) {
  OPTIONAL MATCH (e)-[:MENTIONS]->(:Entity)-[r:RELATES_TO]->() WHERE e.uuid IN r.episodes
  RETURN count(DISTINCT r) AS facts
}
CALL (e) { OPTIONAL MATCH (e)-[:MENTIONS]->(x:Entity) RETURN count(DISTINCT x) AS entities }
SET e.fact_count = facts, e.entity_count = entities, e.finished_at = coalesce(e.finished_at, $now)
"""
