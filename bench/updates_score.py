"""The knowledge-updates bench's scoring, pure: which of a slot's values a text names first, what a ranked list of
search hits or a context block answers, two readers of the raw messages (BM25), and the table.

Scoring is by names, so it does not depend on how the graph stores facts: a slot's *values* are every value it
ever held (all holders of an office, all of a person's cities); a text *names* a value when the value's full name
appears as whole words, case-insensitively, diacritics and typographic apostrophes aside ("Recep Tayyip Erdogan"
names "Recep Tayyip Erdoğan"). A text naming several answers with the one it names first; a longer name wins over a
shorter one it contains.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

SYSTEMS = ("search", "context", "bm25_first", "bm25_latest")
QTYPES = ("now", "year", "as_of")
BM25_TOP = 10  # messages the "latest dated" reader looks at

# Letters NFKD does not take apart.
_LETTERS = str.maketrans({"ı": "i", "ł": "l", "ø": "o", "đ": "d", "ß": "ss", "æ": "ae", "œ": "oe", "ð": "d",
                          "þ": "th", "’": "'", "‘": "'", "ʼ": "'"})


def fold(text: str) -> str:
    """Case-folded, without diacritics (and the letters NFKD keeps whole spelt in ASCII)."""
    text = unicodedata.normalize("NFKD", text.casefold().translate(_LETTERS))
    return "".join(ch for ch in text if not unicodedata.combining(ch))


def _pattern(value: str) -> re.Pattern[str]:
    return re.compile(r"(?<!\w)" + re.escape(fold(value)) + r"(?!\w)")


def named(text: str, values: Iterable[str]) -> list[str]:
    """The values ``text`` names, in the order it names them (a name inside a longer named value does not count)."""
    folded = fold(text)
    spans = sorted((m.start(), -(m.end() - m.start()), value) for value in dict.fromkeys(values)
                    for m in _pattern(value).finditer(folded))
    out, reach = [], -1
    for start, negative_length, value in spans:
        if start < reach:
            continue  # inside a longer (or earlier) name
        reach = start - negative_length
        if value not in out:
            out.append(value)
    return out


def first_named(texts: Iterable[str | None], values: Sequence[str]) -> str | None:
    """Walking ``texts`` in order, the first value named (None when none names one)."""
    for text in texts:
        if text:
            found = named(text, values)
            if found:
                return found[0]
    return None


def hit_text(hit: Any) -> str | None:
    """What a search hit says: a fact's subject name, object name and sentence; a passage's text; an entity hit
    says nothing here (skipped)."""
    if hit.kind == "entity" or (hit.fact is None and hit.episode is None):
        return None
    if hit.fact is not None:
        f = hit.fact
        return " ".join(x for x in (f.subject_name, f.object_name, f.fact) if x)
    return str(hit.episode.text)


def block_body(text: str) -> str:
    """A context block without its header line (which repeats the question)."""
    return text.split("\n", 1)[1] if "\n" in text else ""


# -- BM25 over the raw messages ------------------------------------------------------------------------------------

STOPWORDS = frozenset("a an and are as at be by did do does for from has have he her him his i in is it its me "
                      "my of on or she that the their them they this to was were what which who whom with you "
                      "now".split())


def tokens(text: str) -> list[str]:
    return [t for t in re.findall(r"\w+", fold(text)) if t not in STOPWORDS]


class BM25:
    """Okapi BM25 (k1 1.5, b 0.75, the Lucene idf) over short documents."""

    def __init__(self, documents: Sequence[str], k1: float = 1.5, b: float = 0.75) -> None:
        self.docs = [Counter(tokens(d)) for d in documents]
        self.lengths = [sum(d.values()) for d in self.docs]
        self.avg = sum(self.lengths) / max(len(self.docs), 1)
        df: Counter[str] = Counter(t for d in self.docs for t in d)
        n = len(self.docs)
        self.idf = {t: math.log(1 + (n - f + 0.5) / (f + 0.5)) for t, f in df.items()}
        self.k1, self.b = k1, b
        self.postings: dict[str, list[int]] = defaultdict(list)
        for i, d in enumerate(self.docs):
            for t in d:
                self.postings[t].append(i)

    def rank(self, query: str) -> list[int]:
        """Documents sharing a term with the query, best first (ties: earlier first)."""
        scores: dict[int, float] = defaultdict(float)
        for t in set(tokens(query)):
            for i in self.postings.get(t, ()):
                tf = self.docs[i][t]
                norm = self.k1 * (1 - self.b + self.b * self.lengths[i] / self.avg)
                scores[i] += self.idf[t] * tf * (self.k1 + 1) / (tf + norm)
        return sorted(scores, key=lambda i: (-scores[i], i))


def bm25_first(ranked: Sequence[int], texts: Sequence[str], values: Sequence[str]) -> str | None:
    """The first value named walking the ranked messages."""
    return first_named((texts[i] for i in ranked), values)


def bm25_latest(ranked: Sequence[int], texts: Sequence[str], stamps: Sequence[datetime], values: Sequence[str],
                asked: datetime | None, top: int = BM25_TOP) -> str | None:
    """Of the ``top`` ranked messages, those said on or before the time asked (all for "now"), latest first: the
    first value named."""
    kept = [i for i in ranked[:top] if asked is None or stamps[i] <= asked]
    kept.sort(key=lambda i: (stamps[i], i), reverse=True)
    return first_named((texts[i] for i in kept), values)


# -- the table ----------------------------------------------------------------------------------------------------

def right(answer: str | None, gold: str) -> bool:
    return answer is not None and fold(answer) == fold(gold)


def summarize(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Share right per kind x half x question type and system, with the count; plus every kind together."""
    cells: dict[tuple[str, str, str], list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        for kind in (r["kind"], "all"):
            cells[(kind, r["half"], r["qtype"])].append(r)
    out: dict[str, Any] = {}
    for (kind, half, qtype), members in sorted(cells.items()):
        out.setdefault(kind, {}).setdefault(half, {})[qtype] = {
            "n": len(members), **{s: round(sum(m[s] for m in members) / len(members), 3) for s in SYSTEMS}}
    return out


def table(summary: dict[str, Any]) -> str:
    """The summary as a Markdown table: a row per kind x half x system, a column per question type."""
    lines = ["| kind | half | system | " + " | ".join(QTYPES) + " |", "|---|---|---|" + "---|" * len(QTYPES)]
    for kind, halves in summary.items():
        for half in ("tune", "check"):
            if half not in halves:
                continue
            for system in SYSTEMS:
                cells = [f"{halves[half][q][system]:.3f} ({halves[half][q]['n']})" if q in halves[half] else "-"
                         for q in QTYPES]
                lines.append(f"| {kind} | {half} | {system} | " + " | ".join(cells) + " |")
    return "\n".join(lines)
