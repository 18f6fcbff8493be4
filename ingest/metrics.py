"""Prometheus metrics for ingestion (prometheus_client, default registry).

Counters and histograms are updated by the task code in whichever process runs it. Gauges that describe
shared state (episodes by status in Neo4j, queue depth in Redis) are read at scrape time by collectors that
a process registers once: the API (which serves /metrics from the default registry) and ``strata worker
--metrics-port``. Prefork workers write to ``PROMETHEUS_MULTIPROC_DIR`` (set by ``strata worker``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from prometheus_client import REGISTRY, CollectorRegistry, Counter, Histogram
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

EPISODES_PROCESSED = Counter("strata_episodes_processed", "Episode task outcomes", ["outcome"])
EXTRACTION_SECONDS = Histogram("strata_extraction_seconds", "Extraction time per episode",
                               buckets=(0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 16, 32, 64, 128))
COMMIT_SECONDS = Histogram("strata_commit_seconds", "Resolve + commit time per episode (inside the group lock)",
                           buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 16))
LOCK_WAIT_SECONDS = Histogram("strata_group_lock_wait_seconds", "Time waiting for the per-group commit lock",
                              buckets=(0.001, 0.01, 0.05, 0.1, 0.5, 1, 2, 5, 10, 30, 60))
LLM_CALLS = Counter("strata_llm_calls", "LLM calls made by extraction and adjudication")
LLM_TOKENS = Counter("strata_llm_tokens", "LLM tokens used by extraction and adjudication", ["kind"])
LLM_CACHE_HITS = Counter("strata_llm_cache_hits", "LLM answers served from the cache (calls not made)")
LLM_RATE_LIMITED = Counter("strata_llm_rate_limited", "429 answers from the LLM provider")
LLM_LIMITER_WAIT_SECONDS = Counter("strata_llm_limiter_wait_seconds", "Seconds spent waiting on the shared limit")


class IngestStateCollector(Collector):
    """Episodes by status and broker queue depth, read when scraped (so every process reports the same)."""

    def __init__(self, status_counts: Callable[[], dict[str, int]],
                 queue_depths: Callable[[], dict[str, int]]) -> None:
        self._status_counts = status_counts
        self._queue_depths = queue_depths

    def collect(self) -> Iterator[GaugeMetricFamily]:
        episodes = GaugeMetricFamily("strata_episodes", "Episodes by status", labels=["status"])
        try:
            for status, n in sorted(self._status_counts().items()):
                episodes.add_metric([status], n)
        except Exception:  # a scrape must not fail because Neo4j is briefly away
            pass
        yield episodes
        depth = GaugeMetricFamily("strata_queue_depth", "Tasks waiting in the broker queue", labels=["queue"])
        try:
            for queue, n in sorted(self._queue_depths().items()):
                depth.add_metric([queue], n)
        except Exception:
            pass
        yield depth


def register_state_collector(graph: object, redis_url: str, queues: list[str],
                             registry: CollectorRegistry = REGISTRY) -> IngestStateCollector:
    """For the API and workers: ``register_state_collector(graph, settings.redis_url, [settings.celery_queue])``."""
    import redis

    from strata.graph.episodes import status_counts

    client = redis.Redis.from_url(redis_url)

    def depths() -> dict[str, int]:
        return {q: int(client.llen(q)) for q in queues}

    collector = IngestStateCollector(lambda: status_counts(graph), depths)  # type: ignore[arg-type]
    registry.register(collector)
    return collector


def serve_worker_metrics(settings: object, port: int) -> None:
    """HTTP /metrics for a worker: the children's counters (multiprocess mode) plus the shared state."""
    from prometheus_client import start_http_server

    from strata.graph import Graph

    multiproc = getattr(settings, "metrics_multiproc_dir", None)
    registry: CollectorRegistry = REGISTRY
    if multiproc:
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry, path=str(multiproc))
    graph = Graph.from_settings(settings)  # type: ignore[arg-type]
    register_state_collector(graph, settings.redis_url, [settings.celery_queue], registry)  # type: ignore[attr-defined]
    start_http_server(port, addr="0.0.0.0", registry=registry)
