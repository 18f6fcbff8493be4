"""Neo4j goes away for 20 s in the middle of a job: tasks retry and the job completes.

Runs its own Neo4j on 17687 (never the shared one on 7687, which other tests and people use).
"""

from __future__ import annotations

import time
import uuid
from pathlib import Path

import pytest

from strata.graph import Graph, apply_migrations
from strata.ingest.celery_app import make_celery
from strata.ingest.submit import JobInfo, job_info, submit_episodes
from strata.ingest.testing.harness import facts_episodes, start_worker, stop, worker_env
from strata.schema.errors import UpstreamUnavailableError
from strata.schema.settings import Settings

pytestmark = pytest.mark.integration
OUTAGE_S = 20
N = 40


@pytest.fixture
def private_neo4j(tmp_path: Path, settings: Settings):
    from strata.services.neo4j import Neo4jService

    cfg = Settings(services_dir=tmp_path / "services", neo4j_bolt_port=17687, neo4j_http_port=17474,
                   neo4j_heap="512m", neo4j_pagecache="128m", neo4j_uri="bolt://127.0.0.1:17687",
                   redis_url=settings.redis_url, _env_file=None)
    service = Neo4jService(cfg)
    service.start()
    try:
        yield cfg, service
    finally:
        service.stop()


def _poll(graph: Graph, job: str) -> JobInfo | None:
    try:
        return job_info(graph, job)
    except UpstreamUnavailableError:
        return None


def test_neo4j_outage_mid_job_is_retried_to_completion(private_neo4j, tmp_path: Path) -> None:
    cfg, service = private_neo4j
    queue = f"test-outage-{uuid.uuid4().hex[:10]}"
    group_id = f"outage-{uuid.uuid4().hex[:8]}"
    env = worker_env(cfg, queue, STRATA_EXTRACTOR_FACTORY="tests.support.strata_test_extractors:slow",
                     STRATA_TASK_MAX_RETRIES="10", STRATA_TASK_RETRY_BACKOFF_S="1", STRATA_TASK_RETRY_BACKOFF_MAX_S="8")
    with Graph.from_settings(cfg) as graph:
        apply_migrations(graph, cfg.embedding_dim)
        worker = start_worker(env, queue, concurrency=2, log=tmp_path / "worker.log")
        try:
            info = submit_episodes(graph, make_celery(cfg.model_copy(update={"celery_queue": queue})), group_id,
                                   facts_episodes(group_id, N))
            deadline = time.monotonic() + 120
            while (now := _poll(graph, info.uuid)) is None or now.done < 10:
                assert time.monotonic() < deadline
                time.sleep(0.2)
            assert now.status == "running"
            service.stop()
            time.sleep(OUTAGE_S)
            service.start()
            deadline = time.monotonic() + 240
            while (now := _poll(graph, info.uuid)) is None or now.status == "running":
                assert time.monotonic() < deadline, now
                time.sleep(0.5)
        finally:
            stop(worker)
        assert (now.status, now.done, now.failed, now.facts) == ("done", N, 0, 3 * N), now
        assert graph.query("MATCH ()-[r:RELATES_TO {group_id: $g}]->() RETURN count(r) AS n", g=group_id)[0]["n"] \
            == 3 * N
        log = (tmp_path / "worker.log").read_text()
        assert "will be retried" in log or "episode.retry" in log  # the driver or Celery retried
