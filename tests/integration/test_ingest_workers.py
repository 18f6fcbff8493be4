"""Real worker processes against the real Redis and Neo4j: crashes, parallelism, poison episodes.

Each test uses its own queue so tests never steal each other's tasks.
"""

from __future__ import annotations

import sys
import uuid
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))

from ingest_harness import facts_episodes, graph_signature, kill9, start_worker, stop, wait_job, worker_env  # noqa: E402

from strata.graph import Graph  # noqa: E402
from strata.ingest.celery_app import make_celery  # noqa: E402
from strata.ingest.submit import episode_info, submit_episodes  # noqa: E402
from strata.ingest.tasks import build_pipeline  # noqa: E402
from strata.schema.settings import Settings  # noqa: E402

pytestmark = pytest.mark.integration
KILL_EPISODES = 1000


@pytest.fixture
def queue() -> str:
    return f"test-ingest-{uuid.uuid4().hex[:10]}"


def _reference(graph: Graph, settings: Settings, group_id: str, n: int, **kw) -> dict:
    """The graph of an uninterrupted, in-process run of the same episodes (same task code)."""
    ref_group = f"{group_id}-ref"
    pipeline = build_pipeline(settings.model_copy(update={"embedder": "hash"}), graph)
    try:
        info = submit_episodes(graph, None, ref_group, facts_episodes(ref_group, n, **kw), inline_pipeline=pipeline)
        assert info.status == "done"
        return graph_signature(graph, ref_group)
    finally:
        graph.query("MATCH (n {group_id: $g}) DETACH DELETE n", g=ref_group)


def _assert_no_duplicates(graph: Graph, group_id: str) -> None:
    dup_entities = graph.query("MATCH (e:Entity {group_id: $g}) WITH e.key AS k, count(*) AS n WHERE n > 1 "
                               "RETURN k", g=group_id)
    dup_facts = graph.query("MATCH (s)-[r:RELATES_TO {group_id: $g}]->(o) WITH s, r.predicate AS p, o, r.valid_at "
                            "AS v, count(*) AS n WHERE n > 1 RETURN p", g=group_id)
    assert dup_entities == [] and dup_facts == []


@pytest.mark.timeout(1500)
def test_kill_9_mid_job_then_a_new_worker_finishes_it(graph: Graph, settings: Settings, group_id: str, queue: str,
                                                      tmp_path: Path) -> None:
    cfg = settings.model_copy(update={"celery_queue": queue, "broker_visibility_timeout_s": 8})
    env = worker_env(settings, queue, STRATA_BROKER_VISIBILITY_TIMEOUT_S="8", STRATA_STUCK_AFTER_S="8",
                     STRATA_SWEEP_INTERVAL_S="3")
    celery = make_celery(cfg)
    episodes = facts_episodes(group_id, KILL_EPISODES)
    worker = start_worker(env, queue, concurrency=2, log=tmp_path / "w1.log")
    try:
        info = submit_episodes(graph, celery, group_id, episodes)
        assert info.total == KILL_EPISODES
        mid = wait_job(graph, info.uuid, 600, until=lambda i: i.done >= KILL_EPISODES // 4)
        assert mid.status == "running", "the job finished before the kill: make it bigger"
        kill9(worker)
        killed_at = wait_job(graph, info.uuid, 1)
        assert killed_at.processing + killed_at.queued > 0
        worker = start_worker(env, queue, concurrency=2, log=tmp_path / "w2.log")
        done = wait_job(graph, info.uuid, 1200)
    finally:
        stop(worker)
    assert (done.status, done.done, done.failed) == ("done", KILL_EPISODES, 0), done
    _assert_no_duplicates(graph, group_id)
    assert graph_signature(graph, group_id) == _reference(graph, settings, group_id, KILL_EPISODES)


def test_four_workers_build_the_same_graph_as_one(graph: Graph, settings: Settings, group_id: str, queue: str,
                                                  tmp_path: Path) -> None:
    n = 60
    signatures = []
    for label, procs in (("one", 1), ("four", 4)):
        gid = f"{group_id}-{label}"
        q = f"{queue}-{label}"
        env = worker_env(settings, q)
        workers = [start_worker(env, q, concurrency=1, log=tmp_path / f"{label}{i}.log") for i in range(procs)]
        try:
            info = submit_episodes(graph, make_celery(settings.model_copy(update={"celery_queue": q})), gid,
                                   facts_episodes(gid, n))
            done = wait_job(graph, info.uuid, 180)
        finally:
            for w in workers:
                stop(w)
        assert (done.status, done.done) == ("done", n), done
        _assert_no_duplicates(graph, gid)
        signatures.append(graph_signature(graph, gid))
        graph.query("MATCH (n {group_id: $g}) DETACH DELETE n", g=gid)
    assert signatures[0] == signatures[1]
    assert len(signatures[0]["facts"]) == 3 * n


def test_poison_episode_fails_with_its_error_and_the_rest_completes(graph: Graph, settings: Settings, group_id: str,
                                                                    queue: str, tmp_path: Path) -> None:
    env = worker_env(settings, queue, STRATA_EXTRACTOR_FACTORY="strata_test_extractors:poison",
                     STRATA_TASK_MAX_RETRIES="2")
    episodes = facts_episodes(group_id, 12, poison={5})
    worker = start_worker(env, queue, concurrency=2, log=tmp_path / "w.log")
    try:
        info = submit_episodes(graph, make_celery(settings.model_copy(update={"celery_queue": queue})), group_id,
                               episodes)
        done = wait_job(graph, info.uuid, 120)
    finally:
        stop(worker)
    assert (done.status, done.done, done.failed) == ("failed", 11, 1), done
    bad = episode_info(graph, episodes[5].uuid)
    assert bad["status"] == "failed"
    assert "poisoned episode 5" in bad["error"]
    assert bad["attempts"] == 3  # the first run and two retries
    assert bad["facts"] == []
    good = episode_info(graph, episodes[4].uuid)
    assert good["status"] == "done" and len(good["facts"]) == 3
