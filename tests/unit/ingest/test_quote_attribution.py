"""Quotations in prose: finding utterances, speech tags, and who says what to whom (written examples)."""

from __future__ import annotations

import pytest

from strata.ingest.extractors.quote_spans import find_utterances, quote_style
from strata.ingest.extractors.speech_tags import tag_after, tag_before


def _said(text: str) -> list[tuple[str | None, list[str], str | None]]:
    from strata.ingest.extractors.quotes import find_quotes
    from strata.ingest.extractors.spacy_extractor import load_nlp

    return [(q.speaker, q.addressees, q.method) for q in find_quotes(text, load_nlp()(text))]


# -- finding quotations ----------------------------------------------------------------------------------------
def test_an_interrupted_quote_is_one_utterance_of_two_pieces() -> None:
    text = '"I shall go," said Tom, "whatever the weather."\n\n"Then go."'
    _, utterances = find_utterances(text)
    assert len(utterances) == 2
    first = utterances[0]
    assert [text[a:b] for a, b in first.pieces] == ["I shall go,", "whatever the weather."]
    assert first.text(text) == "I shall go, whatever the weather."


def test_a_quote_open_at_a_paragraph_end_continues_in_the_next() -> None:
    text = '"It began long ago.\n\n"And it never ended."\n\nShe left.'
    _, utterances = find_utterances(text)
    assert len(utterances) == 1
    assert utterances[0].paragraphs == [0, 1]
    assert utterances[0].text(text) == "It began long ago. And it never ended."


def test_curly_single_quotes_skip_apostrophes() -> None:
    text = "‘It’s late,’ said the Hatter, ‘and we’ve no time.’\n\nThe dormouse’s tea was cold."
    assert quote_style(text) == "single"
    _, utterances = find_utterances(text)
    assert len(utterances) == 1
    assert utterances[0].text(text) == "It’s late, and we’ve no time."


# -- speech tags -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("narration", "subject", "kind"), [
    (', said Mr. Grey, "', "Mr. Grey", "name"),
    (" Anna replied, smiling.", "Anna", "name"),
    (", returned she; ", "she", "pronoun"),
    (" cried his wife impatiently.", "his wife", "nominal"),
    (", said Colonel Hale to her, ", "Colonel Hale", "name"),
])
def test_tag_after_a_quote(narration: str, subject: str, kind: str) -> None:
    tag = tag_after(narration)
    assert tag is not None and (tag.subject, tag.kind) == (subject, kind)


def test_no_tag_when_the_narration_does_not_open_with_one() -> None:
    assert tag_after(" The rain went on. Later Anna said nothing.") is None
    assert tag_after(" cried the rain against the panes.") is None  # "rain" is no person


def test_tag_before_a_quote_and_its_addressee() -> None:
    tag = tag_before("The door opened. Mrs. Hale, who had waited an hour, immediately said to him,\n")
    assert tag is not None and tag.subject == "Mrs. Hale" and tag.to == "him"
    assert tag_before("The door opened and the wind blew.") is None


# -- attribution -----------------------------------------------------------------------------------------------
def test_named_and_pronoun_tags() -> None:
    text = ('Mr. Grey came into the room with Anna.\n\n'
            '"Good morning," said Mr. Grey.\n\n'
            '"Is it?" she replied.')
    assert [s for s, _, _ in _said(text)] == ["Mr. Grey", "Anna"]


def test_his_wife_is_mrs_of_mr() -> None:
    text = 'Mr. Hale sat by the fire.\n\n"Will you not come?" cried his wife.'
    assert _said(text)[0][0] == "Mrs. Hale"


def test_vocative_names_the_addressee() -> None:
    text = '"My dear Anna, you are late," said Tom.'
    assert _said(text)[0][:2] == ("Tom", ["Anna"])


def test_untagged_turns_alternate_between_two_speakers() -> None:
    text = ('"Where were you?" said Anna.\n\n'
            '"In town," said Tom.\n\n'
            '"All day?"\n\n'
            '"All day."\n\n'
            '"You might have written."')
    said = _said(text)
    assert [s for s, _, _ in said] == ["Anna", "Tom", "Anna", "Tom", "Anna"]
    assert [m for _, _, m in said] == ["tag", "tag", "turn", "turn", "turn"]
    assert all(to == [other] for (s, to, _), other in zip(said, ["Tom", "Anna", "Tom", "Anna", "Tom"], strict=True))


def test_narration_before_a_quote_names_its_speaker() -> None:
    text = 'Anna looked up from her letter.\n\n"He is coming tomorrow."'
    assert _said(text)[0][0] == "Anna"


def test_unknown_speaker_stays_unknown() -> None:
    assert _said('"Nobody knows who says this."') == [(None, [], None)]
