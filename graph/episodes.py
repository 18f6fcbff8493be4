"""Queued work in the graph: Source, Episodes (status ``queued``) and a Job, then status transitions.

Neo4j is the record of truth for progress, so a job's counts survive broker restarts and are the same for
the CLI and the API.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from neo4j import ManagedTransaction
from pydantic import BaseModel

from strata.graph.commit import episode_properties
from strata.graph.driver import Graph
from strata.graph.queries import episodes as q
from strata.graph.read import native
from strata.schema.models import Episode, Source
from strata.schema.usage import LLMUsage

_EPISODE_FIELDS = set(Episode.model_fields)


class StoredJob(BaseModel):
    job_uuid: str
    created: bool
    # Episodes that wait for a task (new ones, and failed ones submitted again).
    to_enqueue: list[str]


class Redriven(BaseModel):
    """An episode set back to `queued` by a re-drive, to be sent to its queue again."""
    uuid: str
    queue: str | None
    job_uuid: str | None


class JobCounts(BaseModel):
    uuid: str
    group_id: str
    source_uuid: str | None
    created_at: datetime
    total: int
    by_status: dict[str, int]
    facts: int
    llm: LLMUsage = LLMUsage()


def store_job(graph: Graph, job: dict[str, Any], source: Source | None, episodes: Sequence[Episode],
              now: datetime, queue: str | None = None) -> StoredJob:
    """One transaction: the Job (MERGE on its uuid), the Source, its Episodes as ``queued`` (for ``queue``: a
    re-drive sends an episode back to the queue it was meant for).

    A job that exists already (the same source again) queues again only its retracted episodes: a retracted
    source uploaded again is ingested again, one that stands is a duplicate (``created`` False, nothing to do)."""
    rows = [episode_properties(e) for e in episodes]

    def work(tx: ManagedTransaction) -> StoredJob:
        head = tx.run(q.CREATE_JOB, job=job, now=now).single()
        assert head is not None
        if not head["created"]:
            again = tx.run(q.REQUEUE_RETRACTED, job_uuid=head["uuid"], episodes=rows, now=now)
            to_enqueue = [r["uuid"] for r in again.data()]
            if to_enqueue and source is not None:
                tx.run(q.RESTORE_SOURCE, source_uuid=source.uuid).consume()
            return StoredJob(job_uuid=head["uuid"], created=bool(to_enqueue), to_enqueue=to_enqueue)
        if source is not None:
            src = source.model_dump(exclude={"metadata"})
            src["metadata_json"] = json.dumps(source.metadata, sort_keys=True, default=str)
            tx.run(q.STORE_SOURCE, source=src).consume()
        stored = tx.run(q.STORE_EPISODES, job_uuid=job["uuid"], episodes=rows, now=now, queue=queue).data()
        return StoredJob(job_uuid=job["uuid"], created=True,
                         to_enqueue=[r["uuid"] for r in stored if r["status"] == "queued"])

    return graph.write(work)


def unenqueued(graph: Graph, job_uuid: str) -> list[str]:
    return [r["uuid"] for r in graph.query(q.UNENQUEUED, job_uuid=job_uuid)]


def mark_enqueued(graph: Graph, uuids: Sequence[str], now: datetime, queue: str | None = None) -> None:
    if uuids:
        graph.query(q.MARK_ENQUEUED, uuids=list(uuids), now=now, queue=queue)


def load_episode(graph: Graph, uuid: str) -> Episode | None:
    rows = graph.query(q.EPISODE_PROPERTIES, uuid=uuid)
    if not rows:
        return None
    props = native(rows[0]["props"])
    data = {k: v for k, v in props.items() if k in _EPISODE_FIELDS}
    data["metadata"] = json.loads(props.get("metadata_json") or "{}")
    data["messages"] = json.loads(props.get("messages_json") or "[]")
    data["facts"] = json.loads(props.get("facts_json") or "[]")
    data.setdefault("status", "queued")
    if data["status"] not in ("queued", "processing", "done", "failed", "retracted"):
        data["status"] = "queued"
    return Episode.model_validate(data)


def load_source(graph: Graph, uuid: str | None) -> Source | None:
    if not uuid:
        return None
    rows = graph.query(q.SOURCE_PROPERTIES, uuid=uuid)
    if not rows:
        return None
    props = native(rows[0]["props"])
    data = {k: v for k, v in props.items() if k in Source.model_fields}
    data["metadata"] = json.loads(props.get("metadata_json") or "{}")
    return Source.model_validate(data)


def claim_episode(graph: Graph, uuid: str, worker: str, now: datetime, *, owner: str,
                  lease_s: float) -> tuple[str | None, bool]:
    """(status before, claimed), the lease held by ``owner`` for ``lease_s``. Not claimed when done, failed,
    retracted, missing, or processing under another worker's live lease."""
    rows = graph.query(q.CLAIM_EPISODE, uuid=uuid, worker=worker, now=now, owner=owner, lease_ms=_ms(lease_s))
    if not rows:
        return None, False
    if rows[0]["before"] == "done" and rows[0]["uncounted"]:
        graph.query(q.BACKFILL_COUNTS, uuid=uuid, now=now)
    return rows[0]["before"], bool(rows[0]["claim"])


def renew_lease(graph: Graph, uuid: str, owner: str, lease_s: float) -> tuple[bool, str | None]:
    """(renewed, status). Not renewed when the lease is no longer ``owner``'s (it expired and the episode was
    re-driven) or the episode left processing (committed, failed)."""
    rows = graph.query(q.RENEW_LEASE, uuid=uuid, owner=owner, lease_ms=_ms(lease_s))
    return (bool(rows[0]["held"]), rows[0]["status"]) if rows else (False, None)


def redrive_expired(graph: Graph, now: datetime, *, queues: Sequence[str] | None, default_queue: str | None,
                    limit: int = 1000) -> list[Redriven]:
    """Episodes whose lease expired (running, or waiting for a retry), set back to `queued` with their lease
    released, each by one caller only. ``queues``: only episodes meant for these (None: all); an episode without
    a recorded queue counts as ``default_queue``'s."""
    rows = graph.query(q.REDRIVE_EXPIRED, now=now, queues=_list(queues), default_queue=default_queue, limit=limit)
    return [Redriven.model_validate(r) for r in rows]


class Delivery(BaseModel):
    """A task the broker delivered and nobody acknowledged yet."""
    tag: str
    uuid: str
    at: datetime


def unclaimed_deliveries(graph: Graph, deliveries: Sequence[Delivery]) -> list[str]:
    """The tags of those deliveries whose episode is queued, held by no lease, and not re-driven since."""
    if not deliveries:
        return []
    rows = graph.query(q.UNCLAIMED_DELIVERIES, deliveries=[d.model_dump() for d in deliveries])
    return [r["tag"] for r in rows]


def redrive_orphans(graph: Graph, now: datetime, cutoff: datetime, *, queues: Sequence[str],
                    pending: Sequence[str], limit: int = 1000) -> list[Redriven]:
    """Queued episodes sent to ``queues`` (empty in the broker) before ``cutoff`` whose task no delivery holds
    (``pending``: the episodes of every delivery not yet acknowledged), to be sent again; each to one caller."""
    rows = graph.query(q.REDRIVE_ORPHANS, now=now, cutoff=cutoff, queues=list(queues), default_queue=None,
                       pending=list(pending), limit=limit)
    return [Redriven.model_validate(r) for r in rows]


def mark_committed(graph: Graph, uuid: str, *, facts: int, entities: int, now: datetime, extract_ms: float,
                   commit_ms: float, usage: LLMUsage | None = None) -> None:
    """Counts and timings; ``usage`` is added to what the episode's LLM calls cost so far."""
    graph.query(q.MARK_COMMITTED, uuid=uuid, facts=facts, entities=entities, now=now, extract_ms=extract_ms,
                commit_ms=commit_ms, usage=(usage or LLMUsage()).properties())


def add_llm_usage(graph: Graph, uuid: str, usage: LLMUsage) -> None:
    graph.query(q.ADD_LLM_USAGE, uuid=uuid, usage=usage.properties())


def mark_retrying(graph: Graph, uuid: str, error: str, owner: str, hold_s: float) -> None:
    """Back to `queued` until the retry runs, under ``owner``'s lease for ``hold_s`` (the backoff and a lease)."""
    graph.query(q.MARK_RETRYING, uuid=uuid, error=error, owner=owner, lease_ms=_ms(hold_s))


def mark_failed(graph: Graph, uuid: str, error: str, now: datetime) -> bool:
    return bool(graph.query(q.MARK_FAILED, uuid=uuid, error=error, now=now))


def job_counts(graph: Graph, job_uuid: str) -> JobCounts | None:
    rows = graph.query(q.JOB_COUNTS, uuid=job_uuid)
    if not rows:
        return None
    row = native(rows[0])
    by_status: dict[str, int] = {}
    facts = 0
    for c in row["counts"]:
        if c["status"] is None:
            continue
        by_status[c["status"]] = by_status.get(c["status"], 0) + c["n"]
        facts += c["facts"]
    return JobCounts(uuid=row["uuid"], group_id=row["group_id"], source_uuid=row["source_uuid"],
                     created_at=row["created_at"], total=sum(by_status.values()), by_status=by_status, facts=facts,
                     llm=LLMUsage.from_properties(row["llm"]))


def retry_failed(graph: Graph, now: datetime, *, group_id: str | None = None, job_uuid: str | None = None) -> list[str]:
    rows = graph.query(q.RETRY_FAILED, group_id=group_id, job_uuid=job_uuid, now=now)
    return [r["uuid"] for r in rows]


def sweep_stuck(graph: Graph, cutoff: datetime, now: datetime, *, queues: Sequence[str] | None = None,
                default_queue: str | None = None, limit: int = 10_000) -> list[Redriven]:
    """Episodes stuck without a lease since ``cutoff`` (see SWEEP_STUCK), set back to `queued`."""
    rows = graph.query(q.SWEEP_STUCK, cutoff=cutoff, now=now, queues=_list(queues), default_queue=default_queue,
                       limit=limit)
    return [Redriven.model_validate(r) for r in rows]


def _ms(seconds: float) -> int:
    return max(1, round(seconds * 1000))


def _list(values: Sequence[str] | None) -> list[str] | None:
    return None if values is None else list(values)


def status_counts(graph: Graph) -> dict[str, int]:
    return {r["status"]: r["n"] for r in graph.query(q.STATUS_COUNTS)}


def episode_details(graph: Graph, uuid: str) -> dict[str, Any] | None:
    rows = graph.query(q.EPISODE_INFO, uuid=uuid)
    if not rows:
        return None
    row = native(rows[0])
    row["llm"] = LLMUsage.from_properties(row["llm"]).model_dump()
    for fact in row["facts"]:
        for key in ("valid_at", "invalid_at"):
            if hasattr(fact.get(key), "to_native"):
                fact[key] = fact[key].to_native()
    return row
