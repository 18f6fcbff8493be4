"""A given name's gender beyond the built-in lists: the census lists, only before a surname."""

from __future__ import annotations

from strata.resolve.consolidate import CastMember, consolidate
from strata.resolve.given_names import census_genders
from strata.resolve.names import compare_names, parse_name


def test_a_census_name_before_a_surname_tells_its_gender():
    assert census_genders()["otis"] == "m" and census_genders()["opal"] == "f"
    assert "jordan" not in census_genders()  # used for both: tells nothing
    assert parse_name("Otis Pollard").genders == {"m"} and parse_name("Opal Pollard").genders == {"f"}


def test_a_lone_word_is_no_given_name_for_the_census():
    # "Darcy" alone is a surname as often as not: it conflicts with no "Mr."
    assert parse_name("Darcy").genders == frozenset()
    assert compare_names(parse_name("Mr. Darcy"), parse_name("Darcy")).conflict is None


def test_a_title_and_surname_join_the_only_full_name_of_its_gender():
    cast = [CastMember(uuid="mr", name="Mr. Pollard", aliases=[], episodes=list(range(20)), first_position=0),
            CastMember(uuid="otis", name="Otis Pollard", aliases=[], episodes=[2, 3], first_position=50),
            CastMember(uuid="opal", name="Opal Pollard", aliases=[], episodes=[4], first_position=90)]
    plan = consolidate(cast)
    assert {(m.from_uuid, m.into_uuid) for m in plan.merges} == {("otis", "mr")}
