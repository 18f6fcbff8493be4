"""Round 18 of quote attribution: what the narration around a quote tells (written examples, own phrasings)."""

from __future__ import annotations

from strata.ingest.extractors.narration_people import Window
from strata.ingest.extractors.quote_spans import find_utterances
from strata.ingest.extractors.tag_descriptors import narration_description


def _said(text: str) -> list[tuple[str | None, str | None]]:
    from strata.ingest.extractors.quotes import find_quotes
    from strata.ingest.extractors.spacy_extractor import load_nlp

    return [(q.speaker, q.method) for q in find_quotes(text, load_nlp()(text))]


def _window(text: str) -> Window:
    from strata.ingest.extractors.spacy_extractor import load_nlp

    paras, utterances = find_utterances(text)
    return Window(text, load_nlp()(text), paras, utterances)


# -- descriptions in narration ---------------------------------------------------------------------------------
def test_a_listed_role_in_narration_is_a_person() -> None:
    text = "At noon the stranger"  # the window reads a description up to its head noun
    found = narration_description(text, text.index("the stranger"), frozenset())
    assert found is not None and found.name == "the Stranger"


def test_a_noun_that_only_ends_like_an_agent_is_no_one() -> None:
    text = "The mirror was cracked from top to bottom."
    assert narration_description(text, 0, frozenset()) is None
    # unless a tag of the window names a speaker by it
    assert narration_description(text, 0, frozenset({"the Mirror"})) is not None


def test_a_capitalized_place_is_no_one_but_a_capitalized_person_noun_is() -> None:
    river = "They rowed down the Thames until dark."
    assert narration_description(river, river.index("the Thames"), frozenset()) is None
    ghost = "The Silent Watchman stood at the gate."
    found = narration_description(ghost, 0, frozenset())
    assert found is not None and found.name == "the Silent Watchman"


# -- who "said the gentleman" is -------------------------------------------------------------------------------
def test_a_described_speaker_is_not_the_named_other_party() -> None:
    text = ('Mr. Grey sat in his chair, and Tom stood at the door.\n\n"Yes, sir," replied Tom.\n\n'
            '"Then sit down," said the gentleman.')
    assert _said(text) == [("Tom", "tag"), ("Mr. Grey", "tag")]


def test_a_described_speaker_still_points_back_at_the_one_man_there() -> None:
    text = 'Tom came in and stood by the door.\n\n"Then sit down," said the gentleman.'
    assert _said(text) == [("Tom", "tag")]


# -- "said he" after narration ---------------------------------------------------------------------------------
def test_said_he_is_the_subject_of_the_last_clause_before_it() -> None:
    text = 'Mr. Grey was off at last; but Tom sat down again, in no hurry to go.\n\n"It will be a good year," said he.'
    assert _said(text) == [("Tom", "tag")]
    swapped = ('Tom was off at last; but Mr. Grey sat down again, in no hurry to go.\n\n'
               '"It will be a good year," said he.')
    assert _said(swapped) == [("Mr. Grey", "tag")]


def test_a_pronoun_subject_carries_the_named_one_back() -> None:
    text = ('Mr. Grey was off at last; but Tom sat down again. He began talking of the harvest to Mr. Lane.\n\n'
            '"It will be a good year," said he.')
    assert _said(text) == [("Tom", "tag")]


# -- genders of bare names -------------------------------------------------------------------------------------
def test_a_bare_surname_takes_the_gender_of_its_titled_form() -> None:
    win = _window("Dr. Kemp came in. He sat down by the lamp. Later Kemp read the paper.")
    assert win.gender("Kemp") == "m"


def test_a_bare_surname_two_titled_forms_disagree_on_stays_unknown() -> None:
    win = _window("Dr. Lane came in with Mrs. Lane. She sat down. Lane read the paper.")
    assert win.gender("Lane") is None


# -- introductions ---------------------------------------------------------------------------------------------
def test_a_relative_clause_introduction_is_said_by_its_antecedent() -> None:
    text = 'Mrs. Grey came in with Anna. She was met in the hall by Lydia, who, running to her, cried, "Such fun!"'
    assert _said(text) == [("Lydia", "tag")]


def test_an_introduction_without_a_parsed_subject_takes_the_last_person_acting() -> None:
    from strata.ingest.extractors.quotes import _unparsed_intro

    text = ("Mrs. Grey protested he must be wrong, and Lydia, always careless and often rude, loudly exclaimed,\n\n"
            '"Good heavens, how can you say so?"')
    win = _window(text)
    end = text.index("\n\n")
    tag = _unparsed_intro(win, 0, end)
    assert tag is not None and tag.subject == "Lydia"
    near = 'Soon afterwards Mr. Darcy, drawing near Elizabeth, said to her,\n\n"Do you dance?"'
    win = _window(near)
    tag = _unparsed_intro(win, 0, near.index("\n\n"))
    assert tag is None or tag.subject != "Elizabeth"  # a name the verb's subject acts on is no speaker


# -- the name a speaker is given -------------------------------------------------------------------------------
def test_a_speaker_is_named_as_the_tags_name_him() -> None:
    text = ('"Mr. Holmes, I have come to you for advice," said she.\n\n"State your case," said Holmes.\n\n'
            '"My father vanished ten years ago."\n\n"His luggage?"')
    speakers = [s for s, _ in _said(text)]
    assert "Mr. Holmes" not in speakers
    assert speakers[1] == speakers[3] == "Holmes"


# -- what is no name -------------------------------------------------------------------------------------------
def test_a_dash_ends_a_tagged_name_and_a_hyphen_joins_one() -> None:
    from strata.ingest.extractors.speech_tags import tag_after

    dashed = tag_after(" said Anna--quite gravely.")
    hyphened = tag_after(" said Mary-Anne, smiling.")
    assert dashed is not None and dashed.subject == "Anna"
    assert hyphened is not None and hyphened.subject == "Mary-Anne"
    of_title = tag_after(" asked Grimwig of Mr. Lane.")  # a title ends the name: the one asked is another
    assert of_title is not None and of_title.subject == "Grimwig"
    assert (tag_after(" said Lady Anne de Burgh.") or of_title).subject == "Lady Anne de Burgh"


def test_a_place_named_after_someone_is_no_person() -> None:
    win = _window("Peter came to Peter Street at noon. Mr. Lane was waiting.")
    names = [m.name for m in win.mentions]
    assert "Peter Street" not in names
    assert "Mr. Lane" in names  # a title makes a person whatever the last word


def test_an_interjection_opening_a_quote_is_no_one_called() -> None:
    text = 'Tom came in.\n\n"Pshaw, what nonsense!" said Anna.\n\n"It is true."'
    assert [s for s, _ in _said(text)] == ["Anna", "Tom"]


def test_a_paragraph_opening_with_narration_is_not_adjacent_to_the_quote_before() -> None:
    from strata.ingest.extractors.quotes import _opens_with_narration

    text = '"It is late," said Anna.\n\nShe put the kettle on the hob. "And the fire is out!"\n\n"I will fetch wood."'
    win = _window(text)
    paras, utterances = find_utterances(text)
    assert [_opens_with_narration(win, u) for u in utterances] == [False, True, False]
