"""Episode lifecycle and batch jobs: store queued work, status transitions, leases, job counts, re-drives.

Statuses: queued -> processing -> done | failed (and back to queued on a retry or a re-drive). The commit
itself sets `done` (graph/queries/commit.py UPSERT_EPISODE), so `done` and the written graph are one
transaction.

A `processing` episode holds a lease (`lease_owner`, `lease_until`) its worker renews; an expired lease means
the worker died, and the episode is re-driven. Lease times are Neo4j's clock (`datetime()`), so the clocks of
worker machines never compare with each other. Queries that decide on a status another transaction may be
changing take the node's write lock first (`SET e.lease_lock = true REMOVE e.lease_lock`) and read after it:
two claims, or two workers re-driving the same episode, then see each other's result instead of both winning.
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
ON CREATE SET e += row, e.status = 'queued', e.created_at = $now, e.job_uuid = $job_uuid, e.queue = $queue
FOREACH (_ IN CASE WHEN e.status IN ['failed', 'retracted'] THEN [1] ELSE [] END |
  SET e.status = 'queued', e.requeued_at = $now, e.enqueued_at = null)
// an episode retention compacted (graph/queries/retention.py) is processed again from the body posted again
FOREACH (_ IN CASE WHEN e.status = 'queued' AND e.compacted_at IS NOT NULL THEN [1] ELSE [] END |
  SET e.content = row.content, e.messages_json = row.messages_json, e.facts_json = row.facts_json
  REMOVE e.compacted_at, e.archived_content, e.archived_messages_json, e.archived_facts_json)
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
UNWIND $episodes AS row
MATCH (:Job {uuid: $job_uuid})-[:INCLUDES]->(e:Episode {uuid: row.uuid}) WHERE e.status = 'retracted'
SET e.status = 'queued', e.requeued_at = $now, e.enqueued_at = null
// compacted by retention: processed again from the text uploaded again
FOREACH (_ IN CASE WHEN e.compacted_at IS NOT NULL THEN [1] ELSE [] END |
  SET e.content = row.content, e.messages_json = row.messages_json, e.facts_json = row.facts_json
  REMOVE e.compacted_at, e.archived_content, e.archived_messages_json, e.archived_facts_json)
RETURN e.uuid AS uuid ORDER BY e.seq
"""

MARK_ENQUEUED = """
UNWIND $uuids AS uuid
MATCH (e:Episode {uuid: uuid}) WHERE e.status = 'queued'
SET e.enqueued_at = $now, e.queue = coalesce($queue, e.queue)
"""

EPISODE_PROPERTIES = """
MATCH (e:Episode {uuid: $uuid}) RETURN properties(e) AS props
"""

SOURCE_PROPERTIES = """
MATCH (s:Source {uuid: $uuid}) RETURN properties(s) AS props
"""

_LOCK = "SET e.lease_lock = true REMOVE e.lease_lock"
_LEASE_UNTIL = "datetime() + duration({milliseconds: $lease_ms})"

# Claim for processing, with a lease. `processing` is claimable when its lease expired (a dead worker's
# redelivered task) or it has none (claimed before leases existed); a live lease is another worker's, still
# running. Processing twice stays harmless (every write is a MERGE on a deterministic id).
CLAIM_EPISODE = f"""
MATCH (e:Episode {{uuid: $uuid}})
{_LOCK}
WITH e, e.status AS before,
     e.status = 'queued' OR (e.status = 'processing' AND coalesce(e.lease_until < datetime(), true)) AS claim
FOREACH (_ IN CASE WHEN claim THEN [1] ELSE [] END |
  SET e.status = 'processing', e.started_at = $now, e.attempts = coalesce(e.attempts, 0) + 1, e.worker = $worker,
      e.lease_owner = $owner, e.lease_until = {_LEASE_UNTIL})
RETURN before, claim, e.fact_count IS NULL AS uncounted
"""

# The heartbeat: nothing is renewed once the lease went to another worker or the episode left `processing`.
RENEW_LEASE = f"""
MATCH (e:Episode {{uuid: $uuid}})
{_LOCK}
WITH e, e.status = 'processing' AND e.lease_owner = $owner AS held
FOREACH (_ IN CASE WHEN held THEN [1] ELSE [] END | SET e.lease_until = {_LEASE_UNTIL})
RETURN held, e.status AS status
"""

_RELEASE = "e.lease_owner = null, e.lease_until = null"
_REDRIVEN = """RETURN e.uuid AS uuid, coalesce(e.queue, $default_queue) AS queue, e.job_uuid AS job_uuid
ORDER BY e.seq"""
_IN_QUEUES = "($queues IS NULL OR coalesce(e.queue, $default_queue) IN $queues)"

# Expired leases: the worker died (or lost Neo4j for longer than a lease), running the episode or holding its
# Celery retry (`queued` under a lease, MARK_RETRYING). Each episode is re-driven by one worker only: the
# condition is read again under the node's lock. Episodes are locked in uuid order, so concurrent re-drives
# do not deadlock each other. `started_at IS NOT NULL` lets the (status, started_at) index skip the episodes
# that never ran (a backlog of queued work).
_EXPIRED = ("e.status IN ['processing', 'queued'] AND e.started_at IS NOT NULL "
            "AND e.lease_until < datetime()")
REDRIVE_EXPIRED = f"""
MATCH (e:Episode) WHERE {_EXPIRED} AND {_IN_QUEUES}
WITH e ORDER BY e.uuid LIMIT $limit
{_LOCK}
WITH e WHERE {_EXPIRED}
SET e.last_error = 'lease expired: ' + coalesce(e.lease_owner, 'a worker')
                   + CASE e.status WHEN 'queued' THEN ' (its retry never ran)' ELSE '' END,
    e.status = 'queued', e.enqueued_at = null, e.redriven_at = $now, {_RELEASE}
{_REDRIVEN}
"""

# Orphans: queued, sent before the cutoff, held by no lease and by no delivery ($pending), in a queue the
# broker holds nothing for ($queues, checked by the caller): the task was lost on its way to a worker. Only
# episodes sent to a named queue: those of an inline run (no queue) wait for their turn in its process.
_ORPHAN = ("e.status = 'queued' AND e.enqueued_at < $cutoff AND coalesce(e.lease_until < datetime(), true) "
           "AND NOT e.uuid IN $pending")
REDRIVE_ORPHANS = f"""
MATCH (e:Episode) WHERE {_ORPHAN} AND e.queue IN $queues
WITH e ORDER BY e.uuid LIMIT $limit
{_LOCK}
WITH e WHERE {_ORPHAN}
SET e.last_error = 'task lost before its claim: neither queued nor delivered', e.enqueued_at = null,
    e.redriven_at = $now, {_RELEASE}
{_REDRIVEN}
"""

# Of these broker deliveries (tag, episode uuid, delivered at), the ones whose episode nobody holds: queued,
# with no lease or an expired one (a retry's), and not re-driven since the delivery (a re-drive sent a task of
# its own). Delivered long ago and never acknowledged, such a task was lost with the worker it went to.
UNCLAIMED_DELIVERIES = """
UNWIND $deliveries AS d
MATCH (e:Episode {uuid: d.uuid})
WHERE e.status = 'queued' AND coalesce(e.lease_until < datetime(), true) AND coalesce(e.redriven_at < d.at, true)
RETURN d.tag AS tag
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

MARK_COMMITTED = f"""
MATCH (e:Episode {{uuid: $uuid}})
SET e.fact_count = $facts, e.entity_count = $entities, e.finished_at = $now, e.error = null,
    e.extract_ms = $extract_ms, e.commit_ms = $commit_ms, {_RELEASE}
""" + _ADD_LLM_USAGE

# Between Celery retries the episode waits as `queued`, keeping the last error for the curious, under a lease
# that outlasts the backoff: Celery holds the retry in the worker's memory, so if that worker dies the lease
# expires and the episode is re-driven.
MARK_RETRYING = f"""
MATCH (e:Episode {{uuid: $uuid}}) WHERE e.status = 'processing'
SET e.status = 'queued', e.last_error = $error, e.lease_owner = $owner, e.lease_until = {_LEASE_UNTIL}
"""

MARK_FAILED = f"""
MATCH (e:Episode {{uuid: $uuid}}) WHERE NOT e.status IN ['done', 'retracted']
SET e.status = 'failed', e.error = $error, e.last_error = $error, e.failed_at = $now, {_RELEASE}
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

RETRY_FAILED = """
MATCH (e:Episode {status: 'failed'})
WHERE ($group_id IS NULL OR e.group_id = $group_id)
  AND ($job_uuid IS NULL OR EXISTS { (:Job {uuid: $job_uuid})-[:INCLUDES]->(e) })
SET e.status = 'queued', e.error = null, e.redriven_at = $now, e.enqueued_at = null
RETURN e.uuid AS uuid
"""

# Stuck without a lease: `processing` since before the cutoff (claimed before leases existed), or `queued`
# but not handed to the broker since the cutoff (a submitter, or a re-drive, died between store and send).
# Expired leases are REDRIVE_EXPIRED's.
_STUCK = """((e.status = 'processing' AND e.lease_until IS NULL AND e.started_at < $cutoff)
       OR (e.status = 'queued' AND e.enqueued_at IS NULL AND coalesce(e.redriven_at, e.created_at) < $cutoff))"""
SWEEP_STUCK = f"""
MATCH (e:Episode) WHERE e.status IN ['processing', 'queued']
WITH e WHERE {_STUCK} AND {_IN_QUEUES}
WITH e ORDER BY e.uuid LIMIT $limit
{_LOCK}
WITH e WHERE {_STUCK}
SET e.status = 'queued', e.enqueued_at = null, e.swept_at = $now, e.redriven_at = $now
{_REDRIVEN}
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
       e.finished_at AS finished_at, e.extractor AS extractor, e.compacted_at AS compacted_at, entities, facts,
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
