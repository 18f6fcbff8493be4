"""Character names from strings alone, on all eleven PDNC novels, by author (leave one author out).

    .venv/bin/python -m bench.bench_names [--label after] [--novel NAME ...] [--show-errors]

No graph, no extractor: each novel's annotated character list (``character_info.csv``: a main name and its
aliases per character) is the whole input, so a run over the eleven takes seconds. Four measures per novel,
each scored as pairs of aliases ("same character"; an alias listed under two characters is left out):

- ``loo``: every alias resolved with ``decide`` against all characters, its own character holding its other
  names only (``strata.resolve.evaluate.evaluate_aliases(leave_one_out=True)``): merge precision and recall.
- ``sequential``: the names arrive in the order the novel first writes them (never-written names last) and each
  is resolved with ``decide`` against the entities made so far (merge: it becomes an alias; otherwise a new
  entity), prominence being how often the text writes an entity's forms. Pairwise precision and recall, as a
  graph built name by name would give them.
- ``cluster``: all names as the mentions of one episode through ``collapse_mentions`` (the within-episode
  clustering): pairwise precision and recall.
- ``lookup``: each alias written as users type it (every word capitalised, all lower case, a leading "the"
  added or dropped) and ranked with ``rank_by_name`` against the characters: the share of written forms whose
  top candidate is the character the alias itself finds (the form forgiven).

Authors are the folds: a rule is fitted on the folds named under ``FITTED_ON`` and the others are held out;
the report gives the mean over authors of each fold group. Writes ``bench/results/names_pdnc.json`` under
``--label``.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any

from strata.ingest.testing.pp_resolution import KNOWN_DUPLICATES, load_characters
from strata.resolve.clusters import collapse_mentions
from strata.resolve.decide import decide
from strata.resolve.evaluate import AliasRecord, evaluate_aliases
from strata.resolve.lookup import rank_by_name
from strata.resolve.normalize import fold_name
from strata.resolve.types import CandidateEntity, MentionCandidate
from strata.schema.models import ExtractedEntity

REPO = Path(__file__).resolve().parent.parent
PDNC = REPO.parent / "shared" / "data" / "entity_resolution" / "pdnc"
RESULTS = REPO / "bench" / "results" / "names_pdnc.json"

AUTHORS: dict[str, str] = {
    "PrideAndPrejudice": "Austen", "Emma": "Austen", "OliverTwist": "Dickens", "TheSignOfTheFour": "Doyle",
    "ThePictureOfDorianGray": "Wilde", "AnneOfGreenGables": "Montgomery", "TheAgeOfInnocence": "Wharton",
    "TheMysteriousAffairAtStyles": "Christie", "HowardsEnd": "Forster", "TheInvisibleMan": "Wells",
    "DaisyMiller": "James",
}
# The authors whose novels' errors were read while writing the name rules of issue 30 (the dev folds); the
# other authors' novels were only scored, never inspected.
FITTED_ON = frozenset({"Austen", "Dickens", "Wells", "Doyle", "Montgomery"})


@dataclass(frozen=True)
class Novel:
    name: str
    records: list[AliasRecord]
    text: str

    @property
    def author(self) -> str:
        return AUTHORS.get(self.name, self.name)


def load_novel(name: str) -> Novel:
    folder = PDNC / name
    records = [AliasRecord(id=r.id, name=r.name, aliases=r.aliases, type="Person")
               for r in load_characters(folder / "character_info.csv")]
    return Novel(name, records, (folder / "novel_text.txt").read_text(encoding="utf-8"))


def alias_items(records: Sequence[AliasRecord]) -> tuple[list[tuple[str, str]], int]:
    """(character id, alias) pairs, one per folded alias; an alias listed under two characters is left out."""
    owners: dict[str, set[str]] = defaultdict(set)
    for r in records:
        for alias in (r.name, *r.aliases):
            owners[fold_name(alias)].add(r.id)
    items: dict[str, tuple[str, str]] = {}
    dropped: set[str] = set()
    for r in records:
        for alias in sorted({r.name, *r.aliases}):
            folded = fold_name(alias)
            if not folded:
                continue
            if len(owners[folded]) > 1:
                dropped.add(folded)
            elif folded not in items:
                items[folded] = (r.id, alias)
    return list(items.values()), len(dropped)


def twins(records: Sequence[AliasRecord]) -> set[frozenset[str]]:
    """Pairs of list entries the list itself names twice (known for Pride and Prejudice: ``KNOWN_DUPLICATES``)."""
    return {frozenset(ids) for pair in KNOWN_DUPLICATES
            if len(ids := {r.id for r in records if r.name in pair}) == 2}


def pairwise(items: Sequence[tuple[str, str]], predicted: dict[str, str],
             same: set[frozenset[str]] | None = None) -> dict[str, Any]:
    """Pairs of aliases: gold same when one character holds both (or two entries the list names twice),
    predicted same when one entity does."""
    tp = fp = fn = 0
    wrong: list[str] = []
    for (ca, a), (cb, b) in combinations(items, 2):
        gold, pred = ca == cb or frozenset({ca, cb}) in (same or set()), predicted[a] == predicted[b]
        if gold and pred:
            tp += 1
        elif pred:
            fp += 1
            wrong.append(f"{a} = {b}")
        elif gold:
            fn += 1
    return {"gold_pairs": tp + fn, "true_pairs": tp, "wrong_pairs": fp,
            "precision": round(tp / (tp + fp), 3) if tp + fp else 1.0,
            "recall": round(tp / (tp + fn), 3) if tp + fn else 1.0, "wrong": wrong[:30]}


def _occurrences(text: str, alias: str) -> list[int]:
    return [m.start() for m in re.finditer(rf"(?<!\w){re.escape(alias)}(?!\w)", text)]


def sequential(novel: Novel, items: Sequence[tuple[str, str]]) -> dict[str, str]:
    """Each alias in the order the text first writes it, resolved against the entities made so far."""
    positions = {a: _occurrences(novel.text, a) for _, a in items}
    order = sorted(items, key=lambda it: (positions[it[1]][0] if positions[it[1]] else len(novel.text), it[1]))
    entities: list[dict[str, Any]] = []
    predicted: dict[str, str] = {}
    for _, alias in order:
        candidates = [CandidateEntity(uuid=str(i), name=e["forms"][0], type="Person", aliases=e["forms"][1:],
                                      mentions=e["mentions"]) for i, e in enumerate(entities)]
        decision = decide(MentionCandidate(name=alias, type="Person"), candidates)
        if decision.action == "merge" and decision.uuid is not None:
            entity = entities[int(decision.uuid)]
            entity["forms"].append(alias)
            entity["mentions"] += len(positions[alias])
            predicted[alias] = decision.uuid
        else:
            entities.append({"forms": [alias], "mentions": len(positions[alias])})
            predicted[alias] = str(len(entities) - 1)
    return predicted


def clustered(items: Sequence[tuple[str, str]]) -> dict[str, str]:
    mentions = [ExtractedEntity(name=a, type="Person") for _, a in items]
    predicted: dict[str, str] = {}
    for g, group in enumerate(collapse_mentions(mentions)):
        for i in group.members:
            predicted[items[i][1]] = str(g)
    return predicted


def written_forms(alias: str) -> list[str]:
    """How a user may type a name: every word capitalised, all lower case, a leading article added or dropped."""
    words = alias.split()
    forms = {" ".join(w[:1].upper() + w[1:] for w in words), alias.lower()}
    if words and words[0].lower() in {"the", "a", "an"} and len(words) > 1:
        forms.add(" ".join(words[1:]))
    else:
        forms.add(f"the {alias}")
    return sorted(f for f in forms if f != alias)


def lookup(records: Sequence[AliasRecord], items: Sequence[tuple[str, str]]) -> dict[str, Any]:
    candidates = [CandidateEntity(uuid=r.id, name=r.name, type="Person", aliases=list(r.aliases)) for r in records]
    channel = [0.5] * len(candidates)

    def top(name: str) -> str | None:
        ranked = rank_by_name(name, candidates, channel)
        return candidates[ranked[0][0]].uuid if ranked else None

    asked = forgiven = 0
    missed: list[str] = []
    for cid, alias in items:
        if top(alias) != cid:
            continue
        for form in written_forms(alias):
            asked += 1
            if top(form) == cid:
                forgiven += 1
            else:
                missed.append(form)
    return {"forms": asked, "forgiven": forgiven, "rate": round(forgiven / asked, 3) if asked else 1.0,
            "missed": missed[:30]}


def evaluate_novel(novel: Novel) -> dict[str, Any]:
    items, dropped = alias_items(novel.records)
    loo = evaluate_aliases(novel.records, leave_one_out=True)
    return {
        "author": novel.author, "fold": "fitted" if novel.author in FITTED_ON else "held_out",
        "characters": len(novel.records), "aliases": len(items), "aliases_shared_dropped": dropped,
        "loo": {"evaluated": loo.evaluated, "precision": round(loo.precision, 3), "recall": round(loo.recall, 3),
                "wrong": [f"{a} -> {m}" for a, _, m in loo.errors][:30]},
        "sequential": pairwise(items, sequential(novel, items), twins(novel.records)),
        "cluster": pairwise(items, clustered(items), twins(novel.records)),
        "lookup": lookup(novel.records, items),
    }


MEASURES = (("loo", "precision"), ("loo", "recall"), ("sequential", "precision"), ("sequential", "recall"),
            ("cluster", "precision"), ("cluster", "recall"), ("lookup", "rate"))


def fold_means(per_novel: dict[str, dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Mean over authors (an author's novels averaged first) of each measure, for the fitted and held-out
    folds and all authors."""
    by_author: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in per_novel.values():
        by_author[r["author"]].append(r)
    out: dict[str, dict[str, float]] = {}
    groups = {"fitted": [a for a in by_author if a in FITTED_ON],
              "held_out": [a for a in by_author if a not in FITTED_ON], "all": list(by_author)}
    for group, authors in groups.items():
        if not authors:
            continue
        means: dict[str, float] = {"authors": len(authors)}
        for measure, field in MEASURES:
            per_author = [sum(r[measure][field] for r in by_author[a]) / len(by_author[a]) for a in authors]
            means[f"{measure}_{field}"] = round(sum(per_author) / len(per_author), 3)
        out[group] = means
    return out


def table(per_novel: dict[str, dict[str, Any]]) -> str:
    head = "| novel | author | fold | aliases | loo P | loo R | seq P | seq R | cluster P | cluster R | lookup |"
    rows = [head, "|" + "---|" * 11]
    for name, r in per_novel.items():
        rows.append(f"| {name} | {r['author']} | {r['fold']} | {r['aliases']} | {r['loo']['precision']:.3f} | "
                    f"{r['loo']['recall']:.3f} | {r['sequential']['precision']:.3f} | "
                    f"{r['sequential']['recall']:.3f} | {r['cluster']['precision']:.3f} | "
                    f"{r['cluster']['recall']:.3f} | {r['lookup']['rate']:.3f} |")
    return "\n".join(rows)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--label", default="current")
    ap.add_argument("--novel", action="append", help="one PDNC novel folder name (repeatable; default: all)")
    ap.add_argument("--show-errors", action="store_true", help="print the wrong pairs of each novel")
    args = ap.parse_args()
    if not PDNC.exists():
        raise SystemExit(f"PDNC data not found at {PDNC}")
    names = args.novel or sorted(p.name for p in PDNC.iterdir() if (p / "character_info.csv").exists())
    per_novel = {name: evaluate_novel(load_novel(name)) for name in names}
    means = fold_means(per_novel)
    print(table(per_novel))
    print(json.dumps(means, indent=2))
    if args.show_errors:
        for name, r in per_novel.items():
            print(f"\n== {name}")
            for measure in ("loo", "sequential", "cluster"):
                print(f"  {measure}: {r[measure]['wrong'][:15]}")
            print(f"  lookup missed: {r['lookup']['missed'][:15]}")
    if args.novel:
        return
    stored = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    stored[args.label] = {"command": "python -m bench.bench_names " + " ".join(sys.argv[1:]),
                          "fitted_on": sorted(FITTED_ON), "means": means, "novels": per_novel}
    RESULTS.write_text(json.dumps(stored, indent=2) + "\n")


if __name__ == "__main__":
    main()
