"""A small group's search beside a large neighbour: does it keep its own nearest items, and at what latency?

One LoCoMo dev conversation (``shared/data/chatlogs/locomo_dev``) is ingested into its own group through the REST
API, as bench_retrieval does; its questions go to ``GET /v1/groups/{g}/search?limit=20`` of two API processes
(``strata serve --inline``), one searching the shared vector indexes only (``STRATA_VECTOR_SCAN_MAX=0``, the
search before per-group scans) and one with the shipped setting. Then a neighbour group of ``--neighbour``
synthetic facts (bench.generate_graph, the configured embedder: ONNX MiniLM by default) is bulk-loaded beside it
and the same questions are asked of the same, unchanged group. For each API and each state it reports
- the vector share of the top 10: the hits a vector channel had found (alone, with MiniLM, all of them);
- the overlap of the top 20 with the same API's answer alone (hit kinds and ids, order aside);
- latency over HTTP, p50 / p95 (one client, after one warm-up pass over the questions).
With the neighbour loaded it also times one vector channel query given the query's vector, per kind (facts,
entities, passages): the exact scan of n items (the scan's group lookup capped at n) against the shared index
asked as search asks it (``crossover``): the size where the scan costs what the index costs is the basis of
``STRATA_VECTOR_SCAN_MAX``'s default.

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

from bench.bench_search import _free_port, _wait_ready, stats
from bench.generate_graph import add_embedder_option, generate, load, settings_for
from bench.locomo import DEV, Conversation, load_conversations
from strata.graph import Graph, apply_migrations
from strata.graph.bulk import delete_key, drop_group
from strata.graph.keys import create_key
from strata.graph.queries import search as q
from strata.graph.read import MAX_INDEX_DEPTH
from strata.graph.search import OVERFETCH, _depth
from strata.ingest.embedders import make_embedder
from strata.schema.models import utcnow
from strata.schema.settings import Settings

RESULTS = Path(__file__).resolve().parent / "results" / "neighbour.json"
LIMIT = 20
# Items scanned per kind in the crossover measure (capped at what the neighbour holds), and searches per point.
SCAN_SIZES = (100, 250, 500, 1000, 2000, 4000, 8000)
CROSSOVER_REPS = 60


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


def ask_all(http: httpx.Client, group: str, questions: list[str]) -> tuple[list[list[dict[str, Any]]], list[float]]:
    """Every question once: the top LIMIT hits (kind, id, channels) and the seconds each search took."""
    answers, seconds = [], []
    for text in questions:
        started = time.perf_counter()
        reply = http.get(f"/v1/groups/{group}/search", params={"q": text, "limit": LIMIT})
        seconds.append(time.perf_counter() - started)
        reply.raise_for_status()
        answers.append([{"kind": h["kind"], "id": _hit_id(h), "channels": h["channels"]} for h in reply.json()["hits"]])
    return answers, seconds


def _hit_id(hit: dict[str, Any]) -> str:
    body = hit["fact"] if hit["kind"] == "fact" else hit["entity"] if hit["kind"] == "entity" else hit["episode"]
    return body["uuid"]


def vector_share(answers: list[list[dict[str, Any]]], top: int = 10) -> float:
    hits = [h for answer in answers for h in answer[:top]]
    return round(sum(any(c.endswith("_vector") for c in h["channels"]) for h in hits) / max(len(hits), 1), 4)


def overlap(answers: list[list[dict[str, Any]]], alone: list[list[dict[str, Any]]], top: int = LIMIT) -> float:
    shares = []
    for mine, theirs in zip(answers, alone, strict=True):
        want = {(h["kind"], h["id"]) for h in theirs[:top]}
        got = {(h["kind"], h["id"]) for h in mine[:top]}
        shares.append(len(want & got) / len(want) if want else 1.0)
    return round(statistics.fmean(shares), 4)


def measure(clients: dict[str, httpx.Client], group: str, questions: list[str]) -> dict[str, dict[str, Any]]:
    out = {}
    for name, http in clients.items():
        ask_all(http, group, questions)  # warm the API process and Neo4j's plans
        answers, seconds = ask_all(http, group, questions)
        out[name] = {"answers": answers, "latency": stats(seconds), "vector_share_top10": vector_share(answers)}
    return out


def crossover(graph: Graph, group: str, vectors: list[list[float]], sizes: dict[str, int]) -> dict[str, Any]:
    """Per kind, one vector channel query given the query's vector: the exact scan of n of the group's items
    against the shared index asked as search asks it (k for limit 20); p50 over CROSSOVER_REPS queries."""
    now = utcnow()
    base: dict[str, Any] = {"group_id": group, "as_of": now, "known_at": now, "user_as_of": None, "user_known_at": None,
            "include_history": False, "types": None, "predicates": None, "said_after": None, "said_before": None,
            "story_at": None, "story_source": None, "with_embedding": False, "limit": LIMIT * 3, "want": LIMIT,
            **{f"k_{kind}": _depth(kind, LIMIT) for kind in OVERFETCH}}
    held = {"fact": sizes["facts"], "entity": sizes["entities"], "passage": sizes["passages"]}

    def p50(cypher: str, **extra: Any) -> float:
        samples = []
        args = {**base, **extra}
        for i in range(CROSSOVER_REPS):
            started = time.perf_counter()
            graph.query(cypher, **args, embedding=vectors[i % len(vectors)])
            samples.append(time.perf_counter() - started)
        return stats(samples)["p50_ms"]

    out: dict[str, Any] = {}
    for kind in OVERFETCH:
        name = f"{kind}_vector"
        p50(q.INDEX_CHANNELS[name])  # warm
        index_ms = p50(q.INDEX_CHANNELS[name])
        # What a crowded group pays on top: the second ask, MAX_INDEX_DEPTH deep, in a round trip of its own.
        deep_ms = p50(q.INDEX_CHANNELS[name], **{f"k_{kind}": MAX_INDEX_DEPTH})
        # The group lookup capped at n makes the scan read n of the neighbour's items: the cost of a group of n.
        scans = {n: p50(q.SCANNING_CHANNELS[name], scan_max=n, scan_cap=n) for n in SCAN_SIZES if n <= held[kind]}
        out[kind] = {"k": base[f"k_{kind}"], "index_ms": index_ms, "index_deep_ms": deep_ms, "scan_ms": scans,
                     "crossover_items": _crossing(scans, index_ms),
                     "crossover_items_crowded": _crossing(scans, index_ms + deep_ms)}
    return out


def _crossing(scans: dict[int, float], index_ms: float) -> int | None:
    """The size where the scan's cost meets the index's, interpolated between the measured sizes."""
    points = sorted(scans.items())
    for (n0, t0), (n1, t1) in zip(points, points[1:], strict=False):
        if t0 <= index_ms <= t1 and t1 > t0:
            return round(n0 + (index_ms - t0) * (n1 - n0) / (t1 - t0))
    return None


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
    with Graph.from_settings(settings) as graph, ExitStack() as stack:
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
        alone = measure(clients, group, questions)
        try:
            if group_sizes(graph, neighbour)["facts"] != args.neighbour:
                report["neighbour_load"] = load(graph, generate(neighbour, args.neighbour), make_embedder(settings))
                graph.query("CALL db.awaitIndexes(600)")
            report["neighbour"] = group_sizes(graph, neighbour)
            beside = measure(clients, group, questions)
            vectors = make_embedder(settings).embed(questions[:CROSSOVER_REPS])
            report["crossover"] = crossover(graph, neighbour, vectors, report["neighbour"])
        finally:
            if not args.keep_neighbour:
                report["neighbour_deleted"] = drop_group(graph, neighbour)
        if args.drop:
            drop_group(graph, group)
    report["apis"] = {
        name: {"alone": {"latency": alone[name]["latency"], "vector_share_top10": alone[name]["vector_share_top10"]},
               "beside": {"latency": beside[name]["latency"], "vector_share_top10": beside[name]["vector_share_top10"],
                          "overlap_top20_with_alone": overlap(beside[name]["answers"], alone[name]["answers"])}}
        for name in apis}
    report["scan_vs_index_alone_overlap_top20"] = overlap(alone["scan"]["answers"], alone["index_only"]["answers"])
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
