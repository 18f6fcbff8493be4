"""Submitting work: stored before it runs, duplicates cost nothing, bad input leaves nothing behind,
failed episodes are kept and re-drivable, the stuck sweep, the shared LLM rate limit (real Neo4j and Redis)."""

from __future__ import annotations

import time
from datetime import timedelta
from pathlib import Path

import pytest
import redis
from typer.testing import CliRunner

from strata.graph import Graph
from strata.graph import episodes as store
from strata.ingest.celery_app import make_celery
from strata.ingest.extractors import make_extractor
from strata.ingest.pipeline import Pipeline
from strata.ingest.ratelimit import RedisRateLimiter
from strata.ingest.sources import parse_source_text
from strata.ingest.submit import episode_info, job_info, retry_failed, submit_document, submit_episodes
from strata.ingest.tasks import build_pipeline, record_failure
from strata.ingest.testing.harness import facts_episodes
from strata.schema.errors import InputError, NotFoundError, RateLimitedError
from strata.schema.models import utcnow
from strata.schema.settings import Settings
from tests.support.strata_test_extractors import PoisonAware

pytestmark = pytest.mark.integration

FACTS = "\n".join(
    f'{{"subject": "Person {i}", "predicate": "works_for", "object": "Acme {i % 3}", '
    f'"valid_at": "2020-0{1 + i % 9}-01"}}'
    for i in range(12))


@pytest.fixture
def pipeline(graph: Graph, settings: Settings) -> Pipeline:
    return build_pipeline(settings.model_copy(update={"embedder": "hash"}), graph)


def _count(graph: Graph, group_id: str, label: str) -> int:
    return graph.query(f"MATCH (n:{label} {{group_id: $g}}) RETURN count(n) AS n", g=group_id)[0]["n"]


def test_submit_stores_queued_episodes_before_any_task_runs(graph: Graph, settings: Settings, group_id: str) -> None:
    celery = make_celery(settings.model_copy(update={"celery_queue": f"nobody-{group_id}"}))  # no worker consumes
    doc = parse_source_text(FACTS, "facts-jsonl", name="people.jsonl", group_id=group_id)
    info = submit_document(graph, celery, doc)
    assert (info.status, info.total, info.queued, info.done) == ("running", len(doc.episodes), len(doc.episodes), 0)
    assert _count(graph, group_id, "Source") == 1
    assert redis.Redis.from_url(settings.redis_url).llen(f"nobody-{group_id}") == len(doc.episodes)
    redis.Redis.from_url(settings.redis_url).delete(f"nobody-{group_id}")


def test_inline_run_then_the_same_source_again_costs_nothing(graph: Graph, pipeline: Pipeline, group_id: str) -> None:
    doc = parse_source_text(FACTS, "facts-jsonl", name="people.jsonl", group_id=group_id)
    first = submit_document(graph, None, doc, inline_pipeline=pipeline, agent="tester")
    assert (first.status, first.done, first.failed, first.facts) == ("done", first.total, 0, 12)
    before = graph.query("MATCH (e:Episode {group_id: $g}) RETURN e.uuid AS u, e.attempts AS a ORDER BY u", g=group_id)
    again = submit_document(graph, None, doc, inline_pipeline=pipeline)
    assert again.duplicate_of == first.uuid and again.uuid == first.uuid
    assert graph.query("MATCH (e:Episode {group_id: $g}) RETURN e.uuid AS u, e.attempts AS a ORDER BY u",
                       g=group_id) == before  # nothing ran again
    assert _count(graph, group_id, "Job") == 1
    ep = episode_info(graph, doc.episodes[0].uuid)
    assert ep["status"] == "done" and ep["job_uuid"] == first.uuid and len(ep["facts"]) == 12


def test_bad_input_is_rejected_and_leaves_nothing(graph: Graph, pipeline: Pipeline, group_id: str) -> None:
    with pytest.raises(InputError):
        parse_source_text("\n\n  \n", "book", name="empty.txt", group_id=group_id)
    with pytest.raises(InputError, match="other groups"):
        submit_episodes(graph, None, group_id, facts_episodes("someone-else", 2), inline_pipeline=pipeline)
    with pytest.raises(InputError):
        submit_episodes(graph, None, group_id, [], inline_pipeline=pipeline)
    assert _count(graph, group_id, "Job") == 0 and _count(graph, group_id, "Episode") == 0
    with pytest.raises(NotFoundError):
        job_info(graph, "no-such-job")
    with pytest.raises(NotFoundError):
        episode_info(graph, "no-such-episode")


def test_cli_bad_paths_give_one_clear_error(tmp_path: Path, settings: Settings) -> None:
    from strata.api.cli import app

    runner = CliRunner()
    missing = runner.invoke(app, ["ingest", str(tmp_path / "nope.txt"), "--group", "g", "--format", "book"])
    assert missing.exit_code != 0 and "no such file" in str(missing.exception)
    mixed = tmp_path / "mixed"
    mixed.mkdir()
    (mixed / "a.jsonl").write_text('{"speaker": "a", "text": "hi"}\n')
    (mixed / "b.txt").write_text("Some text.\n")
    result = runner.invoke(app, ["ingest", str(mixed), "--group", "g", "--format", "chat-jsonl"])
    assert result.exit_code != 0 and "mixes file types" in str(result.exception)


def test_failed_episode_keeps_its_error_and_is_redriven(graph: Graph, settings: Settings, group_id: str) -> None:
    episodes = facts_episodes(group_id, 4, poison={2})
    poisoned = Pipeline(graph, PoisonAware(make_extractor(settings)), None)
    info = submit_episodes(graph, None, group_id, episodes, inline_pipeline=poisoned)
    assert (info.status, info.done, info.failed) == ("failed", 3, 1)
    assert "poisoned episode 2" in episode_info(graph, episodes[2].uuid)["error"]
    healthy = Pipeline(graph, make_extractor(settings), None)
    redriven = retry_failed(graph, None, job_uuid=info.uuid, inline_pipeline=healthy)
    assert redriven == [episodes[2].uuid]
    after = job_info(graph, info.uuid)
    assert (after.status, after.done, after.failed, after.facts) == ("done", 4, 0, 12)
    assert episode_info(graph, episodes[2].uuid)["error"] is None


def test_sweep_requeues_episodes_stuck_without_a_lease(graph: Graph, settings: Settings, pipeline: Pipeline,
                                                       group_id: str) -> None:
    queue = f"nobody-{group_id}"
    celery = make_celery(settings.model_copy(update={"celery_queue": queue}))
    episodes = facts_episodes(group_id, 3)
    info = submit_episodes(graph, celery, group_id, episodes)
    two_hours_ago = utcnow() - timedelta(hours=2)
    # 0: claimed two hours ago without a lease (before leases existed); 2: as long ago, under a live lease
    graph.query("MATCH (e:Episode {uuid: $u}) SET e.status = 'processing', e.started_at = $t",
                u=episodes[0].uuid, t=two_hours_ago)
    store.claim_episode(graph, episodes[2].uuid, "live-worker", two_hours_ago, owner="live", lease_s=60)
    cutoff = utcnow() - timedelta(minutes=30)
    assert store.sweep_stuck(graph, cutoff, utcnow(), queues=["another-queue"]) == []
    stuck = store.sweep_stuck(graph, cutoff, utcnow(), queues=[queue])
    # 1 was enqueued and is not stuck; 2 is running: its lease decides, not its age
    assert [(r.uuid, r.queue, r.job_uuid) for r in stuck] == [(episodes[0].uuid, queue, info.uuid)]
    counts = job_info(graph, info.uuid)
    assert (counts.queued, counts.processing) == (2, 1)
    redis.Redis.from_url(settings.redis_url).delete(queue)
    record_failure(graph, episodes[1].uuid, RuntimeError("boom"), info.uuid)
    assert job_info(graph, info.uuid).failed == 1


def test_shared_rate_limit_spans_clients_and_429_pauses_everyone(settings: Settings, group_id: str) -> None:
    client = redis.Redis.from_url(settings.redis_url)
    ns = f"strata:test:{group_id}"
    waits: list[float] = []
    a = RedisRateLimiter(client, 120, 0, namespace=ns, sleep=waits.append)
    b = RedisRateLimiter(client, 120, 0, namespace=ns, sleep=waits.append)
    granted = sum(1 for i in range(130) if (a if i % 2 else b).try_acquire(10) == 0)
    assert 119 <= granted <= 121  # one bucket shared by both clients (plus refill during the loop)
    assert a.try_acquire(10) > 0
    tokens = RedisRateLimiter(client, 0, 1000, namespace=ns + ":t")
    assert tokens.try_acquire(900) == 0 and tokens.try_acquire(900) > 0
    paused = RedisRateLimiter(client, 0, 0, namespace=ns + ":p")
    assert paused.try_acquire(1) == 0
    paused.throttle(0.5)
    assert 0.3 < paused.try_acquire(1) <= 0.5
    time.sleep(0.55)
    assert paused.try_acquire(1) == 0
    stingy = RedisRateLimiter(client, 1, 0, namespace=ns + ":s", max_wait_s=1, sleep=lambda s: None)
    stingy.acquire([{"role": "user", "content": "x"}])
    with pytest.raises(RateLimitedError):
        stingy.acquire([{"role": "user", "content": "x"}])
    client.delete(*client.keys(ns + "*"))


def test_llm_429_feeds_the_shared_limit(settings: Settings, group_id: str) -> None:
    from strata.ingest import metrics
    from strata.ingest.llm_client import OpenAIChatLLM, RetryPolicy
    from strata.ingest.testing import openai_server as server_mod  # noqa: PLC0415

    client = redis.Redis.from_url(settings.redis_url)
    ns = f"strata:test:{group_id}"
    limiter = RedisRateLimiter(client, 600, 100_000, namespace=ns)
    before = metrics.LLM_RATE_LIMITED._value.get()
    with server_mod.OpenAIServer() as server:
        server.chat(server_mod.Reply.rate_limited(retry_after=0.3), server_mod.Reply.json({"ok": True}))
        llm = OpenAIChatLLM(model="m", base_url=server.base_url, api_key="x", limiter=limiter,
                            retry=RetryPolicy(backoff_base_s=0.01))
        data, usage = llm.complete([{"role": "user", "content": "hello"}], None)
        assert data == {"ok": True} and usage.calls == 1
        assert len(server.requests_to("chat/completions")) == 2
    assert metrics.LLM_RATE_LIMITED._value.get() == before + 1
    client.delete(*client.keys(ns + "*"))


def test_counts_lost_between_commit_and_bookkeeping_are_backfilled(graph: Graph, pipeline: Pipeline,
                                                                    group_id: str) -> None:
    episodes = facts_episodes(group_id, 2)
    info = submit_episodes(graph, None, group_id, episodes, inline_pipeline=pipeline)
    graph.query("MATCH (e:Episode {group_id: $g}) REMOVE e.fact_count", g=group_id)  # as if killed right after commit
    assert job_info(graph, info.uuid).facts == 0
    for ep in episodes:  # the redelivered task finds the episode done and only repairs the counts
        assert store.claim_episode(graph, ep.uuid, "w", utcnow(), owner="w:1", lease_s=30) == ("done", False)
    assert job_info(graph, info.uuid).facts == 6
