"""Entity hygiene of the offline extractor on prose: shouting, headings, dialogue fragments, types from evidence."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from strata.ingest.extractors import SpacyExtractor
from strata.ingest.extractors.name_shape import name_shaped, shouted
from strata.schema.models import Episode


def _entities(extractor: SpacyExtractor, content: str) -> dict[str, str]:
    ep = Episode(uuid="00000000-0000-5000-8000-000000000002", group_id="g", seq=0, kind="text", content=content,
                 reference_time=datetime(2020, 1, 1, tzinfo=UTC), content_hash="h")
    return {e.name: e.type for e in extractor.extract(ep).entities}


@pytest.fixture(scope="module")
def extractor() -> SpacyExtractor:
    return SpacyExtractor()


def test_shouting_and_dialogue_fragments_are_not_names():
    assert shouted("CHORUS") and shouted("MR. DARCY") and not shouted("J. R.") and not shouted("Alice")
    assert name_shaped("Anne de Bourgh") and name_shaped("Mrs. Bennet") and name_shaped("Duchess of York")
    assert not name_shaped("Off with her head!") and not name_shaped("Come, we shall")
    assert not name_shaped("Washing--extra") and not name_shaped("French and music")


def test_capitals_name_someone_only_as_the_text_writes_them_elsewhere(extractor: SpacyExtractor):
    found = _entities(extractor, "THE MARVELLOUS VOYAGE OF TOBIAS\n\n“Come here,” said Tobias. “TOBIAS!” cried "
                                 "Mrs. Quill.\n\n         CHORUS.\n\n“Soup, music, AND WASHING--extra.”")
    assert "Tobias" in found and found["Tobias"] == "Person"
    assert not any(name.isupper() for name in found), found
    assert not any(word in name for name in found for word in ("CHORUS", "WASHING", "VOYAGE", "Voyage"))


def test_a_speaker_and_a_titled_name_are_persons(extractor: SpacyExtractor):
    found = _entities(extractor, "“I am late,” said the White Rabbit. Mrs. Quill looked up. “So am I,” replied "
                                 "the Gryphon, and he sighed.")
    assert found.get("Mrs. Quill") == "Person"
    assert all(t == "Person" for n, t in found.items() if "Gryphon" in n or "Rabbit" in n), found
