"""Relations the offline extractor reads in novels' narration, against a hand-annotated gold set (issue 30 item 5).

    .venv/bin/python -m bench.bench_narration_relations --label L [--novel NAME ...] [--show-errors]

The gold set (bench/data/narration_relations_gold.json) holds character offsets of single sentences in the PDNC
novels (../shared/data/entity_resolution/pdnc/<novel>/novel_text.txt, never copied) and the relations each
states between names written in it: family (parent_of, child_of, sibling_of, relative_of), marriage (spouse_of,
engaged_to), employment (employed_by, works_as) and residence (lives_in); about half the sentences state none
(hypotheticals, wishes, "like a sister", vocatives, "employed in doing", a relative who has no name there).

Each sentence is extracted in its paragraph as the book path extracts a window: an episode of kind "text" with
no speaker, so the spaCy extractor reads it as narration. A predicted fact belongs to the sentence when its
evidence span lies in it; only facts of the four families count, negated ones are left aside. A prediction is
scored when both its arguments are names written in the sentence (a pronoun the extractor resolved to a name
outside it is counted as "unscored", neither right nor wrong), and it is right when it matches a gold triple:
same relation (child_of X Y = parent_of Y X; boss_of X Y = employed_by Y X; spouse_of, engaged_to,
sibling_of and relative_of either way round) and both names matched leniently (case, a leading "the", a title
on either side unless the two titles differ in gender, one name's words contained in the other's: "Darcy" =
"Mr. Darcy" = "Mr. Fitzwilliam Darcy"; a job by its last word: "the housekeeper" = "housekeeper").

Precision and recall per family and per fold (fitted / held out, the folds of issue 30) go to
bench/results/narration_relations.json under ``--label``. ``--show-errors`` prints the fitted novels' errors only.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import time
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from strata.resolve.normalize import match_form

REPO = Path(__file__).resolve().parent.parent
PDNC = REPO.parent / "shared" / "data" / "entity_resolution" / "pdnc"
GOLD = REPO / "bench" / "data" / "narration_relations_gold.json"
OUT = REPO / "bench" / "results" / "narration_relations.json"
FOLDS = {**dict.fromkeys(["PrideAndPrejudice", "Emma", "OliverTwist", "TheSignOfTheFour", "TheInvisibleMan",
                          "AnneOfGreenGables"], "fitted"),
         **dict.fromkeys(["DaisyMiller", "HowardsEnd", "TheAgeOfInnocence", "TheMysteriousAffairAtStyles",
                          "ThePictureOfDorianGray"], "held out")}
FAMILIES = {"parent_of": "family", "child_of": "family", "sibling_of": "family", "relative_of": "family",
            "spouse_of": "marriage", "engaged_to": "marriage",
            "employed_by": "employment", "works_as": "employment", "boss_of": "employment",
            "lives_in": "residence"}
_SYMMETRIC = frozenset({"spouse_of", "engaged_to", "sibling_of", "relative_of"})
_TURNED = {"child_of": "parent_of", "boss_of": "employed_by"}  # written the other way round
_TITLES = {"mr": "m", "mrs": "f", "miss": "f", "lady": "f", "sir": "m", "lord": "m", "madame": "f", "mme": "f",
           "master": "m", "dr": "", "colonel": "", "captain": "", "professor": "", "aunt": "f", "uncle": "m",
           "count": "m", "countess": "f", "marchioness": "f", "duke": "m", "mademoiselle": "f", "major": "",
           "cousin": "", "old": "", "young": "", "little": ""}
_PARAGRAPH = re.compile(r"[^\n]*\S[^\n]*(?:\n[^\n]*\S[^\n]*)*")


@dataclass(frozen=True)
class Triple:
    subject: str
    predicate: str
    object: str

    def canonical(self) -> Triple:
        if self.predicate in _TURNED:
            return Triple(self.object, _TURNED[self.predicate], self.subject)
        return self


def _words(name: str) -> tuple[str, list[str]]:
    """(gender of a leading title or "", the name's other words), folded."""
    tokens = [t for t in re.split(r"[\s.]+", match_form(name).replace("'s", "")) if t]
    gender = ""
    while len(tokens) > 1 and tokens[0] in _TITLES:
        gender = gender or _TITLES[tokens[0]]
        tokens = tokens[1:]
    return gender, tokens


def same_name(a: str, b: str) -> bool:
    """Lenient: case, a leading article, titles (unless of different gender), word containment either way."""
    ga, wa = _words(a)
    gb, wb = _words(b)
    if not wa or not wb or (ga and gb and ga != gb):
        return False
    return set(wa) <= set(wb) or set(wb) <= set(wa)


def same_job(a: str, b: str) -> bool:
    return bool(_words(a)[1]) and bool(_words(b)[1]) and _words(a)[1][-1] == _words(b)[1][-1]


def matches(pred: Triple, gold: Triple) -> bool:
    p, g = pred.canonical(), gold.canonical()
    if p.predicate != g.predicate:
        return False
    if p.predicate == "works_as":
        return same_name(p.subject, g.subject) and same_job(p.object, g.object)
    if same_name(p.subject, g.subject) and same_name(p.object, g.object):
        return True
    return p.predicate in _SYMMETRIC and same_name(p.subject, g.object) and same_name(p.object, g.subject)


def written_in(name: str, sentence: str, job: bool = False) -> bool:
    """The name is written in the sentence: its last word, not under a title of the other gender ("Mrs. Bumble"
    for "his wife" where the sentence writes only "Mr. Bumble" is the convention's name, not the text's)."""
    if job:
        return True
    gender, words = _words(name)
    if not words:
        return False
    folded = match_form(sentence)
    for m in re.finditer(r"(?<!\w)" + re.escape(words[-1]) + r"(?!\w)", folded):
        before = re.findall(r"[a-z]+", folded[max(0, m.start() - 14):m.start()])
        title = _TITLES.get(before[-1], "") if before else ""
        if not (gender and title and title != gender):
            return True
    return False


def paragraph(text: str, start: int, end: int) -> tuple[int, int]:
    for m in _PARAGRAPH.finditer(text, max(0, start - 20000)):
        if m.start() <= start < m.end():
            return m.start(), max(m.end(), end)
    return start, end


def load_gold(novels: Iterable[str] | None) -> tuple[dict[str, list[dict[str, Any]]], dict[str, str]]:
    rows = json.loads(GOLD.read_text())["sentences"]
    wanted = set(novels) if novels else None
    by_novel: dict[str, list[dict[str, Any]]] = defaultdict(list)
    skipped: dict[str, str] = {}
    for row in rows:
        if wanted is not None and row["novel"] not in wanted:
            continue
        if not (PDNC / row["novel"] / "novel_text.txt").exists():
            skipped[row["novel"]] = f"no text at {PDNC / row['novel'] / 'novel_text.txt'}"
            continue
        by_novel[row["novel"]].append(row)
    return by_novel, skipped


def predict(by_novel: dict[str, list[dict[str, Any]]]) -> list[tuple[dict[str, Any], str, list[Triple], int]]:
    """(gold row, sentence text, the extractor's family facts in the sentence, negated ones left aside)."""
    from strata.ingest.extractors import SpacyExtractor
    from strata.schema.models import Episode

    extractor = SpacyExtractor()
    when = datetime(2000, 1, 1, tzinfo=UTC)
    jobs: list[tuple[dict[str, Any], str, int, Episode]] = []
    for novel, rows in by_novel.items():
        text = (PDNC / novel / "novel_text.txt").read_text()
        for row in rows:
            p0, p1 = paragraph(text, row["start"], row["end"])
            content = text[p0:p1]
            episode = Episode(uuid=f"{novel}-{row['start']}", group_id="bench", kind="text", content=content,
                              reference_time=when, content_hash=f"{novel}-{row['start']}")
            jobs.append((row, text[row["start"]:row["end"]], p0, episode))
    out = []
    for (row, sentence, p0, _), result in zip(jobs, extractor.extract_many([j[3] for j in jobs]), strict=True):
        lo, hi = row["start"] - p0, row["end"] - p0
        facts, negated = [], 0
        for f in result.facts:
            if f.predicate not in FAMILIES or not any(lo <= s.start < hi for s in f.spans):
                continue
            if f.negated:
                negated += 1
                continue
            facts.append(Triple(f.subject, f.predicate, f.object))
        out.append((row, sentence, list(dict.fromkeys(facts)), negated))
    return out


def score(predicted: list[tuple[dict[str, Any], str, list[Triple], int]]) -> tuple[dict[str, Any], list[str]]:
    counts: dict[str, dict[str, dict[str, int]]] = defaultdict(lambda: defaultdict(lambda: defaultdict(int)))
    errors: list[str] = []
    for row, sentence, facts, negated in predicted:
        fold = FOLDS.get(row["novel"], "other")
        gold = [Triple(t["subject"], t["predicate"], t["object"]) for t in row["triples"]]
        found = [False] * len(gold)
        for fact in facts:
            family = FAMILIES[fact.predicate]
            scored = written_in(fact.subject, sentence) and written_in(
                fact.object, sentence, job=fact.predicate == "works_as")
            hit = next((k for k, g in enumerate(gold) if matches(fact, g)), None)
            for key in (fold, "all"):
                if hit is not None:
                    counts[key][family]["tp"] += 1
                elif scored:
                    counts[key][family]["fp"] += 1
                else:
                    counts[key][family]["unscored"] += 1
            if hit is not None:
                found[hit] = True
            elif scored and fold == "fitted":
                errors.append(f"FP {row['novel']} {row['start']}: {fact.subject} {fact.predicate} {fact.object}"
                              f"  | {' '.join(sentence.split())}")
        for g, ok in zip(gold, found, strict=True):
            for key in (fold, "all"):
                counts[key][FAMILIES[g.predicate]]["gold"] += 1
                counts[key][FAMILIES[g.predicate]]["found"] += ok
            if not ok and fold == "fitted":
                said = [(f.subject, f.predicate, f.object) for f in facts]
                errors.append(f"FN {row['novel']} {row['start']}: {g.subject} {g.predicate} {g.object}"
                              f"  | {' '.join(sentence.split())}  || predicted: {said}")
        for key in (fold, "all"):
            counts[key]["_"]["sentences"] += 1
            counts[key]["_"]["negated_left_aside"] += negated
    report: dict[str, Any] = {}
    for key, fams in counts.items():
        table: dict[str, Any] = {}
        total: dict[str, int] = defaultdict(int)
        for family in ("family", "marriage", "employment", "residence"):
            c = fams.get(family, {})
            table[family] = _prf(c)
            for k in ("tp", "fp", "gold", "found", "unscored"):
                total[k] += c.get(k, 0)
        table["all families"] = _prf(total)
        table["sentences"] = fams["_"]["sentences"]
        table["negated_left_aside"] = fams["_"]["negated_left_aside"]
        report[key] = table
    return report, errors


def _prf(c: dict[str, int]) -> dict[str, Any]:
    tp, fp, gold, found = c.get("tp", 0), c.get("fp", 0), c.get("gold", 0), c.get("found", 0)
    return {"precision": round(tp / (tp + fp), 3) if tp + fp else None,
            "recall": round(found / gold, 3) if gold else None,
            "tp": tp, "fp": fp, "gold": gold, "found": found, "unscored": c.get("unscored", 0)}


def _commit() -> str:
    try:
        return subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def _fmt(x: Any) -> str:
    return "  -  " if x is None else f"{x:.3f}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--label", default="current")
    parser.add_argument("--novel", action="append", help="only these novels (default: all in the gold set)")
    parser.add_argument("--show-errors", action="store_true", help="print the fitted novels' errors")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    by_novel, skipped = load_gold(args.novel)
    for novel, reason in skipped.items():
        print(f"skipped {novel}: {reason}")
    if not by_novel:
        print("nothing to run")
        return
    t0 = time.perf_counter()
    predicted = predict(by_novel)
    report, errors = score(predicted)
    seconds = round(time.perf_counter() - t0, 1)
    print(f"{'fold':10} {'family':13} {'P':>6} {'R':>6} {'tp':>4} {'fp':>4} {'gold':>5} {'unscored':>9}")
    for key in ("fitted", "held out", "all"):
        if key not in report:
            continue
        for family in ("family", "marriage", "employment", "residence", "all families"):
            r = report[key][family]
            print(f"{key:10} {family:13} {_fmt(r['precision']):>6} {_fmt(r['recall']):>6} {r['tp']:4} {r['fp']:4} "
                  f"{r['gold']:5} {r['unscored']:9}")
    if args.show_errors:
        print("\n".join(errors))
    stored = json.loads(args.out.read_text()) if args.out.exists() else {}
    stored[args.label] = {"commit": _commit(), "when": datetime.now(UTC).isoformat(timespec="seconds"),
                          "novels": sorted(by_novel), "skipped": skipped, "seconds": seconds, **report}
    args.out.write_text(json.dumps(stored, indent=1) + "\n")


if __name__ == "__main__":
    main()
