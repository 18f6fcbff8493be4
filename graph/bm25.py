"""BM25 over one group's own documents: the full-text scores of a small group, independent of its neighbours.

Lucene scores a match with index-wide statistics (how many documents of every group hold a word, their average
length), so a small group beside a large one full of the same words gets other scores, and another top 20,
than alone. When a small group's full-text channel has every one of its matches (graph/search.py asks the
index for the group's own matches, as many as the group has items), they are scored again here with the
group's own statistics: N is the group's documents of that kind holding the field, the average length theirs,
a word's document frequency the number of the group's matches holding it (a document holding none of the
query's words is not a match, so the matches hold every occurrence). Nothing of another group enters, so the
scores alone and beside a neighbour are the same by construction.

The analysis follows the index's analyzers (schema/migrations 0010-0012): ``english`` for facts and passages
(standard tokenizer, English possessive, lowercase, Lucene's English stop words, Porter stemming) and
``standard-no-stop-words`` for entities (standard tokenizer, lowercase). The tokenizer approximates Unicode word
breaks as Lucene's standard tokenizer applies them (letters joined by an apostrophe or a period, digits by a
comma or a period). Lengths are in characters, as the query computes them for the group's documents and for
each match alike: BM25 reads only a document's length over the average. Pure logic: no I/O, no Cypher.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import snowballstemmer  # type: ignore[import-untyped]

from strata.graph import lucene

# Lucene's BM25Similarity defaults, which Neo4j's full-text indexes use.
K1 = 1.2
B = 0.75
# Fields per channel kind, in the order the channel query returns a document's texts and lengths
# (lucene.TEXT_FIELDS), and whether the index analyzes them as English.
ENGLISH = {"fact": True, "passage": True, "entity": False}
_TOKEN = re.compile(r"\w+(?:(?:['\u2019.]|(?<=\d)[,;](?=\d))\w+)*", re.UNICODE)
_POSSESSIVE = ("'s", "\u2019s")
_stemmer = snowballstemmer.stemmer("porter")


@dataclass(frozen=True, slots=True)
class FieldStats:
    """One field over the group's documents of a kind: how many hold it (non-empty) and their total length."""

    docs: int
    length: int


@lru_cache(maxsize=65536)
def _stem(word: str) -> str:
    return str(_stemmer.stemWord(word))


def analyze(text: str, english: bool) -> list[str]:
    """The terms the index keeps of ``text``, in order."""
    out = []
    for token in _TOKEN.findall(text):
        if english and token[-2:].lower() in _POSSESSIVE:
            token = token[:-2]
        token = token.lower()
        if not english:
            out.append(token)
        elif token and token not in lucene.ENGLISH_STOP_WORDS:
            out.append(_stem(token))
    return out


@lru_cache(maxsize=65536)
def _counts(text: str, english: bool) -> Counter[str]:
    """A text's terms counted; cached, since a group's documents come back search after search (never mutated)."""
    return Counter(analyze(text, english))


def query_terms(kind: str, text: str) -> dict[str, list[str]]:
    """The analyzed words a channel's Lucene query asks of each field (graph/search.py builds that query from the
    same words): stemmed indexes without stop and question words; entity names with every word, their
    summaries (prose) without them. A word repeated in the question counts each time, as Lucene's clauses do."""
    english = ENGLISH[kind]
    every = lucene.terms(text, drop_stop_words=kind in lucene.STEMMED_KINDS)
    prose = lucene.terms(text, drop_stop_words=True)
    out = {}
    for field in lucene.TEXT_FIELDS[kind]:
        words = prose if field in lucene.PROSE_FIELDS else every
        out[field] = [t for w in words for t in analyze(w.lower(), english)]
    return out


def idf(docs: int, df: int) -> float:
    """Lucene's BM25 idf: ln(1 + (N - n + 0.5) / (n + 0.5))."""
    return math.log(1.0 + (docs - df + 0.5) / (df + 0.5))


def term_score(tf: int, length: int, average: float, idf_value: float) -> float:
    """One term in one field: idf * tf / (tf + k1 * (1 - b + b * dl / avgdl)) (Lucene 8+, no (k1 + 1) factor)."""
    if tf <= 0:
        return 0.0
    norm = K1 * (1.0 - B + B * length / average) if average > 0 else K1
    return idf_value * tf / (tf + norm)


def scores(kind: str, question: str, documents: Sequence[tuple[str, Sequence[str]]],
           stats: Sequence[FieldStats]) -> dict[str, float]:
    """BM25 of each of ``documents`` (every match the group has: uuid and texts, in lucene.TEXT_FIELDS order)
    for ``question``, by uuid: the sum over the channel's fields and the query's terms, with the group's own
    statistics (``stats``, in the same order). A document's length is its text's, in characters."""
    english = ENGLISH[kind]
    asked_by_field = query_terms(kind, question)
    out = dict.fromkeys((uuid for uuid, _ in documents), 0.0)
    for i, field in enumerate(lucene.TEXT_FIELDS[kind]):
        stat, asked = stats[i], Counter(asked_by_field[field])
        if stat.docs <= 0 or not asked:
            continue
        holding = []
        df = dict.fromkeys(asked, 0)
        for uuid, texts in documents:
            if not texts[i]:
                continue
            counts = _counts(texts[i], english)
            found = [(term, counts[term]) for term in asked if term in counts]
            if found:
                holding.append((uuid, len(texts[i]), found))
                for term, _ in found:
                    df[term] += 1
        weights = {term: times * idf(max(stat.docs, df[term]), df[term]) for term, times in asked.items()}
        average = stat.length / stat.docs
        for uuid, length, found in holding:
            out[uuid] += sum(term_score(tf, length, average, weights[term]) for term, tf in found)
    return out


def rescored_hits(kind: str, question: str, hits: Sequence[dict[str, Any]], detail: Mapping[str, Any],
                  limit: int) -> list[dict[str, Any]]:
    """A small group's full-text channel answer (``hits``: its matches that passed the filters) scored again
    over the group's own documents, best first (ties by uuid), cut to ``limit``. ``detail``, from the channel
    query: ``stats`` (per field, in lucene.TEXT_FIELDS order, the group's documents holding it and their total
    length) and ``docs`` (every match of the group, filtered or not, with its texts per field)."""
    stats = [FieldStats(docs=s["docs"], length=s["length"]) for s in detail["stats"]]
    found = scores(kind, question, [(d["uuid"], d["texts"]) for d in detail["docs"]], stats)
    out = [{**h, "score": found.get(h["uuid"], 0.0)} for h in hits]
    out.sort(key=lambda h: (-h["score"], h["uuid"]))
    return out[:limit]
