"""A second name of one person joins it only on evidence in the text (strata.resolve.alias_rules)."""

from strata.resolve.alias_rules import AliasTie, is_pet_form
from strata.resolve.consolidate import CastMember, consolidate


def _m(uuid: str, name: str, episodes: list[int], *aliases: str) -> CastMember:
    return CastMember(uuid=uuid, name=name, aliases=list(aliases), episodes=episodes)


def _merged(plan) -> set[tuple[str, str]]:  # type: ignore[no-untyped-def]
    return {(m.from_uuid, m.into_uuid) for m in plan.merges}


def test_pet_forms_clip_a_name_or_clip_it_and_add_a_pet_ending() -> None:
    assert is_pet_form("gil", "gilbert") and is_pet_form("bet", "betsy") and is_pet_form("nance", "nancy")
    assert is_pet_form("faguey", "fagin", surname=True)
    assert not is_pet_form("gil", "gillis", surname=True)  # a surname is not clipped bare
    assert not is_pet_form("jo", "josephine")  # too short a stem: too many names open so
    assert not is_pet_form("nancy", "nancy") and not is_pet_form("gilbert", "gil")


def test_a_clipped_name_written_with_the_full_name_joins_it() -> None:
    cast = [_m("g", "Gilbert Blythe", [1, 2, 3, 4], "Gilbert"), _m("s", "Gil", [4, 9])]
    plan = consolidate(cast)
    assert _merged(plan) == {("s", "g")} and plan.merges[0].rule == "pet_form"


def test_a_pet_ending_on_a_surname_joins_its_bearer() -> None:
    cast = [_m("f", "Fagin", [1, 2, 3], "Mr. Fagin"), _m("s", "Faguey", [3])]
    assert _merged(consolidate(cast)) == {("s", "f")}


def test_no_scene_together_no_join() -> None:
    cast = [_m("g", "Gilbert Blythe", [1, 2, 3], "Gilbert"), _m("s", "Gil", [7, 9])]
    assert _merged(consolidate(cast)) == set()


def test_a_prefix_of_two_cast_names_joins_neither() -> None:
    cast = [_m("g", "Gilbert Blythe", [1, 2, 3], "Gilbert"), _m("h", "Gilda Moore", [1, 3]), _m("s", "Gil", [1, 3])]
    assert _merged(consolidate(cast)) == set()


def test_a_common_name_of_its_own_is_no_clipping() -> None:
    cast = [_m("j", "Janet Pye", [1, 2, 3], "Janet"), _m("s", "Jane", [1, 3])]
    assert _merged(consolidate(cast)) == set()


def test_a_clipping_of_another_gender_stays_apart() -> None:
    cast = [_m("g", "Mr. Gilbert Blythe", [1, 2, 3], "Gilbert"), _m("s", "Miss Gil", [1, 3], "Gil")]
    assert _merged(consolidate(cast)) == set()


def test_an_alias_the_text_states_joins_across_surnames() -> None:
    cast = [_m("n", "Noah Claypole", [1, 2, 3], "Mr. Claypole"), _m("b", "Mr. Morris Bolter", [5, 6], "Bolter")]
    plan = consolidate(cast, aliases=[AliasTie(a="n", b="b")])
    assert _merged(plan) == {("b", "n")} and plan.merges[0].rule == "alias_tie"


def test_no_alias_tie_no_join_across_surnames() -> None:
    cast = [_m("n", "Noah Claypole", [1, 2, 3], "Mr. Claypole"), _m("b", "Mr. Morris Bolter", [3, 6], "Bolter")]
    assert _merged(consolidate(cast)) == set()


def test_an_alias_tied_to_two_people_or_across_genders_stays_apart() -> None:
    cast = [_m("n", "Noah Claypole", [1, 2]), _m("c", "Charlotte", [2]), _m("b", "Mr. Bolter", [5, 6])]
    two = [AliasTie(a="n", b="b"), AliasTie(a="c", b="b")]
    assert _merged(consolidate(cast, aliases=two)) == set()
    cast = [_m("m", "Mr. Smith", [1, 2]), _m("f", "Mrs. Jones", [3])]
    assert _merged(consolidate(cast, aliases=[AliasTie(a="m", b="f")])) == set()
