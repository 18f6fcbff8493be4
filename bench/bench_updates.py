"""Knowledge updates told in plain chat (issue 29): does the memory answer what holds now and what held then?

    .venv/bin/python -m bench.bench_updates [--label before] [--limit-offices N] [--people N] [--keep]

The world (``bench/updates_world.py``): the office-holder table ``shared/data/temporal_facts/dyknow_leaders.csv``
(every row a start, ends where nobody follows at once) and residence, employment, team and marriage changes of a
fictional cast, told by Ana and Ben in a chat, one session per date, in the phrasings of ``bench/updates_phrasings.py``
(each slot in its half's phrasings: ``tune`` or ``check``; the check half is the one that matters). The chat is
ingested as one ``sessions-json`` source through the real pipeline in process (offline spaCy extractor, the shipped
ONNX MiniLM embedder) into a fresh group, deleted at the end unless ``--keep``.

Questions per slot: now (three wordings), "in YEAR" (years with one holder on 1 July, at most four, spread over its
holders) and the now question with ``as_of`` = YEAR-07-01. Each answered by (``bench/updates_score.py``): the first
of the slot's values that ``Memory.search``'s ranked hits name (entity hits skipped); the first the ``Memory.context``
block names; BM25 over the raw messages, first value named; BM25 top 10 said by the time asked, latest first.
Writes ``bench/results/updates.json`` under ``--label`` (other labels kept).

From Python: ``run(Options(label="after"))`` returns the report; ``save(report, label)`` merges it into the file;
``table(report["summary"])`` renders it.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
import uuid
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from bench import versions
from bench.updates_score import (
    BM25,
    block_body,
    bm25_first,
    bm25_latest,
    first_named,
    hit_text,
    right,
    summarize,
    table,
)
from bench.updates_world import LEADERS, SEED, World, build_world

RESULTS = Path(__file__).resolve().parent / "results" / "updates.json"
EXAMPLES = 6  # wrong answers kept per kind and system


@dataclass(frozen=True)
class Options:
    label: str = "dev"
    leaders: Path = LEADERS
    limit_offices: int = 0  # 0: every office
    people: int = 36
    seed: int = SEED
    hits: int = 20  # search hits asked per question
    budget: int = 1000  # context block tokens
    keep: bool = False
    group: str | None = None
    note: str = ""  # said in the report (what code was measured, when git cannot tell)


def baselines(world: World) -> list[dict[str, str | None]]:
    """The two raw-message readers' answers, question by question."""
    messages = world.messages()
    texts = [t for t, _, _ in messages]
    stamps = [s for _, s, _ in messages]
    bm25 = BM25(texts)
    out = []
    for q in world.questions:
        ranked = bm25.rank(q.text)
        out.append({"bm25_first": bm25_first(ranked, texts, q.values),
                    "bm25_latest": bm25_latest(ranked, texts, stamps, q.values, q.asked)})
    return out


def ingest(memory: Any, group: str, world: World) -> dict[str, Any]:
    """The chat as one sessions-json source, every episode run in this process."""
    data = json.dumps({"sessions": world.sessions}, ensure_ascii=False).encode("utf-8")
    started = time.perf_counter()
    job = memory.add_source(group, data, "sessions-json", "updates-chat.json", agent="bench")
    seconds = time.perf_counter() - started
    return {"episodes": job.total, "done": job.done, "failed": job.failed, "facts": job.facts,
            "seconds": round(seconds, 1), "episodes_per_second": round(job.total / seconds, 2) if seconds else None}


def ask(memory: Any, group: str, world: World, hits: int, budget: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Search and context answers, question by question, and how long the asks took."""
    from strata.memory import ContextRequest, SearchRequest

    out, search_s, context_s = [], 0.0, 0.0
    for q in world.questions:
        t0 = time.perf_counter()
        result = memory.search(group, SearchRequest(q=q.text, limit=hits, as_of=q.as_of))
        t1 = time.perf_counter()
        block = memory.context(group, ContextRequest(q=q.text, budget_tokens=budget, as_of=q.as_of))
        context_s += time.perf_counter() - t1
        search_s += t1 - t0
        found = first_named((hit_text(h) for h in result.hits), q.values)
        said = [hit_text(h) for h in result.hits]
        out.append({"search": found, "context": first_named([block_body(block.text)], q.values),
                    "top": next((t for t in said if t), None)})
    n = max(len(world.questions), 1)
    return out, {"search_ms_mean": round(1000 * search_s / n, 1), "context_ms_mean": round(1000 * context_s / n, 1)}


def graph_shape(memory: Any, group: str) -> dict[str, Any]:
    """What the graph holds after ingestion: predicates of all facts (history included), open and closed."""
    from strata.memory import FactsRequest

    predicates: Counter[str] = Counter()
    closed = 0
    for f in memory.all_facts(group, FactsRequest(include_history=True, limit=1000)):
        predicates[f.predicate] += 1
        closed += f.invalid_at is not None
    return {"facts": sum(predicates.values()), "closed": closed, "predicates": predicates.most_common(20)}


def code_version() -> dict[str, Any]:
    """The commit measured and the code folders that differ from it (a run on work in progress)."""
    return {**versions.code_version(("ingest", "resolve", "graph", "schema", "api"), "code_uncommitted_changes"),
            "code_root": str(versions.ROOT)}


def run(opts: Options) -> dict[str, Any]:
    """Build the world, ingest it into a fresh group, ask, score; the report (not saved)."""
    from strata.graph.bulk import drop_group
    from strata.memory import Memory, build_runtime
    from strata.schema.settings import Settings

    world = build_world(opts.leaders, opts.limit_offices, opts.people, opts.seed)
    print(f"{len(world.changes)} changes, {len(world.sessions)} sessions, {len(world.questions)} questions",
          file=sys.stderr, flush=True)
    settings = Settings(extractor="spacy", embedder="onnx-minilm")
    group = opts.group or f"bench-updates-{uuid.uuid4().hex[:8]}"
    with build_runtime(settings, pipeline=True, migrate=True) as rt:
        memory = Memory(rt)
        try:
            loaded = ingest(memory, group, world)
            print(f"ingested into {group}: {loaded}", file=sys.stderr, flush=True)
            started = time.perf_counter()
            answers, latency = ask(memory, group, world, opts.hits, opts.budget)
            asked_s = time.perf_counter() - started
            shape = graph_shape(memory, group)
        finally:
            if not opts.keep:
                drop_group(rt.graph, group)
    readers = baselines(world)
    rows = []
    for q, a, b in zip(world.questions, answers, readers, strict=True):
        answered = {"search": a["search"], "context": a["context"], **b}
        rows.append({"kind": q.slot.kind, "half": q.slot.half, "qtype": q.qtype, "slot": q.slot.label,
                     "question": q.text, "as_of": q.as_of.date().isoformat() if q.as_of else None, "gold": q.gold,
                     "answers": answered, "top_hit": a["top"],
                     **{s: right(v, q.gold) for s, v in answered.items()}})
    options = {k: str(v) if isinstance(v, Path) else v for k, v in asdict(opts).items()}
    return {"label": opts.label, **code_version(), "note": opts.note, "options": options,
            "group": group if opts.keep else None, "extractor": settings.extractor, "embedder": settings.embedder,
            "world": {"changes": len(world.changes), "sessions": len(world.sessions),
                      "messages": sum(len(s["messages"]) for s in world.sessions),
                      "questions": Counter(f"{q.slot.kind}/{q.slot.half}/{q.qtype}" for q in world.questions),
                      "slots": Counter(f"{c.slot.kind}/{c.slot.half}" for c in {c.slot: c for c in world.changes}
                                       .values()),
                      "phrasing_use": world.phrasing_use},
            "ingest": loaded, "ask_seconds": round(asked_s, 1), **latency, "graph": shape,
            "summary": summarize(rows), "wrong_examples": _wrong(rows), "machine": platform.machine()}


def _wrong(rows: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for system in ("search", "context"):
        for r in rows:
            bucket = out.setdefault(f"{r['kind']}/{system}", [])
            if not r[system] and len(bucket) < EXAMPLES:
                bucket.append({k: r[k] for k in ("question", "as_of", "gold")} | {"answer": r["answers"][system],
                                                                                  "top_hit": r["top_hit"]})
    return out


def save(report: dict[str, Any], label: str, out: Path = RESULTS) -> None:
    """Merge under ``label`` into the results file (other labels stay)."""
    saved = json.loads(out.read_text(encoding="utf-8")) if out.exists() else {}
    saved[label] = report
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(saved, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--label", default="dev", help="the run's name in the results file (before, after, ...)")
    parser.add_argument("--leaders", type=Path, default=LEADERS)
    parser.add_argument("--limit-offices", type=int, default=0, help="only N offices, half from each half")
    parser.add_argument("--people", type=int, default=36, help="the fictional cast's size (at most 36)")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--hits", type=int, default=20, help="search hits asked per question")
    parser.add_argument("--budget", type=int, default=1000, help="context block tokens")
    parser.add_argument("--keep", action="store_true", help="keep the group (its name is in the report)")
    parser.add_argument("--group", default=None, help="the group to ingest into (default: a fresh random name)")
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument("--note", default="", help="a line for the report (e.g. which code was measured)")
    args = parser.parse_args()
    if not args.leaders.exists():
        sys.exit(f"no data at {args.leaders} (the leaders table lives in ../shared beside the checkout)")
    opts = Options(label=args.label, leaders=args.leaders, limit_offices=args.limit_offices, people=args.people,
                   seed=args.seed, hits=args.hits, budget=args.budget, keep=args.keep, group=args.group,
                   note=args.note)
    began = time.perf_counter()
    report = run(opts)
    report["seconds"] = round(time.perf_counter() - began, 1)
    save(report, args.label, args.out)
    print(table(report["summary"]))
    print(f"ingest {report['ingest']['seconds']} s ({report['ingest']['episodes_per_second']} episodes/s), "
          f"asks {report['ask_seconds']} s (search {report['search_ms_mean']} ms, context "
          f"{report['context_ms_mean']} ms mean), whole run {report['seconds']} s")


if __name__ == "__main__":
    main()
