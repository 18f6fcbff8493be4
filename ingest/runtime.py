"""One runtime per process: the Neo4j driver, the Celery app, the query embedder, the pipeline (extractor and
its embedder) and the thread pool, built from one ``Settings`` by ``build_runtime`` and closed together.

Nothing here is built at import: the API's lifespan, each CLI command and each worker process (after the
prefork fork, on its first task) build their own and close it when they end.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from strata.graph import Graph, apply_migrations
from strata.ingest.protocols import Embedder
from strata.schema.settings import Settings

if TYPE_CHECKING:
    from celery import Celery

    from strata.ingest.pipeline import Pipeline

# Threads for the reads a search runs side by side (graph/search.py): two per search in flight.
POOL_THREADS = 8


@dataclass
class Runtime:
    settings: Settings
    graph: Graph
    embedder: Embedder | None = None  # queries' embedder (the pipeline has its own)
    celery: Celery | None = None
    pipeline: Pipeline | None = None  # episodes commit in this process (worker, tests, `--inline`)
    summarizer: Any | None = None  # a Summarizer, built on first use (api/memory)
    pool: ThreadPoolExecutor | None = None  # the graph's threads for side-by-side reads

    def embed(self, texts: list[str]) -> list[list[float]]:
        if self.embedder is None:
            return []
        return self.embedder.embed(texts)

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)
        self.graph.close()

    def __enter__(self) -> Runtime:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def build_runtime(settings: Settings, *, pipeline: bool = False, celery: bool = False, embedder: bool = True,
                  migrate: bool = False) -> Runtime:
    """What a process needs, built once: ``pipeline`` to commit episodes here, ``celery`` to queue them,
    ``embedder`` for queries, ``migrate`` to apply the schema first (the API does, at start)."""
    pool = ThreadPoolExecutor(max_workers=POOL_THREADS, thread_name_prefix="strata-graph")
    graph = Graph.from_settings(settings, pool=pool)
    rt = Runtime(settings=settings, graph=graph, pool=pool)
    try:
        if migrate:
            from strata.graph.upgrade import upgrade_offices
            from strata.ingest.rules import office_rules

            apply_migrations(graph, settings.embedding_dim)
            upgrade_offices(graph, office_rules())
        if embedder:
            from strata.ingest.embedders import make_embedder

            rt.embedder = make_embedder(settings, for_queries=not pipeline)
        if pipeline:
            from strata.ingest.tasks import build_pipeline

            rt.pipeline = build_pipeline(settings, graph)
            rt.summarizer = rt.pipeline.summarizer
        if celery:
            from strata.ingest.celery_app import make_celery

            rt.celery = make_celery(settings)
    except BaseException:
        rt.close()
        raise
    return rt
