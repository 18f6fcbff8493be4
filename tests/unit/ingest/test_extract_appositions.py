"""Ties the text writes between a description and a name: apposition and copula (ingest/extractors/appositions.py)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from strata.ingest.extractors import SpacyExtractor
from strata.ingest.extractors.appositions import PREDICATE
from strata.schema.models import Episode


@pytest.fixture(scope="module")
def extractor() -> SpacyExtractor:
    return SpacyExtractor()


def _ties(extractor: SpacyExtractor, content: str) -> set[tuple[str, str]]:
    ep = Episode(uuid="00000000-0000-5000-8000-000000000004", group_id="g", seq=0, kind="text", content=content,
                 reference_time=datetime(2020, 1, 1, tzinfo=UTC), content_hash="h")
    return {(f.subject, f.object) for f in extractor.extract(ep).facts if f.predicate == PREDICATE}


def test_a_description_set_off_after_a_name_is_that_person(extractor: SpacyExtractor) -> None:
    text = "He was led into the awful presence of Mr. Bumble, the beadle. The child was pale and thin."
    assert _ties(extractor, text) == {("Mr. Bumble", "the Beadle")}


def test_a_description_set_off_before_a_name_is_that_person(extractor: SpacyExtractor) -> None:
    text = "He and the housekeeper, Mrs. Bernstone, were both released yesterday."
    assert _ties(extractor, text) == {("Mrs. Bernstone", "the Housekeeper")}


def test_a_copula_ties_a_description_to_a_name(extractor: SpacyExtractor) -> None:
    assert ("Mr. Griffin", "the Stranger") in _ties(extractor, "The stranger was Mr. Griffin, and nobody knew it.")
    assert _ties(extractor, "The stranger was not Mr. Griffin, they said.") == set()


def test_a_list_or_a_clause_is_no_tie(extractor: SpacyExtractor) -> None:
    listed = "There came the maids, Mr. Brittles, Mr. Giles, the tinker, and the cook."
    assert ("Mr. Giles", "the Tinker") not in _ties(extractor, listed)
    clause = "On their way to the magistrate, Mr. Bumble instructed Oliver to look very happy."
    assert _ties(extractor, clause) == set()


def test_a_list_going_on_after_the_description_is_no_tie(extractor: SpacyExtractor) -> None:
    text = "They had only just arrived, Mr. Holmes, the prisoner, and he, for they had changed their plans."
    assert _ties(extractor, text) == set()


def test_a_generic_noun_is_said_of_anyone(extractor: SpacyExtractor) -> None:
    assert _ties(extractor, "The only person he could have visited was Major Sholto.") == set()


def test_a_role_named_so_is_that_person(extractor: SpacyExtractor) -> None:
    text = ("He was arrested, together with an Indian butler named Lal Rao, and a porter, or gatekeeper, named "
            "McMurdo.")
    ties = _ties(extractor, text)
    assert {("Lal Rao", "the Butler"), ("McMurdo", "the Porter"), ("McMurdo", "the Gatekeeper")} <= ties


def test_a_description_right_after_a_name_without_comma(extractor: SpacyExtractor) -> None:
    assert _ties(extractor, "They sent for Mr. Wadgers the blacksmith.") == {("Mr. Wadgers", "the Blacksmith")}
