"""Who speaks each turn of an exchange: the decoder (turns.py) and the rules that feed it (written examples)."""

from __future__ import annotations

from functools import cache

import pytest

from strata.ingest.extractors.quote_context import context_dialogue
from strata.ingest.extractors.turns import Turn, decode

GENDERS = {"Anna": "f", "Tom": "m", "Mrs. Grey": "f", "Bob": "m"}


# -- the decoder -----------------------------------------------------------------------------------------------
def test_a_tag_late_in_a_run_fixes_the_untagged_turns_before_it() -> None:
    turns = [Turn(), Turn(), Turn(), Turn(votes={"Tom": 10.0})]
    assert decode(turns, ["Anna", "Tom"], GENDERS) == ["Anna", "Tom", "Anna", "Tom"]


def test_the_person_addressed_answers_among_three() -> None:
    turns = [Turn(votes={"Anna": 10.0}), Turn(votes={"Tom": 10.0}, addressed=frozenset({"Bob"})), Turn()]
    assert decode(turns, ["Anna", "Tom", "Bob"], GENDERS)[2] == "Bob"  # not Anna, two turns back


def test_a_pronoun_tag_picks_the_person_of_its_gender() -> None:
    turns = [Turn(votes={"Tom": 10.0}), Turn(), Turn(gender="m")]
    # alternation alone would give Anna the third turn; "said he" gives it to the man
    assert decode(turns, ["Tom", "Anna"], GENDERS) == ["Tom", "Anna", "Tom"]


def test_she_went_on_keeps_the_speaker() -> None:
    turns = [Turn(votes={"Anna": 10.0}), Turn(continues=True, gender="f")]
    assert decode(turns, ["Anna", "Tom", "Mrs. Grey"], GENDERS) == ["Anna", "Anna"]


def test_nobody_to_choose_from_gives_no_speaker() -> None:
    assert decode([Turn(), Turn()], [], GENDERS) == [None, None]


# -- the text before a window ----------------------------------------------------------------------------------
def test_context_tells_the_last_exchange_and_who_was_named() -> None:
    context = ('Mrs. Grey came in with Bob.\n\n"Where is the key?" said Anna.\n\n"In the door," replied Tom.\n\n'
               '"Which door?"')
    before = context_dialogue(context, gap=2)
    assert before.speakers == ("Anna", "Tom", None) and before.open_exchange
    assert before.names() == ["Mrs. Grey", "Bob", "Anna", "Tom"]
    assert not context_dialogue(context + "\n\nThe night fell.\n\nThe rain came.\n\nNobody slept.", gap=2).open_exchange


# -- attribution in text ---------------------------------------------------------------------------------------
@cache
def _nlp():  # type: ignore[no-untyped-def]
    from strata.ingest.extractors.spacy_extractor import load_nlp

    return load_nlp()


def _speakers(text: str, context: str = "") -> list[str | None]:
    from strata.ingest.extractors.quotes import find_quotes

    return [q.speaker for q in find_quotes(text, _nlp()(text), context)]


def test_a_later_tag_fixes_the_quotes_before_it_in_text() -> None:
    text = ('Anna and Tom walked home in the rain.\n\n'
            '"You are quiet tonight."\n\n'
            '"I am tired."\n\n'
            '"Tired of me?" said Anna.')
    assert _speakers(text) == ["Anna", "Tom", "Anna"]


def test_the_one_a_vocative_calls_answers_in_a_scene_of_three() -> None:
    text = ('Anna, Tom and Bob sat at the table.\n\n'
            '"Pass the bread," said Tom.\n\n'
            '"Here it is, Tom," said Anna. "And what do you think, Bob?"\n\n'
            '"I think it is stale."')
    assert _speakers(text)[-1] == "Bob"


def test_a_narration_pronoun_keeps_its_person_in_focus() -> None:
    # "she" in "as she read" is Anna (named in the same sentence), so Anna stays in focus for "said she",
    # though Mrs. Grey was the last woman named as a subject before that sentence
    text = ('Mrs. Grey brought the letter. The news made Anna laugh, as she read it again.\n\n'
            '"It is too good to be true," said she.')
    assert _speakers(text) == ["Anna"]


@pytest.mark.parametrize(("narration", "speaker"), [
    ("Anna looked at the clock; but Mrs. Grey, much offended, laid aside her work, and said,", "Mrs. Grey"),
    ("The fire was low, and Tom, always impatient, suddenly exclaimed,", "Tom"),
])
def test_the_speech_verb_of_an_introduction_gives_its_own_subject(narration: str, speaker: str) -> None:
    assert _speakers(f'{narration}\n\n"We cannot wait any longer."') == [speaker]


def test_a_quote_answers_the_person_asked_in_the_narration_before() -> None:
    text = ('Tom came to the window. After a moment he asked Anna whether the coach had come.\n\n'
            '"Not yet; it is always late."')
    assert _speakers(text) == ["Anna"]


def test_the_former_and_the_latter() -> None:
    text = ('Anna and Mrs. Grey sat together; the former said,\n\n"It is cold."')
    assert _speakers(text) == ["Anna"]


def test_to_his_wife_is_the_speakers_wife_and_she_answers() -> None:
    text = ('"I hope, my dear," said Mr. Hale to his wife, "that dinner is ready."\n\n'
            '"It is not."')
    from strata.ingest.extractors.quotes import find_quotes

    quotes = find_quotes(text, _nlp()(text))
    assert quotes[0].addressees == ["Mrs. Hale"] and quotes[1].speaker == "Mrs. Hale"


def test_the_text_before_a_window_continues_its_exchange() -> None:
    context = '"Will you come?" said Anna.\n\n"No," said Tom.'
    text = '"Why not?"\n\n"Because it rains."'
    assert _speakers(text) == [None, None]  # alone, nobody is known
    assert _speakers(text, context) == ["Anna", "Tom"]


def test_a_name_alone_is_an_answer_not_a_call() -> None:
    text = '"What is his name?" said Anna.\n\n"Hale."\n\n"Is he married?"'
    from strata.ingest.extractors.quotes import find_quotes

    quotes = find_quotes(text, _nlp()(text))
    assert quotes[1].addressees != ["Hale"] and quotes[2].speaker == "Anna"


def test_the_one_called_answers_after_narration_about_another_man() -> None:
    # Mr. Hale is the man acting last in the narration, but the exchange is Anna's with Tom, whom she calls
    text = ('"You are late again, Tom," said Anna.\n\n'
            'Mr. Hale put down his paper and looked at them both.\n\n'
            '"I am," said he.')
    assert _speakers(text) == ["Anna", "Tom"]


def test_a_reported_question_is_answered_even_with_a_pronoun_tag() -> None:
    text = ('Mrs. Grey sat by the window. Tom came in, and he asked Anna whether the coach had come.\n\n'
            '"Not yet," she replied.')
    assert _speakers(text) == ["Anna"]


def test_a_month_is_no_person() -> None:
    text = ('Tom wrote on the first of August. Anna read the letter.\n\n'
            '"He is well," said she.\n\n'
            '"I am glad of it," said her father.')
    assert "August" not in _speakers(text)


def test_a_speech_left_open_before_the_window_goes_on_in_its_first_paragraph() -> None:
    # the printed convention: no closing mark at a paragraph's end, the next paragraph's quote is the same speech
    context = '"Where were you?" said Anna.\n\n"At the mill," said Tom. "The wheel had stopped, and I waited there.'
    text = '"Then the miller came and we mended it together."\n\n"And the flour?"'
    assert context_dialogue(context, gap=2).open_speech
    assert not context_dialogue(context + '"', gap=2).open_speech
    assert _speakers(text, context) == ["Tom", "Anna"]
    # closed, the same paragraph is the other person's answer
    assert _speakers(text, context + '"')[0] == "Anna"


def test_a_third_person_does_not_take_an_untagged_turn_of_a_two_person_exchange() -> None:
    # Anna and Tom alternate; Bob, tagged two turns later, could explain the untagged turn by alternation too,
    # but nobody breaks into an exchange without a tag or narration
    tagged = {"Anna": 10.0}
    turns = [Turn(votes=dict(tagged)), Turn(votes={"Tom": 10.0}), Turn(votes=dict(tagged)),
             Turn(votes={"Tom": 1.0}, bare=True), Turn(votes={"Anna": 1.0, "Bob": 1.0}, bare=True),
             Turn(votes={"Tom": 1.0}, bare=True), Turn(votes={"Bob": 10.0})]
    assert decode(turns, ["Bob", "Anna", "Tom"], GENDERS)[4] == "Anna"
    # a turn with its own evidence is no intrusion: narration showing Bob before it lets him speak
    turns[4] = Turn(votes={"Anna": 1.0, "Bob": 1.0})
    assert decode(turns, ["Bob", "Anna", "Tom"], GENDERS)[4] == "Bob"


def test_said_she_is_the_one_woman_its_own_sentence_names() -> None:
    # the latest woman acting is Mrs. Grey (the previous speaker), but the tag's own sentence names Anna
    text = ('"The coach is late again," said Mrs. Grey.\n\n'
            'A thought entering Anna\'s head about the coachman, she said, with a smile,\n\n'
            '"Perhaps he has stopped at the inn."')
    assert _speakers(text) == ["Mrs. Grey", "Anna"]


def test_a_dash_after_a_tagged_name_is_punctuation() -> None:
    from strata.ingest.extractors.speech_tags import tag_after

    tag = tag_after("--cried Anna.--")
    assert tag is not None and tag.subject == "Anna"


@pytest.mark.parametrize(("pieces", "gender"), [
    (["Yes, sir."], "m"), (["Thank you, madam; I will."], "f"), (["I am, sir, your servant"], "m"),
    (["Sir William is here."], None), (["Yes, sir.", "No, madam."], None), (["Mamma, look!"], "f"),
])
def test_forms_of_address_tell_the_hearers_gender(pieces: list[str], gender: str | None) -> None:
    from strata.ingest.extractors.address_terms import addressed_gender

    assert addressed_gender(pieces) == gender


def test_sir_is_said_to_the_man_who_spoke_before() -> None:
    # Anna and Tom and Mrs. Grey present; the untagged turn before "Yes, sir." is the man's, not Mrs. Grey's
    turns = [Turn(votes={"Anna": 10.0}), Turn(votes={"Tom": 1.0, "Mrs. Grey": 1.0}),
             Turn(votes={"Anna": 10.0}, called_gender="m")]
    assert decode(turns, ["Mrs. Grey", "Tom", "Anna"], GENDERS)[1] == "Tom"
    turns[2] = Turn(votes={"Anna": 10.0})
    assert decode(turns, ["Mrs. Grey", "Tom", "Anna"], GENDERS)[1] == "Mrs. Grey"  # a tie, without the "sir"


def test_said_he_is_the_man_the_narration_before_shows_acting() -> None:
    # Tom spoke last and Bob is named later in the narration, but its subject is Mr. Hale: "said he" is his
    text = ('"The roads are bad," said Tom.\n\n'
            'Mr. Hale shook his head sadly and looked at Bob for a while.\n\n'
            '"Ah, my boy," said he, "the snow is coming."')
    assert _speakers(text) == ["Tom", "Mr. Hale"]


def test_the_person_the_narration_turns_to_answers() -> None:
    # alternation alone gives the last turn to Tom; Anna turned to Bob, so Bob answers her
    text = ('"It is cold tonight," said Tom.\n\n"It is," said Anna.\n\n"Shall I light the lamp?" said Tom.\n\n'
            'Anna turned to Bob.\n\n"Will you sit nearer?" said she.\n\n"Thank you, I will."')
    assert _speakers(text) == ["Tom", "Anna", "Tom", "Anna", "Bob"]


def test_hearer_verbs_are_data() -> None:
    from strata.ingest.extractors.narration_address import _verbs

    to_verbs, object_verbs = _verbs()
    assert {"turn", "speak"} <= to_verbs and {"address", "accost"} <= object_verbs


def test_a_pronoun_acting_in_the_narration_before_keeps_the_speaker() -> None:
    # ‹He frowned.› alone between two quotes: the man speaks again, against the alternation that gives Anna
    text = ('"Tea?" said Anna.\n\n"Yes, please," said Tom.\n\n"Milk?"\n\n"No, thank you."\n\nHe frowned.\n\n'
            '"Have you no lemon?"')
    assert _speakers(text) == ["Anna", "Tom", "Anna", "Tom", "Tom"]


def test_a_described_subject_is_the_description_not_its_adjective() -> None:
    # ‹The Invisible Man swore.› next to the quote names its speaker: the description the window knows
    text = ('"Who is he?" asked Kemp.\n\n"A stranger," said Adye.\n\n"Where from?" said Kemp.\n\n'
            'The Invisible Man swore. "From Iping, of course."')
    assert _speakers(text) == ["Kemp", "Adye", "Kemp", "the Invisible Man"]
