"""Search latency and listing throughput on synthetic graphs of 10k and 100k facts.

For each size: load a ``bench-`` group (bench.generate_graph, vectors from the configured embedder: the
service's default, ONNX all-MiniLM-L6-v2, unless --embedder says otherwise), then
- hybrid search latency right after the load, then (unless --no-restart) after restarting the local Neo4j,
  which reopens the vector indexes: a bulk load leaves them 3-4x slower until then;
- hybrid search latency (p50/p95) in-process (``strata.graph.search.search``, the query embedded as the
  service does) and over HTTP (uvicorn in a subprocess on 127.0.0.1, httpx client, a read key for the group);
- the retrieval alone: the same searches given the query's vector, timed after them in a block of their own
  as the scans are, and the query embedding alone;
- the same queries answered by exact cosine scans instead of indexes: over every embedded item the search covers
  (facts, entities and passages ranked together, ``brute_force_scan``: the goal's ratio) and over the facts alone
  (``brute_force_fact_scan``, the fact vector channel's counterpart); the ratios to hybrid search (retrieval
  against scan, both given the query vector: the goal's ratio; and with the query's embedding added to both),
  and the recall@10 of the fact vector channel against the exact fact ranking;
- listing throughput: every fact of one predicate, paginating ``list_facts`` to the end (current facts, and
  with history).
The groups and the key are deleted afterwards. Needs `strata services up`; the figures in
docs/benchmarks.md are from a new database (`strata services down && rm -rf .services/neo4j/data &&
strata services up`), since deleted entries left in the vector indexes by earlier runs slow vector queries.

Run: .venv/bin/python -m bench.bench_search [--sizes 10000 100000] [--requests 200] [--scans 20]
     [--embedder onnx-minilm|hash]
Writes bench/results/search.json.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import httpx

from bench.generate_graph import add_embedder_option, settings_for
from strata.graph import Graph, apply_migrations
from strata.graph.bulk import delete_key, drop_group
from strata.graph.keys import create_key
from strata.graph.read import list_facts
from strata.graph.search import SearchQuery, brute_force_fact_scan, brute_force_scan, fact_vector_channel, search
from strata.ingest.embedders import make_embedder
from strata.ingest.protocols import Embedder
from strata.ingest.testing.synthetic import Generated, generate, load
from strata.memory.runtime import build_runtime
from strata.schema.settings import Settings
from strata.services.manager import ServicesManager

RESULTS = Path(__file__).resolve().parent / "results" / "search.json"
# Searches before timing, in batches of WARMUP_BATCH whose p50 is reported (`warmup_p50_ms`): the JVM compiles
# Neo4j's hot paths over the first ~2,500 searches after a start (p50 at 100k facts, batches of 200 after a
# restart: 21, 17, 16, 13, 11, 10, 11, 13, 12, 13, 10, 10, 9.6, 9.6, 9.7 ms). The timed searches measure the
# steady state of a running service; the first batch is what a freshly started one answers.
WARMUP = 3000
WARMUP_BATCH = 200
# The HTTP runs follow the in-process ones (Neo4j is warm): these warm the API process only.
HTTP_WARMUP = 500
GOAL = {"p95_ms_at_100k": 50.0, "speedup_vs_scan": 100.0}


def queries(gen: Generated, n: int, seed: int = 11) -> list[str]:
    """Questions a user would ask of this graph, about random people, organizations and places."""
    rng = random.Random(seed)
    def person() -> str:
        return gen.person(rng.randrange(gen.n_people)).name

    def org() -> str:
        return gen.org(rng.randrange(gen.n_orgs)).name

    def place() -> str:
        return gen.place(rng.randrange(gen.n_places)).name

    shapes: list[Callable[[], str]] = [
        lambda: f"where does {person()} work",
        lambda: f"who is the chief executive of {org()}",
        lambda: f"where does {person()} live",
        lambda: f"companies headquartered in {place()}",
        lambda: f"who knows {person()}",
        lambda: f"people born in {place()}",
        lambda: f"{org()} board members",
        lambda: f"{rng.choice(('engineer', 'analyst', 'chef', 'pilot'))} at {org()}",
    ]
    return [rng.choice(shapes)() for _ in range(n)]


def stats(samples_s: list[float]) -> dict:
    ms = sorted(s * 1000 for s in samples_s)
    q = statistics.quantiles(ms, n=100, method="inclusive") if len(ms) > 1 else ms * 99
    return {"n": len(ms), "p50_ms": round(q[49], 2), "p95_ms": round(q[94], 2),
            "mean_ms": round(statistics.fmean(ms), 2), "max_ms": round(ms[-1], 2)}


def timed(fn: Callable[[], object]) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


def in_process(graph: Graph, group: str, qs: list[str], embedder: Embedder,
               vectors: dict[str, list[float]]) -> tuple[dict, dict, float]:
    """Search as the service runs it (query embedded), then the retrieval alone (the query's vector given) on
    the same queries. Returns both and the mean number of hits."""
    hits: list[int] = []

    def one(text: str, given: bool = False) -> None:
        embed = (lambda _texts, v=vectors[text]: [v]) if given else embedder.embed
        hits.append(len(search(graph, group, SearchQuery(q=text), embed=embed).hits))

    curve = [stats([timed(lambda t=text: one(t)) for text in qs[start:start + WARMUP_BATCH]])["p50_ms"]
             for start in range(0, WARMUP, WARMUP_BATCH)]
    hits.clear()
    served = [timed(lambda t=text: one(t)) for text in qs[WARMUP:]]
    retrieval = [timed(lambda t=text: one(t, given=True)) for text in qs[WARMUP:]]
    return {**stats(served), "warmup_p50_ms": curve}, stats(retrieval), statistics.fmean(hits)


def over_http(settings: Settings, graph: Graph, group: str, qs: list[str]) -> dict:
    key = create_key(graph, [group], "r", name="bench-search")
    port = _free_port()
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    server = subprocess.Popen([sys.executable, "-m", "bench.bench_search", "--serve", str(port),
                               "--embedder", settings.embedder], env=env,
                              cwd=Path(__file__).resolve().parent.parent)
    try:
        base = f"http://127.0.0.1:{port}"
        with httpx.Client(base_url=base, headers={"Authorization": f"Bearer {key.token}"}, timeout=30) as http:
            _wait_ready(http, server)
            url = f"/v1/groups/{group}/search"
            for text in qs[WARMUP - HTTP_WARMUP:WARMUP]:
                http.get(url, params={"q": text}).raise_for_status()
            qs = qs[WARMUP:]
            statuses: dict[int, int] = {}

            def one(text: str) -> None:
                status = http.get(url, params={"q": text, "limit": 10}).status_code
                statuses[status] = statuses.get(status, 0) + 1

            samples = [timed(lambda t=text: one(t)) for text in qs]
        return {**stats(samples), "statuses": statuses}
    finally:
        server.terminate()
        server.wait(timeout=30)
        delete_key(graph, key.key.id)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_ready(http: httpx.Client, server: subprocess.Popen, timeout_s: float = 60.0) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the API server exited with {server.returncode}")
        try:
            if http.get("/healthz").status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise RuntimeError("the API server did not start")


def scan_vs_index(graph: Graph, group: str, qs: list[str], vectors: dict[str, list[float]]) -> dict:
    """Exact cosine scans per query (everything embedded; facts only), the fact vector channel on the same
    vector, and its recall@10 against the fact scan."""
    full, scans, channel, recall = [], [], [], []
    for text in qs:
        vec = vectors[text]
        full.append(timed(lambda v=vec: brute_force_scan(graph, group, v, limit=10)))
        exact: list[dict] = []
        scans.append(timed(lambda v=vec, out=exact: out.extend(brute_force_fact_scan(graph, group, v, limit=10))))
        found: list[dict] = []
        channel.append(timed(lambda v=vec, out=found: out.extend(fact_vector_channel(graph, group, v, limit=10))))
        want = {r["uuid"] for r in exact}
        recall.append(len(want & {r["uuid"] for r in found}) / max(len(want), 1))
    return {"scan_all_embedded": stats(full), "scan_facts": stats(scans), "vector_channel": stats(channel),
            "vector_recall_at_10": round(statistics.fmean(recall), 4)}


def listing(graph: Graph, group: str, predicate: str, include_history: bool) -> dict:
    started, cursor, seen, pages, count = time.perf_counter(), None, 0, 0, 0
    while True:
        page = list_facts(graph, group, predicate=predicate, include_history=include_history, cursor=cursor,
                          limit=1000)
        seen, pages, count, cursor = seen + len(page.items), pages + 1, page.count, page.next_cursor
        if not cursor:
            break
    elapsed = time.perf_counter() - started
    return {"predicate": predicate, "include_history": include_history, "facts": seen, "count": count,
            "complete": seen == count, "pages": pages, "seconds": round(elapsed, 3),
            "facts_per_second": round(seen / elapsed, 1)}


def run_size(settings: Settings, graph: Graph, embedder: Embedder, n_facts: int, n_requests: int, n_scans: int,
             restart: bool) -> dict:
    group = f"bench-search-{n_facts}"
    gen = generate(group, n_facts)
    # The group stays until every size is measured: deleting it first would leave its entries as deleted
    # documents in the shared vector index, which slows the next size's vector queries several times over.
    loaded = load(graph, gen, embedder)
    graph.query("CALL db.awaitIndexes(300)")
    qs = queries(gen, n_requests + WARMUP)
    vectors = dict(zip(qs, embedder.embed(qs), strict=True))
    embedding = stats([timed(lambda t=text: embedder.embed([t])) for text in qs[WARMUP:]])
    # The generated graph is this harness's memory, not the service's: keep it out of the collector's way.
    gc.collect()
    gc.freeze()
    served, retrieval, _ = in_process(graph, group, qs, embedder, vectors)
    just_loaded = {"search_in_process": served, "retrieval_in_process": retrieval,
                   "search_http": over_http(settings, graph, group, qs)}
    if restart:
        # Right after a bulk load the vector indexes answer 3-4x slower than the same files reopened.
        manager = ServicesManager(settings)
        manager.neo4j.stop()
        manager.neo4j.start()
    inproc, retrieval, mean_hits = in_process(graph, group, qs, embedder, vectors)
    http = over_http(settings, graph, group, qs)
    versus = scan_vs_index(graph, group, qs[WARMUP:WARMUP + n_scans], vectors)
    scan = versus["scan_all_embedded"]["p50_ms"]
    lists = [listing(graph, group, "works_for", False), listing(graph, group, "works_for", True)]
    return {"facts": n_facts, "load": loaded, "queries": n_requests, "mean_hits": round(mean_hits, 2),
            "right_after_load": just_loaded, "neo4j_restarted_after_load": restart,
            "search_in_process": inproc, "search_http": http, "retrieval_in_process": retrieval,
            "query_embedding": embedding, **versus,
            "speedup_p50_search_vs_scan": round(scan / retrieval["p50_ms"], 1),
            "speedup_p50_search_vs_scan_both_embedding": round((scan + embedding["p50_ms"]) / inproc["p50_ms"], 1),
            "speedup_p50_search_vs_fact_scan": round(versus["scan_facts"]["p50_ms"] / retrieval["p50_ms"], 1),
            "speedup_p50_vector_channel_vs_fact_scan": round(versus["scan_facts"]["p50_ms"]
                                                             / versus["vector_channel"]["p50_ms"], 1),
            "listing": lists}


def serve(port: int, embedder: str) -> None:
    """The API server of the HTTP measurement, on the embedder that embedded the data."""
    import uvicorn

    from strata.api.app import create_app
    from strata.memory import build_runtime

    settings = Settings(embedder=embedder)
    rt = build_runtime(settings)  # as the API's lifespan builds it, the search pool included
    uvicorn.run(create_app(settings, runtime=rt), host="127.0.0.1", port=port, log_level="warning",
                access_log=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--requests", type=int, default=200, help="timed searches per size and transport")
    parser.add_argument("--scans", type=int, default=20, help="brute-force scans per size")
    parser.add_argument("--no-restart", dest="restart", action="store_false",
                        help="do not restart the local Neo4j (`strata services`) between loading and measuring")
    add_embedder_option(parser)
    parser.add_argument("--serve", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    settings = settings_for(args)
    if args.serve:
        return serve(args.serve, settings.embedder)
    embedder = make_embedder(settings)
    with build_runtime(settings, embedder=False) as rt:  # the graph with its search pool, as in the API
        graph = rt.graph
        apply_migrations(graph, settings.embedding_dim)
        try:
            sizes = [run_size(settings, graph, embedder, n, args.requests, args.scans, args.restart)
                     for n in args.sizes]
        finally:
            for n in args.sizes:
                drop_group(graph, f"bench-search-{n}")
    largest = sizes[-1]
    report = {"embedder": f"{settings.embedder}-{settings.embedding_dim}", "cpus": os.cpu_count(), "goal": GOAL,
              "sizes": sizes,
              "goal_met": {"p95_ms_at_largest": largest["search_in_process"]["p95_ms"] <= GOAL["p95_ms_at_100k"],
                           "speedup_vs_scan": largest["speedup_p50_search_vs_scan"] >= GOAL["speedup_vs_scan"]}}
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
