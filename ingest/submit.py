"""Submit work: store Source + Episodes (queued) + Job in one transaction, then enqueue one task per episode.

The same source (content hash) submitted again to the same group returns the first job (``duplicate_of``)
and enqueues nothing. Bad input is rejected before anything is stored, so no partial job is left behind.
``inline_pipeline`` runs the episodes in this process through the same ``run_episode`` as the workers.
"""

from __future__ import annotations

import uuid as uuidlib
from typing import Any, Literal

from celery import Celery
from tenacity import Retrying, retry_if_exception_type, stop_after_attempt, wait_exponential_jitter

from strata.graph import Graph
from strata.graph import episodes as store
from strata.ingest.locks import GroupLocks, LocalGroupLocks
from strata.ingest.pipeline import Pipeline
from strata.ingest.sources import SourceDocument
from strata.ingest.tasks import PERMANENT, enqueue, record_failure, run_episode
from strata.schema.errors import ConfigError, InputError, NotFoundError, RetryableError
from strata.schema.ids import stable_uuid
from strata.schema.jobs import JobInfo
from strata.schema.models import Episode, Source, utcnow

INLINE_ATTEMPTS = 4


def submit_document(graph: Graph, celery: Celery | None, doc: SourceDocument, *, agent: str | None = None,
                    inline_pipeline: Pipeline | None = None) -> JobInfo:
    source = doc.source
    job_uuid = stable_uuid("job", source.group_id, source.content_hash)
    episodes = doc.episodes if agent is None else [e.model_copy(update={"agent": agent}) for e in doc.episodes]
    return _submit(graph, celery, source.group_id, episodes, source, job_uuid, agent, inline_pipeline)


def submit_episodes(graph: Graph, celery: Celery | None, group_id: str, episodes: list[Episode], *,
                    agent: str | None = None, inline_pipeline: Pipeline | None = None) -> JobInfo:
    if not episodes:
        raise InputError("no episodes to submit", {"group_id": group_id})
    foreign = sorted({e.group_id for e in episodes} - {group_id})
    if foreign:
        raise InputError(f"episodes belong to other groups than {group_id!r}: {', '.join(foreign)}",
                         {"group_id": group_id, "other_groups": foreign})
    episodes = once_each(group_id, episodes)
    if agent is not None:
        episodes = [e if e.agent else e.model_copy(update={"agent": agent}) for e in episodes]
    return _submit(graph, celery, group_id, episodes, None, str(uuidlib.uuid4()), agent, inline_pipeline)


def once_each(group_id: str, episodes: list[Episode]) -> list[Episode]:
    """The same episode twice in one submission (a client's retry, a pasted message) is one episode, as it is
    across submissions; one uuid with two different contents is a conflict the caller must settle."""
    first: dict[str, Episode] = {}
    for episode in episodes:
        seen = first.setdefault(episode.uuid, episode)
        if seen.content_hash != episode.content_hash:
            raise InputError("one episode uuid names two different contents within one submission",
                             {"group_id": group_id, "uuid": episode.uuid})
    return list(first.values())


def _submit(graph: Graph, celery: Celery | None, group_id: str, episodes: list[Episode], source: Source | None,
            job_uuid: str, agent: str | None, inline_pipeline: Pipeline | None) -> JobInfo:
    if celery is None and inline_pipeline is None:
        raise ConfigError("submitting needs a Celery app or an inline pipeline")
    if not group_id:
        raise InputError("group_id is required")
    job: dict[str, Any] = {"uuid": job_uuid, "group_id": group_id, "agent": agent, "total": len(episodes),
                           "source_uuid": source.uuid if source else None, "kind": "source" if source else "episodes"}
    # the queue the episodes are meant for, kept on each: a re-drive sends an episode back to it
    queue = celery.conf.task_default_queue if celery is not None and inline_pipeline is None else None
    stored = store.store_job(graph, job, source, episodes, utcnow(), queue)
    if not stored.created:
        # Costs nothing, except re-sending what a crashed submitter stored but never enqueued.
        pending = store.unenqueued(graph, stored.job_uuid)
        _dispatch(graph, celery, pending, stored.job_uuid, inline_pipeline)
        return job_info(graph, stored.job_uuid).model_copy(update={"duplicate_of": stored.job_uuid})
    _dispatch(graph, celery, stored.to_enqueue, stored.job_uuid, inline_pipeline)
    return job_info(graph, stored.job_uuid)


def _dispatch(graph: Graph, celery: Celery | None, uuids: list[str], job_uuid: str | None,
              inline_pipeline: Pipeline | None) -> None:
    if not uuids:
        return
    if inline_pipeline is not None:
        store.mark_enqueued(graph, uuids, utcnow())
        run_inline(inline_pipeline, uuids, job_uuid)
        return
    assert celery is not None
    enqueue(celery, uuids, job_uuid)
    store.mark_enqueued(graph, uuids, utcnow(), celery.conf.task_default_queue)


def run_inline(pipeline: Pipeline, uuids: list[str], job_uuid: str | None,
               locks: GroupLocks | None = None, on_episode: Any = None) -> None:
    """Run episodes in this process, in order, with the workers' code and retry policy (tenacity here)."""
    locks = locks or LocalGroupLocks()
    for episode_uuid in uuids:
        retrying = Retrying(stop=stop_after_attempt(INLINE_ATTEMPTS),
                            wait=wait_exponential_jitter(multiplier=0.5, max=10),
                            retry=retry_if_exception_type(RetryableError), reraise=True)
        try:
            retrying(run_episode, pipeline, locks, episode_uuid, job_uuid)
        except PERMANENT as exc:
            record_failure(pipeline.graph, episode_uuid, exc, job_uuid)
        except Exception as exc:  # noqa: BLE001 - the episode fails with its error; the job goes on
            record_failure(pipeline.graph, episode_uuid, exc, job_uuid)
        if on_episode is not None:
            on_episode(episode_uuid)


def job_info(graph: Graph, job_uuid: str) -> JobInfo:
    counts = store.job_counts(graph, job_uuid)
    if counts is None:
        raise NotFoundError(f"job {job_uuid} not found", {"job_uuid": job_uuid})
    by = counts.by_status
    queued, processing = by.get("queued", 0), by.get("processing", 0)
    failed = by.get("failed", 0)
    status: Literal["running", "done", "failed"] = (
        "running" if queued + processing else ("failed" if failed else "done"))
    return JobInfo(uuid=counts.uuid, group_id=counts.group_id, source_uuid=counts.source_uuid, total=counts.total,
                   queued=queued, processing=processing, done=by.get("done", 0), failed=failed, facts=counts.facts,
                   status=status, created_at=counts.created_at, llm=counts.llm)


def episode_info(graph: Graph, episode_uuid: str) -> dict[str, Any]:
    """Status, error and what was extracted (entities mentioned, facts it supports), for GET /v1/episodes/{uuid}."""
    info = store.episode_details(graph, episode_uuid)
    if info is None:
        raise NotFoundError(f"episode {episode_uuid} not found", {"episode_uuid": episode_uuid})
    return info


def retry_failed(graph: Graph, celery: Celery | None, *, group_id: str | None = None, job_uuid: str | None = None,
                 inline_pipeline: Pipeline | None = None) -> list[str]:
    """Re-drive failed episodes (status back to queued, a new task each)."""
    if celery is None and inline_pipeline is None:
        raise ConfigError("retrying needs a Celery app or an inline pipeline")
    uuids = store.retry_failed(graph, utcnow(), group_id=group_id, job_uuid=job_uuid)
    _dispatch(graph, celery, uuids, job_uuid, inline_pipeline)
    return uuids
