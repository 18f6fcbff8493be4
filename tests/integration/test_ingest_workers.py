"""Real worker processes against the real Redis and Neo4j: crashes, parallelism, poison episodes.

Each test uses its own queue so tests never steal each other's tasks.
"""

from __future__ import annotations

import time
import uuid
from pathlib import Path

import pytest

from strata.graph import Graph
from strata.ingest.celery_app import make_celery
from strata.ingest.submit import episode_info, job_info, submit_episodes
from strata.ingest.tasks import build_pipeline
from strata.ingest.testing.harness import (
    facts_episodes,
    graph_signature,
    kill9,
    private_redis,
    start_strata_worker,
    start_worker,
    stop,
    wait_job,
    worker_env,
)
from strata.schema.settings import Settings

pytestmark = pytest.mark.integration
KILL_EPISODES = 10
KILL_STATEMENTS = 100  # per episode: each takes about a second to commit


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


@pytest.mark.timeout(900)
def test_kill_9_mid_job_then_a_new_worker_finishes_it_with_shipped_defaults(graph: Graph, settings: Settings,
                                                                           group_id: str, queue: str,
                                                                           tmp_path: Path) -> None:
    """`strata worker` as shipped (no visibility timeout, lease, lock or sweep setting, no beat): its process
    group killed while it holds episodes, a new worker finishes the job. The killed worker's tasks stay unacked
    in Redis for the broker's hour: the episodes come back through their expired leases.
    Its own Redis database keeps other tests' workers from redelivering those tasks. Timed by bench/bench_crash.py."""
    settings = private_redis(settings)
    env = worker_env(settings, queue, tuned=False)
    celery = make_celery(settings.model_copy(update={"celery_queue": queue}))
    episodes = facts_episodes(group_id, KILL_EPISODES, per_episode=KILL_STATEMENTS)

    def _processing(eps: list) -> list[str]:
        return [e.uuid for e in eps if episode_info(graph, e.uuid)["status"] == "processing"]

    worker = start_strata_worker(env, queue, concurrency=2, log=tmp_path / "w1.log")
    try:
        info = submit_episodes(graph, celery, group_id, episodes)
        mid = wait_job(graph, info.uuid, 600, until=lambda i: i.done >= 3 and i.processing > 0)
        assert mid.status == "running" and mid.processing > 0, "no episode was processing at the kill"
        kill9(worker)
        killed_at = job_info(graph, info.uuid)
        held = _processing(episodes)
        worker = start_strata_worker(env, queue, concurrency=2, log=tmp_path / "w2.log")
        time.sleep(2)  # a commit sent just before the kill lands meanwhile: that episode is done, not held
        held = [uuid for uuid in held if uuid in _processing(episodes)]
        assert held, killed_at
        done = wait_job(graph, info.uuid, 600)
    finally:
        stop(worker)
    assert (done.status, done.done, done.failed) == ("done", KILL_EPISODES, 0), (done, held, graph.query(
        "MATCH (e:Episode {group_id: $g}) RETURN e.seq AS seq, e.uuid AS uuid, e.status AS status, "
        "e.attempts AS attempts, e.enqueued_at AS enqueued, e.redriven_at AS redriven, e.last_error AS error, "
        "e.lease_until AS lease ORDER BY seq", g=group_id))
    redriven = graph.query("MATCH (e:Episode) WHERE e.uuid IN $held AND e.redriven_at IS NOT NULL "
                           "RETURN count(e) AS n", held=held)
    assert redriven[0]["n"] == len(held)  # back through their expired leases, not the broker
    _assert_no_duplicates(graph, group_id)
    assert graph_signature(graph, group_id) == _reference(graph, settings, group_id, KILL_EPISODES,
                                                          per_episode=KILL_STATEMENTS)


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
    env = worker_env(settings, queue, STRATA_EXTRACTOR_FACTORY="tests.support.strata_test_extractors:poison",
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
