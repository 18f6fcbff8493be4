"""Group-local BM25 (graph/bm25.py): the index's analysis and Lucene's formula, over the group's own documents."""

from __future__ import annotations

import math

import pytest

from strata.graph import bm25


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


def test_scores_by_hand() -> None:
    """Four facts, 100 characters of fact text in all (average 25); two of them hold the question's words."""
    table = bm25.Table("fact", [
        ("a", ["The lamp keeper logs the lamp", "logs"]),  # 29 characters: lamp twice, keeper once
        ("b", ["keeper sleeps", "logs"]),  # 13 characters: keeper once
        ("c", ["x" * 29, "logs"]), ("d", ["y" * 29, "logs"])])
    assert [(s.docs, s.length) for s in table.stats] == [(4, 100), (4, 16)]
    found = dict(bm25.ranked(table, "lamp keeper"))
    # idf(lamp) = ln(1 + (4 - 1 + 0.5) / (1 + 0.5)) = ln(10/3) = 1.2039728; idf(keeper) = ln(1 + 2.5 / 2.5) = ln 2
    # a: lamp   1.2039728 * 2 / (2 + 1.2 * (0.25 + 0.75 * 29 / 25)) = 1.2039728 * 2 / 3.344 = 0.7200794
    #    keeper 0.6931472 * 1 / (1 + 1.344) = 0.2957112
    # b: keeper 0.6931472 * 1 / (1 + 1.2 * (0.25 + 0.75 * 13 / 25)) = 0.6931472 / 1.768 = 0.3920516
    assert found["a"] == pytest.approx(0.7200794 + 0.2957112, abs=1e-6)
    assert found["b"] == pytest.approx(0.3920516, abs=1e-6)
    assert set(found) == {"a", "b"}  # a document holding none of the words is no match
    assert bm25.idf(4, 1) == pytest.approx(math.log(10 / 3))


def test_ranked_orders_by_score_then_uuid_and_reads_only_the_table() -> None:
    docs = [("b", ["keeper sleeps", "logs"]), ("a", ["keeper sleeps", "logs"]), ("c", ["the lamp", "logs"])]
    ranked = bm25.ranked(bm25.Table("fact", docs), "keeper lamp")
    # keeper is in two of three documents, lamp in one: c first; a and b tie, by uuid
    assert [uuid for uuid, _ in ranked] == ["c", "a", "b"]
    # the same documents among others that do not hold the words: other statistics (N), other scores
    more = bm25.ranked(bm25.Table("fact", docs + [("d", ["harbour", "logs"])]), "keeper lamp")
    assert [uuid for uuid, _ in more] == ["c", "a", "b"] and more[0][1] != ranked[0][1]
