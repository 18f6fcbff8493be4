"""Characters named by a description join a named one only on evidence (strata.resolve.description_rules)."""

from strata.resolve.consolidate import CastMember, Described, consolidate


def _m(uuid: str, name: str, episodes: list[int], *aliases: str) -> CastMember:
    return CastMember(uuid=uuid, name=name, aliases=list(aliases), episodes=episodes)


def _merged(plan) -> set[tuple[str, str]]:  # type: ignore[no-untyped-def]
    return {(m.from_uuid, m.into_uuid) for m in plan.merges}


def test_a_description_tied_to_one_name_joins_it() -> None:
    cast = [_m("b", "Mr. Bumble", [1, 2, 3]), _m("d", "the Beadle", [4, 5])]
    plan = consolidate(cast, descriptions=[Described(named="b", description="d")])
    assert _merged(plan) == {("d", "b")}
    assert plan.merges[0].rule == "described_as"


def test_no_tie_no_join() -> None:
    cast = [_m("b", "Mr. Bumble", [1, 2, 3]), _m("d", "the Beadle", [1, 5])]
    assert _merged(consolidate(cast)) == set()


def test_a_description_tied_to_two_names_stays_itself() -> None:
    cast = [_m("a", "Mr. Jaffers", [1]), _m("b", "Mr. Huxter", [2]), _m("d", "the Policeman", [1, 2])]
    ties = [Described(named="a", description="d"), Described(named="b", description="d")]
    assert _merged(consolidate(cast, descriptions=ties)) == set()


def test_another_of_the_same_head_keeps_a_description_apart() -> None:
    cast = [_m("a", "Mr. Jaffers", [1]), _m("d", "the Policeman", [1, 2]), _m("s", "the Second Policeman", [2])]
    assert _merged(consolidate(cast, descriptions=[Described(named="a", description="d")])) == set()


def test_a_title_alone_joins_its_only_bearer_seen_with_it() -> None:
    cast = [_m("k", "Dr. Kemp", [1, 2, 3], "Kemp"), _m("d", "the Doctor", [3, 4])]
    plan = consolidate(cast)
    assert _merged(plan) == {("d", "k")} and plan.merges[0].rule == "role_title"


def test_a_title_with_two_bearers_or_no_shared_scene_stays_itself() -> None:
    two = [_m("k", "Dr. Kemp", [1, 2]), _m("w", "Dr. Wilkins", [2]), _m("d", "the Doctor", [2, 4])]
    assert _merged(consolidate(two)) == set()
    apart = [_m("k", "Dr. Kemp", [1, 2]), _m("d", "the Doctor", [5, 6])]
    assert _merged(consolidate(apart)) == set()
