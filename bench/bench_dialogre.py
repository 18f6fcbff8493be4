"""Relations stated in conversation: DialogRE dev precision / recall / F1 over the relations the table covers.

    .venv/bin/python -m bench.bench_dialogre [--limit N] [--through-api [--drop]] [--out PATH]

The measure of ``shared/data/relations/dialogre/README.md`` with the table of ``bench/dialogre.py`` (fixed before
any run). Every dialogue becomes one chat episode exactly as POST /v1/groups/{g}/episodes builds it.

``--in-process`` (default): the offline extractor (``SpacyExtractor().extract_many``) on all episodes, no database;
predicates named as the write path names them in a fresh group; the learnt speaker names are the aliases of the
entity extracted for a speaker.

``--through-api``: ``strata serve --inline`` in a subprocess (the configured extractor, STRATA_EXTRACTOR), every
dialogue posted into its own group ``bench-dialogre-<n>`` (dropped first, so a run starts clean; ``--drop`` deletes
them at the end), then GET /groups/{g}/facts (with history: a closed relation was still stated), GET /entities/{uuid}
for the facts' ends, and GET /groups/{g}/entities?name=Speaker N for the speakers' learnt names.

Writes bench/results/dialogre.json (through the API: dialogre_through_api.json; or --out): micro P/R/F1
over the covered relations (and without per:alternate_names), per relation, counts, predicates the table does
not map, examples right and wrong.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from bench import versions
from bench.dialogre import (
    DEV,
    INVERSE,
    PREDICATE_TABLE,
    Dialogue,
    Predicted,
    Statement,
    covered_relations,
    episode_body,
    from_extraction,
    from_listing,
    load_dialogues,
    predictions,
    score,
    speakers_of,
)

RESULTS = Path(__file__).resolve().parent / "results" / "dialogre.json"
RESULTS_API = Path(__file__).resolve().parent / "results" / "dialogre_through_api.json"
GOAL = {"precision": 0.6, "recall": 0.35}  # issue 14, over the covered relations, offline


def run_in_process(dialogues: list[Dialogue]) -> tuple[list[Predicted], Counter[str], dict[str, Any]]:
    from strata.ingest.extractors.spacy_extractor import SpacyExtractor
    from strata.memory.episodes import EpisodeIn, to_episode

    episodes = [to_episode(d.group, EpisodeIn.model_validate(episode_body(d)), 10**7) for d in dialogues]
    started = time.perf_counter()
    extractions = list(SpacyExtractor().extract_many(episodes))  # a generator: time the whole run
    seconds = time.perf_counter() - started
    predicted: list[Predicted] = []
    unmapped: Counter[str] = Counter()
    facts = 0
    for d, extraction in zip(dialogues, extractions, strict=True):
        statements, aliases = from_extraction(extraction, speakers_of(d))
        facts += len(extraction.facts)
        unmapped.update(s.predicate for s in statements if s.predicate not in PREDICATE_TABLE)
        predicted += predictions(d.index, statements, aliases)
    words = sum(len(e.content.split()) for e in episodes)
    return predicted, unmapped, {"extractor": "spacy", "facts": facts, "seconds": round(seconds, 1),
                                 "words_per_second": round(words / seconds) if seconds else None}


def run_through_api(dialogues: list[Dialogue], drop: bool) -> tuple[list[Predicted], Counter[str], dict[str, Any]]:
    import httpx

    from bench.bench_search import _free_port, _wait_ready
    from strata.graph import Graph, apply_migrations
    from strata.graph.bulk import delete_key, drop_group
    from strata.graph.keys import create_key
    from strata.schema.settings import Settings

    settings = Settings()
    port = _free_port()
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    server = subprocess.Popen([sys.executable, "-c", "from strata.api.cli import main; main()", "serve", "--inline",
                               "--host", "127.0.0.1", "--port", str(port)], env=env)
    predicted: list[Predicted] = []
    unmapped: Counter[str] = Counter()
    facts = failed = 0
    started = time.perf_counter()
    with Graph.from_settings(settings) as graph:
        apply_migrations(graph, settings.embedding_dim)
        key = create_key(graph, [d.group for d in dialogues], "rw", name="bench-dialogre")
        try:
            headers = {"Authorization": f"Bearer {key.token}"}
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", headers=headers, timeout=300) as http:
                _wait_ready(http, server, timeout_s=120)
                for d in dialogues:
                    drop_group(graph, d.group)
                    reply = http.post(f"/v1/groups/{d.group}/episodes", json=episode_body(d))
                    reply.raise_for_status()
                    if reply.json().get("status") not in (None, "done"):
                        failed += 1
                    statements, aliases = _read_back(http, d)
                    facts += len(statements)
                    unmapped.update(s.predicate for s in statements if s.predicate not in PREDICATE_TABLE)
                    predicted += predictions(d.index, statements, aliases)
        finally:
            server.terminate()
            server.wait(timeout=30)
            delete_key(graph, key.key.id)
            if drop:
                for d in dialogues:
                    drop_group(graph, d.group)
    return predicted, unmapped, {"extractor": settings.extractor, "facts": facts, "episodes_not_done": failed,
                                 "seconds": round(time.perf_counter() - started, 1)}


def _read_back(http: Any, d: Dialogue) -> tuple[list[Statement], dict[str, list[str]]]:
    items: list[dict[str, Any]] = []
    cursor = None
    while True:
        params: dict[str, Any] = {"include_history": "true", "limit": 1000, **({"cursor": cursor} if cursor else {})}
        page = http.get(f"/v1/groups/{d.group}/facts", params=params)
        page.raise_for_status()
        items += page.json()["items"]
        cursor = page.json()["next_cursor"]
        if not cursor:
            break
    entities: dict[str, dict[str, Any]] = {}
    for uuid in {u for f in items for u in (f["subject_uuid"], f["object_uuid"])}:
        reply = http.get(f"/v1/entities/{uuid}")
        reply.raise_for_status()
        entities[uuid] = reply.json()
    speakers: dict[str, dict[str, Any] | None] = {}
    for sid in speakers_of(d):
        reply = http.get(f"/v1/groups/{d.group}/entities", params={"name": sid, "limit": 5})
        reply.raise_for_status()
        exact = [c for c in reply.json()["candidates"] if c["channel"] == "key"]
        speakers[sid] = exact[0] if exact else None
    return from_listing(items, entities, speakers)


def _code_version() -> dict[str, Any]:
    """The commit measured, and whether the extractor's files differed from it (a run on work in progress)."""
    return versions.code_version(("ingest/extractors", "schema/ontology.json", "resolve"),
                                 "extractor_uncommitted_changes")


def _example(p: Predicted) -> dict[str, Any]:
    return {"dialogue": p.dialogue, "relation": p.relation, "x": sorted(p.x), "y": sorted(p.y), "from": p.why}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--in-process", dest="through_api", action="store_false", help="offline extractor (default)")
    mode.add_argument("--through-api", dest="through_api", action="store_true",
                      help="ingest and read back through the REST API (strata serve --inline)")
    parser.set_defaults(through_api=False)  # store_false would otherwise make the API the default
    parser.add_argument("--data", type=Path, default=DEV)
    parser.add_argument("--limit", type=int, default=0, help="only the first N dialogues")
    parser.add_argument("--drop", action="store_true", help="--through-api: delete the groups at the end")
    parser.add_argument("--examples", type=int, default=15)
    parser.add_argument("--out", type=Path, default=None,
                        help=f"default {RESULTS.name} (in process) or {RESULTS_API.name} (through the API)")
    args = parser.parse_args()
    if not args.data.exists():
        sys.exit(f"no data at {args.data} (DialogRE dev lives in ../shared beside the checkout)")
    dialogues = load_dialogues(args.data)[: args.limit or None]
    if args.through_api:
        predicted, unmapped, run = run_through_api(dialogues, args.drop)
    else:
        predicted, unmapped, run = run_in_process(dialogues)
    result = score(dialogues, predicted)
    report = {
        "dataset": f"DialogRE v2 {args.data.name}", "mode": "through-api" if args.through_api else "in-process",
        "dialogues": len(dialogues), "turns": sum(len(d.turns) for d in dialogues), **run, **_code_version(),
        "goal": GOAL, "micro": result["micro"], "micro_without_alternate_names": result["micro_facts"],
        "micro_on_annotated_pairs": result["micro_on_annotated_pairs"],
        "micro_without_alternate_names_on_annotated_pairs": result["micro_facts_on_annotated_pairs"],
        "per_relation": result["per_relation"],
        "covered_relations": sorted(covered_relations()),
        "unmapped_predicates": unmapped.most_common(30),
        "table": {k: list(v) for k, v in PREDICATE_TABLE.items()}, "inverse": INVERSE,
        "machine": platform.machine(),
        "examples": {"right": [_example(p) for p in result["right"][: args.examples]],
                     "wrong": [_example(p) for p in result["wrong"][: args.examples]]},
    }
    out = args.out or (RESULTS_API if args.through_api else RESULTS)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(json.dumps({k: v for k, v in report.items() if k not in ("examples", "table", "inverse", "per_relation",
                                                                     "covered_relations", "unmapped_predicates")}))
    for name, r in report["per_relation"].items():
        print(f"{name:28} P {r['precision']:.3f} R {r['recall']:.3f} F1 {r['f1']:.3f}  "
              f"correct {r['correct']}/{r['predicted']} predicted, found {r['found']}/{r['gold']} gold")


if __name__ == "__main__":
    main()
