"""``bench_scale --phase ratios``: the search cost at two sizes in one run, and the ratios issue 32 sets goals on.

For each size (``--sizes``, 100k and 1M by default), smallest first, on the bench's own store (the separate
Neo4j on the scale ports; it is replaced, never the dev server):
1. first load into an empty database through ``neo4j-admin`` (bench/bench_import.py's path: CSV from the same
   generator, reused when ``--csv-dir`` holds them, the import, index population), then a restart as `strata
   services up` starts it (memory sized to the store); with ``--maintain`` the vector indexes rebuilt after;
2. quiet: searches in process as the service runs them (the query's vector given), after a warm-up pass:
   p50 / p95, and CPU per search of this process and of the Neo4j server;
3. with a worker ingesting chat sessions into another group: the same searches again;
4. 1, 2 and 8 clients over HTTP against `strata serve` (the quiet store again: the worker stopped);
5. with ``--population-buffer-mb``, the store restarted with that vector population buffer
   (``STRATA_NEO4J_VECTOR_POPULATION_BUFFER_MB``; 1 is Neo4j's own), its vector indexes rebuilt under it, and
   2-4 again (``rebuilt``, with ratios of their own): the segments' share of the cost, in the same run.
Then each 1M figure over its 100k one, beside the goal, and the load average of every step (shared cores).

  nice -n 10 .venv/bin/python -m bench.bench_scale --phase ratios --sizes 100000 1000000 --keep-csv \
      --population-buffer-mb 1 --label ratios_1m_s19_run2
(about 55 minutes on two quiet cores with the CSV files written first; docs/benchmarks.md, "The ratios in one
run")
"""

from __future__ import annotations

import argparse
import json
import shutil
import time
from typing import Any

from bench.bench_asks import cpu_s, neo4j_pid
from bench.bench_import import after_load, write_csv
from bench.bench_ingest import Workers, msc_episodes, warm_up
from bench.bench_scale import BESIDE, clients, embedder_for, graph_of, load_average, remove_chat
from bench.bench_search import queries, stats, timed
from strata.graph import Graph
from strata.graph.search import SearchQuery, search
from strata.ingest.embedders import make_embedder
from strata.ingest.submit import submit_episodes
from strata.memory.admin_load import first_load, rebuild_vectors
from strata.schema.settings import Settings
from strata.services.manager import ServicesManager

# The goals of issue 32, as "1M over 100k" ratios (cost: at most; throughput: at least).
RATIO_GOALS = {"p95_quiet": ("<=", 1.5), "p95_with_worker": ("<=", 1.5), "throughput_8_clients": (">=", 0.7),
               "neo4j_cpu_per_search": ("<=", 1.5)}
WARM_SEARCHES = 200


def run(graph: Graph, settings: Settings, args: argparse.Namespace) -> dict[str, Any]:
    graph.close()  # the store is replaced under it
    sizes: dict[str, Any] = {}
    for facts in sorted(args.sizes):
        sized = argparse.Namespace(**{**vars(args), "facts": facts})
        sizes[str(facts)] = one_size(settings, sized)
        print(json.dumps({facts: sizes[str(facts)]}, default=str), flush=True)  # kept if a later size fails
    small, large = (sizes[str(n)] for n in (min(args.sizes), max(args.sizes)))
    out = {"sizes": sizes, "ratios": ratios(small, large)}
    if args.population_buffer_mb is not None:
        out["ratios_rebuilt"] = ratios(small["rebuilt"], large["rebuilt"])
    return out


def one_size(settings: Settings, args: argparse.Namespace) -> dict[str, Any]:
    gen = graph_of(args)
    folder = args.csv_dir / f"{gen.group_id}-{gen.n_facts}"
    started = time.perf_counter()
    if (folder / "written.json").exists():
        written = {**json.loads((folder / "written.json").read_text()), "reused": True}
    else:
        written = write_csv(gen, folder, embedder_for(args, settings))
    imported = first_load(settings, folder, replace=True)
    out: dict[str, Any] = {"facts": gen.n_facts, "load": {**written, **imported.model_dump(),
                                                         "wall_s": round(time.perf_counter() - started, 1)}}
    out["after_load"] = after_load(settings, args)
    if not args.keep_csv:
        shutil.rmtree(folder, ignore_errors=True)
    if args.maintain:
        out["maintain"] = {**rebuild_vectors(settings).model_dump(), "load_average": load_average()}
    qs = queries(gen, WARM_SEARCHES + args.requests)
    vectors = make_embedder(settings).embed(qs)
    out.update(measured(settings, gen.group_id, qs, vectors, args))
    if args.population_buffer_mb is not None:
        out["rebuilt"] = rebuilt_with_buffer(settings, gen.group_id, qs, vectors, args)
    return out


def measured(settings: Settings, group: str, qs: list[str], vectors: list[list[float]],
             args: argparse.Namespace) -> dict[str, Any]:
    with Graph.from_settings(settings) as graph:
        return {"quiet": searches(graph, settings, group, qs, vectors),
                "with_worker": beside_worker(graph, settings, group, qs, vectors, args.beside_sessions),
                "clients": clients(graph, settings, group, qs[WARM_SEARCHES:], args.seconds),
                "load_average_clients": load_average()}


def rebuilt_with_buffer(settings: Settings, group: str, qs: list[str], vectors: list[list[float]],
                        args: argparse.Namespace) -> dict[str, Any]:
    """The same store restarted with another vector population buffer and its vector indexes rebuilt under it
    (a larger buffer: fewer, larger segments), then the same measurements."""
    other = settings.model_copy(update={"neo4j_vector_population_buffer_mb": args.population_buffer_mb})
    service = ServicesManager(other).neo4j
    service.stop()
    service.start()
    began = time.perf_counter()
    done = rebuild_vectors(other)
    rebuild = {**done.model_dump(), "wall_s": round(time.perf_counter() - began, 1),
               "population_buffer_mb": args.population_buffer_mb, "load_average": load_average()}
    return {"rebuild": rebuild, **measured(other, group, qs, vectors, args)}


def searches(graph: Graph, settings: Settings, group: str, qs: list[str],
             vectors: list[list[float]]) -> dict[str, Any]:
    """Warm-up pass, then the timed searches with CPU per search (this process, the Neo4j server)."""
    def one(i: int) -> None:
        search(graph, group, SearchQuery(q=qs[i]), embed=lambda _texts, v=vectors[i]: [v])

    for i in range(WARM_SEARCHES):
        one(i)
    pid = neo4j_pid(int(settings.neo4j_uri.rsplit(":", 1)[1]))
    neo_before, own_before = cpu_s(pid), time.process_time()
    samples = [timed(lambda i=i: one(i)) for i in range(WARM_SEARCHES, len(qs))]
    n = len(samples)
    return {**stats(samples), "neo4j_cpu_ms_per_search": round((cpu_s(pid) - neo_before) * 1000 / n, 2),
            "process_cpu_ms_per_search": round((time.process_time() - own_before) * 1000 / n, 2),
            "neo4j_pid_found": pid is not None, "load_average": load_average()}


def beside_worker(graph: Graph, settings: Settings, group: str, qs: list[str], vectors: list[list[float]],
                  sessions: int) -> dict[str, Any]:
    """The same searches while one worker process ingests chat sessions into another group."""
    remove_chat(graph, BESIDE)
    worker = Workers(settings, 1, STRATA_EXTRACTOR="spacy", STRATA_EMBEDDER="onnx-minilm",
                     STRATA_EMBEDDING_THREADS="1")
    try:
        warm_up(graph, worker, 1)
        submit_episodes(graph, worker.celery, BESIDE, msc_episodes(BESIDE, sessions))
        return searches(graph, settings, group, qs, vectors)
    finally:
        worker.stop()
        remove_chat(graph, BESIDE)


def throughput(level_rows: list[dict[str, Any]], n_clients: int) -> float | None:
    row = next((r for r in level_rows if r.get("clients") == n_clients), None)
    return None if row is None or row.get("errors") else row.get("searches_per_s")


def ratios(small: dict[str, Any], large: dict[str, Any]) -> dict[str, Any]:
    """Each large-size figure over the small one, with its goal and whether it is met."""
    pairs = {
        "p95_quiet": (small["quiet"]["p95_ms"], large["quiet"]["p95_ms"]),
        "p95_with_worker": (small["with_worker"]["p95_ms"], large["with_worker"]["p95_ms"]),
        "throughput_8_clients": (throughput(small["clients"], 8), throughput(large["clients"], 8)),
        "neo4j_cpu_per_search": (small["quiet"]["neo4j_cpu_ms_per_search"],
                                 large["quiet"]["neo4j_cpu_ms_per_search"]),
    }
    out: dict[str, Any] = {}
    for name, (a, b) in pairs.items():
        op, goal = RATIO_GOALS[name]
        ratio = round(b / a, 3) if a and b is not None else None
        met = None if ratio is None else (ratio <= goal if op == "<=" else ratio >= goal)
        out[name] = {"small": a, "large": b, "ratio": ratio, "goal": f"{op} {goal}", "met": met}
    return out
