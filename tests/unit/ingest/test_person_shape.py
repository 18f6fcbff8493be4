"""Names shaped like a person's become Person whatever the small model guessed (ingest/extractors/person_shape.py)."""

from __future__ import annotations

from strata.ingest.extractors.person_shape import given_name_led, person_names, place_shaped


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


def test_a_name_ending_in_a_street_or_a_building_is_a_place_not_a_person() -> None:
    for name in ("Trafalgar Square", "King Edward Street", "Waterloo Bridge", "Paddington Station",
                 "St. Bartholomew's Hospital", "Regent Street"):
        assert place_shaped(name), name


def test_surnames_that_also_end_places_stay_persons() -> None:
    # one word after a title, and family names that also end places' names
    for name in ("Mr. Street", "Miss Bridge", "Mr. Lane", "Laura Hill", "Sir Thomas Hall", "Dr. Green",
                 "Street", "the Station-Master"):
        assert not place_shaped(name), name


def test_the_extractor_types_a_street_a_place_whatever_the_model_said() -> None:
    from datetime import UTC, datetime

    from strata.ingest.extractors.spacy_state import Collector
    from strata.schema.models import Span

    collector = Collector(content="", reference_time=datetime(2026, 1, 1, tzinfo=UTC), roster_types={})
    collector.add_mention("Baker Street", "Person", Span(start=0, end=12))
    collector.add_mention("Mr. Street", "Person", Span(start=20, end=30))
    types = {e.name: e.type for e in collector.entities()}
    assert types == {"Baker Street": "Place", "Mr. Street": "Person"}


def test_a_street_in_a_persons_slot_is_no_fact() -> None:
    from datetime import UTC, datetime

    from strata.ingest.extractors.factory import make_extractor
    from strata.schema.models import Episode
    from strata.schema.settings import Settings

    text = ("He did tell me the address. Yes, 17 King Edward Street, near St. Paul's.\n\n"
            "Mr. Holder was made chairman of the bank.")
    episode = Episode(uuid="ep", group_id="g", kind="text", content=text,
                      reference_time=datetime(2026, 1, 1, tzinfo=UTC), content_hash="h")
    out = make_extractor(Settings(extractor="spacy")).extract(episode)
    assert not any("Street" in f.subject or ("Street" in f.object and f.object_type == "Person") for f in out.facts)
