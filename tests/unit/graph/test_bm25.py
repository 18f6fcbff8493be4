"""Group-local BM25 (graph/bm25.py): the index's analysis and Lucene's formula, over the group's own documents."""

from __future__ import annotations

import math

import pytest

from strata.graph import bm25
from strata.graph.bm25 import FieldStats


def test_analysis_follows_the_english_and_the_standard_analyzers() -> None:
    # english: possessive dropped, lowercased, Lucene's English stop words out ("were" is not one), Porter stems
    assert bm25.analyze("John's lamps were running on the 1,000 e.g. boats", english=True) == \
        ["john", "lamp", "were", "run", "1,000", "e.g", "boat"]
    # standard-no-stop-words: every word kept, lowercased, not stemmed
    assert bm25.analyze("The Who's Lamps", english=False) == ["the", "who's", "lamps"]


def test_query_terms_per_field_are_what_the_lucene_query_asks() -> None:
    # entity names and aliases: every word; the summary (prose): without stop and question words
    assert bm25.query_terms("entity", "What is the lamp") == {
        "name": ["what", "is", "the", "lamp"], "aliases": ["what", "is", "the", "lamp"], "summary": ["lamp"]}
    assert bm25.query_terms("fact", "Where does the keeper live?") == {"fact": ["keeper", "live"],
                                                                          "predicate": ["keeper", "live"]}


def _doc(uuid: str, fact: str, predicate: str = "logs") -> tuple[str, list[str]]:
    return uuid, [fact, predicate]  # the fact index's fields: fact, predicate


def test_scores_by_hand() -> None:
    """N = 4 documents with the fact field, 100 characters in all (average 25); two of them match."""
    a = _doc("a", "The lamp keeper logs the lamp")  # 29 characters: lamp twice, keeper once
    b = _doc("b", "keeper sleeps")  # 13 characters: keeper once
    stats = [FieldStats(docs=4, length=100), FieldStats(docs=4, length=16)]
    found = bm25.scores("fact", "lamp keeper", [a, b], stats)
    # idf(lamp) = ln(1 + (4 - 1 + 0.5) / (1 + 0.5)) = ln(10/3) = 1.2039728; idf(keeper) = ln(1 + 2.5 / 2.5) = ln 2
    # a: lamp   1.2039728 * 2 / (2 + 1.2 * (0.25 + 0.75 * 29 / 25)) = 1.2039728 * 2 / 3.344 = 0.7200794
    #    keeper 0.6931472 * 1 / (1 + 1.344) = 0.2957112
    # b: keeper 0.6931472 * 1 / (1 + 1.2 * (0.25 + 0.75 * 13 / 25)) = 0.6931472 / 1.768 = 0.3920516
    assert found["a"] == pytest.approx(0.7200794 + 0.2957112, abs=1e-6)
    assert found["b"] == pytest.approx(0.3920516, abs=1e-6)
    assert bm25.idf(4, 1) == pytest.approx(math.log(10 / 3))


def test_rescored_hits_order_by_the_group_scores_and_cut_to_the_limit() -> None:
    detail = {"stats": [{"docs": 4, "length": 100}, {"docs": 4, "length": 16}],
              "docs": [{"uuid": u, "texts": [t, "logs"]} for u, t in
                       (("a", "The lamp keeper logs the lamp"), ("b", "keeper sleeps"), ("c", "keeper sleeps"),
                        ("gone", "lamp lamp lamp"))]}
    # Lucene's order (and scores) are dropped; "gone" did not pass the filters but still counts for the lamp's idf
    hits = [{"uuid": "c", "score": 9.0}, {"uuid": "b", "score": 8.0}, {"uuid": "a", "score": 1.0}]
    out = bm25.rescored_hits("fact", "lamp keeper", hits, detail, limit=2)
    assert [h["uuid"] for h in out] == ["a", "b"]  # b and c tie: by uuid
    # keeper is now in three of the matches: idf ln(1 + 1.5 / 3.5) = 0.3566749, b: 0.3566749 / 1.768 = 0.2017392
    assert out[1]["score"] == pytest.approx(0.2017392, abs=1e-6)
