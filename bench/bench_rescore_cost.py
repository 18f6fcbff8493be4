"""What the rescoring stage costs, A/B in the same conditions inside one process.

``search``: every other LoCoMo dev question searched with and without the stage, in turn (which goes first
alternates), no query cache; p50/p95 of each. Needs the groups ``bench.bench_retrieval`` ingested.
``ingest``: MSC chat sessions through three pipelines (MiniLM, bge-small stored, MiniLM + bge-small rescoring)
interleaved episode by episode; the CPU time of this process for each (extraction, embedding, planning; Neo4j's
own work is not counted, and is alike for the three), the first episode (model loading) left out.

Run: .venv/bin/python -m bench.bench_rescore_cost search|ingest [--group-prefix P] [--sessions 31]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

from bench.bench_ingest import msc_episodes
from bench.bench_retrieval import GROUP_PREFIX, group_of
from bench.locomo import DEV, load_conversations
from strata.graph import Graph
from strata.graph.bulk import drop_group
from strata.graph.ranking import RESCORING, RankWeights
from strata.graph.rescore import Rescorer
from strata.graph.search import SearchQuery, search
from strata.ingest.embedders import QueryCache, make_bge_small, make_embedder, query_mode
from strata.ingest.runtime import POOL_THREADS
from strata.ingest.tasks import build_pipeline
from strata.schema.settings import Settings


def _summary(ms: list[float]) -> dict[str, float]:
    ms = sorted(ms)
    return {"p50": round(statistics.median(ms), 1), "p95": round(ms[int(len(ms) * 0.95)], 1), "n": len(ms)}


def search_cost(settings: Settings) -> dict:
    embed = query_mode(make_embedder(settings.model_copy(update={"embedder": "onnx-minilm"}), for_queries=True))
    bge = make_bge_small(settings, for_queries=True)
    rescorer = Rescorer("bge-small", bge.embed, QueryCache(bge.embed_queries, 0), settings.rescore_depth)
    asked = [(group_of(c), q.text) for c in load_conversations(DEV) for q in c.questions]
    times: dict[str, list[float]] = {"off": [], "on": []}
    with Graph.from_settings(settings, pool=ThreadPoolExecutor(POOL_THREADS)) as graph:
        for group, text in asked[:20]:  # warm-up
            search(graph, group, SearchQuery(q=text, limit=20), embed=embed)
        for k, (group, text) in enumerate(asked[::2]):
            for mode in (("off", "on") if k % 2 == 0 else ("on", "off")):
                started = time.perf_counter()
                if mode == "off":
                    search(graph, group, SearchQuery(q=text, limit=20), embed=embed, weights=RankWeights())
                else:
                    search(graph, group, SearchQuery(q=text, limit=20), embed=embed, weights=RESCORING,
                           rescorer=rescorer)
                times[mode].append((time.perf_counter() - started) * 1000)
    return {mode: _summary(ms) for mode, ms in times.items()}


def ingest_cost(settings: Settings, sessions: int) -> dict:
    variants = {"minilm": {"embedder": "onnx-minilm", "rescore_embedder": "none"},
                "bge-small": {"embedder": "bge-small", "rescore_embedder": "none"},
                "minilm+rescore": {"embedder": "onnx-minilm", "rescore_embedder": "bge-small"}}
    cpu: dict[str, float] = dict.fromkeys(variants, 0.0)
    with Graph.from_settings(settings) as graph:
        pipes = {v: build_pipeline(settings.model_copy(update={**u, "embedding_threads": 1}), graph)
                 for v, u in variants.items()}
        groups = {v: f"bench-cost-{k}-{uuid.uuid4().hex[:6]}" for k, v in enumerate(variants)}
        episodes = {v: msc_episodes(groups[v], sessions) for v in variants}
        try:
            for k in range(sessions):
                for v, pipeline in pipes.items():
                    started = time.process_time()
                    pipeline.process(episodes[v][k])
                    if k:
                        cpu[v] += time.process_time() - started
        finally:
            for group in groups.values():
                drop_group(graph, group)
    return {"cpu_s": {v: round(s, 2) for v, s in cpu.items()},
            "throughput_vs_minilm": {v: round(cpu["minilm"] / s, 3) for v, s in cpu.items()}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["search", "ingest"])
    parser.add_argument("--group-prefix", default=GROUP_PREFIX[0])
    parser.add_argument("--sessions", type=int, default=31)
    args = parser.parse_args()
    GROUP_PREFIX[0] = args.group_prefix
    settings = Settings()
    report = search_cost(settings) if args.what == "search" else ingest_cost(settings, args.sessions)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
