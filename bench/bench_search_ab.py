"""Search settings compared in one process, taking turns question by question (the machine is shared, so two runs
minutes apart differ by more than most changes): latency, the process's and Neo4j's CPU per search, round trips,
and how many of the first setting's top 10 / top 20 each other setting returns.

The settings (``CONFIGS``) are graph/search.py's module constants set before each search: ``A`` those of
session 16 (fact and entity + passage channels in two queries; facts asked 10 per hit), ``M`` session 17 (a
short vector channel asked again 1,000 deep), ``N`` the code as it is, the others the steps between. Besides
latency and CPU: the asks again per search (a short channel asked once more; a vector channel's depth).
Questions generated about a synthetic ``bench-`` group (bench.generate_graph with the same seed), given the
hash embedder's vector; rescoring off (STRATA_RESCORE_EMBEDDER=none) for a group
that large, as bench_asks runs it.

Run: STRATA_RESCORE_EMBEDDER=none nice -n 5 .venv/bin/python -m bench.bench_search_ab --group bench-s17-100000 \
       --requests 150 --rounds 2 --configs A,N [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import strata.graph.search as S
from bench.bench_asks import cpu_s, neo4j_pid
from bench.bench_search import queries
from bench.generate_graph import settings_for
from strata.graph import Graph
from strata.graph.search import SearchQuery, search
from strata.ingest.embedders import make_embedder
from strata.ingest.testing.synthetic import generate
from strata.memory.runtime import POOL_THREADS

ORIG = {"fact": (10, 100), "entity": (5, 50), "passage": (5, 50)}  # session 16's OVERFETCH
S17 = {"fact": (5, 50), "entity": (5, 50), "passage": (5, 50)}  # session 17's OVERFETCH
# "deepen": DEEPEN_MARGIN (None: a short vector channel asks again MAX_INDEX_DEPTH deep, as up to session 17),
# "to": DEEPEN_TO (what the sized ask is sized for)
CONFIGS: dict[str, dict[str, Any]] = {
    "A": {"beside": ("fact",), "overfetch": ORIG, "deepen": None},  # session 16: two queries
    "B": {"beside": ("fact", "passage"), "overfetch": ORIG, "deepen": None},  # three queries side by side
    "C": {"beside": ("fact", "passage"), "overfetch": {**ORIG, "fact": (5, 50)}, "deepen": None},  # facts 5 a hit
    "D": {"beside": ("fact", "passage"), "overfetch": {"fact": (5, 50), "entity": (4, 40), "passage": (4, 40)},
          "deepen": None},
    "M": {"beside": ("fact", "passage"), "overfetch": S17, "deepen": None},  # session 17: re-ask 1,000 deep
    # sized for `limit` hits (all the ranker reads), asked again while fewer: margins 1.5 and 2
    "L15": {"beside": ("fact", "passage"), "overfetch": S17, "deepen": 1.5, "to": "limit"},
    "L2": {"beside": ("fact", "passage"), "overfetch": S17, "deepen": 2.0, "to": "limit"},
    # sized for `want` hits (the caller's), asked again while fewer: margins 2 (shipped) and 3
    "W2": {"beside": ("fact", "passage"), "overfetch": S17, "deepen": 2.0, "to": "want"},
    "W3": {"beside": ("fact", "passage"), "overfetch": S17, "deepen": 3.0, "to": "want"},
    # and entities asked 8 per hit at first
    "E8": {"beside": ("fact", "passage"), "overfetch": {**S17, "entity": (8, 80)}, "deepen": 2.0, "to": "want"},
    "N": {"beside": S.BESIDE_KINDS, "overfetch": dict(S.OVERFETCH), "deepen": S.DEEPEN_MARGIN,  # the code
          "to": S.DEEPEN_TO},
}
KINDS = ("fact", "entity", "passage")


def _pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p * (len(ordered) - 1))))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--group", required=True)
    ap.add_argument("--facts", type=int, default=100000, help="the size the group was generated with")
    ap.add_argument("--requests", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--limit", type=int, default=20)
    ap.add_argument("--configs", default="A,N")
    ap.add_argument("--out")
    a = ap.parse_args()
    settings = settings_for(argparse.Namespace(embedder="hash"))
    names = a.configs.split(",")
    questions = queries(generate(a.group, a.facts), a.requests)
    vectors = dict(zip(questions, make_embedder(settings).embed(questions), strict=True))
    pool = ThreadPoolExecutor(max_workers=POOL_THREADS)
    graph = Graph.from_settings(settings, pool)
    pid = neo4j_pid(int(settings.neo4j_uri.rsplit(":", 1)[1]))
    trips = [0]
    asks: list[tuple[str, int]] = []  # this search's asks again: (channel, depth; 0 for full text in-group)
    send = graph.fetch

    def counted(cypher: str, **params: Any) -> list[dict[str, Any]]:
        trips[0] += 1
        first = S._depth("fact", a.limit), S._depth("entity", a.limit), S._depth("passage", a.limit)
        for kind, depth in zip(KINDS, first, strict=True):
            if f"'{kind}_vector' AS channel" in cypher and params.get(f"k_{kind}", depth) > depth:
                asks.append((f"{kind}_vector", params[f"k_{kind}"]))
            if f"'{kind}_fulltext' AS channel" in cypher and params.get(f"{kind}_lucene") is not None \
                    and params.get(f"{kind}_lucene") == params.get(f"{kind}_lucene_own") \
                    and "own_" not in cypher:
                asks.append((f"{kind}_fulltext", 0))
        return send(cypher, **params)

    graph.fetch = counted  # type: ignore[method-assign]

    def run(name: str, text: str) -> tuple[float, float, float, int, list[tuple[str, str]]]:
        S.BESIDE_KINDS = CONFIGS[name]["beside"]
        S.OVERFETCH.clear()
        S.OVERFETCH.update(CONFIGS[name]["overfetch"])
        S.DEEPEN_MARGIN = CONFIGS[name]["deepen"]
        S.DEEPEN_TO = CONFIGS[name].get("to", "limit")
        trips[0] = 0
        asks.clear()
        n0, p0, t0 = cpu_s(pid), time.process_time(), time.perf_counter()
        res = search(graph, a.group, SearchQuery(q=text, limit=a.limit), embed=lambda _t: [vectors[text]])
        t1, p1, n1 = time.perf_counter(), time.process_time(), cpu_s(pid)
        hits: list[tuple[str, str]] = [(h.kind, (h.fact or h.entity or h.episode).uuid)  # type: ignore[union-attr]
                                       for h in res.hits]
        return (t1 - t0) * 1000, (p1 - p0) * 1000, (n1 - n0) * 1000, trips[0], hits

    for text in questions:  # warm-up
        for name in names:
            run(name, text)
    rec: dict[str, dict[str, list[float]]] = {
        n: {"ms": [], "cpu": [], "neo": [], "trips": [], "top10": [], "top20": [], "asks": [], "deep": [],
            "rounds": []} for n in names}
    load = os.getloadavg()
    for r in range(a.rounds):
        for i, text in enumerate(questions):
            got = {}
            for name in names if (i + r) % 2 == 0 else names[::-1]:  # who goes first alternates
                ms, cpu, neo, t, hits = run(name, text)
                got[name] = hits
                vector = [d for c, d in asks if c.endswith("_vector")]
                rec[name]["asks"].append(len(asks))
                rec[name]["deep"].extend(vector)
                # a vector channel asked again more than once in a search (a sized ask still short)
                rec[name]["rounds"].append(max([0, *(sum(1 for c2, _ in asks if c2 == c) for c, _ in asks
                                                     if c.endswith("_vector"))]))
                for key, value in (("ms", ms), ("cpu", cpu), ("neo", neo), ("trips", t)):
                    rec[name][key].append(value)
            base = got[names[0]]
            for name in names:
                rec[name]["top10"].append(len(set(got[name][:10]) & set(base[:10])) / max(1, len(base[:10])))
                rec[name]["top20"].append(len(set(got[name]) & set(base)) / max(1, len(base)))
    out: dict[str, Any] = {"group": a.group, "limit": a.limit, "searches_each": len(rec[names[0]]["ms"]),
                           "load_average": [round(x, 2) for x in (*load, *os.getloadavg())], "configs": {}}
    for name in names:
        R = rec[name]
        out["configs"][name] = {
            "p50_ms": round(statistics.median(R["ms"]), 1), "p95_ms": round(_pct(R["ms"], 0.95), 1),
            "mean_ms": round(statistics.fmean(R["ms"]), 1), "process_cpu_ms": round(statistics.fmean(R["cpu"]), 2),
            "neo4j_cpu_ms": round(statistics.fmean(R["neo"]), 2), "round_trips": round(statistics.fmean(R["trips"]), 3),
            "top10_same_as_first": round(statistics.fmean(R["top10"]), 4),
            "top20_same_as_first": round(statistics.fmean(R["top20"]), 4),
            "asks_again": round(statistics.fmean(R["asks"]), 3),
            "searches_asking_a_vector_channel_again": round(sum(1 for x in R["rounds"] if x) / len(R["rounds"]), 3),
            "vector_asks_again_per_search": round(len(R["deep"]) / len(R["ms"]), 3),
            "vector_depth_asked_again_mean": round(statistics.fmean(R["deep"]), 1) if R["deep"] else None,
            "searches_with_a_third_vector_ask": sum(1 for x in R["rounds"] if x > 1),
            "setting": {"beside": CONFIGS[name]["beside"], "overfetch": CONFIGS[name]["overfetch"],
                        "deepen_margin": CONFIGS[name]["deepen"], "deepen_to": CONFIGS[name].get("to", "limit")}}
    text = json.dumps(out, indent=1)
    print(text)
    if a.out:
        Path(a.out).write_text(text + "\n")
    graph.close()
    pool.shutdown()


if __name__ == "__main__":
    main()
