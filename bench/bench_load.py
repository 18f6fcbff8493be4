"""Search under load as agents use it: concurrent clients over HTTP against one `strata serve`.

LoCoMo-style questions (the dev conversations' own) are sent by 1, 2 and 8 client threads (each its own HTTP
connection, one request after another) to ``GET /v1/groups/{g}/search?limit=20`` on a conversation group the
retrieval bench ingested, for a fixed time per level. Reports searches/s, p50/p95/p99 latency and non-200
answers per level; then (``--ingest``, default on) the same levels again while a `strata worker` ingests
another conversation through the API (its progress is reported beside the figures).

The API runs as `strata serve --workers N` (N = ``--processes``, default the shipped one: one per core) with
the shipped defaults otherwise; every loop is bounded in time and talks only to 127.0.0.1.

Run: .venv/bin/python -m bench.bench_load [--clients 1 2 8] [--seconds 20] [--processes 0] [--no-ingest]
Needs the groups of `python -m bench.bench_retrieval` (it ingests them when missing).
Writes bench/results/load.json.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from bench.bench_retrieval import group_of, sessions_done
from bench.bench_search import _free_port, _wait_ready
from bench.locomo import DEV, load_conversations
from strata.graph import Graph, apply_migrations
from strata.graph.bulk import delete_key, drop_group
from strata.graph.keys import create_key
from strata.schema.settings import Settings

RESULTS = Path(__file__).resolve().parent / "results" / "load.json"
GOAL = {"clients": 8, "searches_per_s": 60.0, "p95_ms": 150.0}
INGEST_GROUP = "bench-load-ingest"


def level(base: str, token: str, group: str, questions: list[str], clients: int, seconds: float) -> dict[str, Any]:
    """``clients`` threads, each asking in turn (its own slice of the questions) until the time is up."""
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    lock = threading.Lock()
    deadline = time.monotonic() + seconds

    def client(offset: int) -> None:
        mine: list[float] = []
        codes: dict[int, int] = {}
        headers = {"Authorization": f"Bearer {token}"}
        with httpx.Client(base_url=base, headers=headers, timeout=30) as http:
            for text in itertools.islice(itertools.cycle(questions), offset, None):
                if time.monotonic() >= deadline:
                    break
                started = time.perf_counter()
                try:
                    code = http.get(f"/v1/groups/{group}/search", params={"q": text, "limit": 20}).status_code
                except httpx.TransportError:
                    code = 0
                mine.append((time.perf_counter() - started) * 1000)
                codes[code] = codes.get(code, 0) + 1
        with lock:
            latencies.extend(mine)
            for code, n in codes.items():
                statuses[code] = statuses.get(code, 0) + n

    started = time.monotonic()
    threads = [threading.Thread(target=client, args=(k * 37,)) for k in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - started
    ordered = sorted(latencies)

    def pct(p: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(len(ordered) * p))], 1) if ordered else 0.0

    return {"clients": clients, "searches": len(ordered), "searches_per_s": round(len(ordered) / elapsed, 1),
            "p50_ms": pct(0.50), "p95_ms": pct(0.95), "p99_ms": pct(0.99),
            "errors": sum(n for code, n in statuses.items() if code != 200), "statuses": statuses}


def strata(*args: str, env: dict[str, str]) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", "from strata.api.cli import main; main()", *args], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, nargs="+", default=[1, 2, 8])
    parser.add_argument("--seconds", type=float, default=20.0, help="per level")
    parser.add_argument("--processes", type=int, default=None, help="API processes (default: the shipped one)")
    parser.add_argument("--no-ingest", dest="ingest", action="store_false")
    parser.add_argument("--data", type=Path, default=DEV)
    args = parser.parse_args()
    if not args.data.exists():
        sys.exit(f"no data at {args.data} (the LoCoMo dev file lives in ../shared beside the checkout)")
    conversations = load_conversations(args.data)
    target, feed = conversations[0], conversations[1]
    settings = Settings()
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    with Graph.from_settings(settings) as graph:
        apply_migrations(graph, settings.embedding_dim)
        if sessions_done(graph, group_of(target)) < len(target.sessions):
            subprocess.run([sys.executable, "-m", "bench.bench_retrieval", "--reuse", "--no-context"], check=True,
                           stdout=subprocess.DEVNULL)
        key = create_key(graph, [group_of(target), INGEST_GROUP], "rw", name="bench-load")
        port = _free_port()
        base = f"http://127.0.0.1:{port}"
        serve_args = ["serve", "--host", "127.0.0.1", "--port", str(port)]
        if args.processes is not None:
            serve_args += ["--workers", str(args.processes)]
        server = strata(*serve_args, env=env)
        worker = None
        try:
            with httpx.Client(base_url=base, headers={"Authorization": f"Bearer {key.token}"}, timeout=60) as http:
                _wait_ready(http, server, timeout_s=180)
                questions = [q.text for q in target.questions]
                level(base, key.token, group_of(target), questions, 2, 10.0)  # warm every process and Neo4j
                quiet = [level(base, key.token, group_of(target), questions, n, args.seconds) for n in args.clients]
                busy: list[dict[str, Any]] = []
                ingest: dict[str, Any] = {}
                if args.ingest:
                    drop_group(graph, INGEST_GROUP)
                    worker = strata("worker", env=env)
                    job = http.post(f"/v1/groups/{INGEST_GROUP}/episodes:batch",
                                    json={"episodes": feed.sessions}).json()["job_id"]
                    time.sleep(5.0)  # the worker has loaded its models and is extracting
                    before = http.get(f"/v1/jobs/{job}").json()
                    busy = [level(base, key.token, group_of(target), questions, n, args.seconds)
                            for n in args.clients]
                    after = http.get(f"/v1/jobs/{job}").json()
                    ingest = {"episodes": len(feed.sessions), "done_before": before.get("done"),
                              "done_after": after.get("done"), "status_after": after.get("status")}
        finally:
            stop(server)
            if worker is not None:
                stop(worker)
            delete_key(graph, key.key.id)
            drop_group(graph, INGEST_GROUP)
    processes = args.processes if args.processes is not None else (settings.api_workers or os.cpu_count())
    eight = next((x for x in quiet if x["clients"] == GOAL["clients"]), None)
    report = {"group": group_of(target), "api_processes": processes, "cpus": os.cpu_count(), "seconds": args.seconds,
              "quiet": quiet, "while_ingesting": busy, "ingest": ingest, "goal": GOAL,
              "goal_met": bool(eight) and eight["searches_per_s"] >= GOAL["searches_per_s"]
              and eight["p95_ms"] <= GOAL["p95_ms"] and eight["errors"] == 0}
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
