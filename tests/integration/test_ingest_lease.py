"""Episode leases and their re-drive, group-lock renewal (real Neo4j and Redis, no worker processes).

Each test records its episodes under its own queue name and re-drives only that queue, so it never touches
other tests' episodes; nothing consumes these queues, and their Redis lists are deleted afterwards.
"""

from __future__ import annotations

import base64
import json
import threading
import time
from collections.abc import Iterator

import pytest
import redis

from strata.graph import Graph
from strata.graph import episodes as store
from strata.ingest.celery_app import make_celery
from strata.ingest.lease import Heartbeat, LeaseTerms
from strata.ingest.locks import LocalGroupLocks, LockTimeoutError, RedisGroupLocks
from strata.ingest.recovery import LeaseWatch, recover_lost_tasks
from strata.ingest.submit import job_info, submit_episodes
from strata.ingest.tasks import build_pipeline, run_episode
from strata.ingest.testing.harness import facts_episodes, graph_signature
from strata.schema.models import utcnow
from strata.schema.settings import Settings

pytestmark = pytest.mark.integration


@pytest.fixture
def queue(settings: Settings, group_id: str) -> Iterator[str]:
    name = f"nobody-{group_id}"
    yield name
    client = redis.Redis.from_url(settings.redis_url)
    client.delete(name, f"{name}-b")


def _submitted(graph: Graph, settings: Settings, group_id: str, queue: str, n: int) -> list[str]:
    """n episodes stored and enqueued to ``queue`` (which nothing consumes)."""
    celery = make_celery(settings.model_copy(update={"celery_queue": queue}))
    episodes = facts_episodes(group_id, n)
    submit_episodes(graph, celery, group_id, episodes)
    return [e.uuid for e in episodes]


def _claim(graph: Graph, uuid: str, owner: str, lease_s: float) -> tuple[str | None, bool]:
    return store.claim_episode(graph, uuid, owner, utcnow(), owner=owner, lease_s=lease_s)


def _episode(graph: Graph, uuid: str) -> dict:
    return graph.query("MATCH (e:Episode {uuid: $u}) RETURN e.status AS status, e.lease_owner AS owner, "
                       "e.lease_until AS until, e.last_error AS last_error, e.queue AS queue, "
                       "e.enqueued_at AS enqueued_at", u=uuid)[0]


def test_a_live_lease_keeps_other_claims_out_until_it_expires(graph: Graph, settings: Settings, group_id: str,
                                                              queue: str) -> None:
    [uuid] = _submitted(graph, settings, group_id, queue, 1)
    assert _claim(graph, uuid, "a", 1.0) == ("queued", True)
    assert _claim(graph, uuid, "b", 30) == ("processing", False)  # a redelivered task while a still runs
    assert store.renew_lease(graph, uuid, "a", 1.0) == (True, "processing")
    assert store.renew_lease(graph, uuid, "b", 30) == (False, "processing")
    time.sleep(1.3)
    assert _claim(graph, uuid, "b", 30) == ("processing", True)  # a's lease ran out: a died
    assert store.renew_lease(graph, uuid, "a", 1.0) == (False, "processing")  # a, back, has lost it
    assert _episode(graph, uuid)["owner"] == "b"


def test_each_expired_lease_is_redriven_by_exactly_one_of_many_workers(graph: Graph, settings: Settings,
                                                                       group_id: str, queue: str) -> None:
    uuids = _submitted(graph, settings, group_id, queue, 13)
    expiring, live = uuids[:12], uuids[12]
    for i, uuid in enumerate(expiring):
        assert _claim(graph, uuid, f"dead-{i}", 0.5)[1]
    assert _claim(graph, live, "alive", 60)[1]
    time.sleep(0.8)
    barrier = threading.Barrier(6)
    results: list[list[store.Redriven]] = []

    def worker() -> None:
        barrier.wait()
        results.append(store.redrive_expired(graph, utcnow(), queues=[queue], default_queue=None))

    threads = [threading.Thread(target=worker) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    redriven = [r.uuid for rows in results for r in rows]
    assert sorted(redriven) == sorted(expiring)  # every one, none twice
    assert all(r.queue == queue for rows in results for r in rows)
    after = _episode(graph, expiring[0])
    assert (after["status"], after["owner"], after["until"]) == ("queued", None, None)
    assert "lease expired: dead-0" in after["last_error"]
    assert _episode(graph, live)["status"] == "processing"
    # another queue's workers leave them alone
    assert _claim(graph, expiring[0], "dead-again", 0.2)[1]
    time.sleep(0.4)
    assert store.redrive_expired(graph, utcnow(), queues=[f"{queue}-b"], default_queue=None) == []


def test_an_episode_waiting_for_its_retry_is_redriven_if_the_retry_never_runs(graph: Graph, settings: Settings,
                                                                             group_id: str, queue: str) -> None:
    """Celery keeps a retry in the memory of a worker until its countdown: that worker dying loses it."""
    waiting, retried = _submitted(graph, settings, group_id, queue, 2)
    for uuid in (waiting, retried):
        assert _claim(graph, uuid, "w", 30)[1]
        store.mark_retrying(graph, uuid, "UpstreamUnavailableError: neo4j away", "w:retry", 0.5)
    assert _claim(graph, retried, "w2", 30) == ("queued", True)  # the retry ran in time
    assert store.redrive_expired(graph, utcnow(), queues=[queue], default_queue=None) == []
    time.sleep(0.8)
    assert [r.uuid for r in store.redrive_expired(graph, utcnow(), queues=[queue], default_queue=None)] == [waiting]
    row = _episode(graph, waiting)
    assert (row["status"], row["owner"]) == ("queued", None)
    assert row["last_error"] == "lease expired: w:retry (its retry never ran)"


def test_a_heartbeat_keeps_its_lease_and_its_end_lets_the_lease_expire(graph: Graph, settings: Settings,
                                                                       group_id: str, queue: str) -> None:
    [uuid] = _submitted(graph, settings, group_id, queue, 1)
    terms = LeaseTerms(lease_s=1.0, renew_s=0.25)
    assert _claim(graph, uuid, "w", terms.lease_s)[1]
    with Heartbeat(graph, uuid, "w", terms) as beat:
        for _ in range(5):
            time.sleep(0.5)
            assert store.redrive_expired(graph, utcnow(), queues=[queue], default_queue=None) == []
    assert beat.renewals >= 5 and not beat.lost
    time.sleep(1.5)
    assert [r.uuid for r in store.redrive_expired(graph, utcnow(), queues=[queue], default_queue=None)] == [uuid]
    # a task hung past the longest episode stops renewing: its episode does not stay held for ever
    assert _claim(graph, uuid, "hung", terms.lease_s)[1]
    with Heartbeat(graph, uuid, "hung", terms.model_copy(update={"max_s": 0.6})) as beat:
        time.sleep(2.5)
        assert [r.uuid for r in store.redrive_expired(graph, utcnow(), queues=[queue], default_queue=None)] == [uuid]
    assert 1 <= beat.renewals <= 3


def test_a_lost_lease_makes_two_commits_of_one_episode_and_one_graph(graph: Graph, settings: Settings,
                                                                     group_id: str, queue: str) -> None:
    """A worker paused past its lease: the episode is re-driven and committed by another worker, then the
    first one wakes up and commits its own extraction too. Nothing is duplicated."""
    pipeline = build_pipeline(settings.model_copy(update={"embedder": "hash"}), graph)
    ref_group = f"{group_id}-ref"
    try:
        submit_episodes(graph, None, ref_group, facts_episodes(ref_group, 3, per_episode=20),
                        inline_pipeline=pipeline)
        reference = graph_signature(graph, ref_group)
    finally:
        graph.query("MATCH (n {group_id: $g}) DETACH DELETE n", g=ref_group)
    celery = make_celery(settings.model_copy(update={"celery_queue": queue}))
    episodes = facts_episodes(group_id, 3, per_episode=20)
    info = submit_episodes(graph, celery, group_id, episodes)
    locks = LocalGroupLocks()
    run_episode(pipeline, locks, episodes[0].uuid, info.uuid)
    slow = episodes[1]
    assert _claim(graph, slow.uuid, "paused", 0.5)[1]
    extraction = pipeline.extract(store.load_episode(graph, slow.uuid))
    time.sleep(0.8)  # paused: the lease runs out
    assert [r.uuid for r in store.redrive_expired(graph, utcnow(), queues=[queue], default_queue=None)] == [slow.uuid]
    assert run_episode(pipeline, locks, slow.uuid, info.uuid).outcome == "done"  # the re-driven task
    pipeline.commit(slow, extraction)  # the paused worker's commit, late
    assert run_episode(pipeline, locks, slow.uuid, info.uuid).outcome == "skipped"  # the broker's redelivery
    run_episode(pipeline, locks, episodes[2].uuid, info.uuid)
    done = job_info(graph, info.uuid)
    assert (done.status, done.done, done.facts) == ("done", 3, 60)
    assert graph_signature(graph, group_id) == reference
    supported = graph.query("MATCH ()-[r:RELATES_TO {group_id: $g}]->() WHERE $u IN r.episodes "
                            "RETURN size([x IN r.episodes WHERE x = $u]) AS n", g=group_id, u=slow.uuid)
    assert supported and {r["n"] for r in supported} == {1}


def test_every_worker_redrives_expired_leases_to_their_own_queues(graph: Graph, settings: Settings, group_id: str,
                                                                  queue: str) -> None:
    """The worker's watch thread: at start it re-drives what expired, each episode to the queue it was meant
    for; an episode it re-drove is back in the broker and marked enqueued."""
    first = _submitted(graph, settings, group_id, queue, 3)
    second = _submitted(graph, settings, f"{group_id}-b", f"{queue}-b", 2)
    try:
        client = redis.Redis.from_url(settings.redis_url)
        client.delete(queue, f"{queue}-b")  # the original tasks: as if the dead worker had taken them
        for uuid in first + second:
            assert _claim(graph, uuid, "dead", 0.3)[1]
        time.sleep(0.5)
        watch = LeaseWatch(make_celery(settings), settings.model_copy(update={"episode_lease_check_s": 0.5}),
                           [queue, f"{queue}-b"])
        watch.start()
        try:
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline and (client.llen(queue), client.llen(f"{queue}-b")) != (3, 2):
                time.sleep(0.1)
        finally:
            watch.stop()
        assert (client.llen(queue), client.llen(f"{queue}-b")) == (3, 2)
        for uuid, q in [(u, queue) for u in first] + [(u, f"{queue}-b") for u in second]:
            row = _episode(graph, uuid)
            assert (row["status"], row["queue"], row["enqueued_at"] is not None) == ("queued", q, True)
    finally:
        graph.query("MATCH (n {group_id: $g}) DETACH DELETE n", g=f"{group_id}-b")


def test_a_task_lost_with_its_worker_before_the_claim_goes_back_to_its_queue(graph: Graph, settings: Settings,
                                                                            group_id: str, queue: str) -> None:
    """A worker took three tasks from the broker and died before claiming one of them: no lease exists for it.
    Its delivery, never acknowledged, is found in the broker's record and restored, once. The task of an
    episode running elsewhere, and of one re-driven since its delivery, stay where they are."""
    lost, running, redriven = _submitted(graph, settings, group_id, queue, 3)
    celery = make_celery(settings.model_copy(update={"celery_queue": queue}))
    client = redis.Redis.from_url(settings.redis_url)
    with celery.connection_for_write() as conn:
        channel = conn.channel()
        taken = [channel.basic_get(queue) for _ in range(3)]  # delivered, not acknowledged
        channel.do_restore = False  # the worker dies: nothing is given back
        channel.close()
    tags = [m.delivery_tag for m in taken]
    try:
        assert client.llen(queue) == 0
        assert _claim(graph, running, "alive", 60)[1]  # its task runs (long) on a live worker
        assert _claim(graph, redriven, "dead", 0.2)[1]
        time.sleep(0.3)
        again = store.redrive_expired(graph, utcnow(), queues=[queue], default_queue=None)
        assert [r.uuid for r in again] == [redriven]
        client.delete(queue)  # the re-drive's own task: as if taken by a worker
        recent = recover_lost_tasks(graph, celery, queues=[queue], older_than_s=30)
        assert recent == []  # delivered a moment ago
        for tag in tags:
            client.zadd("unacked_index", {tag: time.time() - 60})
        assert recover_lost_tasks(graph, celery, queues=[f"{queue}-b"], older_than_s=30) == []
        results: list[list[str]] = []
        barrier = threading.Barrier(4)

        def worker() -> None:
            barrier.wait()
            results.append(recover_lost_tasks(graph, celery, queues=[queue], older_than_s=30))

        threads = [threading.Thread(target=worker) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(u for r in results for u in r) == [lost]  # restored by one of the four
        assert client.llen(queue) == 1
        redelivered = json.loads(client.lindex(queue, 0))
        assert json.loads(base64.b64decode(redelivered["body"]))[0] == [lost]  # the lost episode's own task
        assert sum(client.hexists("unacked", tag) for tag in tags) == 2  # the running one's, the obsolete one
    finally:
        client.zrem("unacked_index", *tags)
        client.hdel("unacked", *tags)


def test_a_task_lost_between_queue_and_worker_is_sent_again(graph: Graph, settings: Settings, group_id: str,
                                                            queue: str) -> None:
    """Kombu takes a task from its list before it records the delivery: a kill between the two leaves a queued
    episode whose task is nowhere. Once its queue is empty and no delivery holds it, it is sent again, once."""
    held, claimed, orphan = _submitted(graph, settings, group_id, queue, 3)
    celery = make_celery(settings.model_copy(update={"celery_queue": queue}))
    client = redis.Redis.from_url(settings.redis_url)
    with celery.connection_for_write() as conn:
        channel = conn.channel()
        taken = channel.basic_get(queue)  # one task a live worker holds, not yet claimed
        channel.do_restore = False
        channel.close()
    try:
        assert json.loads(taken.body)[0] == [held]  # the oldest task comes first
        client.delete(queue)  # the two others are lost
        assert _claim(graph, claimed, "alive", 60)[1]  # ... but this one was claimed before
        recent = recover_lost_tasks(graph, celery, queues=[queue], older_than_s=30)
        assert recent == []  # sent a moment ago: maybe on its way
        graph.query("MATCH (e:Episode {group_id: $g}) SET e.enqueued_at = e.enqueued_at - duration('PT60S')",
                    g=group_id)
        results: list[list[str]] = []
        barrier = threading.Barrier(4)

        def worker() -> None:
            barrier.wait()
            results.append(recover_lost_tasks(graph, celery, queues=[queue], older_than_s=30))

        threads = [threading.Thread(target=worker) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        # the held one's delivery is young, the claimed one runs: only the orphan is sent again, by one worker
        assert sorted(u for r in results for u in r) == [orphan]
        assert client.llen(queue) == 1
        row = _episode(graph, orphan)
        assert row["status"] == "queued" and row["enqueued_at"] is not None
        assert "task lost" in row["last_error"]
    finally:
        client.zrem("unacked_index", taken.delivery_tag)
        client.hdel("unacked", taken.delivery_tag)


def test_a_held_group_lock_is_renewed_past_its_ttl(settings: Settings, group_id: str) -> None:
    client = redis.Redis.from_url(settings.redis_url)
    holder = RedisGroupLocks(client, ttl_s=0.6, wait_s=0.1)
    waiter = RedisGroupLocks(client, ttl_s=0.6, wait_s=0.1)
    with holder.hold(group_id):
        time.sleep(1.5)  # two and a half TTLs
        with pytest.raises(LockTimeoutError):
            with waiter.hold(group_id):
                pass
    with waiter.hold(group_id) as waited:  # released at once
        assert waited < 0.1
