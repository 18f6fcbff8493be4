"""Relations the offline extractor reads out of a novel's narration: facts per chapter window, the predicate
distribution, the rule layer's time per window, and a seeded random sample of facts to judge by hand.

    .venv/bin/python -m bench.bench_book_relations [--books pp,alice,holmes] [--sample 40] [--out PATH]

A "relation" is a fact whose predicate is a canonical predicate of schema/ontology.json (spouse_of, visits, ...);
the generic subject-verb-object rule's other facts ("take_before") are counted apart. Front matter windows are
left out of the per-window figures. Judgments live in the results file itself: each sampled fact may carry a
"verdict" ("ok" or "wrong"), kept across re-runs when the same fact and sentence are sampled again.
Data is read from ../shared/data (never copied).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import time
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from strata.ingest.extractors import SpacyExtractor
from strata.ingest.extractors.interactions import PREDICATE as SPOKE_TO
from strata.ingest.extractors.interactions import with_interactions
from strata.ingest.extractors.spacy_extractor import load_nlp
from strata.ingest.sources import load_source
from strata.resolve.ontology import load_ontology
from strata.schema.models import Episode, Extraction
from strata.schema.settings import Settings

REPO = Path(__file__).resolve().parent.parent
BOOKS = REPO.parent / "shared" / "data" / "books"
FILES = {
    "pp": "pride_and_prejudice_pg1342.txt",
    "alice": "alice_in_wonderland_pg11.txt",
    "holmes": "adventures_of_sherlock_holmes_pg1661.txt",
}
SAMPLED_BOOK = "pp"
SEED = 1342


class _TimedNlp:
    """The spaCy pipeline with the time spent parsing counted, so the rule layer's share can be told apart."""

    def __init__(self) -> None:
        self.nlp = load_nlp()
        self.seconds = 0.0

    def pipe(self, texts: list[str], batch_size: int = 16) -> Iterator[Any]:
        docs = iter(self.nlp.pipe(texts, batch_size=batch_size))
        while True:
            t0 = time.perf_counter()
            doc = next(docs, None)
            self.seconds += time.perf_counter() - t0
            if doc is None:
                return
            yield doc


def _episodes(name: str) -> list[Episode]:
    cfg = Settings()
    doc = load_source(BOOKS / FILES[name], "book", group_id="bench", book_window_tokens=cfg.book_window_tokens)
    return [e for e in doc.episodes if e.chapter != "Front matter"]


def _sentence(episode: Episode, start: int, end: int) -> str:
    return " ".join(episode.content[start:end].split())


def run_book(name: str) -> tuple[dict[str, Any], list[tuple[Episode, Extraction]]]:
    episodes = _episodes(name)
    timed = _TimedNlp()
    extractor = SpacyExtractor(nlp=timed)  # type: ignore[arg-type]
    t0 = time.perf_counter()
    # as ingestion sees them: attributed quotes add spoke_to facts (ingest/pipeline.py)
    results = [with_interactions(r) for r in extractor.extract_many(episodes)]
    total = time.perf_counter() - t0
    predicates = load_ontology().predicates
    per_window = [len(r.facts) for r in results]
    relations = [sum(1 for f in r.facts if f.predicate in predicates) for r in results]
    spoken = [sum(1 for f in r.facts if f.predicate == SPOKE_TO) for r in results]
    dist = Counter(f.predicate + (" (not)" if f.negated else "") for r in results for f in r.facts
                   if f.predicate in predicates)
    n = len(episodes)
    words = sum(len(e.content.split()) for e in episodes)
    summary = {
        "windows": n, "words": words,
        "facts_per_window": round(sum(per_window) / n, 2),
        "relations_per_window": round(sum(relations) / n, 2),
        "narration_relations_per_window": round((sum(relations) - sum(spoken)) / n, 2),
        "spoke_to_per_window": round(sum(spoken) / n, 2),
        "windows_without_relations": sum(1 for k in relations if k == 0),
        "first_six_windows_relations": relations[:6],
        "predicates": dict(dist.most_common()),
        "seconds_total": round(total, 2),
        "seconds_per_window": round(total / n, 3),
        "rule_seconds_per_window": round((total - timed.seconds) / n, 3),
        "words_per_s": round(words / total),
    }
    return summary, list(zip(episodes, results, strict=True))


def sample(pairs: list[tuple[Episode, Extraction]], k: int, previous: dict[tuple[str, ...], str]) -> list[dict]:
    predicates = load_ontology().predicates
    pool = []
    for episode, result in pairs:
        for f in result.facts:
            if f.predicate in predicates and f.predicate != SPOKE_TO and f.spans:  # quotes: bench_quotes
                sentence = _sentence(episode, f.spans[0].start, f.spans[0].end)
                pool.append({"chapter": episode.chapter, "subject": f.subject, "predicate": f.predicate,
                             "object": f.object, "negated": f.negated, "fact": f.fact, "sentence": sentence})
    picked = random.Random(SEED).sample(pool, min(k, len(pool)))
    for item in picked:
        verdict = previous.get(_key(item))
        if verdict:
            item["verdict"] = verdict
    return picked


def _key(item: dict) -> tuple[str, ...]:
    return (item["subject"], item["predicate"], item["object"], str(item["negated"]), item["sentence"])


def _previous_verdicts(path: Path) -> dict[tuple[str, ...], str]:
    if not path.exists():
        return {}
    old = json.loads(path.read_text())
    return {_key(i): i["verdict"] for i in old.get("sample", []) if i.get("verdict")}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--books", default="pp,alice,holmes")
    parser.add_argument("--sample", type=int, default=40)
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "book_relations.json")
    opts = parser.parse_args()
    out: dict[str, Any] = {"when": datetime.now(UTC).isoformat(timespec="seconds"), "python": platform.python_version(),
                           "window_tokens": Settings().book_window_tokens, "books": {}}
    sampled: list[dict] = []
    for name in opts.books.split(","):
        summary, pairs = run_book(name)
        out["books"][name] = summary
        if name == SAMPLED_BOOK:
            sampled = sample(pairs, opts.sample, _previous_verdicts(opts.out))
    judged = [i for i in sampled if i.get("verdict") in ("ok", "wrong")]
    out["sample_precision"] = {
        "judged": len(judged), "ok": sum(1 for i in judged if i["verdict"] == "ok"),
        "precision": round(sum(1 for i in judged if i["verdict"] == "ok") / len(judged), 3) if judged else None,
    }
    out["sample"] = sampled
    opts.out.write_text(json.dumps(out, indent=2, ensure_ascii=False) + "\n")
    print(json.dumps({k: v for k, v in out.items() if k != "sample"}, indent=2))


if __name__ == "__main__":
    main()
