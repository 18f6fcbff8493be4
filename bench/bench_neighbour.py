"""A small group's search beside a large neighbour: does it keep its own nearest items, and at what latency?

One LoCoMo dev conversation (``shared/data/chatlogs/locomo_dev``) is ingested into its own group through the REST
API, as bench_retrieval does; its questions go to ``GET /v1/groups/{g}/search?limit=20`` of two API processes
(``strata serve --inline``), one searching the shared vector indexes only (``STRATA_VECTOR_SCAN_MAX=0``, the
search before per-group scans) and one with the shipped setting. Then a neighbour group of ``--neighbour``
synthetic facts (bench.generate_graph, the configured embedder: ONNX MiniLM by default) is bulk-loaded beside it
and the same questions are asked of the same, unchanged group. For each API and each state it reports
- the vector share of the top 10: the hits a vector channel had found (alone, with MiniLM, all of them);
- the overlap of the top 20 with the same API's answer alone (hit kinds and ids, order aside), and of the top-20
  hits a vector channel found alone, the share a vector channel still finds;
- latency over HTTP, p50 / p95 (one client, after one warm-up pass over the questions).
In process, with the same two settings and the query's vector, it also compares what the vector channels
themselves found alone and beside (``vector_candidates_kept``). With the neighbour loaded it times the neighbour's
own searches (a large group) in process, the shared index only against the shipped setting
(``large_group_search_in_process``). Finally one vector channel query at a time, given the query's vector, per
kind (facts, entities, passages): what the shared index's first and second asks cost the small group and how
many of its items they bring back, alone and beside (``small_group_channels_*``), and the exact scan of n items
(``scan_ms_by_items``: the scan's group lookup capped at n reads n of the neighbour's items); the size where the
scan costs what the index costs (``crossover_items``) is the basis of ``STRATA_VECTOR_SCAN_MAX``'s default.

The neighbour is deleted at the end, in batches (``--keep-neighbour`` keeps it, and ``--reuse`` keeps a complete
one from an earlier run); the conversation's group is kept for ``--reuse`` unless ``--drop``. Deleting a large group
leaves deleted entries in the shared vector indexes until Neo4j restarts (docs/scaling.md); this bench restarts
nothing.

Run: .venv/bin/python -m bench.bench_neighbour [--neighbour 100000] [--conversation conv-41] [--reuse]
     [--keep-neighbour] [--drop] [--embedder onnx-minilm|hash]
Writes bench/results/neighbour.json (or --out).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx

from bench.bench_search import _free_port, _wait_ready, queries, stats
from bench.generate_graph import add_embedder_option, settings_for
from bench.locomo import DEV, Conversation, load_conversations
from strata.graph import Graph, apply_migrations
from strata.graph.bulk import delete_key, drop_group
from strata.graph.keys import create_key
from strata.graph.queries import search as q
from strata.graph.read import MAX_INDEX_DEPTH
from strata.graph.search import OVERFETCH, SearchQuery, _depth, gather, search
from strata.ingest.embedders import make_embedder
from strata.ingest.protocols import Embedder
from strata.ingest.testing.synthetic import Generated, generate, load
from strata.memory.runtime import build_runtime
from strata.schema.models import utcnow
from strata.schema.settings import Settings

RESULTS = Path(__file__).resolve().parent / "results" / "neighbour.json"
LIMIT = 20
# Items scanned per kind in the crossover measure (capped at what the neighbour holds), and searches per point.
SCAN_SIZES = (100, 250, 500, 1000, 2000, 4000, 8000)
CROSSOVER_REPS = 60
# The large group's own searches: warm-up, then timed (each on both settings).
LARGE_WARMUP, LARGE_QUERIES = 300, 300


def small_group(conv: Conversation) -> str:
    return f"bench-small-{conv.sample_id}"


def neighbour_group(n: int) -> str:
    return f"bench-neighbour-{n}"


def count(graph: Graph, cypher: str, group: str) -> int:
    return graph.query(cypher, group=group)[0]["n"]


def group_sizes(graph: Graph, group: str) -> dict[str, int]:
    return {"facts": count(graph, "MATCH ()-[r:RELATES_TO]->() WHERE r.group_id = $group RETURN count(r) AS n", group),
            "entities": count(graph, "MATCH (e:Entity) WHERE e.group_id = $group RETURN count(e) AS n", group),
            "passages": count(graph, "MATCH (p:Passage) WHERE p.group_id = $group RETURN count(p) AS n", group),
            "episodes_done": count(graph, "MATCH (ep:Episode) WHERE ep.group_id = $group AND ep.status = 'done' "
                                          "RETURN count(ep) AS n", group)}


def serve(port: int, scan_max: int | None, embedder: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "STRATA_EMBEDDER": embedder}
    if scan_max is not None:
        env["STRATA_VECTOR_SCAN_MAX"] = str(scan_max)
    return subprocess.Popen([sys.executable, "-c", "from strata.api.cli import main; main()", "serve", "--inline",
                             "--host", "127.0.0.1", "--port", str(port)], env=env)


def ask(http: httpx.Client, group: str, text: str) -> tuple[list[dict[str, Any]], float]:
    """One question: the top LIMIT hits (kind, id, channels) and the seconds the search took."""
    started = time.perf_counter()
    reply = http.get(f"/v1/groups/{group}/search", params={"q": text, "limit": LIMIT})
    elapsed = time.perf_counter() - started
    reply.raise_for_status()
    return [{"kind": h["kind"], "id": _hit_id(h), "channels": h["channels"]} for h in reply.json()["hits"]], elapsed


def _hit_id(hit: dict[str, Any]) -> str:
    body = hit["fact"] if hit["kind"] == "fact" else hit["entity"] if hit["kind"] == "entity" else hit["episode"]
    return body["uuid"]


def vector_share(answers: list[list[dict[str, Any]]], top: int = 10) -> float:
    hits = [h for answer in answers for h in answer[:top]]
    return round(sum(any(c.endswith("_vector") for c in h["channels"]) for h in hits) / max(len(hits), 1), 4)


def vector_hits_kept(answers: list[list[dict[str, Any]]], alone: list[list[dict[str, Any]]]) -> float:
    """Of the top-LIMIT hits a vector channel found alone, the share found by a vector channel here too (full-text
    scores move with the neighbour's documents, index-wide statistics, so ``overlap`` can move without vectors)."""
    kept, total = 0, 0
    for mine, theirs in zip(answers, alone, strict=True):
        found = {(h["kind"], h["id"]) for h in mine if any(c.endswith("_vector") for c in h["channels"])}
        for h in theirs:
            if any(c.endswith("_vector") for c in h["channels"]):
                total += 1
                kept += (h["kind"], h["id"]) in found
    return round(kept / max(total, 1), 4)


def overlap(answers: list[list[dict[str, Any]]], alone: list[list[dict[str, Any]]], top: int = LIMIT) -> float:
    shares = []
    for mine, theirs in zip(answers, alone, strict=True):
        want = {(h["kind"], h["id"]) for h in theirs[:top]}
        got = {(h["kind"], h["id"]) for h in mine[:top]}
        shares.append(len(want & got) / len(want) if want else 1.0)
    return round(statistics.fmean(shares), 4)


def measure(clients: dict[str, httpx.Client], graphs: dict[str, Graph], group: str, questions: list[str],
            vectors: list[list[float]]) -> dict[str, dict[str, Any]]:
    """Every question to every API: one warm-up pass, then a timed one with the APIs taking turns question by
    question (first one, then the other), so both meet the same load on the shared machine. Then, in process with
    the same settings and the query's vector, what the vector channels themselves found (the HTTP answer is
    ranked with full-text scores too, whose index-wide statistics move with the neighbour's documents)."""
    names = list(clients)
    for text in questions:
        for name in names:
            ask(clients[name], group, text)
    answers: dict[str, list] = {name: [] for name in names}
    seconds: dict[str, list[float]] = {name: [] for name in names}
    for i, text in enumerate(questions):
        for name in names[i % 2:] + names[:i % 2]:
            hits, elapsed = ask(clients[name], group, text)
            answers[name].append(hits)
            seconds[name].append(elapsed)
    found = {name: [vector_candidates(graphs[name], group, text, vector)
                    for text, vector in zip(questions, vectors, strict=True)] for name in names}
    return {name: {"answers": answers[name], "latency": stats(seconds[name]), "vector_found": found[name],
                   "vector_share_top10": vector_share(answers[name])} for name in names}


def vector_candidates(graph: Graph, group: str, text: str, vector: list[float]) -> set[tuple[str, str, str]]:
    """(channel, kind, uuid) of every candidate a vector channel returned for this search."""
    gathered = gather(graph, group, SearchQuery(q=text, limit=LIMIT), embed=lambda _t: [vector])
    return {(channel, c.kind, c.uuid) for c in gathered.candidates for channel in c.channels
            if channel.endswith("_vector")}


def kept(found: list[set], alone: list[set]) -> dict[str, float]:
    """How much of what the vector channels found alone they find beside the neighbour: the share of the
    candidates, and the share of questions answered with exactly the same ones."""
    total = sum(len(a) for a in alone)
    return {"vector_candidates_kept": round(sum(len(f & a) for f, a in zip(found, alone, strict=True))
                                            / max(total, 1), 4),
            "questions_with_the_same_vector_candidates": round(
                statistics.fmean(f == a for f, a in zip(found, alone, strict=True)), 4)}


class ChannelTimer:
    """One vector channel query at a time, given the query's vector, as search asks it (depth for limit 20);
    p50 over CROSSOVER_REPS questions, and the mean number of hits it returned."""

    def __init__(self, graph: Graph, vectors: list[list[float]]) -> None:
        self.graph, self.vectors = graph, vectors[:CROSSOVER_REPS]

    def p50(self, group: str, cypher: str, **extra: Any) -> tuple[float, float]:
        now = utcnow()
        args = {"group_id": group, "as_of": now, "known_at": now, "user_as_of": None, "user_known_at": None,
                "include_history": False, "types": None, "predicates": None, "said_after": None,
                "said_before": None, "story_at": None, "story_source": None, "with_embedding": False,
                "rerank": self.graph.vector_rerank, "limit": LIMIT * 3,
                **{f"k_{kind}": _depth(kind, LIMIT) for kind in OVERFETCH}, **extra}
        samples, hits = [], []
        for i in range(CROSSOVER_REPS):
            started = time.perf_counter()
            rows = self.graph.query(cypher, **args, embedding=self.vectors[i % len(self.vectors)])
            samples.append(time.perf_counter() - started)
            hits.append(len(rows[0]["hits"]))
        return stats(samples)["p50_ms"], round(statistics.fmean(hits), 1)

    def small_group(self, group: str, shipped: int) -> dict[str, Any]:
        """What each vector channel costs the small group and how much of its own it brings back: the shared
        index's first ask, its second ask (MAX_INDEX_DEPTH deep, a round trip of its own when the first came back
        short) and the scan of all its items."""
        out = {}
        for kind in OVERFETCH:
            name = f"{kind}_vector"
            self.p50(group, q.INDEX_CHANNELS[name])  # warm
            (first, first_hits), (deep, deep_hits), (scan, scan_hits) = (
                self.p50(group, q.INDEX_CHANNELS[name]),
                self.p50(group, q.INDEX_CHANNELS[name], **{f"k_{kind}": MAX_INDEX_DEPTH}),
                self.p50(group, q.SCANNING_CHANNELS[name], scan_max=shipped, scan_cap=shipped + 1))
            out[kind] = {"index_first_ms": first, "index_first_hits": first_hits, "index_deep_ms": deep,
                         "index_deep_hits": deep_hits, "scan_ms": scan, "scan_hits": scan_hits}
        return out

    def scans(self, group: str, held: dict[str, int]) -> dict[str, dict[int, float]]:
        """The scan of n items per kind: the group lookup capped at n makes it read n of a large group's items."""
        return {kind: {n: self.p50(group, q.SCANNING_CHANNELS[f"{kind}_vector"], scan_max=n, scan_cap=n)[0]
                       for n in SCAN_SIZES if n <= held[kind]} for kind in OVERFETCH}


def crossovers(scans: dict[str, dict[int, float]], index: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Per kind, the size at which the scan costs what the shared index costs a group: its first ask alone, and
    its first and second asks (a group the index crowds out)."""
    return {kind: {"first_ask": _crossing(scans[kind], index[kind]["index_first_ms"]),
                   "first_and_second_ask": _crossing(scans[kind], index[kind]["index_first_ms"]
                                                     + index[kind]["index_deep_ms"])} for kind in scans}


def settings_graphs(graph: Graph, shipped: int) -> dict[str, Graph]:
    """The two settings compared, on one driver: the shared index only, and the shipped scan threshold."""
    return {"index_only": Graph(graph.driver, graph.database, 0, graph.pool),
            "scan": Graph(graph.driver, graph.database, shipped, graph.pool)}


def large_group(graph: Graph, gen: Generated, embedder: Embedder, shipped: int) -> dict[str, Any]:
    """The neighbour's own searches (it is a large group: above the scan threshold in every kind), in process with
    the query's vector given, the shared index only against the shipped setting, the two taking turns query by
    query: what the group lookup before each vector channel costs a large group."""
    texts = queries(gen, LARGE_WARMUP + LARGE_QUERIES)
    vectors = dict(zip(texts, embedder.embed(texts), strict=True))
    graphs = settings_graphs(graph, shipped)
    seconds: dict[str, list[float]] = {name: [] for name in graphs}
    for i, text in enumerate(texts):
        for name in list(graphs)[i % 2:] + list(graphs)[:i % 2]:
            started = time.perf_counter()
            search(graphs[name], gen.group_id, SearchQuery(q=text, limit=10), embed=lambda _t, v=vectors[text]: [v])
            if i >= LARGE_WARMUP:
                seconds[name].append(time.perf_counter() - started)
    return {name: stats(samples) for name, samples in seconds.items()}


def _crossing(scans: dict[int, float], index_ms: float) -> int | str | None:
    """The size where the scan's cost meets the index's, interpolated between the measured sizes (or below the
    first, above the last)."""
    points = sorted(scans.items())
    if not points:
        return None
    if index_ms < points[0][1]:
        return f"<{points[0][0]}"
    for (n0, t0), (n1, t1) in zip(points, points[1:], strict=False):
        if t0 <= index_ms <= t1 and t1 > t0:
            return round(n0 + (index_ms - t0) * (n1 - n0) / (t1 - t0))
    return f">{points[-1][0]}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--neighbour", type=int, default=100_000, help="facts of the neighbour group")
    parser.add_argument("--conversation", default="conv-41", help="the LoCoMo dev conversation of the small group")
    parser.add_argument("--data", type=Path, default=DEV)
    parser.add_argument("--reuse", action="store_true", help="keep a complete small group and neighbour from before")
    parser.add_argument("--keep-neighbour", action="store_true", help="do not delete the neighbour at the end")
    parser.add_argument("--drop", action="store_true", help="delete the small group at the end")
    parser.add_argument("--out", type=Path, default=RESULTS)
    add_embedder_option(parser)
    args = parser.parse_args()
    if not args.data.exists():
        sys.exit(f"no data at {args.data} (the LoCoMo dev file lives in ../shared beside the checkout)")
    conv = next((c for c in load_conversations(args.data) if c.sample_id == args.conversation), None)
    if conv is None:
        sys.exit(f"no conversation {args.conversation} in {args.data}")
    settings = settings_for(args)
    shipped = Settings.model_fields["vector_scan_max"].default
    questions = [question.text for question in conv.questions]
    group, neighbour = small_group(conv), neighbour_group(args.neighbour)
    apis = {"index_only": 0, "scan": shipped}
    report: dict[str, Any] = {"embedder": settings.embedder, "conversation": conv.sample_id,
                              "questions": len(questions), "vector_scan_max": shipped,
                              "neighbour_facts": args.neighbour}
    with build_runtime(settings, embedder=False) as rt, ExitStack() as stack:  # the search pool, as in the API
        graph = rt.graph
        apply_migrations(graph, settings.embedding_dim)
        key = create_key(graph, [group], "rw", name="bench-neighbour")
        stack.callback(delete_key, graph, key.key.id)
        clients = {}
        for name, scan_max in apis.items():
            port = _free_port()
            server = serve(port, scan_max, settings.embedder)
            stack.callback(server.wait, 30)
            stack.callback(server.terminate)
            http = stack.enter_context(httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=120,
                                                    headers={"Authorization": f"Bearer {key.token}"}))
            _wait_ready(http, server, timeout_s=180)
            clients[name] = http
        if not (args.reuse and group_sizes(graph, group)["episodes_done"] >= len(conv.sessions)):
            drop_group(graph, group)
            started = time.perf_counter()
            clients["scan"].post(f"/v1/groups/{group}/episodes:batch", json={"episodes": conv.sessions},
                                 timeout=3600).raise_for_status()
            report["ingest_seconds"] = round(time.perf_counter() - started, 1)
        report["small_group"] = group_sizes(graph, group)

        if not (args.reuse and group_sizes(graph, neighbour)["facts"] == args.neighbour):
            drop_group(graph, neighbour)
        if group_sizes(graph, neighbour)["facts"]:  # left from an earlier run: measure "alone" without it
            print(f"{neighbour} is kept from an earlier run: 'alone' is measured beside it", file=sys.stderr)
        graphs, vectors = settings_graphs(graph, shipped), make_embedder(settings).embed(questions)
        alone = measure(clients, graphs, group, questions, vectors)
        timer = ChannelTimer(graph, vectors)
        report["small_group_channels_alone"] = timer.small_group(group, shipped)
        try:
            planned, embedder = generate(neighbour, args.neighbour), make_embedder(settings)
            if group_sizes(graph, neighbour)["facts"] != args.neighbour:
                report["neighbour_load"] = load(graph, planned, embedder)
                graph.query("CALL db.awaitIndexes(600)")
            report["neighbour"] = group_sizes(graph, neighbour)
            beside = measure(clients, graphs, group, questions, vectors)
            report["large_group_search_in_process"] = large_group(graph, planned, embedder, shipped)
            report["small_group_channels_beside"] = timer.small_group(group, shipped)
            held = {"fact": report["neighbour"]["facts"], "entity": report["neighbour"]["entities"],
                    "passage": report["neighbour"]["passages"]}
            report["scan_ms_by_items"] = scans = timer.scans(neighbour, held)
            report["crossover_items"] = {"alone": crossovers(scans, report["small_group_channels_alone"]),
                                         "beside": crossovers(scans, report["small_group_channels_beside"])}
        finally:
            if not args.keep_neighbour:
                report["neighbour_deleted"] = drop_group(graph, neighbour)
        if args.drop:
            drop_group(graph, group)
    report["apis"] = {
        name: {"alone": {"latency": alone[name]["latency"], "vector_share_top10": alone[name]["vector_share_top10"]},
               "beside": {"latency": beside[name]["latency"], "vector_share_top10": beside[name]["vector_share_top10"],
                          "overlap_top20_with_alone": overlap(beside[name]["answers"], alone[name]["answers"]),
                          "vector_hits_kept_top20": vector_hits_kept(beside[name]["answers"],
                                                                     alone[name]["answers"]),
                          **kept(beside[name]["vector_found"], alone[name]["vector_found"])}}
        for name in apis}
    report["scan_vs_index_alone_overlap_top20"] = overlap(alone["scan"]["answers"], alone["index_only"]["answers"])
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
