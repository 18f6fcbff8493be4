"""BM25 over one group's own documents: the full-text scores of a small group, independent of its neighbours.

Lucene scores a match with index-wide statistics (how many documents of every group hold a word, their average
length), so a small group beside a large one full of the same words gets other scores, and another top 20,
than alone. A small group's documents (at most ``vector_scan_max`` of a kind) are instead scored here, from a
``Table`` of the group's own documents: N is the group's documents of that kind holding the field, the average
length theirs, a word's document frequency the number of them holding it. Nothing of another group enters, so
the scores alone and beside a neighbour are the same by construction.

The analysis follows the index's analyzers (schema/migrations 0010-0012): ``english`` for facts and passages
(standard tokenizer, English possessive, lowercase, Lucene's English stop words, Porter stemming) and
``standard-no-stop-words`` for entities (standard tokenizer, lowercase). The tokenizer approximates Unicode word
breaks as Lucene's standard tokenizer applies them (letters joined by an apostrophe or a period, digits by a
comma or a period). Lengths are in characters (BM25 reads only a document's length over the average). Pure
logic: no I/O, no Cypher.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

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


@lru_cache(maxsize=8192)
def _counts(text: str, english: bool) -> Counter[str]:
    """A text's terms counted; cached (a group's table is built again after a write, mostly of the same texts;
    never mutated)."""
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


class Table:
    """A small group's documents of one kind, analyzed: per field (lucene.TEXT_FIELDS order) each term's postings
    (uuid, term frequency), each document's length and the field's statistics. Built once per group and kind
    and kept while the group's statistics stay the same (graph/local_text.py)."""

    __slots__ = ("kind", "postings", "lengths", "stats")

    def __init__(self, kind: str, documents: Sequence[tuple[str, Sequence[str]]]) -> None:
        english = ENGLISH[kind]
        fields = range(len(lucene.TEXT_FIELDS[kind]))
        self.kind = kind
        self.postings: list[dict[str, list[tuple[str, int]]]] = [{} for _ in fields]
        self.lengths: list[dict[str, int]] = [{} for _ in fields]
        for uuid, texts in documents:
            for i in fields:
                if not texts[i]:
                    continue
                self.lengths[i][uuid] = len(texts[i])
                for term, tf in _counts(texts[i], english).items():
                    self.postings[i].setdefault(term, []).append((uuid, tf))
        self.stats = [FieldStats(docs=len(self.lengths[i]), length=sum(self.lengths[i].values())) for i in fields]


def ranked(table: Table, question: str) -> list[tuple[str, float]]:
    """The group's documents holding any of the question's terms, by BM25 over the group's own statistics, best
    first (ties by uuid): per field and term, idf * tf / (tf + k1 * (1 - b + b * dl / avgdl)), summed. A
    document's length is its text's, in characters."""
    out: dict[str, float] = {}
    for i, terms in enumerate(query_terms(table.kind, question).values()):
        stat = table.stats[i]
        if stat.docs <= 0:
            continue
        average = stat.length / stat.docs
        for term, times in Counter(terms).items():
            postings = table.postings[i].get(term)
            if not postings:
                continue
            weight = times * idf(stat.docs, len(postings))
            lengths = table.lengths[i]
            for uuid, tf in postings:
                out[uuid] = out.get(uuid, 0.0) + term_score(tf, lengths[uuid], average, weight)
    return sorted(out.items(), key=lambda item: (-item[1], item[0]))
