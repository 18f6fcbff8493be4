"""Helpers for ingestion reliability tests and benches: real worker processes, synthetic episodes, graph snapshots."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from strata.graph import Graph
from strata.schema import ids
from strata.schema.models import Episode, FactStatement
from strata.schema.settings import Settings

BASE = datetime(2020, 1, 1, tzinfo=UTC)


def facts_episodes(group_id: str, n: int, per_episode: int = 3, tag: str = "src",
                   poison: set[int] | None = None) -> list[Episode]:
    """n facts episodes; people move between a small set of cities (a functional slot with a timeline)."""
    out = []
    for seq in range(n):
        statements = []
        for k in range(per_episode):
            person = f"Person {(seq * per_episode + k) % 97}"
            statements.append(FactStatement(
                subject=person, subject_type="Person", predicate="lives_in", object=f"City {(seq + k) % 13}",
                object_type="Place", functional="subject", valid_at=BASE + timedelta(days=seq * per_episode + k)))
        content = "\n".join(f"{s.subject} lives in {s.object}" for s in statements)
        if poison and seq in poison:
            content += "\nPOISON-PILL"
        out.append(Episode(uuid=ids.episode_uuid(group_id, tag, seq), group_id=group_id, source_uuid=None, seq=seq,
                           kind="facts", content=content, reference_time=BASE + timedelta(days=seq),
                           facts=statements, content_hash=ids.content_hash(content)))
    return out


def worker_env(settings: Settings, queue: str, tuned: bool = True, **extra: str) -> dict[str, str]:
    """A worker's environment: where the services are, its queue, the hash embedder; ``tuned`` also shortens
    retry backoff for fast tests (False: every reliability setting at its shipped default)."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": os.environ.get("HOME", "/tmp"),
        # this process's import path, so a worker finds the same modules (a test-only extractor factory too)
        "PYTHONPATH": os.pathsep.join(p for p in sys.path if p),
        "STRATA_NEO4J_URI": settings.neo4j_uri,
        "STRATA_REDIS_URL": settings.redis_url,
        "STRATA_CELERY_QUEUE": queue,
        "STRATA_EMBEDDER": "hash",
    }
    if tuned:
        env.update(STRATA_TASK_RETRY_BACKOFF_S="0.2", STRATA_TASK_RETRY_BACKOFF_MAX_S="5")
    env.update({k: str(v) for k, v in extra.items()})
    return env


def start_worker(env: dict[str, str], queue: str, concurrency: int = 1, pool: str = "prefork",
                 log: Path | None = None) -> subprocess.Popen:
    cmd = [sys.executable, "-m", "celery", "-A", "strata.memory.worker", "worker", f"--pool={pool}",
           f"--concurrency={concurrency}", "-Q", queue, "--without-heartbeat", "--without-gossip", "--without-mingle",
           "--loglevel=WARNING", "-n", f"w{time.monotonic_ns()}@%h"]
    out = open(log, "ab") if log else subprocess.DEVNULL  # noqa: SIM115
    return subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)


def private_redis(settings: Settings, db: int = 13) -> Settings:
    """The same Redis, another database. Kombu keeps every queue's unacked messages in one hash per database,
    and any worker restores those older than its own visibility timeout: on a shared database, a worker that
    runs with a short timeout (another test) would redeliver a killed worker's tasks early."""
    parts = urlsplit(settings.redis_url)
    return settings.model_copy(update={"redis_url": urlunsplit(parts._replace(path=f"/{db}"))})


def start_strata_worker(env: dict[str, str], queue: str, concurrency: int = 2, log: Path | None = None,
                        *args: str) -> subprocess.Popen:
    """`strata worker` as a user runs it (it execs the Celery worker, so the process is the worker's main
    process, the leader of a new process group)."""
    cmd = [sys.executable, "-m", "strata.api.cli", "worker", f"--concurrency={concurrency}", "--queue", queue,
           "--loglevel=WARNING", *args]
    out = open(log, "ab") if log else subprocess.DEVNULL  # noqa: SIM115
    return subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)


def kill9(proc: subprocess.Popen) -> None:
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            kill9(proc)


def wait_job(graph: Graph, job_uuid: str, timeout_s: float, until=None):
    from strata.ingest.submit import job_info

    deadline = time.monotonic() + timeout_s
    while True:
        info = job_info(graph, job_uuid)
        if (until(info) if until else info.status != "running") or time.monotonic() > deadline:
            return info
        time.sleep(0.25)


def graph_signature(graph: Graph, group_id: str) -> dict:
    """What must be equal between two runs: entities (key, name, type), facts (uuid, interval), counts."""
    entities = graph.query("MATCH (e:Entity {group_id: $g}) RETURN e.key AS key, e.name AS name, e.type AS type "
                           "ORDER BY key", g=group_id)
    facts = graph.query("MATCH (s)-[r:RELATES_TO {group_id: $g}]->(o) RETURN s.key AS s, "
                        "r.predicate AS p, o.key AS o, r.valid_at AS valid_at, r.invalid_at AS invalid_at, "
                        "r.expired_at IS NULL AS live, size(r.episodes) AS episodes ORDER BY s, p, o, valid_at",
                        g=group_id)
    return {"entities": entities, "facts": [{k: str(v) for k, v in f.items()} for f in facts]}
