"""Retrieval quality through the REST API on LoCoMo-format conversations: gold-evidence recall@5/10/20.

The measure of ``shared/data/chatlogs/locomo_dev/README.md``: every session posted as one chat episode
(``POST /v1/groups/{g}/episodes:batch``, messages with ``{"dia_id": ...}`` metadata, the session date as
reference time), one group per conversation; every question of categories 1-4 sent to
``GET /v1/groups/{g}/search?q=...&limit=20``; the hits turned into a ranked list of turns through their
provenance messages, in order, without repeats. Reports recall@k overall and per category beside the raw-turn
baselines of that README, the search latency over HTTP (p50/p95, one client), and for the context block
(``GET /v1/groups/{g}/context`` at 1,000 and 2,000 tokens) the recall of the turns it quotes and how many
blocks went over budget.

The API runs as ``strata serve --inline`` in a subprocess with the shipped defaults (offline spaCy extractor,
ONNX MiniLM embedder, bge-small rescoring) unless the environment says otherwise; groups are named
``bench-locomo-<sample_id>`` (``--group-prefix``) and kept between runs (``--reuse`` skips ingesting a
conversation whose group already holds all its sessions; ``--drop`` deletes the groups at the end).

Run: .venv/bin/python -m bench.bench_retrieval [--data PATH] [--reuse] [--drop] [--kinds episode,fact,entity]
Writes bench/results/retrieval.json (or --out).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import httpx

from bench.bench_search import _free_port, _wait_ready
from bench.locomo import CATEGORIES, DEV, Conversation, load_conversations, ranked_turns, recall_at
from strata.graph import Graph, apply_migrations
from strata.graph.bulk import delete_key, drop_group
from strata.graph.keys import create_key
from strata.schema.settings import Settings

RESULTS = Path(__file__).resolve().parent / "results" / "retrieval.json"
KS = (5, 10, 20)
CONTEXT_BUDGETS = (1000, 2000)
# The raw-turn baselines of the dev README (same 652 questions): BM25, MiniLM and their RRF over `speaker: text`.
BASELINES = {
    "bm25": {"r5": 0.482, "r10": 0.554, "r20": 0.634, "multi-hop": 0.210, "temporal": 0.612, "open-domain": 0.237,
             "single-hop": 0.692},
    "dense": {"r5": 0.443, "r10": 0.531, "r20": 0.627, "multi-hop": 0.306, "temporal": 0.586, "open-domain": 0.260,
              "single-hop": 0.622},
    "rrf": {"r5": 0.532, "r10": 0.618, "r20": 0.709, "multi-hop": 0.333, "temporal": 0.700, "open-domain": 0.296,
            "single-hop": 0.728},
}
GOAL_R10 = 0.80
GROUP_PREFIX = ["bench-locomo-"]  # --group-prefix: measure a branch on groups of its own


def group_of(conv: Conversation) -> str:
    return f"{GROUP_PREFIX[0]}{conv.sample_id}"


def sessions_done(graph: Graph, group: str) -> int:
    rows = graph.query("MATCH (ep:Episode {group_id: $group}) WHERE ep.status = 'done' RETURN count(ep) AS n",
                       group=group)
    return rows[0]["n"]


def ingest(http: httpx.Client, graph: Graph, conv: Conversation, reuse: bool) -> dict[str, Any]:
    group = group_of(conv)
    if reuse and sessions_done(graph, group) >= len(conv.sessions):
        return {"group": group, "reused": True}
    drop_group(graph, group)
    started = time.perf_counter()
    reply = http.post(f"/v1/groups/{group}/episodes:batch", json={"episodes": conv.sessions}, timeout=3600)
    reply.raise_for_status()
    job = reply.json()["job"]
    return {"group": group, "reused": False, "status": job["status"], "episodes": len(conv.sessions),
            "turns": conv.turns, "seconds": round(time.perf_counter() - started, 1)}


def ask(http: httpx.Client, conv: Conversation, limit: int, kinds: str | None,
        context: bool = False) -> list[dict[str, Any]]:
    out = []
    for question in conv.questions:
        params: dict[str, Any] = {"q": question.text, "limit": limit}
        if kinds:
            params["kinds"] = kinds
        started = time.perf_counter()
        reply = http.get(f"/v1/groups/{group_of(conv)}/search", params=params)
        elapsed = (time.perf_counter() - started) * 1000
        reply.raise_for_status()
        hits = reply.json()["hits"]
        turns = ranked_turns(hits)
        row = {"category": question.category, "ms": elapsed, "kinds": [h["kind"] for h in hits[:10]],
               **{f"r{k}": recall_at(turns, question.evidence, k) for k in KS},
               "hits": [{"key": content_key(h), "vector": any(c.endswith("_vector") for c in h["channels"])}
                        for h in hits]}
        for budget in CONTEXT_BUDGETS if context else ():
            block = http.get(f"/v1/groups/{group_of(conv)}/context", params={"q": question.text,
                                                                               "budget_tokens": budget})
            block.raise_for_status()
            body = block.json()
            quoted = [m["metadata"]["dia_id"] for m in body["quoted"] if "dia_id" in m["metadata"]]
            row[f"context{budget}"] = recall_at(quoted, question.evidence, len(quoted))
            row[f"context{budget}_over"] = body["tokens"] > budget
        out.append(row)
    return out


def content_key(hit: dict[str, Any]) -> str:
    """What a hit is, the same in any database holding the same conversation (uuids differ between stores): its
    kind, what it says (a fact's names and predicate, an entity's name) and the turns its provenance quotes."""
    turns = ",".join(ranked_turns([hit]))
    if hit["kind"] == "fact":
        f = hit["fact"]
        return f"fact:{f['subject_name']}|{f['predicate']}|{f['object_name']}|{f.get('valid_at')}|{turns}"
    if hit["kind"] == "entity":
        return f"entity:{hit['entity']['name']}|{turns}"
    return f"episode:{turns}"


def beside(rows: list[dict[str, Any]], alone: list[dict[str, Any]]) -> dict[str, Any]:
    """The same questions answered here and in a saved run on the same conversations alone in their database
    (``--alone``): the share of the top-20 hits that are the same (order aside), the vector channels' share of
    the top 10 in both, recall@10 in both, and the latency ratio."""
    same = [len({h["key"] for h in a["hits"]} & {h["key"] for h in b["hits"]}) / len(b["hits"]) if b["hits"] else 1.0
            for a, b in zip(rows, alone, strict=True)]

    def vector_share(answers: list[dict[str, Any]]) -> float:
        top = [h for row in answers for h in row["hits"][:10]]
        return round(sum(h["vector"] for h in top) / max(len(top), 1), 4)

    def p(answers: list[dict[str, Any]], q: float) -> float:
        ms = sorted(r["ms"] for r in answers)
        return round(ms[int(len(ms) * q)], 1)

    return {"questions": len(rows), "same_top20": round(statistics.fmean(same), 4),
            "questions_with_the_same_top20": round(sum(x == 1.0 for x in same) / len(same), 4),
            "vector_share_top10": {"alone": vector_share(alone), "here": vector_share(rows)},
            "r10": {"alone": round(statistics.fmean(r["r10"] for r in alone), 3),
                    "here": round(statistics.fmean(r["r10"] for r in rows), 3)},
            "latency_ms": {"alone": {"p50": p(alone, 0.5), "p95": p(alone, 0.95)},
                           "here": {"p50": p(rows, 0.5), "p95": p(rows, 0.95)}},
            "p95_ratio": round(p(rows, 0.95) / p(alone, 0.95), 2)}


def summarize(rows: list[dict[str, Any]]) -> dict[str, Any]:
    def mean(values: list[float]) -> float:
        return round(statistics.fmean(values), 3) if values else 0.0

    by_category: dict[str, list[float]] = defaultdict(list)
    kinds: dict[str, int] = defaultdict(int)
    for row in rows:
        by_category[row["category"]].append(row["r10"])
        for kind in row["kinds"]:
            kinds[kind] += 1
    ms = sorted(r["ms"] for r in rows)
    context = {f"context_recall_{b}": mean([r[f"context{b}"] for r in rows]) for b in CONTEXT_BUDGETS
               if f"context{b}" in rows[0]}
    context.update({f"context_over_budget_{b}": sum(r[f"context{b}_over"] for r in rows) for b in CONTEXT_BUDGETS
                    if f"context{b}" in rows[0]})
    return {"questions": len(rows), **{f"r{k}": mean([r[f"r{k}"] for r in rows]) for k in KS}, **context,
            "r10_by_category": {c: mean(by_category[c]) for c in CATEGORIES.values()},
            "top10_kinds": dict(kinds),
            "latency_ms": {"p50": round(ms[len(ms) // 2], 1), "p95": round(ms[int(len(ms) * 0.95)], 1)}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEV)
    parser.add_argument("--limit", type=int, default=20, help="hits asked per question (the README's measure: 20)")
    parser.add_argument("--kinds", default=None, help="restrict hit kinds, e.g. episode")
    parser.add_argument("--reuse", action="store_true", help="keep a conversation's group when it is complete")
    parser.add_argument("--drop", action="store_true", help="delete the groups at the end")
    parser.add_argument("--no-context", dest="context", action="store_false",
                        help="skip the context-block measure (GET /context at 1,000 and 2,000 tokens)")
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument("--group-prefix", default=GROUP_PREFIX[0],
                        help="groups are named PREFIX<sample_id> (another prefix leaves the shared groups alone)")
    parser.add_argument("--answers", type=Path, default=None,
                        help="also save every answer's hits by content (for --alone in another database)")
    parser.add_argument("--alone", type=Path, default=None,
                        help="answers saved (--answers) from the same conversations alone in their database: "
                             "compare this run's with them (the small group beside a large neighbour)")
    args = parser.parse_args()
    GROUP_PREFIX[0] = args.group_prefix
    if not args.data.exists():
        sys.exit(f"no data at {args.data} (the LoCoMo dev file lives in ../shared beside the checkout)")
    conversations = load_conversations(args.data)
    settings = Settings()
    port = _free_port()
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    server = subprocess.Popen([sys.executable, "-c", "from strata.api.cli import main; main()", "serve", "--inline",
                               "--host", "127.0.0.1", "--port", str(port)], env=env)
    with Graph.from_settings(settings) as graph:
        apply_migrations(graph, settings.embedding_dim)
        key = create_key(graph, [group_of(c) for c in conversations], "rw", name="bench-retrieval")
        try:
            headers = {"Authorization": f"Bearer {key.token}"}
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", headers=headers, timeout=60) as http:
                _wait_ready(http, server, timeout_s=120)
                loads = [ingest(http, graph, c, args.reuse) for c in conversations]
                print(json.dumps(loads), file=sys.stderr)
                # warm the API process and Neo4j's query plans (every conversation when runs are compared)
                for c in conversations if args.answers or args.alone else conversations[:1]:
                    ask(http, c, args.limit, args.kinds)
                answers = {c.sample_id: ask(http, c, args.limit, args.kinds, context=args.context)
                           for c in conversations}
        finally:
            server.terminate()
            server.wait(timeout=30)
            delete_key(graph, key.key.id)
            if args.drop:
                for c in conversations:
                    drop_group(graph, group_of(c))
    report = {"data": str(args.data.name), "settings": {"extractor": settings.extractor, "embedder": settings.embedder,
                                                         "rescore_embedder": settings.rescore_embedder,
                                                         "kinds": args.kinds, "limit": args.limit},
              "ingest": loads, "strata": summarize([row for rows in answers.values() for row in rows]),
              "r10_by_conversation": {sample: summarize(rows)["r10"] for sample, rows in answers.items()},
              "baselines_raw_turns": BASELINES, "goal_r10": GOAL_R10}
    if args.answers:
        args.answers.write_text(json.dumps(answers) + "\n")
    if args.alone:
        alone = json.loads(args.alone.read_text())
        report["beside"] = beside([r for c in conversations for r in answers[c.sample_id]],
                                  [r for c in conversations for r in alone[c.sample_id]])
    for rows in answers.values():  # the report keeps the figures, not every hit
        for row in rows:
            row.pop("hits")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
