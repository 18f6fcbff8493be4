"""What one search costs, in process, on one existing group: round trips to Neo4j, index asks, latency and CPU.

The questions are a LoCoMo dev conversation's (``--conversation``, for its ``bench-r31m-`` group ingested by
bench_retrieval) or generated ones about a synthetic ``bench-`` group (``--facts``: the group bench.generate_graph
loaded with that seed). Each search runs as
the service runs it (graph/search.py with the rescoring model the settings name, and the service's thread
pool), given the query's vector from the configured embedder (its cost is not counted), after one warm-up pass
over every question. Reported per search: round trips (every query sent), index asks as the channel
rows tell them (a vector channel that asked the shared index rather than scanning the group's own items; a
full-text channel that asked Lucene), p50 / p95 latency, this process's CPU and the Neo4j server's (the
process listening on the bolt port; on a shared server other clients' work counts too), and the load average.

Run: nice -n 10 .venv/bin/python -m bench.bench_asks --conversation conv-41 [--rounds 2] [--out FILE]
     nice -n 10 .venv/bin/python -m bench.bench_asks --facts 100000 --embedder hash [--requests 200]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from bench.bench_search import queries, stats
from bench.generate_graph import add_embedder_option, settings_for
from bench.locomo import DEV, load_conversations
from strata.graph import Graph
from strata.graph.ranking import rescoring_weights
from strata.graph.search import SearchQuery, search
from strata.ingest.embedders import make_embedder
from strata.ingest.embedders.factory import make_rescorer
from strata.ingest.testing.synthetic import generate
from strata.memory.runtime import POOL_THREADS


def neo4j_pid(port: int) -> int | None:
    """The process listening on the bolt port (None when it cannot be told)."""
    try:
        out = subprocess.run(["ss", "-ltnpH", f"sport = :{port}"], capture_output=True, text=True, timeout=5).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    start = out.find("pid=")
    return int(out[start + 4:].split(",")[0]) if start >= 0 else None


def cpu_s(pid: int | None) -> float:
    if pid is None:
        return 0.0
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Counted:
    """Every query the graph sends, and the index asks its channel rows report, for the current search."""

    def __init__(self, graph: Graph) -> None:
        self.trips = self.vector_asks = self.text_asks = 0
        for name in ("fetch", "query"):
            setattr(graph, name, self._wrap(getattr(graph, name)))

    def _wrap(self, send: Any) -> Any:
        def counted(cypher: str, **params: Any) -> list[dict[str, Any]]:
            rows = send(cypher, **params)
            self.trips += 1
            for row in rows:
                channel = row.get("channel") or ""
                self.vector_asks += channel.endswith("_vector") and not row.get("exact")
                # a small group's full-text channel asks no index now: it answers its statistics (detail)
                self.text_asks += channel.endswith("_fulltext") and "raw" in row and not row.get("detail")
            return rows
        return counted

    def take(self) -> tuple[int, int, int]:
        out = (self.trips, self.vector_asks, self.text_asks)
        self.trips = self.vector_asks = self.text_asks = 0
        return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--conversation", help="a LoCoMo dev conversation (its bench-r31m- group)")
    parser.add_argument("--prefix", default="bench-r31m-")
    parser.add_argument("--facts", type=int, help="a synthetic group bench-<facts> (bench.generate_graph)")
    parser.add_argument("--group", help="the synthetic group's name, if not bench-<facts>")
    parser.add_argument("--requests", type=int, default=200, help="generated questions (--facts)")
    parser.add_argument("--rounds", type=int, default=1, help="timed passes over the questions")
    parser.add_argument("--out", type=Path)
    add_embedder_option(parser)
    args = parser.parse_args()
    settings = settings_for(args)
    if args.conversation:
        conv = next(c for c in load_conversations(DEV) if c.sample_id == args.conversation)
        group, questions = args.prefix + conv.sample_id, [q.text for q in conv.questions]
    else:
        group = args.group or f"bench-{args.facts}"
        questions = queries(generate(group, args.facts), args.requests)
    embedder = make_embedder(settings)
    vectors = dict(zip(questions, embedder.embed(questions), strict=True))
    rescorer = make_rescorer(settings, embedder, for_queries=True)
    weights = rescoring_weights() if rescorer is not None else None
    pool = ThreadPoolExecutor(max_workers=POOL_THREADS)  # as the service's runtime: side-by-side round trips
    graph = Graph.from_settings(settings, pool)
    pid = neo4j_pid(int(settings.neo4j_uri.rsplit(":", 1)[1]))
    counted = Counted(graph)

    def one(text: str) -> float:
        started = time.perf_counter()
        search(graph, group, SearchQuery(q=text, limit=20), embed=lambda _t, v=vectors[text]: [v], weights=weights,
               rescorer=rescorer)
        return time.perf_counter() - started

    for text in questions:
        one(text)
    counted.take()
    load_before = os.getloadavg()
    neo_before, own_before = cpu_s(pid), time.process_time()
    seconds, trips, vector_asks, text_asks = [], [], [], []
    for _ in range(args.rounds):
        for text in questions:
            seconds.append(one(text))
            t, v, x = counted.take()
            trips.append(t)
            vector_asks.append(v)
            text_asks.append(x)
    n = len(seconds)
    report = {"group": group, "searches": n, "latency": stats(seconds),
              "round_trips_per_search": round(sum(trips) / n, 3), "most_round_trips": max(trips),
              "vector_index_asks_per_search": round(sum(vector_asks) / n, 3),
              "text_asks_per_search": round(sum(text_asks) / n, 3),
              "neo4j_cpu_ms_per_search": round((cpu_s(pid) - neo_before) * 1000 / n, 2),
              "process_cpu_ms_per_search": round((time.process_time() - own_before) * 1000 / n, 2),
              "load_average": [round(x, 2) for x in (*load_before, *os.getloadavg())],
              "rescorer": rescorer.name if rescorer else None, "code": __import__("strata").__file__}
    text = json.dumps(report, indent=2)
    if args.out:
        args.out.write_text(text + "\n")
    print(text)
    graph.close()
    pool.shutdown()


if __name__ == "__main__":
    main()
