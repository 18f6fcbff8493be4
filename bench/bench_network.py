"""The character network of Pride and Prejudice beside PDNC's speaker-addressee counts.

    .venv/bin/python -m bench.bench_network [--reuse GROUP] [--top 20]

Ingests the book as bench_cast does (or reuses a group it kept), reads the network the API serves
(`GET /v1/groups/{g}/network`, strongest first), maps each entity to a PDNC character through the alias
lookups bench_cast makes (an entity is the character most of its aliases' top candidates name), and sets the
top pairs beside the top speaker-addressee pairs of PDNC's quotation annotations (undirected). Writes
bench/results/network_pdnc_pp.json.
"""

from __future__ import annotations

import argparse
import ast
import csv
import json
import logging
import uuid
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from bench.bench_cast import BOOK, CHARACTERS, alias_items, ingest, lookup
from strata.graph import Graph
from strata.graph.network import interaction_network
from strata.ingest.testing.pp_resolution import load_characters
from strata.schema.settings import Settings

QUOTES = CHARACTERS.parent / "quotation_info.csv"
RESULTS = Path(__file__).resolve().parent / "results" / "network_pdnc_pp.json"


def pdnc_pairs(path: Path) -> Counter[frozenset[str]]:
    """Undirected speaker-addressee pair counts by main name."""
    pairs: Counter[frozenset[str]] = Counter()
    with path.open(newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            for addressee in ast.literal_eval(row["addressees"] or "[]"):
                if addressee != row["speaker"]:
                    pairs[frozenset((row["speaker"], addressee))] += 1
    return pairs


def entity_characters(top: dict[str, dict[str, Any] | None], owner_of: dict[str, str]) -> dict[str, str]:
    votes: dict[str, Counter[str]] = defaultdict(Counter)
    for alias, cand in top.items():
        if cand is not None:
            votes[cand["uuid"]][owner_of[alias]] += 1
    return {uuid_: c.most_common(1)[0][0] for uuid_, c in votes.items()}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reuse", help="an already ingested group (bench_cast --keep)")
    ap.add_argument("--top", type=int, default=20)
    args = ap.parse_args()
    logging.getLogger("httpx").setLevel(logging.WARNING)  # one line per alias lookup otherwise
    settings = Settings()
    group = args.reuse or f"bench-network-{uuid.uuid4().hex[:8]}"
    characters = {c.id: c.name for c in load_characters(CHARACTERS)}
    with Graph.from_settings(settings) as graph:
        ingestion = None if args.reuse else ingest(graph, settings, group, BOOK, None)
        try:
            items, _ = alias_items(CHARACTERS)
            owner_of = {alias: characters[cid] for cid, alias in items}
            top = lookup(settings, graph, group, sorted(owner_of))
            who = entity_characters(top, owner_of)
            net = interaction_network(graph, group, limit=500)
        finally:
            if not args.reuse:
                graph.query("MATCH (n {group_id: $g}) DETACH DELETE n", g=group)
    gold = pdnc_pairs(QUOTES)
    gold_rank = {pair: k + 1 for k, (pair, _) in enumerate(gold.most_common())}
    ours: list[dict[str, Any]] = []
    seen: set[frozenset[str]] = set()
    for i in net.interactions:
        pair = frozenset((who.get(i.a_uuid, i.a_name), who.get(i.b_uuid, i.b_name)))
        if len(pair) < 2 or pair in seen:  # two entities of one character: counted once, at its best
            continue
        seen.add(pair)
        ours.append({"pair": " - ".join(sorted(pair)), "weight": i.weight, "scenes": i.scenes, "quotes": i.quotes,
                     "pdnc_quotes": gold.get(pair, 0), "pdnc_rank": gold_rank.get(pair)})
        if len(ours) == args.top:
            break
    gold_top = [" - ".join(sorted(p)) for p, _ in gold.most_common(args.top)]
    overlap = len({o["pair"] for o in ours} & set(gold_top))
    result = {"command": "python -m bench.bench_network", "group": group, "ingestion": ingestion,
              f"top{args.top}_overlap_with_pdnc_top{args.top}": overlap, "ours": ours,
              "pdnc_top": [{"pair": " - ".join(sorted(p)), "quotes": n} for p, n in gold.most_common(args.top)]}
    print(json.dumps(result, indent=2))
    RESULTS.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
