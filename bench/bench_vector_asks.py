"""Each vector index asked alone, as deep as a search's first ask (limit 20: 100), for generated questions about a
synthetic ``bench-`` group: p50 / p95 per index, after ten warm-up asks. What `strata maintain` is judged by
beside a whole search (bench_asks).

Run: nice -n 5 .venv/bin/python -m bench.bench_vector_asks --group bench-s17m-100000 [--facts 100000]
       [--requests 60] [--depth 100]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from bench.bench_search import queries
from bench.generate_graph import settings_for
from strata.graph import Graph
from strata.ingest.embedders import make_embedder
from strata.ingest.testing.synthetic import generate

# kind -> (index, procedure target, yielded variable)
INDEXES = {"fact": ("fact_embedding", "Relationships", "relationship"),
           "entity": ("entity_name_embedding", "Nodes", "node"),
           "passage": ("passage_context_embedding", "Nodes", "node")}
WARMUP = 10


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--group", required=True)
    parser.add_argument("--facts", type=int, default=100_000, help="the size the group was generated with")
    parser.add_argument("--requests", type=int, default=60)
    parser.add_argument("--depth", type=int, default=100)
    args = parser.parse_args()
    settings = settings_for(argparse.Namespace(embedder="hash"))
    vectors = make_embedder(settings).embed(queries(generate(args.group, args.facts), args.requests))
    out = {}
    with Graph.from_settings(settings) as graph:
        for kind, (index, target, yielded) in INDEXES.items():
            cypher = (f"CALL db.index.vector.query{target}('{index}', $k, $e) YIELD {yielded} "
                      "RETURN count(*) AS n")
            for v in vectors[:WARMUP]:
                graph.query(cypher, k=args.depth, e=v)
            ms = []
            for v in vectors:
                started = time.perf_counter()
                graph.query(cypher, k=args.depth, e=v)
                ms.append((time.perf_counter() - started) * 1000)
            ms.sort()
            out[kind] = {"p50_ms": round(statistics.median(ms), 1), "p95_ms": round(ms[int(0.95 * (len(ms) - 1))], 1)}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
