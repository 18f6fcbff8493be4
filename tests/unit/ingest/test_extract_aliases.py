"""A second name the text gives a person in so many words (ingest/extractors/aliases.py)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from strata.ingest.extractors import SpacyExtractor
from strata.ingest.extractors.aliases import PREDICATE
from strata.schema.models import Episode


@pytest.fixture(scope="module")
def extractor() -> SpacyExtractor:
    return SpacyExtractor()


def _ties(extractor: SpacyExtractor, content: str) -> set[tuple[str, str]]:
    ep = Episode(uuid="00000000-0000-5000-8000-000000000005", group_id="g", seq=0, kind="text", content=content,
                 reference_time=datetime(2020, 1, 1, tzinfo=UTC), content_hash="h")
    return {(f.subject, f.object) for f in extractor.extract(ep).facts if f.predicate == PREDICATE}


def test_otherwise_after_a_comma_gives_another_name(extractor: SpacyExtractor) -> None:
    text = "The door opened, and the form of Mr. John Dawkins, otherwise the Artful Dodger, appeared in the room."
    assert ("Mr. John Dawkins", "the Artful Dodger") in _ties(extractor, text)


def test_alias_and_known_as_give_another_name(extractor: SpacyExtractor) -> None:
    assert ("Thomas Smith", "Jones") in _ties(extractor, "The court then heard Thomas Smith, alias Jones, a carter.")
    text = "They sent for Henry Walker, better known as Black Harry, who kept the inn."
    assert ("Henry Walker", "Black Harry") in _ties(extractor, text)


def test_a_naming_phrase_after_a_name_gives_another_name(extractor: SpacyExtractor) -> None:
    text = "In London Richard Carter went by the name of Mr. Morris, and nobody asked him more."
    assert ("Richard Carter", "Mr. Morris") in _ties(extractor, text)


def test_a_description_or_a_clause_is_no_alias(extractor: SpacyExtractor) -> None:
    assert _ties(extractor, "They met Thomas Smith, otherwise a decent man, at the inn.") == set()
    assert _ties(extractor, "It was the late Mr. Smith who built the house.") == set()
    assert _ties(extractor, "Mr. Brownlow was called away before dinner.") == set()


def test_a_name_broken_over_a_line_still_ties(extractor: SpacyExtractor) -> None:
    text = '"You understand?" said Mr. Morris\nBolter, late Claypole, turning to the old man.'
    assert ("Mr. Morris Bolter", "Claypole") in _ties(extractor, text)
    text = '"Was it you?" asked Mr.\nClaypole, otherwise Bolter, when he had moved next day.'
    assert ("Mr. Claypole", "Bolter") in _ties(extractor, text)


def test_a_capitalized_opener_is_no_name(extractor: SpacyExtractor) -> None:
    assert _ties(extractor, "Yes, otherwise Tom would have gone.") == set()
