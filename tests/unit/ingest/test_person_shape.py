"""Names shaped like a person's become Person whatever the small model guessed (ingest/extractors/person_shape.py)."""

from __future__ import annotations

from strata.ingest.extractors.person_shape import given_name_led, person_names


def test_a_given_name_leads_a_person_name() -> None:
    assert given_name_led("Eleanor Marsh")
    assert given_name_led("Charlotte Lucas")
    assert not given_name_led("Victoria Station")  # a place word ends it
    assert not given_name_led("Elizabeth Street")
    assert not given_name_led("Netherfield Park")  # no given name
    assert not given_name_led("Mr. Bingley")  # a title, not a given name: handled by the title rule
    assert not given_name_led("Eleanor")  # one word: needs more evidence


def test_one_word_needs_evidence_from_the_episode() -> None:
    names = ["Lydia", "Kitty", "Bingley", "Mr. Bingley", "Meryton", "Eleanor Marsh"]
    out = person_names(names, person_once={"Kitty"}, quote_parties={"Lydia"})
    assert out == {"Lydia", "Kitty", "Bingley", "Eleanor Marsh"}
    # without a quote, a person tag or a title beside it, a lone word keeps the model's type
    assert person_names(["Lydia", "Bingley"], set(), set()) == set()
