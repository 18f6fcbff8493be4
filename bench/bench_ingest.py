"""End-to-end ingestion throughput through real Celery workers, Redis and Neo4j.

    .venv/bin/python -m bench.bench_ingest [--only books,chat,llm] [--books pride_and_prejudice] [--env K=V] [--label L]

Books (spaCy + ONNX, 2 worker processes): wall time from submit to job done, words/s. Chat (MSC sessions):
episodes/s. LLM extractor against tests/support/openai_server.py answering after a fixed 2 s: throughput with
1, 2, 4 workers and LLM calls per episode. Prints JSON and writes bench/results/ingest.json. Data is read from
../shared/data and never copied. Needs `strata services up`.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import signal
import subprocess
import sys
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench.msc import msc_sessions
from strata.graph import Graph, apply_migrations
from strata.ingest.celery_app import make_celery
from strata.ingest.sources import SourceDocument, load_source
from strata.ingest.submit import job_info, submit_document, submit_episodes
from strata.ingest.testing import openai_server
from strata.schema import ids
from strata.schema.models import Episode, Message
from strata.schema.settings import Settings

REPO = Path(__file__).resolve().parent.parent
DATA = REPO.parent / "shared" / "data"
BOOKS = {"pride_and_prejudice": DATA / "books" / "pride_and_prejudice_pg1342.txt",
         "sherlock_holmes": DATA / "books" / "adventures_of_sherlock_holmes_pg1661.txt"}
RESULTS = REPO / "bench" / "results" / "ingest.json"


class Workers:
    """`celery worker` subprocesses on a private queue; models load once per process, warmed before timing."""

    def __init__(self, settings: Settings, concurrency: int, pool: str = "prefork", **env: str) -> None:
        self.queue = f"bench-{uuid.uuid4().hex[:8]}"
        self.settings = settings.model_copy(update={"celery_queue": self.queue})
        full_env = {**os.environ, "STRATA_CELERY_QUEUE": self.queue, "STRATA_NEO4J_URI": settings.neo4j_uri,
                    "STRATA_REDIS_URL": settings.redis_url, "PYTHONPATH": str(REPO), **env}
        cmd = [sys.executable, "-m", "celery", "-A", "strata.memory.worker", "worker", f"--pool={pool}",
               f"--concurrency={concurrency}", "-Q", self.queue, "--without-gossip", "--without-mingle",
               "--without-heartbeat", "--loglevel=ERROR"]
        self.proc = subprocess.Popen(cmd, env=full_env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                     start_new_session=True)
        self.celery = make_celery(self.settings)

    def stop(self) -> None:
        os.killpg(self.proc.pid, signal.SIGTERM)
        self.proc.wait(timeout=60)


def wait_done(graph: Graph, job: str, timeout_s: float = 3600) -> Any:
    deadline = time.monotonic() + timeout_s
    while (info := job_info(graph, job)).status == "running" and time.monotonic() < deadline:
        time.sleep(0.2)
    return info


def warm_up(graph: Graph, workers: Workers, n: int) -> None:
    """One tiny job per worker process, so model loading is not timed."""
    group = f"bench-warm-{uuid.uuid4().hex[:6]}"
    eps = [_episode(group, f"Warm-up {i}: Alice met Bob in Paris on 3 May 2020.", i, "text") for i in range(n * 2)]
    wait_done(graph, submit_episodes(graph, workers.celery, group, eps).uuid, 600)
    graph.query("MATCH (n {group_id: $g}) DETACH DELETE n", g=group)


def _episode(group: str, content: str, seq: int, kind: str, messages: list[Message] | None = None) -> Episode:
    return Episode(uuid=ids.episode_uuid(group, "bench", seq), group_id=group, seq=seq, kind=kind, content=content,
                   reference_time=datetime(2024, 1, 1, tzinfo=UTC), messages=messages or [],
                   speakers=sorted({m.speaker for m in messages or []}), content_hash=ids.content_hash(content))


def msc_episodes(group: str, n: int) -> list[Episode]:
    return [_episode(group, content, seq, "chat", messages) for seq, (content, messages) in enumerate(msc_sessions(n))]


def run_job(graph: Graph, workers: Workers, submit: Any) -> tuple[Any, float]:
    t0 = time.perf_counter()
    info = submit(workers.celery)
    done = wait_done(graph, info.uuid)
    return done, time.perf_counter() - t0


def bench_books(graph: Graph, settings: Settings, env: dict[str, str], books: list[str]) -> dict[str, Any]:
    """Shipped defaults unless ``env`` overrides them. Cold: from starting the workers until both have loaded
    their models and done a first tiny job (what a fresh `strata worker` costs before the book's windows)."""
    out: dict[str, Any] = {"env": env}
    started = time.perf_counter()
    workers = Workers(settings, 2, STRATA_EXTRACTOR="spacy", STRATA_EMBEDDER="onnx-minilm", **env)
    try:
        warm_up(graph, workers, 2)
        out["cold_start_s"] = round(time.perf_counter() - started, 1)
        for name, path in ((n, BOOKS[n]) for n in books):
            group = f"bench-{name}-{uuid.uuid4().hex[:6]}"
            doc: SourceDocument = load_source(path, "book", group_id=group)
            words = len(doc.text.split())
            done, wall = run_job(graph, workers, lambda c, d=doc: submit_document(graph, c, d))
            out[name] = {"words": words, "episodes": done.total, "done": done.done, "failed": done.failed,
                         "facts": done.facts, "wall_s": round(wall, 1), "words_per_s": round(words / wall),
                         "goal_wall_s_for_127k_words": 90}
            graph.query("MATCH (n {group_id: $g}) DETACH DELETE n", g=group)
    finally:
        workers.stop()
    return out


def bench_chat(graph: Graph, settings: Settings, sessions: int, env: dict[str, str] | None = None) -> dict[str, Any]:
    workers = Workers(settings, 2, **{"STRATA_EXTRACTOR": "spacy", "STRATA_EMBEDDER": "onnx-minilm",
                                      "STRATA_EMBEDDING_THREADS": "1", **(env or {})})
    group = f"bench-msc-{uuid.uuid4().hex[:6]}"
    try:
        warm_up(graph, workers, 2)
        eps = msc_episodes(group, sessions)
        done, wall = run_job(graph, workers, lambda c: submit_episodes(graph, c, group, eps))
    finally:
        workers.stop()
        graph.query("MATCH (n {group_id: $g}) DETACH DELETE n", g=group)
    return {"sessions": len(eps), "done": done.done, "failed": done.failed, "facts": done.facts,
            "wall_s": round(wall, 1), "episodes_per_s": round(len(eps) / wall, 2)}


def bench_llm(graph: Graph, settings: Settings, n: int, delay_s: float = 2.0) -> dict[str, Any]:
    wire = openai_server
    reply = wire.Reply.json({"entities": [], "facts": [], "summary": ""})
    out: dict[str, Any] = {"episodes": n, "server_delay_s": delay_s}
    with wire.OpenAIServer(chat_default=lambda body: wire.Reply.slow(delay_s, reply)) as server:
        for count in (1, 2, 4):
            before = len(server.requests_to("chat/completions"))
            workers = Workers(settings, count, pool="threads", STRATA_EXTRACTOR="llm", STRATA_EMBEDDER="hash",
                              STRATA_LLM_BASE_URL=server.base_url, STRATA_LLM_API_KEY="x", STRATA_LLM_MODEL="bench")
            group = f"bench-llm{count}-{uuid.uuid4().hex[:6]}"
            try:
                eps = msc_episodes(group, n)
                done, wall = run_job(graph, workers, lambda c, g=group, e=eps: submit_episodes(graph, c, g, e))
            finally:
                workers.stop()
                graph.query("MATCH (n {group_id: $g}) DETACH DELETE n", g=group)
            calls = len(server.requests_to("chat/completions")) - before
            out[f"workers_{count}"] = {"wall_s": round(wall, 1), "episodes_per_s": round(n / wall, 2),
                                       "done": done.done, "failed": done.failed,
                                       "llm_calls_per_episode": round(calls / n, 2)}
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", default="books,chat,llm")
    parser.add_argument("--chat-sessions", type=int, default=100)
    parser.add_argument("--llm-episodes", type=int, default=16)
    parser.add_argument("--books", default=",".join(BOOKS), help=f"of {', '.join(BOOKS)}")
    parser.add_argument("--env", action="append", default=[], metavar="KEY=VALUE",
                        help="a worker setting changed from its default (STRATA_PROSE_PASSAGE_VECTORS=false)")
    parser.add_argument("--label", default="books", help="key of the books figures in the results file")
    parser.add_argument("--out", type=Path, default=RESULTS, help="results file (figures merged into it)")
    args = parser.parse_args()
    settings = Settings()
    parts = set(args.only.split(","))
    result: dict[str, Any] = {"machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
                              "command": "python -m bench.bench_ingest " + " ".join(sys.argv[1:])}
    with Graph.from_settings(settings) as graph:
        apply_migrations(graph, settings.embedding_dim)
        env = dict(item.split("=", 1) for item in args.env)
        if "books" in parts:
            result[args.label] = bench_books(graph, settings, env, args.books.split(","))
        if "chat" in parts:  # --env applies here too (STRATA_EMBEDDER=bge-small)
            result["chat_msc"] = bench_chat(graph, settings, args.chat_sessions, env)
        if "llm" in parts:
            result["llm"] = bench_llm(graph, settings, args.llm_episodes)
    previous = json.loads(args.out.read_text()) if args.out.exists() else {}
    previous.update(result)
    args.out.write_text(json.dumps(previous, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
