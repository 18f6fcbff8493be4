"""The episode task: claim -> extract (parallel, outside any lock) -> per-group lock -> resolve + commit -> done.

``run_episode`` is the whole unit of work and is shared by the Celery task and ``--inline`` runs. Every step is
idempotent: the claim is a status check, every write MERGEs on a deterministic id, and the commit sets
``done`` in the same transaction as the graph writes. A task receives an episode uuid, never the episode.
From claim to commit the episode holds a lease its heartbeat renews (ingest/lease.py); ingest/recovery.py
re-drives the episodes of leases that expired.
"""

from __future__ import annotations

import importlib
import logging
import os
import random
import socket
import threading
import time
from collections.abc import Callable
from typing import Any, Literal, Protocol

from celery import Celery
from pydantic import BaseModel

from strata.graph import Graph
from strata.graph import episodes as store
from strata.ingest import metrics
from strata.ingest.lease import Heartbeat, LeaseTerms, new_owner
from strata.ingest.locks import GroupLocks, RedisGroupLocks
from strata.ingest.logging import log_event
from strata.ingest.pipeline import Pipeline, extraction_usage
from strata.ingest.protocols import Extractor
from strata.schema.errors import ConfigError, ExtractionError, InputError, SchemaMismatchError, StrataError
from strata.schema.models import utcnow
from strata.schema.settings import Settings
from strata.schema.usage import LLMUsage

TASK_EPISODE = "strata.ingest.episode"
TASK_SUMMARIES = "strata.summaries.sweep"
TASK_COMMUNITIES = "strata.communities.refresh"
TASK_RETENTION = "strata.retention.apply"
# Errors that no retry can fix: the episode fails at once. ExtractionError is raised after the LLM path's own
# repair turn and splits; a task retry would pay the same calls again for the same answer.
PERMANENT = (InputError, ConfigError, SchemaMismatchError, ExtractionError)
MAX_ERROR_CHARS = 2000

log = logging.getLogger("strata.ingest")


class EpisodeResult(BaseModel):
    episode_uuid: str
    outcome: Literal["done", "skipped", "missing"]
    status_before: str | None = None
    facts: int = 0
    entities: int = 0
    extract_s: float = 0.0
    commit_s: float = 0.0
    llm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    llm_cache_hits: int = 0


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{threading.get_ident()}"


def run_episode(pipeline: Pipeline, locks: GroupLocks, episode_uuid: str, job_uuid: str | None = None,
                lease: LeaseTerms | None = None) -> EpisodeResult:
    graph = pipeline.graph
    lease = lease or LeaseTerms()
    worker = worker_name()
    owner = new_owner(worker)
    before, claimed = store.claim_episode(graph, episode_uuid, worker, utcnow(), owner=owner, lease_s=lease.lease_s)
    if before is None:
        log_event(log, "episode.missing", logging.WARNING, episode_uuid=episode_uuid, job_uuid=job_uuid)
        metrics.EPISODES_PROCESSED.labels("missing").inc()
        return EpisodeResult(episode_uuid=episode_uuid, outcome="missing")
    if not claimed:
        # done, failed, retracted, or processing under a live lease (its worker runs it; if that worker
        # died, the lease expires and the episode is re-driven)
        log_event(log, "episode.skipped", episode_uuid=episode_uuid, job_uuid=job_uuid, status=before)
        metrics.EPISODES_PROCESSED.labels("skipped").inc()
        return EpisodeResult(episode_uuid=episode_uuid, outcome="skipped", status_before=before)
    with Heartbeat(graph, episode_uuid, owner, lease):
        return _process(pipeline, locks, episode_uuid, job_uuid, before)


def _process(pipeline: Pipeline, locks: GroupLocks, episode_uuid: str, job_uuid: str | None,
             before: str) -> EpisodeResult:
    graph = pipeline.graph
    episode = store.load_episode(graph, episode_uuid)
    assert episode is not None
    source = store.load_source(graph, episode.source_uuid)
    ids: dict[str, Any] = {"episode_uuid": episode_uuid, "job_uuid": job_uuid, "group_id": episode.group_id,
                           "seq": episode.seq}
    log_event(log, "episode.start", **ids, retried=before == "processing")

    started = time.perf_counter()
    extraction = pipeline.extract(episode)
    extract_s = time.perf_counter() - started
    metrics.EXTRACTION_SECONDS.observe(extract_s)
    usage = extraction_usage(extraction)
    if usage.calls or usage.cache_hits:
        # stored now, not at the end: a commit that fails after this still cost these calls
        store.add_llm_usage(graph, episode_uuid, usage)
        count_llm(usage)

    with locks.hold(episode.group_id) as waited:
        metrics.LOCK_WAIT_SECONDS.observe(waited)
        started = time.perf_counter()
        outcome = pipeline.commit(episode, extraction, source)  # sets status `done` in the same transaction
        commit_s = time.perf_counter() - started
    metrics.COMMIT_SECONDS.observe(commit_s)
    store.mark_committed(graph, episode_uuid, facts=outcome.commit.facts, entities=outcome.commit.entities,
                         now=utcnow(), extract_ms=round(extract_s * 1000, 1), commit_ms=round(commit_s * 1000, 1),
                         usage=outcome.adjudication)
    count_llm(outcome.adjudication)
    usage += outcome.adjudication
    metrics.EPISODES_PROCESSED.labels("done").inc()
    usage += refresh_summaries(pipeline, episode.group_id, outcome.commit.touched, ids)
    if job_uuid:
        usage += finish_job_if_complete(graph, locks, job_uuid, episode_uuid, pipeline.summarizer,
                                        book=source is not None and source.kind == "book")
    log_event(log, "episode.done", **ids, facts=outcome.commit.facts, entities=outcome.commit.entities,
              extract_ms=round(extract_s * 1000, 1), commit_ms=round(commit_s * 1000, 1),
              lock_wait_ms=round(waited * 1000, 1), llm_calls=usage.calls, prompt_tokens=usage.prompt_tokens,
              completion_tokens=usage.completion_tokens, llm_cache_hits=usage.cache_hits)
    return EpisodeResult(episode_uuid=episode_uuid, outcome="done", status_before=before,
                         facts=outcome.commit.facts, entities=outcome.commit.entities, extract_s=extract_s,
                         commit_s=commit_s, llm_calls=usage.calls, prompt_tokens=usage.prompt_tokens,
                         completion_tokens=usage.completion_tokens, llm_cache_hits=usage.cache_hits)


def refresh_summaries(pipeline: Pipeline, group_id: str, touched: list[str], ids: dict[str, Any]) -> LLMUsage:
    """The summaries of the entities the commit touched that are due (ingest/summaries.py); a failure leaves
    them stale for the job's end or the sweep, and the episode done. Their LLM cost is the episode's."""
    if pipeline.summarizer is None or not touched:
        return LLMUsage()
    from strata.ingest.summaries import refresh_touched

    try:
        result = refresh_touched(pipeline.graph, group_id, touched, pipeline.summarizer)
    except Exception as exc:  # noqa: BLE001 - the episode is committed whatever its summaries do
        log_event(log, "summaries.failed", logging.WARNING, **ids, error=describe(exc))
        return LLMUsage()
    if result.examined:
        log_event(log, "summaries.refreshed", **ids, examined=result.examined, changed=result.changed,
                  llm_calls=result.llm_calls, seconds=result.seconds)
    return _record_summary_usage(pipeline.graph, ids["episode_uuid"], result)


def _record_summary_usage(graph: Graph, episode_uuid: str, result: Any) -> LLMUsage:
    usage = LLMUsage(calls=result.llm_calls, prompt_tokens=result.prompt_tokens,
                     completion_tokens=result.completion_tokens, summary_calls=result.llm_calls,
                     cache_hits=result.llm_cache_hits)
    if usage.calls or usage.cache_hits:
        store.add_llm_usage(graph, episode_uuid, usage)
        count_llm(usage)
    return usage


def finish_job_if_complete(graph: Graph, locks: GroupLocks, job_uuid: str, episode_uuid: str,
                           summarizer: Any | None, book: bool) -> LLMUsage:
    """When a job has no episode left to run: a book's cast consolidation pass runs once (under the group lock;
    two workers finishing together both run it, and the second finds nothing left to merge), then the group's
    stale summaries are written (the ones the once-a-minute bound left behind, and the merges' survivors). A
    failure leaves the episodes done: `strata consolidate` and `strata summaries refresh` run them again. The
    summaries' LLM cost is the last episode's."""
    counts = store.job_counts(graph, job_uuid)
    if counts is None:
        return LLMUsage()
    if counts.by_status.get("queued", 0) + counts.by_status.get("processing", 0):
        return LLMUsage()
    if book and counts.source_uuid is not None:
        # the pass reasons about a book's cast (titles, families, marriages), not a chat's speakers
        from strata.ingest.consolidate import consolidate_source

        try:
            with locks.hold(counts.group_id):
                consolidate_source(graph, counts.group_id, counts.source_uuid)
        except Exception as exc:  # noqa: BLE001 - the job's episodes are done whatever the pass does
            log_event(log, "consolidate.failed", logging.ERROR, job_uuid=job_uuid, error=describe(exc))
    if summarizer is None:
        return LLMUsage()
    from strata.ingest.summaries import flush_stale

    try:
        result = flush_stale(graph, counts.group_id, summarizer, force=True, budget_s=summarizer.flush_budget_s)
    except Exception as exc:  # noqa: BLE001 - what is left stale is written by the sweep
        log_event(log, "summaries.failed", logging.WARNING, job_uuid=job_uuid, error=describe(exc))
        return LLMUsage()
    return _record_summary_usage(graph, episode_uuid, result)


def count_llm(usage: LLMUsage) -> None:
    if usage.calls:
        metrics.LLM_CALLS.inc(usage.calls)
        metrics.LLM_TOKENS.labels("prompt").inc(usage.prompt_tokens)
        metrics.LLM_TOKENS.labels("completion").inc(usage.completion_tokens)
    if usage.cache_hits:
        metrics.LLM_CACHE_HITS.inc(usage.cache_hits)


def failed_usage(exc: BaseException) -> LLMUsage:
    """What a failed extraction spent, from the error's details (ExtractionError carries it)."""
    details = getattr(exc, "details", None) or {}
    try:
        calls = int(details.get("calls", 0))
        return LLMUsage(calls=calls, extraction_calls=calls, prompt_tokens=int(details.get("prompt_tokens", 0)),
                        completion_tokens=int(details.get("completion_tokens", 0)))
    except (TypeError, ValueError):
        return LLMUsage()


def _store_failed_usage(graph: Graph, episode_uuid: str, exc: BaseException) -> None:
    usage = failed_usage(exc)
    if usage.calls:
        count_llm(usage)
        store.add_llm_usage(graph, episode_uuid, usage)


def describe(exc: BaseException) -> str:
    code = getattr(exc, "code", None) or type(exc).__name__
    return f"{code}: {exc}"[:MAX_ERROR_CHARS]


def record_failure(graph: Graph, episode_uuid: str, exc: BaseException, job_uuid: str | None) -> None:
    """The episode ends ``failed`` with its error (kept, re-drivable). Neo4j away: the sweep re-drives it."""
    try:
        store.mark_failed(graph, episode_uuid, describe(exc), utcnow())
        _store_failed_usage(graph, episode_uuid, exc)
    except StrataError:
        pass
    metrics.EPISODES_PROCESSED.labels("failed").inc()
    log_event(log, "episode.failed", logging.ERROR, episode_uuid=episode_uuid, job_uuid=job_uuid, error=describe(exc))


def record_retry(graph: Graph, episode_uuid: str, exc: BaseException, job_uuid: str | None, attempt: int,
                 hold_s: float) -> None:
    """The episode waits as `queued` under a lease of ``hold_s`` (the backoff and a lease): if this worker dies
    before the retry runs, the episode is re-driven when that lease expires."""
    try:
        store.mark_retrying(graph, episode_uuid, describe(exc), f"{worker_name()}:retry", hold_s)
        _store_failed_usage(graph, episode_uuid, exc)
    except StrataError:
        pass
    metrics.EPISODES_PROCESSED.labels("retried").inc()
    log_event(log, "episode.retry", logging.WARNING, episode_uuid=episode_uuid, job_uuid=job_uuid, attempt=attempt,
              error=describe(exc))


def backoff_s(settings: Settings, retries: int) -> float:
    """Exponential with full jitter on the upper half, capped."""
    base = min(settings.task_retry_backoff_max_s, settings.task_retry_backoff_s * 2 ** retries)
    return base * (0.5 + random.random() / 2)


def load_factory(path: str) -> Callable[[Settings], Extractor]:
    module, _, name = path.partition(":")
    if not module or not name:
        raise ConfigError(f"extractor_factory must look like 'package.module:callable', got {path!r}")
    try:
        return getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as exc:
        raise ConfigError(f"extractor_factory {path!r} cannot be loaded: {exc}") from exc


def build_pipeline(settings: Settings, graph: Graph) -> Pipeline:
    """Extractor (with the shared LLM rate limit when configured) and embedder, built once per process."""
    from strata.ingest.embedders import make_embedder, make_rescorer
    from strata.ingest.extractors import make_extractor
    from strata.ingest.summaries import make_summarizer

    extractor: Extractor
    if settings.extractor_factory:
        extractor = load_factory(settings.extractor_factory)(settings)
    elif settings.extractor == "llm":
        from strata.ingest.adjudicator import LLMAdjudicator
        from strata.ingest.extractors.cache import make_cache
        from strata.ingest.llm_client import OpenAIChatLLM
        from strata.ingest.ratelimit import RedisRateLimiter

        limiter = None
        if settings.llm_requests_per_minute or settings.llm_tokens_per_minute:
            limiter = RedisRateLimiter.from_url(settings.redis_url, settings.llm_requests_per_minute,
                                                settings.llm_tokens_per_minute)
        llm = OpenAIChatLLM.from_settings(settings, limiter=limiter)
        cache = make_cache(settings)  # one cache for extraction, adjudication and summary answers
        extractor = make_extractor(settings, llm=llm, cache=cache)
        # With an LLM configured, mentions the scores leave ambiguous are adjudicated (one call per episode).
        return Pipeline(graph, extractor, make_embedder(settings), adjudicator=LLMAdjudicator(llm, cache=cache),
                        prose_vectors=settings.prose_passage_vectors,
                        summarizer=make_summarizer(settings, llm=llm, cache=cache), rescorer=make_rescorer(settings))
    else:
        extractor = make_extractor(settings)
    return Pipeline(graph, extractor, make_embedder(settings), prose_vectors=settings.prose_passage_vectors,
                    summarizer=make_summarizer(settings), rescorer=make_rescorer(settings))


class ProcessRuntime(Protocol):
    """What a worker's tasks use of the runtime the composition root builds (strata.memory.runtime)."""

    graph: Graph
    pipeline: Pipeline | None

    def close(self) -> None: ...


class WorkerRuntime:
    """What a worker process builds once, lazily on its first task (after the prefork fork): its runtime (by
    ``build``, which the composition root hands over: strata.memory.runtime), the pipeline on it, and the group
    locks. The graph comes first and alone, so a pipeline that cannot be built (a configuration error) can
    still be recorded on the episode. Without ``build`` the app only sends tasks (the API, the CLI)."""

    def __init__(self, settings: Settings, build: Callable[[], ProcessRuntime] | None = None) -> None:
        self.settings = settings
        self.lease = LeaseTerms.from_settings(settings)
        self._build = build
        self._runtime: ProcessRuntime | None = None
        self._locks: RedisGroupLocks | None = None
        self._guard = threading.RLock()

    @property
    def runtime(self) -> ProcessRuntime:
        with self._guard:
            if self._runtime is None:
                if self._build is None:
                    raise ConfigError("this Celery app sends tasks only: run workers from strata.memory.worker")
                self._runtime = self._build()
            return self._runtime

    @property
    def graph(self) -> Graph:
        return self.runtime.graph

    @property
    def pipeline(self) -> Pipeline:
        with self._guard:
            rt = self.runtime
            if rt.pipeline is None:
                rt.pipeline = build_pipeline(self.settings, rt.graph)
            return rt.pipeline

    @property
    def locks(self) -> RedisGroupLocks:
        if self._locks is None:
            self._locks = RedisGroupLocks.from_url(self.settings.redis_url, self.settings.group_lock_ttl_s,
                                                   self.settings.group_lock_wait_s)
        return self._locks

    def close(self) -> None:
        with self._guard:
            if self._runtime is not None:
                self._runtime.close()
                self._runtime = None


def enqueue(celery: Celery, episode_uuids: list[str], job_uuid: str | None, queue: str | None = None) -> None:
    """One task per episode, to ``queue`` (default: the app's default queue)."""
    for uuid in episode_uuids:
        celery.send_task(TASK_EPISODE, args=[uuid], kwargs={"job_uuid": job_uuid}, queue=queue)


def register_tasks(celery: Celery, settings: Settings, runtime: WorkerRuntime) -> None:
    """The tasks, run on ``runtime`` (what the composition root built for this process)."""
    celery.conf.strata_worker_runtime = runtime  # closed when a worker process ends (memory/worker.py)

    @celery.task(bind=True, name=TASK_EPISODE, shared=False, acks_late=True, reject_on_worker_lost=True,
                 max_retries=settings.task_max_retries)
    def process_episode(self: Any, episode_uuid: str, job_uuid: str | None = None) -> dict[str, Any]:
        try:
            return run_episode(runtime.pipeline, runtime.locks, episode_uuid, job_uuid, runtime.lease).model_dump()
        except PERMANENT as exc:
            record_failure(runtime.graph, episode_uuid, exc, job_uuid)
            raise
        except Exception as exc:
            if self.request.retries >= self.max_retries:
                record_failure(runtime.graph, episode_uuid, exc, job_uuid)
                raise
            countdown = backoff_s(settings, self.request.retries)
            record_retry(runtime.graph, episode_uuid, exc, job_uuid, self.request.retries + 1,
                         hold_s=countdown + runtime.lease.lease_s)
            raise self.retry(exc=exc, countdown=countdown) from exc

    @celery.task(name=TASK_SUMMARIES, shared=False, acks_late=True)
    def sweep_summaries() -> dict[str, int]:
        """Write the stale summaries the once-a-minute bound left behind, in every group (within half the
        interval)."""
        summarizer = runtime.pipeline.summarizer
        if summarizer is None:
            return {"groups": 0, "changed": 0}
        from strata.ingest.summaries import sweep as sweep_stale

        done = sweep_stale(runtime.graph, summarizer, budget_s=settings.summary_sweep_interval_s / 2)
        return {"groups": len(done), "changed": sum(r.changed for r in done)}

    @celery.task(name=TASK_COMMUNITIES, shared=False, acks_late=True)
    def refresh_communities() -> dict[str, int]:
        """Recompute the communities of every group whose summaries changed since the last run."""
        from strata.ingest.communities import scheduled_refresh

        runs = scheduled_refresh(runtime.graph, settings, runtime.pipeline.summarizer)
        return {"groups": len(runs), "written": sum(r.written for r in runs)}

    @celery.task(name=TASK_RETENTION, shared=False, acks_late=True)
    def apply_retention() -> dict[str, int]:
        """Apply every group's retention policy (ingest/retention.py)."""
        from strata.ingest.retention import scheduled

        runs = scheduled(runtime.graph)
        totals: dict[str, int] = {"groups": len(runs)}
        for run in runs:
            for k, v in run.counts.model_dump().items():
                totals[k] = totals.get(k, 0) + v
        return totals

    celery.conf.beat_schedule = {  # beside the recovery sweep (ingest/recovery.py)
        **(celery.conf.beat_schedule or {}),
        "strata-summaries": {"task": TASK_SUMMARIES, "schedule": settings.summary_sweep_interval_s},
        "strata-communities": {"task": TASK_COMMUNITIES, "schedule": settings.community_interval_s},
        "strata-retention": {"task": TASK_RETENTION, "schedule": settings.retention_interval_s},
    }
