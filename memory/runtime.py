"""One runtime per process: the Neo4j driver, the Celery app, the query embedder, the pipeline (extractor and
its embedder) and the thread pool, built from one ``Settings`` by ``build_runtime`` and closed together.

Nothing here is built at import: the API's lifespan, each CLI command and each worker process (after the
prefork fork, on its first task) build their own and close it when they end.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from strata.graph import Graph, apply_migrations
from strata.graph.migrate import pending_migrations
from strata.graph.rescore import Rescorer
from strata.ingest.protocols import Embedder
from strata.schema.settings import Settings

if TYPE_CHECKING:
    from celery import Celery

    from strata.ingest.pipeline import Pipeline

# Threads for the work a search runs beside its own thread (graph/search.py): the fact and the passage channels'
# queries and the rescoring model's embedding of the question, three per search in flight; four searches at once.
POOL_THREADS = 12


@dataclass
class Runtime:
    settings: Settings
    graph: Graph
    embedder: Embedder | None = None  # queries' embedder (the pipeline has its own)
    celery: Celery | None = None
    pipeline: Pipeline | None = None  # episodes commit in this process (worker, tests, `--inline`)
    summarizer: Any | None = None  # a Summarizer, built on first use (memory/)
    pool: ThreadPoolExecutor | None = None  # the graph's threads for side-by-side reads
    query_embed: Any | None = None  # what is asked, in the model's query mode, cached (ingest/embedders/queries.py)
    rescorer: Rescorer | None = None  # the rescoring stage's model (graph/rescore.py), when configured
    _matching: set[str] = field(default_factory=set)  # groups whose vectors are the embedder's

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if self.embedder is None:
            return []
        return self.embedder.embed(texts)

    def embed_query(self, texts: Sequence[str]) -> list[list[float]]:
        """Search queries: the embedder's query mode (bge-small's instruction), through the per-process cache."""
        if self.query_embed is None:
            return self.embed(texts)
        return self.query_embed(texts)

    def check_embedder(self, group_id: str) -> None:
        """Refuse a search of a group whose vectors another embedder made (graph/embedder_meta.py); a group
        found to match is not asked again by this process."""
        if self.embedder is None or group_id in self._matching:
            return
        from strata.graph.embedder_meta import check_group
        from strata.ingest.embedders import embedder_record

        check_group(self.graph, group_id, embedder_record(self.embedder), write=False)
        self._matching.add(group_id)

    def forget_checked(self, group_id: str) -> None:
        self._matching.discard(group_id)

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)
        self.graph.close()

    def __enter__(self) -> Runtime:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def build_runtime(settings: Settings, *, pipeline: bool = False, celery: bool = False, embedder: bool = True,
                  migrate: bool = False, writes: bool = False) -> Runtime:
    """What a process needs, built once: ``pipeline`` to commit episodes here, ``celery`` to queue them,
    ``embedder`` for queries, ``migrate`` to apply the schema first (the API does, at start). A process that
    commits episodes (``pipeline``, or ``writes``: a worker) applies the schema only when a migration is
    pending: on a fresh store its first episode would otherwise fail on a missing index."""
    pool = ThreadPoolExecutor(max_workers=POOL_THREADS, thread_name_prefix="strata-graph")
    graph = Graph.from_settings(settings, pool=pool)
    rt = Runtime(settings=settings, graph=graph, pool=pool)
    try:
        if migrate or ((pipeline or writes) and pending_migrations(graph)):
            from strata.graph.upgrade import upgrade_offices
            from strata.ingest.rules import office_rules

            apply_migrations(graph, settings.embedding_dim)
            upgrade_offices(graph, office_rules())
        if embedder:
            from strata.ingest.embedders import make_embedder

            rt.embedder = make_embedder(settings, for_queries=not pipeline)
            rt.query_embed, rt.rescorer = query_side(settings, rt.embedder)
            if migrate:
                warn_other_embedders(graph, rt.embedder)
        if pipeline:
            from strata.ingest.tasks import build_pipeline

            rt.pipeline = build_pipeline(settings, graph)
            rt.summarizer = rt.pipeline.summarizer
        if celery:  # to send tasks: the workers run them (worker_app)
            from strata.ingest.celery_app import make_celery

            rt.celery = make_celery(settings)
    except BaseException:
        rt.close()
        raise
    return rt


def query_side(settings: Settings, embedder: Embedder) -> tuple[Any, Rescorer | None]:
    """The cached query embedding and, when ``settings.rescore_embedder`` names one, the rescoring model."""
    from strata.ingest.embedders import QueryCache, make_rescorer, query_mode

    return (QueryCache(query_mode(embedder), settings.query_cache_size),
            make_rescorer(settings, embedder, for_queries=True))


def warn_other_embedders(graph: Graph, embedder: Embedder) -> None:
    """At the API's start: name the groups whose vectors another embedder made (each refuses searches and
    ingests until moved), without refusing to serve the others."""
    import logging

    from strata.graph.embedder_meta import other_groups
    from strata.ingest.embedders import embedder_record

    configured = embedder_record(embedder)
    others = other_groups(graph, configured)
    if others:
        logging.getLogger(__name__).warning(
            "groups embedded by another embedder than %s refuse searches and ingests until moved with "
            "`strata reembed --group G`: %s", configured.name,
            ", ".join(f"{g} ({r.name})" for g, r in others))


def worker_app(settings: Settings) -> Celery:
    """The Celery app of a worker: its tasks run on a runtime each worker process builds here, lazily on its
    first task (after the prefork fork), without the query embedder (the pipeline has its own)."""
    from strata.ingest.celery_app import make_celery

    return make_celery(settings, build=lambda: build_runtime(settings, embedder=False, writes=True))
