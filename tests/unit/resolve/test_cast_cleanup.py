"""Names on the wrong entity are split off before consolidating (strata.resolve.cleanup)."""

from __future__ import annotations

from strata.resolve.cast import CastMember
from strata.resolve.cleanup import cleanup


def member(uuid: str, name: str, *aliases: str, n: int = 1, seen: dict[str, int] | None = None) -> CastMember:
    return CastMember(uuid=uuid, name=name, aliases=list(aliases), episodes=list(range(n)), form_episodes=seen or {})


def test_titles_of_two_genders_on_one_entity_split_the_rarer_off() -> None:
    g = member("g", "Gardiner", "Mr. Gardiner", "Mrs. Gardiner", "Gardiners", n=30,
               seen={"Mr. Gardiner": 4, "Mrs. Gardiner": 12, "Gardiner": 20})
    [split] = cleanup([g])
    assert (split.entity_uuid, split.forms, split.into_uuid) == ("g", ["Mr. Gardiner"], None)
    # to the entity named so when there is one
    [split] = cleanup([g, member("mr", "Mr. Gardiner", n=2)])
    assert split.into_uuid == "mr"


def test_the_name_s_own_title_stays() -> None:
    [split] = cleanup([member("b", "Mrs. Bennet", "Mr. Bennet", n=40, seen={"Mr. Bennet": 30, "Mrs. Bennet": 5})])
    assert split.forms == ["Mr. Bennet"]


def test_an_alias_that_is_another_entity_s_name_and_fits_weakly_goes_there() -> None:
    lady = member("lady", "Lady Catherine", "Catherine", "Kitty", n=25)
    kitty = member("kitty", "Kitty", n=22)
    splits = cleanup([lady, kitty])
    assert [(s.entity_uuid, s.forms, s.into_uuid) for s in splits] == [("lady", ["Kitty"], "kitty")]


def test_aliases_that_fit_their_entity_stay() -> None:
    # "Eliza" and "Mr. Darcy" are other entities' names too, but fit their holders at merge level
    eliz = member("e", "Elizabeth", "Eliza", "Lizzy", n=100)
    others = [member("eliza", "Eliza", n=8), member("darcy", "Darcy", "Mr. Darcy", n=90), member("mr", "Mr. Darcy")]
    assert cleanup([eliz, *others]) == []
    assert cleanup([member("c", "Charlotte", "Charlotte Lucas"), member("cl", "Charlotte Lucas")]) == []


def test_a_lone_surname_on_a_woman_named_by_title_goes_to_the_man_of_that_surname() -> None:
    mrs = member("mrs", "Mrs. Hall", "Hall", n=15)
    [split] = cleanup([mrs, member("mr", "Mr. Hall", n=9)])
    assert (split.entity_uuid, split.forms, split.into_uuid) == ("mrs", ["Hall"], "mr")
    # no man of that name in the book: she keeps it
    assert cleanup([mrs, member("mr", "Mr. Hale", n=9)]) == []


def test_a_lone_surname_on_a_woman_named_in_full_goes_to_the_man_called_mr() -> None:
    jane = member("jane", "Jane", "Jane Andrews", "Andrews", n=30)
    father = member("mr", "Mr. Harmon Andrews", "Mr. Andrews", n=7)
    [split] = cleanup([jane, father])
    assert (split.forms, split.into_uuid) == (["Andrews"], "mr")
    # an entity named by the surname itself keeps its name
    assert cleanup([member("w", "Wickham", "Mrs. Wickham", n=20), member("mr", "Mr. Wickham", n=30)]) == []
