"""A woman's change of name at marriage and marriages named by a noun, told in narration (name_change.py).

Written sentences, not lines of any book; each shape has a case where nothing is stated.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from strata.ingest.extractors import SpacyExtractor
from strata.ingest.protocols import ExtractionContext
from strata.schema.models import Episode

REF = datetime(2024, 1, 1, tzinfo=UTC)


@pytest.fixture(scope="module")
def extractor() -> SpacyExtractor:
    return SpacyExtractor()


def facts(extractor: SpacyExtractor, text: str) -> set[tuple[str, str, str, bool]]:
    episode = Episode(uuid="ep", group_id="g", kind="text", content=text, reference_time=REF, content_hash="h")
    return {(f.subject, f.predicate, f.object, f.negated)
            for f in extractor.extract(episode, ExtractionContext()).facts}


def former(got: set[tuple[str, str, str, bool]]) -> set[tuple[str, str]]:
    return {(s, o) for s, p, o, _ in got if p == "described_as"}


def spouses(got: set[tuple[str, str, str, bool]]) -> set[frozenset[str]]:
    return {frozenset((s, o)) for s, p, o, neg in got if p == "spouse_of" and not neg}


@pytest.mark.parametrize(("text", "married", "maiden"), [
    ("Mrs. Fenwick, formerly Miss Hale, poured the tea.", "Mrs. Fenwick", "Miss Hale"),
    ("The parcel was for Mrs. Ormerod (poor Miss Dunstan that was) at the rectory.", "Mrs. Ormerod", "Miss Dunstan"),
    ("Mrs. Pardoe, née Winterbourne, kept the accounts.", "Mrs. Pardoe", "Winterbourne"),
    ("Eleanor Cradock, now Mrs. Pardoe, kept the accounts.", "Mrs. Pardoe", "Eleanor Cradock"),
    ("In the spring Miss Cradock became Mrs. Pardoe.", "Mrs. Pardoe", "Miss Cradock"),
])
def test_a_former_name_is_tied_to_the_married_name(extractor: SpacyExtractor, text: str, married: str,
                                                     maiden: str) -> None:
    assert (married, maiden) in former(facts(extractor, text))


@pytest.mark.parametrize("text", [
    "Mrs. Fenwick, Miss Hale and Mr. Ross poured the tea.",  # a list
    "Miss Cradock became Mrs. Pardoe's dearest friend.",  # a possessive
    "Miss Cradock would never have become Mrs. Pardoe.",  # denied
    "If Miss Cradock became Mrs. Pardoe, the village would talk.",  # supposed
    "Mrs. Pardoe, his mother, kept the accounts.",  # a relation noun, no former name
])
def test_no_former_name_without_the_convention(extractor: SpacyExtractor, text: str) -> None:
    assert former(facts(extractor, text)) == set()


@pytest.mark.parametrize(("text", "a", "b"), [
    ("Miss Hale's marriage to Mr. Fenwick surprised the county.", "Miss Hale", "Mr. Fenwick"),
    ("The wedding of Eleanor Cradock and Mr. Pardoe took place in June.", "Eleanor Cradock", "Mr. Pardoe"),
    ("Eleanor Cradock was married to Mr. Pardoe in June.", "Eleanor Cradock", "Mr. Pardoe"),
    ("Eleanor Cradock became the wife of Mr. Pardoe.", "Eleanor Cradock", "Mr. Pardoe"),
    ("Mr. Pardoe's bride, Eleanor Cradock, wore grey.", "Eleanor Cradock", "Mr. Pardoe"),
])
def test_a_marriage_told_in_narration(extractor: SpacyExtractor, text: str, a: str, b: str) -> None:
    assert frozenset((a, b)) in spouses(facts(extractor, text))


@pytest.mark.parametrize("text", [
    "She would never marry Mr. Pardoe.",
    "Eleanor Cradock would never marry Mr. Pardoe.",
    "The proposed marriage of Eleanor Cradock and Mr. Pardoe was the talk of the town.",
    "Miss Hale's marriage to Mr. Fenwick would never take place.",
    "Mrs. Pardoe, his mother, disliked Eleanor Cradock.",
])
def test_no_marriage_when_only_wished_denied_or_another_relation(extractor: SpacyExtractor, text: str) -> None:
    got = spouses(facts(extractor, text))
    assert not any("Eleanor Cradock" in pair or "Miss Hale" in pair for pair in got)
