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


def test_two_plain_named_women_speaking_keep_the_formal_address_apart() -> None:
    text = ('"Good evening," said Anna.\n\n'
            '"Good evening," said Kate.\n\n'
            '"You read a great deal, Miss Grey," said Lady Marsh.\n\n'
            '"Only in the evenings, madam."')
    speakers = _speakers(text)
    assert speakers[:3] == ["Anna", "Kate", "Lady Marsh"]
    assert speakers[3] == "Miss Grey"  # which of the two she is, the text does not tell


def test_a_formal_address_the_narration_uses_stays_its_own_person() -> None:
    text = ('Anna looked up from her book when Miss Grey came in.\n\n'
            '"You read a great deal, Anna," said Miss Grey.\n\n'
            '"Only in the evenings, Miss Grey."\n\n'
            '"And do you play?"')
    assert _speakers(text) == ["Miss Grey", "Anna", "Miss Grey"]


def test_with_nobody_acting_the_formal_address_is_the_woman_active_just_before() -> None:
    text = ('Kate had gone out. Anna answered all the questions very composedly.\n\n'
            '"Do you play and sing, Miss Grey?"\n\n'
            '"A little."\n\n'
            '"And do you draw?"\n\n'
            '"Not at all."')
    speakers = _speakers(text)
    assert speakers[1] == speakers[3] == "Anna"


def test_people_the_narration_points_at_with_pronouns_are_present() -> None:
    from strata.ingest.extractors.narration_people import Window
    from strata.ingest.extractors.quote_spans import find_utterances
    from strata.ingest.extractors.quotes import _pronoun_presence
    from strata.ingest.extractors.spacy_extractor import load_nlp
    from strata.ingest.extractors.turns import Turn

    text = 'Tom bowed to Anna.\n\nShe smiled at him, and said,\n\n"Is your sister well?"'
    paras, utterances = find_utterances(text)
    win = Window(text, load_nlp()(text), paras, utterances)
    turn = Turn()
    _pronoun_presence(win, utterances[0], None, turn)
    assert set(turn.votes) == {"Tom", "Anna"}
    assert all(v == 0 for v in turn.votes.values())  # present, not voted for
