"""Crash recovery with the shipped defaults: kill -9 of a worker mid-job, then the time until the job is done.

    .venv/bin/python -m bench.bench_crash [--runs 3] [--episodes 10] [--statements 100] [--kill-after 4]

Each run: `strata worker --concurrency 2` (every reliability setting at its default, no beat) on a private
queue; a job of 1,000 statements as 10 facts episodes; once `--kill-after` episodes are done and one is
processing, kill -9 of the worker's process group; a new worker at once. Measured: kill -> job done, and
kill -> the dead worker's episodes re-driven (their leases expired). An uninterrupted run of the same job
gives the baseline. Prints JSON and writes bench/results/crash.json. Needs Neo4j and Redis
(`strata services up`); uses Redis database 13, the hash embedder (recovery does not depend on it), and
deletes its groups.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from strata.graph import Graph, apply_migrations
from strata.ingest.celery_app import make_celery
from strata.ingest.submit import job_info, submit_episodes
from strata.ingest.testing.harness import (
    facts_episodes,
    kill9,
    private_redis,
    start_strata_worker,
    stop,
    wait_job,
    worker_env,
)
from strata.schema.settings import Settings

REPO = Path(__file__).resolve().parent.parent
RESULTS = REPO / "bench" / "results" / "crash.json"


def processing(graph: Graph, group_id: str) -> list[str]:
    return [r["uuid"] for r in graph.query("MATCH (e:Episode {group_id: $g, status: 'processing'}) "
                                           "RETURN e.uuid AS uuid", g=group_id)]


def one_run(graph: Graph, settings: Settings, episodes_n: int, statements: int, kill_after: int | None,
            logs: Path) -> dict[str, Any]:
    queue = f"bench-crash-{uuid.uuid4().hex[:8]}"
    group_id = f"bench-crash-{uuid.uuid4().hex[:8]}"
    env = worker_env(settings, queue, tuned=False)
    celery = make_celery(settings.model_copy(update={"celery_queue": queue}))
    episodes = facts_episodes(group_id, episodes_n, per_episode=statements)
    worker = start_strata_worker(env, queue, concurrency=2, log=logs / f"{group_id}-1.log")
    out: dict[str, Any] = {"group_id": group_id}
    try:
        submitted = time.monotonic()
        info = submit_episodes(graph, celery, group_id, episodes)
        if kill_after is None:
            done = wait_job(graph, info.uuid, 900)
            out.update(uninterrupted_s=round(time.monotonic() - submitted, 1), status=done.status, done=done.done)
            return out
        wait_job(graph, info.uuid, 600, until=lambda i: i.done >= kill_after and i.processing > 0)
        kill9(worker)
        killed = time.monotonic()
        at_kill = job_info(graph, info.uuid)
        held = processing(graph, group_id)
        worker = start_strata_worker(env, queue, concurrency=2, log=logs / f"{group_id}-2.log")
        time.sleep(2)  # a commit sent just before the kill lands meanwhile: that episode is done, not held
        held = sorted(set(held) & set(processing(graph, group_id)))
        redriven_s = None
        while True:
            now = job_info(graph, info.uuid)
            if redriven_s is None and graph.query("MATCH (e:Episode) WHERE e.uuid IN $held AND e.redriven_at IS NULL "
                                                  "RETURN count(e) AS n", held=held)[0]["n"] == 0:
                redriven_s = round(time.monotonic() - killed, 1)
            if now.status != "running" or time.monotonic() - killed > 900:
                break
            time.sleep(0.25)
        out.update(done_at_kill=at_kill.done, processing_at_kill=at_kill.processing, queued_at_kill=at_kill.queued,
                   held=len(held), facts=now.facts,
                   duplicate_facts=graph.query("MATCH (s)-[r:RELATES_TO {group_id: $g}]->(o) WITH s, r.predicate AS p, "
                                               "o, r.valid_at AS v, count(*) AS n WHERE n > 1 RETURN count(*) AS d",
                                               g=group_id)[0]["d"],
                   kill_to_done_s=round(time.monotonic() - killed, 1), kill_to_redriven_s=redriven_s,
                   status=now.status, done=now.done, failed=now.failed,
                   held_episodes=graph.query("MATCH (e:Episode) WHERE e.uuid IN $held RETURN e.seq AS seq, "
                                             "e.status AS status, e.attempts AS attempts, "
                                             "e.last_error AS last_error, e.redriven_at IS NOT NULL AS redriven "
                                             "ORDER BY seq", held=held))
        return out
    finally:
        stop(worker)
        graph.query("MATCH (n {group_id: $g}) DETACH DELETE n", g=group_id)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--episodes", type=int, default=10)
    parser.add_argument("--statements", type=int, default=100, help="per episode")
    parser.add_argument("--kill-after", type=int, default=4, help="episodes done before the kill")
    parser.add_argument("--logs", type=Path, default=Path("/tmp/strata-bench-crash"))
    args = parser.parse_args()
    # its own Redis database: no other worker on a shared Redis redelivers the killed worker's tasks early
    settings = private_redis(Settings())
    args.logs.mkdir(parents=True, exist_ok=True)
    with Graph.from_settings(settings) as graph:
        apply_migrations(graph, settings.embedding_dim)
        baseline = one_run(graph, settings, args.episodes, args.statements, None, args.logs)
        runs = [one_run(graph, settings, args.episodes, args.statements, args.kill_after, args.logs)
                for _ in range(args.runs)]
    times = [r["kill_to_done_s"] for r in runs]
    result = {
        "when": datetime.now(UTC).isoformat(timespec="seconds"), "host": platform.node(),
        "job": f"{args.episodes} episodes x {args.statements} statements, strata worker --concurrency 2",
        "lease": {"lease_s": settings.episode_lease_s, "renew_s": settings.episode_lease_renew_s,
                  "check_s": settings.episode_lease_check_s, "group_lock_ttl_s": settings.group_lock_ttl_s},
        "uninterrupted_s": baseline["uninterrupted_s"],
        "kill_to_done_s": {"median": statistics.median(times), "max": max(times), "runs": times},
        "runs": runs,
    }
    RESULTS.write_text(json.dumps(result, indent=2, default=str) + "\n")
    print(json.dumps(result, indent=2, default=str))
    print(f"kill -9 -> job done: median {statistics.median(times):.1f} s, max {max(times):.1f} s "
          f"(uninterrupted job {baseline['uninterrupted_s']:.1f} s)")


if __name__ == "__main__":
    main()
