"""Quote speaker and addressee accuracy of the offline extractor on the PDNC Pride and Prejudice annotations.

    .venv/bin/python -m bench.bench_quotes [--limit N]
    .venv/bin/python -m bench.bench_quotes --novel DaisyMiller [--novel ...] | --all  [--label X]

The novel goes through the ingestion windowing (ingest/sources/book.py, the default window size) and the
offline extractor; each gold quote is aligned with the predicted quote overlapping it most. Accuracy is over
ALL gold quotes: a quote that was missed or got no speaker counts as wrong. A predicted name is right when it
is one of the gold character's aliases (character_info.csv, honorifics and a leading article folded; a gold
speaker the annotation names by an alias, "Kemp" for "The Doctor", is that character); a name several characters
share ("Miss Bennet") is right only if the gold character is among them, and those cases are counted.
A second book (Alice in Wonderland) is run without gold to see how many of its quotes get a speaker.
Data is read in place from ../shared/data; writes bench/results/quotes_pdnc_pp.json. With ``--novel``/``--all``
each named PDNC novel is scored the same way (no second book), a per-novel table is printed, and the results go
to bench/results/quotes_pdnc.json under ``--label``, one entry per novel (so runs on different novels add up).
"""

from __future__ import annotations

import argparse
import ast
import csv
import json
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from strata.resolve.normalize import fold_name, match_form

REPO = Path(__file__).resolve().parent.parent
DATA = REPO.parent / "shared" / "data"
PDNC_ROOT = DATA / "entity_resolution" / "pdnc"
PDNC = PDNC_ROOT / "PrideAndPrejudice"
NOVELS_OUT = REPO / "bench" / "results" / "quotes_pdnc.json"
SECOND_BOOK = DATA / "books" / "alice_in_wonderland_pg11.txt"
OUT = REPO / "bench" / "results" / "quotes_pdnc_pp.json"
# Which novels' errors were read to design the quote rules (an author is a fold); the others are only scored.
FOLDS = {**dict.fromkeys(["PrideAndPrejudice", "Emma", "OliverTwist", "TheSignOfTheFour", "TheInvisibleMan",
                          "AnneOfGreenGables"], "fitted"),
         **dict.fromkeys(["DaisyMiller", "HowardsEnd", "TheAgeOfInnocence", "TheMysteriousAffairAtStyles",
                          "ThePictureOfDorianGray"], "held out")}
_FAMILY_TITLES = frozenset({"miss", "mr", "mrs", "master", "ms"})


@dataclass(frozen=True)
class GoldQuote:
    id: str
    text: str
    spans: tuple[tuple[int, int], ...]
    speaker: str  # the character's main name
    addressees: tuple[str, ...]
    type: str  # Explicit / Anaphoric / Implicit


@dataclass(frozen=True)
class PredictedQuote:
    """A predicted quote with offsets into the whole book."""

    text: str
    spans: tuple[tuple[int, int], ...]
    speaker: str | None
    addressees: tuple[str, ...]
    method: str | None
    narrator: bool = False
    window: int = 0


@dataclass
class Score:
    total: int = 0
    found: int = 0
    right: int = 0
    ambiguous_right: int = 0
    ambiguous_wrong: int = 0
    family_name_wrong: int = 0  # wrong, but the name is a title and the gold speaker's surname ("Miss Hale")
    by_type: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    by_method: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    addressee_total: int = 0
    addressee_right: int = 0
    right_examples: list[dict[str, Any]] = field(default_factory=list)
    wrong_examples: list[dict[str, Any]] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        def acc(c: Counter[str]) -> dict[str, Any]:
            return {"quotes": c["total"], "right": c["right"], "accuracy": round(c["right"] / max(c["total"], 1), 3)}

        return {
            "gold_quotes": self.total,
            "aligned": self.found,
            "speaker_right": self.right,
            "speaker_accuracy": round(self.right / max(self.total, 1), 3),
            "ambiguous_names": {"right": self.ambiguous_right, "wrong": self.ambiguous_wrong},
            "family_name_wrong": self.family_name_wrong,
            "by_quote_type": {k: acc(v) for k, v in sorted(self.by_type.items())},
            "by_method": {k: acc(v) for k, v in sorted(self.by_method.items())},
            "addressee": {"gold_quotes_with_addressee": self.addressee_total, "right": self.addressee_right,
                          "accuracy": round(self.addressee_right / max(self.addressee_total, 1), 3)},
        }


class Characters:
    """Folded alias -> ids of the characters that go by it."""

    def __init__(self, rows: Iterable[dict[str, str]]) -> None:
        self.by_alias: dict[str, set[str]] = defaultdict(set)
        self.id_of: dict[str, str] = {}
        for row in rows:
            cid, main = row["Character ID"], row["Main Name"].strip()
            self.id_of[main] = cid
            for alias in {main, *_aliases(row["Aliases"])}:
                self.by_alias[fold_name(alias)].add(cid)
                if match_form(alias) != fold_name(alias):
                    self.by_alias[match_form(alias)].add(cid)

    def family_name(self, name: str | None, gold: str) -> bool:
        """``name`` is a title and a surname the gold character bears ("Miss Hale" for Anna Hale), which the
        alias list may give to a sister: the reader cannot tell them apart without the scene."""
        words = fold_name(name).split() if name else []
        if len(words) != 2 or words[0] not in _FAMILY_TITLES:
            return False
        cid = self.gold_id(gold)
        return any(words[1] in alias.split()[1:] for alias, ids in self.by_alias.items() if cid in ids)

    def ids(self, name: str | None) -> set[str]:
        if not name:
            return set()
        # "The Voice" and "Voice" are one name: the alias lists keep articles the text drops
        return set(self.by_alias.get(fold_name(name), set())) or set(self.by_alias.get(match_form(name), set()))

    def gold_id(self, name: str) -> str | None:
        """The id of a gold speaker or addressee: the annotation names some characters by an alias rather than
        their main name ("Kemp" for "The Doctor"); an alias two characters share names neither."""
        if name in self.id_of:
            return self.id_of[name]
        ids = self.ids(name)
        return next(iter(ids)) if len(ids) == 1 else None


def _aliases(cell: str) -> set[str]:
    value = ast.literal_eval(cell.strip()) if cell.strip() else []
    return {str(v) for v in value}


def load_gold(folder: Path) -> tuple[list[GoldQuote], Characters, str]:
    with (folder / "character_info.csv").open(encoding="utf-8") as fh:
        characters = Characters(csv.DictReader(fh))
    quotes = []
    with (folder / "quotation_info.csv").open(encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            quotes.append(GoldQuote(
                id=row["quoteID"], text=row["quoteText"],
                spans=tuple(tuple(s) for s in ast.literal_eval(row["quoteByteSpans"])),  # type: ignore[misc]
                speaker=row["speaker"], addressees=tuple(ast.literal_eval(row["addressees"] or "[]")),
                type=row["quoteType"]))
    # The spans are character offsets (the file is ASCII, so bytes and characters agree; checked here).
    text = (folder / "novel_text.txt").read_text(encoding="utf-8")
    bad = [q.id for q in quotes if any(not text[a:b].strip() for a, b in q.spans)]
    if bad:
        raise ValueError(f"{len(bad)} gold spans do not fall on text, e.g. {bad[:3]}")
    return quotes, characters, text


def _overlap(a: Sequence[tuple[int, int]], b: Sequence[tuple[int, int]]) -> int:
    return sum(max(0, min(e1, e2) - max(s1, s2)) for s1, e1 in a for s2, e2 in b)


def align(gold: Sequence[GoldQuote], predicted: Sequence[PredictedQuote]) -> list[PredictedQuote | None]:
    """For each gold quote the predicted quote that overlaps it most (None when none does)."""
    ordered = sorted(predicted, key=lambda p: p.spans[0][0])
    starts = [p.spans[0][0] for p in ordered]
    out: list[PredictedQuote | None] = []
    import bisect

    for g in gold:
        lo = max(0, bisect.bisect_right(starts, g.spans[0][0]) - 3)
        hi = bisect.bisect_right(starts, g.spans[-1][1])
        best = max(ordered[lo:hi], key=lambda p: _overlap(g.spans, p.spans), default=None)
        out.append(best if best is not None and _overlap(g.spans, best.spans) > 0 else None)
    return out


def score(gold: Sequence[GoldQuote], predicted: Sequence[PredictedQuote], characters: Characters,
          examples: int = 12) -> Score:
    s = Score()
    for g, p in zip(gold, align(gold, predicted), strict=True):
        gold_id = characters.gold_id(g.speaker)
        ids = characters.ids(p.speaker) if p else set()
        right = gold_id is not None and gold_id in ids
        s.total += 1
        s.found += p is not None
        s.right += right
        if len(ids) > 1:
            s.ambiguous_right += right
            s.ambiguous_wrong += not right
        if not right and p is not None and characters.family_name(p.speaker, g.speaker):
            s.family_name_wrong += 1
        s.by_type[g.type]["total"] += 1
        s.by_type[g.type]["right"] += right
        method = (p.method or "none") if p else "missed"
        s.by_method[method]["total"] += 1
        s.by_method[method]["right"] += right
        gold_addressees = {i for a in g.addressees if (i := characters.gold_id(a)) is not None}
        if gold_addressees:
            s.addressee_total += 1
            s.addressee_right += bool(p and p.addressees and characters.ids(p.addressees[0]) & gold_addressees)
        example = {"quote": g.text[:120], "type": g.type, "gold": g.speaker,
                   "predicted": p.speaker if p else None, "method": method}
        bucket = s.right_examples if right else s.wrong_examples
        if len(bucket) < examples and (len(bucket) < examples // 2 or int(g.id[1:]) % 7 == 0):
            bucket.append(example)
    return s


def predict_book(path: Path, window_tokens: int | None = None, limit: int | None = None
                 ) -> tuple[list[PredictedQuote], dict[str, Any]]:
    """Run a book through ingestion windowing and the offline extractor; quotes with book offsets."""
    from strata.ingest.extractors import SpacyExtractor
    from strata.ingest.sources import load_source
    from strata.schema.settings import Settings

    tokens = window_tokens or Settings().book_window_tokens
    episodes = list(load_source(path, "book", group_id="bench-quotes", book_window_tokens=tokens).episodes)
    if limit:
        episodes = episodes[:limit]
    t0 = time.perf_counter()
    out: list[PredictedQuote] = []
    for n, (episode, extraction) in enumerate(zip(episodes, SpacyExtractor().extract_many(episodes), strict=True)):
        base = episode.span_start
        for q in extraction.quotes:
            out.append(PredictedQuote(text=q.text, spans=tuple((s.start + base, s.end + base) for s in q.spans),
                                      speaker=q.speaker, addressees=tuple(q.addressees), method=q.method,
                                      narrator=q.narrator, window=n))
    out = name_book_narrator(out)
    seconds = time.perf_counter() - t0
    return out, {"windows": len(episodes), "window_tokens": tokens, "seconds": round(seconds, 1),
                 "ms_per_window": round(1000 * seconds / max(len(episodes), 1))}


def name_book_narrator(predicted: list[PredictedQuote]) -> list[PredictedQuote]:
    """The consolidation pass's narrator rule (strata.resolve.narrator) on names instead of entities: the
    narrator's quotes no window named go to the name the windows gave the narrator most."""
    from dataclasses import replace

    from strata.resolve.names import parse_name
    from strata.resolve.narrator import book_narrator

    def person(name: str) -> str:  # a name's words without titles stand in for its entity ("Mr. Hastings")
        return " ".join(parse_name(name).name_tokens) or match_form(name)

    named = [(str(p.window), person(p.speaker)) for p in predicted if p.narrator and p.speaker]
    key = book_narrator(named)
    if key is None:
        return predicted
    spelled = Counter(p.speaker for p in predicted if p.narrator and p.speaker and person(p.speaker) == key)
    name = spelled.most_common(1)[0][0]
    return [replace(p, speaker=name) if p.narrator and not p.speaker else p for p in predicted]


def coverage(predicted: Sequence[PredictedQuote]) -> dict[str, Any]:
    with_speaker = sum(1 for p in predicted if p.speaker)
    return {"quotes": len(predicted), "with_speaker": with_speaker,
            "share_with_speaker": round(with_speaker / max(len(predicted), 1), 3),
            "by_method": dict(Counter(p.method or "none" for p in predicted)),
            "top_speakers": Counter(p.speaker for p in predicted if p.speaker).most_common(12),
            "sample": [{"quote": p.text[:100], "speaker": p.speaker, "to": list(p.addressees), "method": p.method}
                       for p in predicted[:: max(1, len(predicted) // 10)][:10]]}


def run_novel(folder: Path, limit: int | None) -> dict[str, Any]:
    gold, characters, _ = load_gold(folder)
    predicted, run = predict_book(folder / "novel_text.txt", limit=limit)
    if limit:
        last = max((p.spans[-1][1] for p in predicted), default=0)
        gold = [g for g in gold if g.spans[0][0] < last]
    result = score(gold, predicted, characters)
    return {"book": f"PDNC {folder.name}", "run": run, **result.summary(),
            "right_examples": result.right_examples, "wrong_examples": result.wrong_examples}


def novel_table(results: dict[str, dict[str, Any]]) -> str:
    rows = ["| novel | gold quotes | speaker | Explicit | Anaphoric | Implicit | addressee |",
            "|---|---|---|---|---|---|---|"]
    for name, r in results.items():
        by_type = r["by_quote_type"]
        cells = [f"{by_type[t]['accuracy']:.3f}" if t in by_type else "" for t in ("Explicit", "Anaphoric", "Implicit")]
        rows.append(f"| {name} | {r['gold_quotes']} | {r['speaker_accuracy']:.3f} | {' | '.join(cells)} | "
                    f"{r['addressee']['accuracy']:.3f} |")
    mean = sum(r["speaker_accuracy"] for r in results.values()) / max(len(results), 1)
    rows.append(f"| mean over novels | | {mean:.3f} | | | | |")
    for fold in ("fitted", "held out"):
        scores = [r["speaker_accuracy"] for name, r in results.items() if FOLDS.get(name) == fold]
        if scores:
            rows.append(f"| mean, {fold} ({len(scores)}) | | {sum(scores) / len(scores):.3f} | | | | |")
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--limit", type=int, default=None, help="windows of the novel to run (default all)")
    parser.add_argument("--no-second-book", action="store_true")
    parser.add_argument("--label", default="", help="a note stored with the result (e.g. before / after)")
    parser.add_argument("--novel", action="append", help="a PDNC novel folder name (repeatable)")
    parser.add_argument("--all", action="store_true", help="every PDNC novel")
    args = parser.parse_args()
    if not PDNC.exists():
        raise SystemExit(f"PDNC data not found at {PDNC}")
    novels = sorted(p.name for p in PDNC_ROOT.iterdir() if (p / "quotation_info.csv").exists()) if args.all \
        else (args.novel or [])
    if novels:
        results: dict[str, dict[str, Any]] = {}
        for name in novels:
            results[name] = run_novel(PDNC_ROOT / name, args.limit)
            print(f"{name}: speaker {results[name]['speaker_accuracy']:.3f} of {results[name]['gold_quotes']}",
                  flush=True)
            if not args.limit:
                stored = json.loads(NOVELS_OUT.read_text()) if NOVELS_OUT.exists() else {}
                stored.setdefault(args.label or "current", {})[name] = {
                    k: v for k, v in results[name].items() if not k.endswith("examples")}
                NOVELS_OUT.write_text(json.dumps(stored, indent=1) + "\n", encoding="utf-8")
        print(novel_table(results))
        return
    report: dict[str, Any] = {"label": args.label, **run_novel(PDNC, args.limit)}
    report["book"] = "PDNC Pride and Prejudice"
    if not args.no_second_book and SECOND_BOOK.exists():
        second, second_run = predict_book(SECOND_BOOK)
        report["second_book"] = {"book": SECOND_BOOK.name, "run": second_run, **coverage(second)}
    print(json.dumps({k: v for k, v in report.items() if not k.endswith("examples")}, indent=1))
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
