"""The people of one exchange: a formal address said to someone the narration calls by a plain name."""

from __future__ import annotations


def _speakers(text: str) -> list[str | None]:
    from strata.ingest.extractors.quotes import find_quotes
    from strata.ingest.extractors.spacy_extractor import load_nlp

    return [q.speaker for q in find_quotes(text, load_nlp()(text))]


def test_a_formal_address_only_called_is_the_plain_named_woman_present() -> None:
    text = ('Anna looked up from her book when Lady Marsh came in.\n\n'
            '"You read a great deal, Miss Grey," said Lady Marsh.\n\n'
            '"Only in the evenings, madam."\n\n'
            '"And do you play?"\n\n'
            '"A little."')
    assert _speakers(text) == ["Lady Marsh", "Anna", "Lady Marsh", "Anna"]


def test_two_plain_named_women_present_keep_the_formal_address_apart() -> None:
    text = ('Anna and Kate looked up from their books when Lady Marsh came in.\n\n'
            '"You read a great deal, Miss Grey," said Lady Marsh.\n\n'
            '"Only in the evenings, madam."')
    speakers = _speakers(text)
    assert speakers[0] == "Lady Marsh"
    assert speakers[1] not in ("Anna", "Kate")  # which of them is Miss Grey is not told


def test_a_formal_address_the_narration_uses_stays_its_own_person() -> None:
    text = ('Anna looked up from her book when Miss Grey came in.\n\n'
            '"You read a great deal, Anna," said Miss Grey.\n\n'
            '"Only in the evenings, Miss Grey."\n\n'
            '"And do you play?"')
    assert _speakers(text) == ["Miss Grey", "Anna", "Miss Grey"]
