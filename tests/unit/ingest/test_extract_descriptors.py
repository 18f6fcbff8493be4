"""Characters named by a role or a description become mentions (ingest/extractors/descriptors.py)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from strata.ingest.extractors import SpacyExtractor
from strata.ingest.extractors.descriptors import find_descriptors, lexicon
from strata.ingest.extractors.speech_tags import SPEECH_VERBS
from strata.schema.models import Episode


@pytest.fixture(scope="module")
def extractor() -> SpacyExtractor:
    return SpacyExtractor()


def _found(extractor: SpacyExtractor, text: str) -> dict[str, str]:
    return {d.name: d.type for d in find_descriptors(extractor.nlp(text), set(), SPEECH_VERBS)}


def _entities(extractor: SpacyExtractor, content: str) -> dict[str, str]:
    ep = Episode(uuid="00000000-0000-5000-8000-000000000003", group_id="g", seq=0, kind="text", content=content,
                 reference_time=datetime(2020, 1, 1, tzinfo=UTC), content_hash="h")
    return {e.name: e.type for e in extractor.extract(ep).entities}


def test_the_lexicon_holds_roles_generic_nouns_and_animals():
    words = lexicon()
    assert words["ferryman"] == "role" and words["woman"] == "generic" and words["tortoise"] == "animal"
    assert "sister" not in words  # kin needs an anchor ("her sister"), not a description


def test_a_role_that_speaks_is_a_character_and_passing_adjectives_leave_its_name(extractor: SpacyExtractor):
    found = _found(extractor, "\u201cMind the step,\u201d said the ferryman. The weary ferryman pushed off.")
    assert found == {"the Ferryman": "Person"}


def test_a_role_that_acts_twice_is_a_character_once_is_not(extractor: SpacyExtractor):
    assert _found(extractor, "The gardener cut the hedge. Then the gardener burned the leaves.") == {
        "the Gardener": "Person"}
    assert _found(extractor, "The gardener cut the hedge. We went home.") == {}


def test_generic_and_modal_uses_are_not_characters(extractor: SpacyExtractor):
    assert _found(extractor, "A lawyer would object. A lawyer would object again.") == {}  # indefinite
    assert _found(extractor, "The lawyer would object, and the lawyer might refuse.") == {}  # only modal
    assert _found(extractor, "The woman sat down. The woman left.") == {}  # a generic noun needs a description


def test_a_generic_noun_with_its_description_is_a_character(extractor: SpacyExtractor):
    assert _found(extractor, "The tall man knocked twice. The tall man waited.") == {"the Tall Man": "Person"}


def test_compounds_and_ordinals_tell_two_roles_apart(extractor: SpacyExtractor):
    found = _found(extractor, "\u201cStop!\u201d shouted the night porter. \u201cWhy?\u201d asked the third porter.")
    assert set(found) == {"the Night Porter", "the Third Porter"}
    hyphened = _found(extractor, "The lock-keeper opened the gate and the lock-keeper waved us on.")
    assert hyphened == {"the Lock-Keeper": "Person"}


def test_an_animal_is_typed_as_one(extractor: SpacyExtractor):
    assert _found(extractor, "The old tortoise yawned. The old tortoise slept.") == {"the Tortoise": "Animal"}


def test_the_extractor_makes_them_entities_in_prose(extractor: SpacyExtractor):
    found = _entities(extractor, "\u201cTickets, please,\u201d said the conductor. Ruth Ames gave hers. The "
                                 "conductor punched it and the conductor moved on.")
    assert found.get("the Conductor") == "Person" and "Ruth Ames" in found
