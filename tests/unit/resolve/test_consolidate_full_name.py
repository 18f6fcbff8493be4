"""The consolidation pass: two entities holding one full name are one person (strata.resolve.consolidate)."""

from __future__ import annotations

from strata.resolve.consolidate import CastMember, ConsolidationPlan, consolidate


def member(uuid: str, name: str, *aliases: str, episodes: range | list[int] = range(1)) -> CastMember:
    return CastMember(uuid=uuid, name=name, aliases=list(aliases), episodes=list(episodes), first_position=0)


def pairs(plan: ConsolidationPlan) -> set[tuple[str, str, str]]:
    return {(m.from_uuid, m.into_uuid, m.rule.split(":")[0]) for m in plan.merges}


def test_two_entities_holding_one_full_name_are_one_person() -> None:
    # both hold "Nathaniel Crewe" and the family's bare surname, which ties them to the uncle as well
    plan = consolidate([member("long", "Mr. Nathaniel Crewe", "Nathaniel Crewe", "Crewe", episodes=range(12)),
                        member("short", "Nathaniel Crewe", "Nathaniel", "Crewe", episodes=range(10, 16)),
                        member("uncle", "Colonel Crewe", "Crewe", episodes=range(3, 9))])
    assert ("short", "long", "shared_full_name") in pairs(plan)
    assert not any("uncle" in (a, b) for a, b, _ in pairs(plan))


def test_a_shared_full_name_does_not_join_names_that_conflict() -> None:
    # a wrong alias on a wife's entity does not make her her husband
    plan = consolidate([member("him", "Mr. Nathaniel Crewe", "Nathaniel Crewe", episodes=range(12)),
                        member("her", "Mrs. Crewe", "Nathaniel Crewe", episodes=range(4))])
    assert not any(rule == "shared_full_name" for _, _, rule in pairs(plan))


def test_a_description_is_no_full_name() -> None:
    # "the Night Porter" parses as modifier + head: two entities holding it share no person's name
    plan = consolidate([member("a", "the Night Porter", "the Night Porter", episodes=range(3)),
                        member("b", "the Night Porter Jones", "the Night Porter", episodes=range(2))])
    assert not any(rule == "shared_full_name" for _, _, rule in pairs(plan))


def test_a_compound_written_joined_and_apart_is_one_entity() -> None:
    plan = consolidate([member("apart", "the Lock-Keeper", episodes=range(4)),
                        member("joined", "the Lockkeeper", episodes=range(3, 5))])
    assert {(a, b) for a, b, _ in pairs(plan)} == {("joined", "apart")}


def test_a_family_title_spoken_to_joins_the_one_of_that_family_who_answers() -> None:
    from strata.resolve.consolidate import Reply

    # two sisters named in full: the title alone cannot tell which (`_only_full_name` leaves it)
    cast = [member("miss", "Miss Ormerod", episodes=range(20)), member("ruth", "Ruth Ormerod", episodes=range(30)),
            member("jane", "Jane Ormerod", episodes=range(30)), member("paul", "Paul Vane", episodes=range(40))]
    replies = [Reply(addressed="miss", replier="ruth")] * 3
    assert ("miss", "ruth", "vocative_reply") in pairs(consolidate(cast, replies=replies))
    # answered by someone of another family: a title says nothing of him
    other = [Reply(addressed="miss", replier="paul")] * 3
    assert not any(rule == "vocative_reply" for _, _, rule in pairs(consolidate(cast, replies=other)))
