"""How much of the cast measure a reader of the text could reach by name: per PDNC novel, the aliases the text
writes and the gold "same character" pairs whose two aliases it both writes.

bench_cast looks every annotated alias up by name. An alias the text never writes ("George Knightley" where
the novel says "Mr. Knightley" and "George"; a name the annotation made up for an unnamed person, "The Fourth
Housemaid") can only be found by a forgiving lookup, if at all; a pair with such an alias is out of reach of any
rule that reads names in the text. So the share of pairs with both aliases written bounds the recall a
name-reading cast can be expected to get, and the share of aliases not written bounds "aliases finding
nothing" from below, unless the lookup guesses. Written means: the alias, lower-cased, its leading article
dropped, titles with or without their period, hyphens as spaces, occurs as whole words in the novel's text.

  python -m bench.cast_ceiling
"""

from __future__ import annotations

import re
from itertools import combinations
from pathlib import Path

from bench.bench_cast import PDNC, _fold, alias_items
from strata.ingest.testing.pp_resolution import KNOWN_DUPLICATES, load_characters

_TITLE_DOT = re.compile(r"\b(mr|mrs|ms|dr|st)\.")
_ARTICLE = re.compile(r"^(the|a|an) ")


def _plain(text: str) -> str:
    text = text.lower().replace("\u2019", "'").replace("\u2018", "'")
    text = _TITLE_DOT.sub(r"\1", text)
    return re.sub(r"\s+", " ", re.sub(r"[-_]", " ", text))


def written(alias: str, text: str) -> bool:
    """Whether the plain text (``_plain``) writes the alias as whole words, its leading article aside."""
    form = _ARTICLE.sub("", _plain(alias).strip())
    return bool(form) and re.search(r"\b" + re.escape(form) + r"\b", text) is not None


def novel_ceiling(folder: Path) -> dict[str, int]:
    text = _plain((folder / "novel_text.txt").read_text(encoding="utf-8", errors="ignore"))
    items, _ = alias_items(folder / "character_info.csv")
    characters = load_characters(folder / "character_info.csv")
    same = {frozenset({c.id for c in characters if c.name in pair}) for pair in KNOWN_DUPLICATES}
    found = {alias: written(alias, text) for _, alias in items}
    gold = [(a, b) for (ca, a), (cb, b) in combinations(items, 2) if ca == cb or frozenset({ca, cb}) in same]
    return {"aliases": len(found), "aliases_written": sum(found.values()), "pairs_gold": len(gold),
            "pairs_both_written": sum(1 for a, b in gold if found[a] and found[b])}


def main() -> None:
    if not PDNC.exists():
        raise SystemExit(f"no PDNC data at {PDNC}")
    rows = {folder.name: novel_ceiling(folder) for folder in sorted(PDNC.iterdir()) if folder.is_dir()}
    print("| novel | fold | aliases written | gold pairs with both written |\n|---|---|---|---|")
    for name, r in rows.items():
        print(f"| {name} | {_fold(name)} | {r['aliases_written']} / {r['aliases']} | "
              f"{r['pairs_both_written']} / {r['pairs_gold']} ({r['pairs_both_written'] / r['pairs_gold']:.3f}) |")
    for fold in ("fitted", "held_out"):
        chosen = [r for name, r in rows.items() if _fold(name) == fold]
        a, aw = sum(r["aliases"] for r in chosen), sum(r["aliases_written"] for r in chosen)
        p, pw = sum(r["pairs_gold"] for r in chosen), sum(r["pairs_both_written"] for r in chosen)
        print(f"| **{fold}**, pooled | | {aw} / {a} ({1 - aw / a:.1%} not written) | {pw} / {p} ({pw / p:.3f}) |")


if __name__ == "__main__":
    main()
