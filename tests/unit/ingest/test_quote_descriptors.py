"""Speakers a tag names by role or description ("said the ferryman"): written examples."""

from __future__ import annotations

import pytest

from strata.ingest.extractors.speech_tags import tag_after
from strata.ingest.extractors.tag_descriptors import head_of, read


def _said(text: str) -> list[tuple[str | None, list[str], str | None]]:
    from strata.ingest.extractors.quotes import find_quotes
    from strata.ingest.extractors.spacy_extractor import load_nlp

    return [(q.speaker, q.addressees, q.method) for q in find_quotes(text, load_nlp()(text))]


@pytest.mark.parametrize(("narration", "subject", "kind"), [
    (", said the ferryman, stepping ashore.", "the Ferryman", "descriptor"),
    (" cried the sleepy ferryman.", "the Ferryman", "descriptor"),  # a passing adjective is no part of it
    (", said the second porter, ", "the Second Porter", "descriptor"),  # an ordinal tells two porters apart
    (" said the woman in the grey shawl, and", "the Woman in the Grey Shawl", "descriptor"),
    (" said the Lantern Keeper.", "the Lantern Keeper", "descriptor"),
    (" The ferryman answered.", "the Ferryman", "descriptor"),
    (" said the old woman.", "the old woman", "nominal"),  # someone named before, as "said the lady"
])
def test_descriptive_subjects(narration: str, subject: str, kind: str) -> None:
    tag = tag_after(narration)
    assert tag is not None and (tag.subject, tag.kind) == (subject, kind)


def test_words_that_name_nobody() -> None:
    assert tag_after(" said the same.") is None
    assert read("the letter, which", 0) is None


def test_head_of_a_described_name() -> None:
    assert head_of("the Woman in the Grey Shawl") == "woman"
    assert head_of("the Second Porter") == "porter"


def test_a_role_speaker_is_the_speaker_and_takes_turns() -> None:
    text = ('Anna reached the river at dusk.\n\n'
            '"Can you take me across?" she asked.\n\n'
            '"Not tonight," said the ferryman.\n\n'
            '"I can pay."\n\n'
            '"Not for any money."')
    assert [s for s, _, _ in _said(text)] == ["Anna", "the Ferryman", "Anna", "the Ferryman"]


def test_a_role_a_recent_name_bears_as_title_is_that_person() -> None:
    text = ('Colonel Brandt walked in with Anna.\n\n'
            '"We leave at dawn," said the colonel.')
    assert _said(text)[0][0] == "Colonel Brandt"


def test_he_points_back_at_a_role_speaker() -> None:
    text = ('The ferryman leaned on his pole. Anna waited on the bank.\n\n'
            '"The river is high," said the ferryman.\n\n'
            'Anna frowned. "Then when?"\n\n'
            'He shrugged. "Tomorrow," he said.')
    assert [s for s, _, _ in _said(text)][-1] == "the Ferryman"


def test_a_role_is_the_one_named_person_of_its_gender_the_exchange_never_tags() -> None:
    text = ('Anna sat by the bed. The doctor came in. He opened his bag.\n\n'
            '"Will she live?" asked Anna.\n\n'
            '"She may," said the doctor.\n\n'
            '"And if not?"\n\n'
            'Mr. Lane shook his head. "Then we wait."')
    assert [s for s, _, _ in _said(text)] == ["Anna", "Mr. Lane", "Anna", "Mr. Lane"]


def test_a_role_stays_its_own_speaker_when_every_named_man_is_tagged() -> None:
    text = ('Tom and Anna reached the river at dusk. The ferryman was mending a net.\n\n'
            '"Can you take us across?" said Tom.\n\n'
            '"Not tonight," said the ferryman.')
    assert [s for s, _, _ in _said(text)] == ["Tom", "the Ferryman"]
