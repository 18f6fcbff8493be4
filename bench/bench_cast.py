"""The cast of a novel from raw text: a novel through the real pipeline, scored on PDNC's aliases.

    .venv/bin/python -m bench.bench_cast [--label after] [--book PATH] [--reuse GROUP] [--keep]
    .venv/bin/python -m bench.bench_cast --novel DaisyMiller [--novel TheSignOfTheFour] [--label X] [--keep]
    .venv/bin/python -m bench.bench_cast --all [--label X]       # the eleven PDNC novels, one after another

Without ``--novel``/``--all``: the Gutenberg Pride and Prejudice against its PDNC list (the figures of
docs/resolution.md, written to bench/results/cast_pdnc_pp.json). With them: each named PDNC novel's own
``novel_text.txt`` against its own list, one group each, a per-novel table at the end, written to
bench/results/cast_pdnc.json under ``--label`` (one entry per novel, so runs on different novels add up).

The Gutenberg text is segmented as a book and every episode runs through the inline pipeline (offline spaCy
extractor, ONNX embedder, resolution, commit), as `strata ingest --inline` does. Then each alias of the PDNC
character list is looked up the way a user would, `GET /v1/groups/{g}/entities?name=<alias>`, and its top
candidate is taken as its entity. Scored as pairs of aliases ("same character"): a pair is predicted same
when both aliases' top candidates are one entity; gold same when they belong to one character (or to two
list entries the list itself names twice). An alias listed under two characters is left out (one lookup
cannot answer both).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import uuid
from collections import Counter
from itertools import combinations
from pathlib import Path
from typing import Any

from strata.graph import Graph, apply_migrations
from strata.graph.keys import create_key
from strata.ingest.sources import count_tokens, load_source
from strata.ingest.submit import submit_document
from strata.ingest.tasks import build_pipeline
from strata.ingest.testing.pp_resolution import KNOWN_DUPLICATES, load_characters
from strata.resolve.normalize import fold_name
from strata.schema.settings import Settings

REPO = Path(__file__).resolve().parent.parent
DATA = REPO.parent / "shared" / "data"
BOOK = DATA / "books" / "pride_and_prejudice_pg1342.txt"
CHARACTERS = DATA / "entity_resolution" / "pdnc" / "PrideAndPrejudice" / "character_info.csv"
RESULTS = REPO / "bench" / "results" / "cast_pdnc_pp.json"
PDNC = DATA / "entity_resolution" / "pdnc"
NOVEL_RESULTS = REPO / "bench" / "results" / "cast_pdnc.json"


def ingest(graph: Graph, settings: Settings, group: str, book: Path, limit: int | None) -> dict[str, Any]:
    doc = load_source(book, "book", group_id=group, book_window_tokens=settings.book_window_tokens,
                      max_episode_chars=settings.max_episode_chars)
    if limit:
        doc = doc.model_copy(update={"episodes": doc.episodes[:limit]})
    words = sum(len(e.content.split()) for e in doc.episodes)
    pipeline = build_pipeline(settings, graph)
    started = time.perf_counter()
    info = submit_document(graph, None, doc, inline_pipeline=pipeline)
    wall = time.perf_counter() - started
    return {"episodes": info.total, "done": info.done, "failed": info.failed, "words": words,
            "tokens": sum(count_tokens(e.content) for e in doc.episodes), "wall_s": round(wall, 1),
            "words_per_s_one_process": round(words / wall, 1)}


def alias_items(path: Path) -> tuple[list[tuple[str, str]], int]:
    """(character id, alias) pairs; an alias listed under two characters is dropped (counted)."""
    characters = load_characters(path)
    owners: dict[str, set[str]] = {}
    for c in characters:
        for alias in {c.name, *c.aliases}:
            owners.setdefault(fold_name(alias), set()).add(c.id)
    same_person = {frozenset(ids) for pair in KNOWN_DUPLICATES
                   if len(ids := {c.id for c in characters if c.name in pair}) == 2}
    items, dropped = [], 0
    for c in characters:
        for alias in sorted({c.name, *c.aliases}, key=fold_name):
            ids = owners[fold_name(alias)]
            if len(ids) > 1 and frozenset(ids) not in same_person:
                dropped += 1
                continue
            if (min(ids), alias) not in items:
                items.append((min(ids), alias))
    return items, dropped


def lookup(settings: Settings, graph: Graph, group: str, names: list[str]) -> dict[str, dict[str, Any] | None]:
    from fastapi.testclient import TestClient

    from strata.api.app import create_app

    key = create_key(graph, [group], "r", name="bench-cast")
    headers = {"Authorization": f"Bearer {key.token}"}
    out: dict[str, dict[str, Any] | None] = {}
    try:
        with TestClient(create_app(settings)) as client:
            for name in names:
                r = client.get(f"/v1/groups/{group}/entities", params={"name": name, "limit": 1}, headers=headers)
                r.raise_for_status()
                cands = r.json()["candidates"]
                out[name] = cands[0] if cands else None
    finally:
        graph.query("MATCH (k:ApiKey {id: $id}) DETACH DELETE k", id=key.key.id)
    return out


def score_pairs(items: list[tuple[str, str]], top: dict[str, dict[str, Any] | None],
                same_character: set[frozenset[str]]) -> dict[str, Any]:
    tp = fp = fn = 0
    wrong: Counter[tuple[str, str]] = Counter()
    missed: Counter[tuple[str, str]] = Counter()
    for (ca, a), (cb, b) in combinations(items, 2):
        gold = ca == cb or frozenset({ca, cb}) in same_character
        ta, tb = top[a], top[b]
        pred = ta is not None and tb is not None and ta["uuid"] == tb["uuid"]
        if pred and gold:
            tp += 1
        elif pred:
            fp += 1
            wrong[(a, b)] += 1
        elif gold:
            fn += 1
            missed[(a, b)] += 1
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    return {"pairs_gold": tp + fn, "pairs_predicted": tp + fp, "true_pairs": tp,
            "precision": round(precision, 3), "recall": round(recall, 3),
            "wrong_pairs": [f"{a} = {b}" for a, b in sorted(wrong)][:40],
            "missed_pairs": [f"{a} / {b}" for a, b in sorted(missed)][:60]}


def cast_summary(graph: Graph, group: str) -> dict[str, Any]:
    rows = graph.query("MATCH (e:Entity {group_id: $g}) WHERE e.expired_at IS NULL "
                       "OPTIONAL MATCH (e)<-[m:MENTIONS]-() "
                       "RETURN e.name AS name, e.type AS type, count(m) AS episodes ORDER BY episodes DESC", g=group)
    types = Counter(r["type"] for r in rows)
    return {"entities": len(rows), "types": dict(types.most_common()),
            "top_entities": [f"{r['name']} ({r['type']}, {r['episodes']})" for r in rows[:40]]}


def run_one(graph: Graph, settings: Settings, book: Path, characters_csv: Path, group: str | None,
            limit: int | None, keep: bool, command: str) -> dict[str, Any]:
    """Ingest ``book`` into a fresh group (or score ``group`` as it is) and score the lookup of every alias."""
    reuse = group is not None
    group = group or f"bench-cast-{uuid.uuid4().hex[:8]}"
    ingestion = None if reuse else ingest(graph, settings, group, book, limit)
    try:
        items, dropped = alias_items(characters_csv)
        characters = load_characters(characters_csv)
        same = {frozenset({c.id for c in characters if c.name in pair}) for pair in KNOWN_DUPLICATES}
        top = lookup(settings, graph, group, sorted({a for _, a in items}))
        scores = score_pairs(items, top, same)
        found = {a: (t["name"] if t else None) for a, t in top.items()}
        return {"command": command, "book": book.name, "group": group, "ingestion": ingestion,
                "aliases": len(items), "aliases_dropped_shared": dropped,
                "aliases_without_candidate": sum(1 for t in top.values() if t is None),
                **scores, "cast": cast_summary(graph, group), "top_candidate": found}
    finally:
        if not (keep or reuse):
            graph.query("MATCH (n {group_id: $g}) DETACH DELETE n", g=group)


def novel_table(results: dict[str, dict[str, Any]]) -> str:
    """Per novel, then pooled over the fitted and held-out author folds of bench_names (pairs summed) and the
    mean over authors (each author's novels averaged first)."""
    rows = ["| novel | fold | entities | aliases | no candidate | precision | recall | gold pairs | "
            "words/s (one process) |", "|---|---|---|---|---|---|---|---|---|"]
    for name, r in sorted(results.items()):
        ing = r.get("ingestion") or {}
        rows.append(f"| {name} | {_fold(name)} | {r['cast']['entities']} | {r['aliases']} | "
                    f"{r['aliases_without_candidate']} | {r['precision']:.3f} | {r['recall']:.3f} | "
                    f"{r['pairs_gold']} | {ing.get('words_per_s_one_process', '')} |")
    for fold in ("fitted", "held_out", "all"):
        chosen = {n: r for n, r in results.items() if fold == "all" or _fold(n) == fold}
        if not chosen:
            continue
        pooled = pool(chosen.values())
        means = author_means(chosen)
        rows.append(f"| **{fold}**: pooled / mean of {means['authors']} authors | | | {pooled['aliases']} | "
                    f"{pooled['no_candidate']} ({pooled['no_candidate_share']:.1%}) | {pooled['precision']:.3f} / "
                    f"{means['precision']:.3f} | {pooled['recall']:.3f} / {means['recall']:.3f} | "
                    f"{pooled['gold_pairs']} | |")
    return "\n".join(rows)


def fitted_errors(results: dict[str, dict[str, Any]]) -> str:
    """The errors of the fitted authors' novels only: the held-out ones are scored, never read."""
    out = []
    for name, r in sorted(results.items()):
        if _fold(name) != "fitted":
            continue
        none = sorted(a for a, t in r["top_candidate"].items() if t is None)
        out += [f"## {name}", "wrong: " + "; ".join(r["wrong_pairs"]), "missed: " + "; ".join(r["missed_pairs"]),
                "finding nothing: " + "; ".join(none)]
    return "\n".join(out)


def _fold(novel: str) -> str:
    from bench.bench_names import AUTHORS, FITTED_ON

    return "fitted" if AUTHORS.get(novel) in FITTED_ON else "held_out"


def pool(results: Any) -> dict[str, Any]:
    """Pairs summed over novels (the issue's pooled figure) and the share of aliases finding nothing."""
    results = list(results)
    tp = sum(r["true_pairs"] for r in results)
    predicted = sum(r["pairs_predicted"] for r in results)
    gold = sum(r["pairs_gold"] for r in results)
    aliases = sum(r["aliases"] for r in results)
    none = sum(r["aliases_without_candidate"] for r in results)
    return {"precision": round(tp / predicted, 3) if predicted else 1.0, "recall": round(tp / gold, 3) if gold else 0.0,
            "gold_pairs": gold, "aliases": aliases, "no_candidate": none,
            "no_candidate_share": none / aliases if aliases else 0.0}


def author_means(results: dict[str, dict[str, Any]]) -> dict[str, Any]:
    from bench.bench_names import AUTHORS

    by_author: dict[str, list[dict[str, Any]]] = {}
    for name, r in results.items():
        by_author.setdefault(AUTHORS.get(name, name), []).append(r)
    out: dict[str, Any] = {"authors": len(by_author)}
    for key in ("precision", "recall"):
        per = [sum(r[key] for r in rs) / len(rs) for rs in by_author.values()]
        out[key] = round(sum(per) / len(per), 3) if per else 0.0
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--label", default="current")
    ap.add_argument("--book", type=Path, default=BOOK)
    ap.add_argument("--novel", action="append", help="a PDNC novel folder name (repeatable): its own text and list")
    ap.add_argument("--all", action="store_true", help="every PDNC novel, one after another (hours)")
    ap.add_argument("--reuse", help="score an already ingested group (no ingestion; one novel)")
    ap.add_argument("--limit", type=int, help="only the first N episodes (quick runs; not a figure)")
    ap.add_argument("--keep", action="store_true", help="keep the group for inspection")
    ap.add_argument("--table", metavar="LABEL", help="print the per-novel table of a stored label and exit")
    ap.add_argument("--show-errors", action="store_true",
                    help="with --table: the wrong and missed pairs and the aliases finding nothing, fitted novels only")
    args = ap.parse_args()
    if args.table:
        stored_label = json.loads(NOVEL_RESULTS.read_text())[args.table]
        print(novel_table(stored_label))
        if args.show_errors:
            print(fitted_errors(stored_label))
        return
    settings = Settings()
    command = "python -m bench.bench_cast " + " ".join(sys.argv[1:])
    novels = sorted(p.name for p in PDNC.iterdir() if (p / "character_info.csv").exists()) if args.all else \
        (args.novel or [])
    if novels and args.reuse and len(novels) > 1:
        raise SystemExit("--reuse scores one group: name one --novel")
    with Graph.from_settings(settings) as graph:
        apply_migrations(graph, settings.embedding_dim)  # a fresh store has no indexes before the API's first start
        if not novels:
            result = run_one(graph, settings, args.book, CHARACTERS, args.reuse, args.limit, args.keep, command)
            print(json.dumps({k: v for k, v in result.items() if k != "top_candidate"}, indent=2))
            stored = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
            if not args.limit:
                stored[args.label] = result
                RESULTS.write_text(json.dumps(stored, indent=2) + "\n")
            return
        results: dict[str, dict[str, Any]] = {}
        for name in novels:
            folder = PDNC / name
            results[name] = run_one(graph, settings, folder / "novel_text.txt", folder / "character_info.csv",
                                    args.reuse, args.limit, args.keep, command)
            r = results[name]
            print(f"{name}: P {r['precision']:.3f} R {r['recall']:.3f}, {r['cast']['entities']} entities, "
                  f"{r['aliases_without_candidate']} of {r['aliases']} aliases find nothing", flush=True)
            if not args.limit:  # after each novel, so a long --all run keeps what it measured
                stored = json.loads(NOVEL_RESULTS.read_text()) if NOVEL_RESULTS.exists() else {}
                stored.setdefault(args.label, {})[name] = r
                NOVEL_RESULTS.write_text(json.dumps(stored, indent=2) + "\n")
    print(novel_table(results))


if __name__ == "__main__":
    main()
