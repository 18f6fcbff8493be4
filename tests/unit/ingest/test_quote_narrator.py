"""A first-person narrator as a speaker ("said I"), named by what the others call the narrator."""

from __future__ import annotations

from strata.ingest.extractors.narrator import NARRATOR, narrator_name


def _said(text: str) -> list[tuple[str | None, list[str]]]:
    from strata.ingest.extractors.quotes import find_quotes
    from strata.ingest.extractors.spacy_extractor import load_nlp

    return [(q.speaker, q.addressees) for q in find_quotes(text, load_nlp()(text))]


def test_the_narrator_takes_turns_and_is_named_by_the_others() -> None:
    text = ('Mr. Brandt was waiting for me in the hall.\n\n'
            '"You are late, Mr. Marlow," he said.\n\n'
            '"The train was slow," I answered.\n\n'
            '"Trains are always slow."\n\n'
            '"Not always."')
    said = _said(text)
    assert [s for s, _ in said] == ["Mr. Brandt", "Mr. Marlow", "Mr. Brandt", "Mr. Marlow"]
    assert said[1][1] == ["Mr. Brandt"]


def test_an_unnamed_narrator_gets_no_name() -> None:
    text = 'Mr. Brandt was waiting for me in the hall.\n\n"The train was slow," I said.'
    said = _said(text)
    assert said[0][0] is None and all(NARRATOR not in to for _, to in said)


def test_narrator_name_from_neighbour_vocatives_first() -> None:
    runs = [[0, 1, 2]]
    assert narrator_name(["Ann", NARRATOR, "Ann"], ["Kit", None, None], runs) == "Kit"
    assert narrator_name(["Ann", "Bob", "Ann"], ["Kit", None, None], runs) is None  # no narrator speaks
    # no neighbour calls the narrator: a name called that the narration never shows acting
    assert narrator_name([NARRATOR, "Ann", "Bob"], [None, None, "Kit"], runs, frozenset({"Ann", "Bob"})) == "Kit"
    assert narrator_name([NARRATOR, "Ann", "Bob"], [None, None, "Ann"], runs, frozenset({"Ann", "Bob"})) is None
