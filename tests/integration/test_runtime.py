"""One runtime per process: built from settings, closed together; nothing built at import."""

from __future__ import annotations

import importlib

import pytest

from strata.memory.runtime import build_runtime

pytestmark = pytest.mark.integration


def test_a_runtime_builds_and_closes_its_driver_pool_and_queue(settings) -> None:
    with build_runtime(settings, celery=True, embedder=False) as rt:
        assert rt.graph.ping() and rt.graph.pool is rt.pool
        assert rt.celery is not None and rt.celery.conf.task_default_queue == settings.celery_queue
        assert rt.pipeline is None and rt.embedder is None
        # the graph's side-by-side reads run on the runtime's pool
        assert rt.graph.beside(lambda: 1 + 1).result() == 2
    with pytest.raises(RuntimeError):  # closed with the runtime
        rt.pool.submit(int)


def test_importing_the_layers_builds_no_app_and_no_pool() -> None:
    celery_app = importlib.import_module("strata.ingest.celery_app")
    search = importlib.import_module("strata.graph.search")
    assert not hasattr(celery_app, "app")  # only strata.memory.worker, Celery's -A entry, builds one
    assert not [v for v in vars(search).values() if type(v).__name__ == "ThreadPoolExecutor"]
