"""``bench_scale --phase import``: the first load of a generated graph through ``neo4j-admin`` against the Cypher
bulk path, in one run on the same store, each into an empty database, with the time split (CSV writing, the
import, index population), the vector indexes' segments and a vector ask's latency after each; with
``--rebuild``, the vector indexes rebuilt after the Cypher load (``strata maintain``) and measured again.

It replaces the bench's store (the separate Neo4j on the scale ports, never the dev server): run it alone.
  nice -n 10 .venv/bin/python -m bench.bench_scale --phase import --facts 100000 --rebuild --label import_100k
  nice -n 10 .venv/bin/python -m bench.bench_scale --phase import --facts 1000000 --no-cypher --label import_1m
(``--csv-only`` writes the files and stops; ``--reuse-csv`` imports files written so, counting their writing time.)
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import time
from pathlib import Path
from typing import Any

from bench.bench_scale import CHANNEL_KINDS, embedder_for, graph_of, load_average, memory
from bench.bench_search import queries
from strata.graph import Graph, apply_migrations
from strata.graph.search import vector_channel
from strata.ingest.embedders import make_embedder
from strata.ingest.protocols import Embedder
from strata.ingest.testing.synthetic import Generated, load, write_import_files
from strata.memory.admin_load import first_load, rebuild_vectors
from strata.schema.settings import Settings
from strata.services.manager import ServicesManager


def run(graph: Graph, settings: Settings, args: argparse.Namespace) -> dict[str, Any]:
    gen = graph_of(args)
    embedder = embedder_for(args, settings)
    folder = args.csv_dir / f"{gen.group_id}-{gen.n_facts}"
    graph.close()  # the store is replaced under it
    out: dict[str, Any] = {"facts": gen.n_facts, "csv_dir": str(folder)}

    load_before, started = load_average(), time.perf_counter()
    if args.reuse_csv and (folder / "written.json").exists():  # files written beforehand (`--csv-only`)
        written = {**json.loads((folder / "written.json").read_text()), "csv_written_beforehand": True}
        csv_s = written["csv_seconds"]
    else:
        written = write_csv(gen, folder, embedder)
        csv_s = 0.0  # counted in the elapsed time below
    if args.csv_only:
        return {**out, "written": written}
    imported = first_load(settings, folder, replace=True)
    out["import_path"] = {**written, **imported.model_dump(), "csv_import_population_s":
                          round(time.perf_counter() - started + csv_s, 1), "load_average_before": load_before,
                          "load_average_after": load_average(), **after_load(settings, args)}
    if not args.keep_csv:
        shutil.rmtree(folder, ignore_errors=True)
    if args.no_cypher:
        return out

    empty_store(settings)
    with Graph.from_settings(settings) as fresh:
        apply_migrations(fresh, settings.embedding_dim)
        load_before, started = load_average(), time.perf_counter()
        report = load(fresh, gen, embedder)
        loaded = time.perf_counter()
        fresh.query("CALL db.awaitIndexes(7200)")
        done = time.perf_counter()
    out["cypher_path"] = {**report, "await_indexes_s": round(done - loaded, 1), "total_s": round(done - started, 1),
                          "load_average_before": load_before, "load_average_after": load_average(),
                          **after_load(settings, args)}
    out["import_over_cypher"] = round(out["import_path"]["csv_import_population_s"] / (done - started), 3)
    if args.rebuild:  # the maintenance step on the Cypher-loaded store, where small writes left many segments
        rebuilt = rebuild_vectors(settings)
        out["rebuild_after_cypher"] = {**rebuilt.model_dump(), "load_average": load_average(),
                                       "vector_asks": vector_asks(settings, args)}
    return out


def write_csv(gen: Generated, folder: Path, embedder: Embedder) -> dict[str, Any]:
    shutil.rmtree(folder, ignore_errors=True)
    written = {**write_import_files(gen, folder, embedder), "load_average_after_csv": load_average()}
    (folder / "written.json").write_text(json.dumps(written))
    return written


def after_load(settings: Settings, args: argparse.Namespace) -> dict[str, Any]:
    """Restarted as `strata services up` starts it (memory sized to the store), then segments and asks."""
    manager = ServicesManager(settings)
    manager.neo4j.stop()
    manager.neo4j.start()
    with Graph.from_settings(settings) as graph:
        ids = {r["name"]: r["id"] for r in graph.query("SHOW VECTOR INDEXES YIELD id, name RETURN id, name")}
        counts = graph.query("MATCH ()-[r:RELATES_TO]->() RETURN count(r) AS facts")[0]
    return {"vector_segments": manager.neo4j.vector_segments(ids), "memory_after_restart": memory(settings),
            "stored_facts": counts["facts"], "vector_asks": vector_asks(settings, args)}


def vector_asks(settings: Settings, args: argparse.Namespace, n: int = 40, warm: int = 10) -> dict[str, Any]:
    """One vector channel at a time (the index ask at search's depth for 10 hits, re-ranked as shipped), given
    the query's vector: p50 / p95 after a few warm-up asks."""
    qs = queries(graph_of(args), n + warm, seed=31)
    vectors = make_embedder(settings).embed(qs)
    out = {}
    with Graph.from_settings(settings) as graph:
        for kind in CHANNEL_KINDS:
            ms = []
            for i, v in enumerate(vectors):
                began = time.perf_counter()
                vector_channel(graph, args.group, kind, v, limit=10, depth=100)
                if i >= warm:
                    ms.append((time.perf_counter() - began) * 1000)
            ms.sort()
            out[kind] = {"p50_ms": round(statistics.median(ms), 1), "p95_ms": round(ms[int(0.95 * (len(ms) - 1))], 1)}
    out["load_average"] = load_average()
    return out


def empty_store(settings: Settings) -> None:
    """The bench's store deleted and started new, as a first `strata services up` starts it."""
    service = ServicesManager(settings).neo4j
    service.stop()
    for sub in ("databases", "transactions"):
        shutil.rmtree(service.home / "data" / sub, ignore_errors=True)
    service.start()
