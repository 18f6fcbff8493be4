"""A million facts on one machine: bulk load, search (in process, over HTTP, 8 clients) while a worker ingests
chat episodes beside it, ingestion rates beside it and into it against an empty database, the vector channels'
recall@10 against the exact ranking, memory settings and store size.

Phases, each run on its own (``--phase``) and merged into bench/results/scale.json, since a run at 1M takes the
better part of an hour and the database is meant to be new (deleted vector index entries slow the indexes):
- ``baseline``: chat ingestion (MSC sessions, 2 worker processes, spaCy + ONNX) into an empty database;
- ``load``: the generated graph (strata.ingest.testing.synthetic) bulk-loaded into ``--group``, then Neo4j restarted so
  `strata services up` sizes its memory to the new store (and the vector indexes reopen: a bulk load leaves
  them slow until then); records the load time, the memory plan and the store sizes;
- ``search``: while one worker process ingests chat sessions into another group: searches in process and over
  HTTP (bench.bench_search) and 8 concurrent HTTP clients on `strata serve` (bench.bench_load);
- ``ingest``: the baseline's ingestion into a new group beside the large one, then into the large group itself;
- ``recall``: each vector channel (facts, entities, passages) through its index against the exact cosine
  ranking of the group's items, at several index depths, with the index's order and with the candidates
  re-ranked by their exact cosine. With ``--vectors cache`` the exact ranking is computed from the cached
  vectors (numpy; the Cypher scan takes about a minute a query at 1M facts), checked against the Cypher scan
  on the first ``--truth-checks`` queries;
- ``import``: the first load through ``neo4j-admin`` against the Cypher bulk path, each into an empty database
  (bench/bench_import.py; it replaces the store), with ``--rebuild`` the vector indexes rebuilt after;
- ``ratios``: the search cost at two sizes in one run (bench/bench_ratios.py): first load of each through
  ``neo4j-admin``, searches quiet and beside a worker with CPU per search, 8 clients, and the 1M / 100k ratios;
- ``hnsw``: one kind's vector index built again with other HNSW settings (``--hnsw-m``,
  ``--hnsw-ef-construction``, ``--no-quantization``): its population time, recall and latency by depth.
Vectors: ``--vectors hash`` (the deterministic HashEmbedder, fast), or ``cache`` (ONNX MiniLM vectors computed
beforehand by bench.vector_cache; ``--max-facts`` loads the first facts of the cached graph when the cache is
not complete). Every timed phase records the 1-minute load average beside its figures (shared cores).

Run (a separate local Neo4j and Redis on other ports, from `strata services up` with the STRATA_*_PORT settings):
  .venv/bin/python -m bench.bench_scale --phase baseline
  .venv/bin/python -m bench.bench_scale --phase load --facts 1000000 --vectors hash
  .venv/bin/python -m bench.bench_scale --phase search --facts 1000000 --vectors hash
  .venv/bin/python -m bench.bench_scale --phase ingest --facts 1000000
  .venv/bin/python -m bench.bench_scale --phase recall --facts 1000000 --vectors cache --max-facts 400000
  .venv/bin/python -m bench.bench_scale --phase hnsw --facts 1000000 --vectors cache --kind entity --hnsw-m 32
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import json
import os
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import redis

from bench import vector_cache
from bench.bench_ingest import Workers, msc_episodes, wait_done, warm_up
from bench.bench_load import level, stop, strata
from bench.bench_search import WARMUP, _free_port, _wait_ready, in_process, over_http, queries, stats
from bench.vector_cache import GROUP as CACHE_GROUP
from bench.vector_cache import CachedEmbedder
from strata.graph import Graph, apply_migrations
from strata.graph.bulk import delete_key
from strata.graph.keys import create_key
from strata.graph.search import exact_channel, vector_channel
from strata.ingest.embedders import HashEmbedder, make_embedder
from strata.ingest.protocols import Embedder
from strata.ingest.submit import submit_episodes
from strata.ingest.testing.synthetic import FACTS_PER_EPISODE, Generated, generate, load
from strata.schema import ids
from strata.schema.settings import Settings
from strata.services.manager import ServicesManager
from strata.services.memory import format_size

RESULTS = Path(__file__).resolve().parent / "results" / "scale.json"
GOAL = {"p95_ms_in_process": 50.0, "p95_ms_http": 60.0, "clients": 8, "searches_per_s": 60.0,
        "p95_ms_clients": 150.0, "ingest_ratio_vs_empty": 1.2, "recall_at_10": 0.95, "load_seconds": 300.0}
BESIDE = "bench-scale-beside"
CHANNEL_KINDS = ("fact", "entity", "passage")


def load_average() -> float:
    return round(os.getloadavg()[0], 2)


def settings_for(vectors: str) -> Settings:
    # Cached vectors are MiniLM's: queries are embedded by the same model.
    return Settings(embedder="hash" if vectors == "hash" else "onnx-minilm")


def graph_of(args: argparse.Namespace) -> Generated:
    if args.vectors == "cache":  # the cached texts: the graph the cache was built from, cut to --max-facts
        gen = generate(CACHE_GROUP, args.facts)
        return dataclasses.replace(gen, group_id=args.group, n_facts=min(args.max_facts or args.facts, args.facts))
    return generate(args.group, args.facts)


def embedder_for(args: argparse.Namespace, settings: Settings) -> Embedder:
    if args.vectors == "hash":
        return make_embedder(settings)
    # Texts the cache does not hold (episodes of a cache stopped early) get hash vectors: said in the results.
    return CachedEmbedder(generate(CACHE_GROUP, args.facts), args.cache_dir, HashEmbedder(settings.embedding_dim))


def chat(graph: Graph, settings: Settings, group: str, sessions: int, processes: int = 2) -> dict[str, Any]:
    """MSC sessions through fresh workers (warmed first): wall time from submit to done."""
    workers = Workers(settings, processes, STRATA_EXTRACTOR="spacy", STRATA_EMBEDDER="onnx-minilm",
                      STRATA_EMBEDDING_THREADS="1")
    try:
        warm_up(graph, workers, processes)
        load_before = load_average()
        started = time.perf_counter()
        info = submit_episodes(graph, workers.celery, group, msc_episodes(group, sessions))
        done = wait_done(graph, info.uuid)
        wall = time.perf_counter() - started
    finally:
        workers.stop()
    return {"group": group, "sessions": sessions, "done": done.done, "failed": done.failed, "facts": done.facts,
            "wall_s": round(wall, 1), "episodes_per_s": round(sessions / wall, 3), **episode_times(graph, info.uuid),
            "load_average_before": load_before, "load_average_after": load_average()}


def episode_times(graph: Graph, job: str) -> dict[str, Any]:
    """Per episode, the extraction and the commit (resolution and the write, under the group lock): the commit
    is what could grow with the graph; both move with the load on the shared cores."""
    rows = graph.query("MATCH (ep:Episode {job_uuid: $job}) RETURN ep.extract_ms AS extract, ep.commit_ms AS commit",
                       job=job)
    out = {}
    for part in ("extract", "commit"):
        values = [r[part] for r in rows if r[part] is not None]
        if values:
            out[f"{part}_ms"] = {"p50": round(statistics.median(values), 1), "mean": round(statistics.fmean(values), 1),
                                 "episodes": len(values)}
    return out


def finished_job(graph: Graph, job: str) -> dict[str, Any]:
    """A chat job measured from the graph (created to last commit), for a run whose harness stopped after it."""
    row = graph.query("MATCH (j:Job {uuid: $job}) MATCH (ep:Episode {job_uuid: $job}) "
                      "WITH j, count(ep) AS sessions, sum(ep.fact_count) AS facts, max(ep.committed_at) AS last "
                      "RETURN j.group_id AS group, sessions, facts, "
                      "duration.inSeconds(j.created_at, last).milliseconds / 1000.0 AS wall_s", job=job)[0]
    return {**row, "episodes_per_s": round(row["sessions"] / row["wall_s"], 3), **episode_times(graph, job),
            "measured_from": "the graph: job created_at to the last committed_at"}


def remove_chat(graph: Graph, group: str) -> None:
    graph.query("MATCH (n {group_id: $g}) DETACH DELETE n", g=group)


def phase_baseline(graph: Graph, settings: Settings, args: argparse.Namespace) -> dict[str, Any]:
    group = "bench-scale-empty"
    if args.job:
        out = finished_job(graph, args.job)
        remove_chat(graph, group)
        return out
    remove_chat(graph, group)
    out = chat(graph, settings, group, args.sessions)
    remove_chat(graph, group)
    return out


def memory(settings: Settings) -> dict[str, Any]:
    neo4j = ServicesManager(settings).neo4j
    started = neo4j.started_with()
    sizes = neo4j.sizes()
    return {"started_with": started.model_dump() if started else None,
            "store": format_size(sizes.store_bytes), "vector_indexes": format_size(sizes.vector_bytes),
            "fulltext_indexes": format_size(sizes.fulltext_bytes), "store_bytes": sizes.store_bytes,
            "vector_bytes": sizes.vector_bytes, "fulltext_bytes": sizes.fulltext_bytes}


def vector_segments(graph: Graph, settings: Settings) -> dict[str, int]:
    """Lucene segments of each vector index (a query searches every segment's HNSW graph): its folder's ``.si``
    files, the folder named by the index's id."""
    home = ServicesManager(settings).neo4j.databases / "neo4j" / "schema" / "index"
    ids_by_name = {r["name"]: r["id"] for r in graph.query("SHOW VECTOR INDEXES YIELD id, name RETURN id, name")}
    return {name: sum(1 for _ in home.glob(f"vector-*/{index_id}/**/*.si")) for name, index_id in ids_by_name.items()}


def phase_load(graph: Graph, settings: Settings, args: argparse.Namespace) -> dict[str, Any]:
    gen = graph_of(args)
    embedder = embedder_for(args, settings)
    load_before = load_average()
    report = load(graph, gen, embedder)
    started = time.perf_counter()
    graph.query("CALL db.awaitIndexes(3600)")
    report["await_indexes_s"] = round(time.perf_counter() - started, 1)
    report["load_average_before"], report["load_average_after"] = load_before, load_average()
    report["memory_during_load"] = memory(settings)
    if isinstance(embedder, CachedEmbedder):
        report["texts_not_cached"] = embedder.missed
    return {**report, **phase_restart(graph, settings, args)}


def phase_restart(graph: Graph, settings: Settings, args: argparse.Namespace) -> dict[str, Any]:
    """Neo4j restarted as `strata services up` starts it: memory sized again to the store; what the group holds."""
    manager = ServicesManager(settings)
    manager.neo4j.stop()
    manager.neo4j.start()
    counts = graph.query("MATCH ()-[r:RELATES_TO {group_id: $g}]->() WITH count(r) AS facts "
                         "MATCH (e:Entity {group_id: $g}) WITH facts, count(e) AS entities "
                         "MATCH (ep:Episode {group_id: $g}) RETURN facts, entities, count(ep) AS episodes",
                         g=args.group)
    return {"memory_after_restart": memory(settings), "vector_segments": vector_segments(graph, settings),
            "group_counts": counts[0]}


def phase_search(graph: Graph, settings: Settings, args: argparse.Namespace) -> dict[str, Any]:
    gen = graph_of(args)
    embedder = make_embedder(settings)
    qs = queries(gen, args.requests + WARMUP)
    vectors = dict(zip(qs, embedder.embed(qs), strict=True))
    remove_chat(graph, BESIDE)
    worker = Workers(settings, 1, STRATA_EXTRACTOR="spacy", STRATA_EMBEDDER="onnx-minilm",
                     STRATA_EMBEDDING_THREADS="1")
    out: dict[str, Any] = {"facts": gen.n_facts, "queries": args.requests,
                           "vector_segments": vector_segments(graph, settings)}
    try:
        warm_up(graph, worker, 1)
        job = submit_episodes(graph, worker.celery, BESIDE, msc_episodes(BESIDE, args.beside_sessions))
        out["broker"] = broker_memory(settings, worker.queue)
        out["load_average_before"] = load_average()
        served, retrieval, hits = in_process(graph, args.group, qs, embedder, vectors)
        out.update(search_in_process=served, retrieval_in_process=retrieval, mean_hits=round(hits, 2),
                   load_average_in_process=load_average())
        out["search_http"] = over_http(settings, graph, args.group, qs)
        out["load_average_http"] = load_average()
        out["clients"] = clients(graph, settings, args.group, qs[WARMUP:], args.seconds)
        out["load_average_clients"] = load_average()
        info = wait_done(graph, job.uuid, timeout_s=1)
        out["beside_ingestion"] = {"group": BESIDE, "sessions": args.beside_sessions, "done_during": info.done,
                                   "status": info.status}
    finally:
        worker.stop()
        remove_chat(graph, BESIDE)
    return out


def broker_memory(settings: Settings, queue: str) -> dict[str, Any]:
    """What the waiting tasks of one queue hold in Redis (one message per episode, its uuid and Celery's
    headers), for the arithmetic of docs/scaling.md."""
    client = redis.Redis.from_url(settings.redis_url)
    waiting, used = client.llen(queue), client.memory_usage(queue) or 0
    return {"queue": queue, "waiting_tasks": waiting, "queue_bytes": used,
            "bytes_per_task": round(used / waiting) if waiting else None,
            "redis_used_memory": client.info("memory")["used_memory"]}


def clients(graph: Graph, settings: Settings, group: str, questions: list[str], seconds: float) -> list[dict]:
    """1, 2 and 8 clients over HTTP against `strata serve` (one API process per core, shipped defaults)."""
    key = create_key(graph, [group], "r", name="bench-scale")
    port = _free_port()
    # No rescoring, as the in-process searches run: a generated group holds no rescoring vectors, so each
    # search would embed its candidates with bge-small and store them first (one client at 100k: 11.6 s p50).
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "STRATA_EMBEDDER": settings.embedder,
           "STRATA_RESCORE_EMBEDDER": "none"}
    server = strata("serve", "--host", "127.0.0.1", "--port", str(port), env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(base_url=base, timeout=60) as http:
            _wait_ready(http, server, timeout_s=180)
        warm = level(base, key.token, group, questions, 2, 15.0)  # warm every API process
        if warm["errors"]:  # a throughput of refusals would read as a fast server
            raise RuntimeError(f"`strata serve` answered {warm['statuses']} while warming up")
        return [level(base, key.token, group, questions, n, seconds) for n in (1, 2, 8)]
    finally:
        stop(server)
        delete_key(graph, key.key.id)


def phase_ingest(graph: Graph, settings: Settings, args: argparse.Namespace) -> dict[str, Any]:
    beside = chat(graph, settings, BESIDE, args.sessions)
    remove_chat(graph, BESIDE)
    # Into the large group itself: its episodes are removed afterwards by their uuids (the group is kept).
    itself = chat(graph, settings, args.group, args.sessions)
    # and their job (chat episodes have no source name; an episode or job left behind answers the same
    # sessions at once the next time)
    graph.query("MATCH (ep:Episode {group_id: $g}) WHERE coalesce(ep.source_name, '') <> 'bench-gen' "
                "OPTIONAL MATCH (ep)-[:HAS_PASSAGE]->(p) DETACH DELETE p, ep", g=args.group)
    graph.query("MATCH (j:Job {group_id: $g}) DETACH DELETE j", g=args.group)
    return {"beside": beside, "into_large_group": itself}


def phase_recall(graph: Graph, settings: Settings, args: argparse.Namespace) -> dict[str, Any]:
    """recall@10 of each vector channel against the exact ranking of the group's own items, by index depth:
    ``index_order`` with the candidates in the index's order (its quantized score), ``reranked`` ordered by their
    exact cosine (``STRATA_VECTOR_RERANK``)."""
    gen = graph_of(args)
    embedder = make_embedder(settings)
    qs = queries(gen, args.recall_queries, seed=23)
    vectors = embedder.embed(qs)
    out: dict[str, Any] = {"queries": len(qs), "load_average_before": load_average(), "channels": {}}
    cached = CachedTruth(gen, args.facts, args.cache_dir) if args.vectors == "cache" else None
    for kind in CHANNEL_KINDS:
        exact_ms, truth = [], []
        for v in vectors:
            started = time.perf_counter()
            truth.append(cached.top(kind, v) if cached else exact_uuids(graph, args.group, kind, v))
            exact_ms.append(time.perf_counter() - started)
        if cached:  # the cache's ranking is the graph's: checked against the Cypher scan on the first queries
            out.setdefault("truth_checked", {})[kind] = cached.check(graph, args.group, kind, vectors,
                                                                    truth, args.truth_checks)
        out["channels"][kind] = {"exact_scan": _ms(stats(exact_ms)),
                                 "by_depth": channel_recall(graph, args.group, kind, vectors, truth, args.depths)}
    out["load_average_after"] = load_average()
    out["hnsw"], out["vector_segments"] = hnsw(graph), vector_segments(graph, settings)
    return out


def channel_recall(graph: Graph, group: str, kind: str, vectors: list[list[float]], truth: list[set[str]],
                   depths: list[int]) -> dict[str, Any]:
    """recall@10 and latency of one vector channel at each depth, in the index's order and re-ranked."""
    by_depth = {}
    for depth in depths:
        for rerank in (False, True):
            recall, ms = [], []
            for v, want in zip(vectors, truth, strict=True):
                started = time.perf_counter()
                hits = vector_channel(graph, group, kind, v, limit=10, depth=depth, rerank=rerank)
                ms.append(time.perf_counter() - started)
                recall.append(len({h["uuid"] for h in hits} & want) / max(len(want), 1))
            by_depth[f"{depth}_{'reranked' if rerank else 'index_order'}"] = {
                "recall_at_10": round(statistics.fmean(recall), 4), **_ms(stats(ms))}
    return by_depth


INDEX_OF_KIND = {"fact": "fact_embedding", "entity": "entity_name_embedding", "passage": "passage_context_embedding"}
IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def phase_hnsw(graph: Graph, settings: Settings, args: argparse.Namespace) -> dict[str, Any]:
    """What other HNSW settings cost and give: one kind's vector index dropped and built again over the items
    the store holds with ``--hnsw-m`` / ``--hnsw-ef-construction`` / ``--no-quantization`` (population time),
    then that channel's recall@10 and latency by depth, as ``recall`` measures them. Run it again with
    Neo4j's defaults (16, 100, quantized) to put the index back, and to time the same population with them."""
    kind = args.kind
    (row,) = graph.query("SHOW VECTOR INDEXES YIELD name, entityType, labelsOrTypes, properties, options "
                         "WHERE name = $name RETURN entityType, labelsOrTypes[0] AS token, properties[0] AS prop, "
                         "options.indexConfig AS config", name=INDEX_OF_KIND[kind])
    name, token, prop = INDEX_OF_KIND[kind], row["token"], row["prop"]
    if not all(IDENTIFIER.match(x) for x in (name, token, prop)):  # index DDL takes no parameters for names
        raise ValueError(f"unexpected index definition {row}")
    pattern = f"(n:{token})" if row["entityType"] == "NODE" else f"()-[n:{token}]-()"
    config = {"vector.dimensions": row["config"]["vector.dimensions"],
              "vector.similarity_function": row["config"]["vector.similarity_function"],
              "vector.hnsw.m": args.hnsw_m, "vector.hnsw.ef_construction": args.hnsw_ef_construction,
              "vector.quantization.enabled": not args.no_quantization}
    graph.query(f"DROP INDEX {name}")
    started = time.perf_counter()
    graph.query(f"CREATE VECTOR INDEX {name} FOR {pattern} ON (n.{prop}) OPTIONS {{indexConfig: $config}}",
                config=config)
    graph.query("CALL db.awaitIndexes(7200)")
    populated_s = time.perf_counter() - started
    gen = graph_of(args)
    qs = queries(gen, args.recall_queries, seed=23)
    vectors = make_embedder(settings).embed(qs)
    cached = CachedTruth(gen, args.facts, args.cache_dir) if args.vectors == "cache" else None
    truth = [cached.top(kind, v) if cached else exact_uuids(graph, args.group, kind, v) for v in vectors]
    return {"kind": kind, "index": name, "config": hnsw(graph)[name], "population_s": round(populated_s, 1),
            "queries": len(qs), "load_average": load_average(), "segments": vector_segments(graph, settings)[name],
            "by_depth": channel_recall(graph, args.group, kind, vectors, truth, args.depths)}


def exact_uuids(graph: Graph, group: str, kind: str, vector: list[float], k: int = 10) -> set[str]:
    return {r["uuid"] for r in exact_channel(graph, group, kind, vector, k)}


class CachedTruth:
    """The exact top 10 of a vector channel computed from the cached vectors the group was loaded with (numpy,
    a few ms), where the Cypher scan (``exact_channel``) takes about a minute a query at 1M facts. Rows are in
    ``bench.vector_cache.texts`` order: entity names, fact sentences, episode contents (one passage each)."""

    def __init__(self, gen: Generated, planned_facts: int, cache_dir: Path) -> None:
        matrix = np.load(vector_cache.paths(cache_dir, planned_facts, gen.seed)[0], mmap_mode="r")
        entities, facts, episodes = gen.n_entities, gen.n_facts, -(-gen.n_facts // FACTS_PER_EPISODE)
        first_episode = entities + planned_facts  # the cache holds every planned fact before the episodes
        self.rows = {"entity": np.asarray(matrix[:entities]), "fact": np.asarray(matrix[entities:entities + facts]),
                     "passage": np.asarray(matrix[first_episode:first_episode + episodes])}
        self.uuids = {"entity": [e.uuid for e in gen.entities()],
                      "fact": [f.uuid for f in itertools.islice(gen.facts(), facts)],
                      "passage": [ids.stable_uuid("bench-passage", ids.stable_uuid("bench-episode", gen.group_id, seq))
                                  for seq in range(episodes)]}
        self.norms = {kind: np.linalg.norm(rows, axis=1) for kind, rows in self.rows.items()}

    def top(self, kind: str, vector: list[float], k: int = 10) -> set[str]:
        q = np.asarray(vector, dtype=np.float32)
        scores = (self.rows[kind] @ q) / (self.norms[kind] * np.linalg.norm(q) + 1e-12)
        best = np.argpartition(-scores, k)[:k]
        return {self.uuids[kind][i] for i in best}

    def check(self, graph: Graph, group: str, kind: str, vectors: list[list[float]], truth: list[set[str]],
              n: int) -> dict[str, Any]:
        same = [exact_uuids(graph, group, kind, v) == want for v, want in zip(vectors[:n], truth[:n], strict=True)]
        return {"queries": len(same), "same_top_10": sum(same)}


def _ms(s: dict) -> dict:
    return {"p50_ms": s["p50_ms"], "p95_ms": s["p95_ms"]}


def hnsw(graph: Graph) -> dict[str, Any]:
    rows = graph.query("SHOW VECTOR INDEXES YIELD name, options RETURN name, options.indexConfig AS config")
    return {r["name"]: {k: v for k, v in r["config"].items() if k.startswith("vector.")} for r in rows}


def phase_import(graph: Graph, settings: Settings, args: argparse.Namespace) -> dict[str, Any]:
    """First load through neo4j-admin against the Cypher bulk path (bench/bench_import.py)."""
    from bench.bench_import import run  # it uses this module's helpers

    return run(graph, settings, args)


def phase_ratios(graph: Graph, settings: Settings, args: argparse.Namespace) -> dict[str, Any]:
    """The search cost at 100k and 1M in one run, and their ratios (bench/bench_ratios.py)."""
    from bench.bench_ratios import run  # it uses this module's helpers

    return run(graph, settings, args)


PHASES = {"baseline": phase_baseline, "load": phase_load, "restart": phase_restart, "search": phase_search,
          "ingest": phase_ingest, "recall": phase_recall, "hnsw": phase_hnsw, "import": phase_import,
          "ratios": phase_ratios}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phase", choices=list(PHASES), required=True)
    parser.add_argument("--facts", type=int, default=1_000_000)
    parser.add_argument("--group", default="bench-scale")
    parser.add_argument("--vectors", choices=("hash", "cache"), default="hash")
    parser.add_argument("--cache-dir", type=Path, default=Path("/work/scale-cache"))
    parser.add_argument("--max-facts", type=int, default=None, help="load the cached graph's first facts only")
    parser.add_argument("--sessions", type=int, default=40, help="MSC sessions per ingestion measurement")
    parser.add_argument("--beside-sessions", type=int, default=300, help="sessions the worker ingests beside")
    parser.add_argument("--requests", type=int, default=300, help="timed searches per transport")
    parser.add_argument("--seconds", type=float, default=20.0, help="per level of concurrent clients")
    parser.add_argument("--recall-queries", type=int, default=100)
    parser.add_argument("--truth-checks", type=int, default=3,
                        help="recall with --vectors cache: queries whose cached top 10 is checked by the Cypher scan")
    parser.add_argument("--depths", type=int, nargs="+", default=[100, 200, 500, 1000])
    parser.add_argument("--kind", choices=CHANNEL_KINDS, default="entity", help="hnsw: the index to rebuild")
    parser.add_argument("--hnsw-m", type=int, default=16)
    parser.add_argument("--hnsw-ef-construction", type=int, default=100)
    parser.add_argument("--no-quantization", action="store_true")
    parser.add_argument("--csv-dir", type=Path, default=Path("/work/scale-csv"), help="import: files go here")
    parser.add_argument("--keep-csv", action="store_true", help="import: keep the files afterwards")
    parser.add_argument("--no-cypher", action="store_true", help="import: the import path only")
    parser.add_argument("--csv-only", action="store_true", help="import: write the files, import nothing")
    parser.add_argument("--reuse-csv", action="store_true", help="import: files from --csv-only, if there")
    parser.add_argument("--rebuild", action="store_true",
                        help="import: rebuild the vector indexes after the Cypher load (strata maintain), measured")
    parser.add_argument("--job", default=None, help="baseline: record this finished job instead of running one")
    parser.add_argument("--label", default=None, help="the key the phase's results are stored under")
    parser.add_argument("--sizes", type=int, nargs="+", default=[100_000, 1_000_000],
                        help="ratios: the sizes measured in one run (facts)")
    parser.add_argument("--maintain", action="store_true",
                        help="ratios: rebuild the vector indexes after each load (strata maintain)")
    parser.add_argument("--population-buffer-mb", type=float, default=None,
                        help="ratios: then rebuild the vector indexes under this population buffer (MB; 1 is "
                        "Neo4j's own) and measure again")
    args = parser.parse_args()
    settings = settings_for(args.vectors)
    with Graph.from_settings(settings) as graph:
        apply_migrations(graph, settings.embedding_dim)
        result = PHASES[args.phase](graph, settings, args)
    result = {"vectors": args.vectors, "cpus": os.cpu_count(), "neo4j_uri": settings.neo4j_uri, **result}
    report = json.loads(RESULTS.read_text()) if RESULTS.exists() else {"goal": GOAL}
    report[args.label or args.phase] = result
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(report, indent=2, default=str) + "\n")
    print(json.dumps(result, indent=2, default=str))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
