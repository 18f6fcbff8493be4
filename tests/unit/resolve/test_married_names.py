"""The married-name rules of the consolidation pass (resolve/married_names.py): a woman's maiden or given name and
"Mrs. <husband's surname>" are one character when the text ties them, and only then.

Invented casts; episodes are seqs, a marriage's ``seq`` the first episode stating it."""

from __future__ import annotations

from strata.resolve.consolidate import CastMember, Described, Marriage, consolidate


def member(uuid: str, name: str, *aliases: str, episodes: range | list[int] = range(1), first: int = 0) -> CastMember:
    return CastMember(uuid=uuid, name=name, aliases=list(aliases), episodes=list(episodes), first_position=first)


def merged(plan) -> set[tuple[str, str, str]]:  # type: ignore[no-untyped-def]
    return {(m.from_uuid, m.into_uuid, m.rule) for m in plan.merges}


def wed(a: str, b: str, seq: int, predicate: str = "spouse_of") -> Marriage:
    return Marriage(a=a, b=b, seq=seq, position=seq * 1000, predicate=predicate)


HUSBAND = member("mr", "Mr. Pardoe", episodes=range(10, 60))
BRIDE = member("ell", "Eleanor Cradock", "Miss Cradock", episodes=range(0, 40))
WIFE = member("mrs", "Mrs. Pardoe", episodes=range(30, 70))


def test_the_bride_the_narration_marries_takes_the_married_name() -> None:
    # still written "Miss Cradock" before the wedding: a marriage told (not a proposal) changes her name
    plan = consolidate([HUSBAND, BRIDE, WIFE], [wed("ell", "mr", 31)])
    assert merged(plan) == {("mrs", "ell", "married_name")}


def test_the_married_name_with_the_husbands_given_name() -> None:
    cast = [member("john", "Mr. Edmund Pardoe", "Edmund Pardoe", episodes=range(10, 60)),
            member("george", "Mr. Pardoe", "George Pardoe", episodes=range(0, 90)),
            member("ell", "Eleanor", episodes=range(0, 40)),
            member("mrs", "Mrs. Edmund Pardoe", episodes=range(30, 70))]
    plan = consolidate(cast, [wed("john", "ell", 30)])
    assert merged(plan) == {("mrs", "ell", "married_name")}


def test_a_married_name_in_use_long_before_the_wedding_is_someone_else() -> None:
    # "Mrs. Pardoe" written from the first chapters: his mother (or a first wife), not the bride of chapter 50
    mother = member("mrs", "Mrs. Pardoe", episodes=range(0, 60))
    plan = consolidate([HUSBAND, BRIDE, mother], [wed("ell", "mr", 50)])
    assert plan.merges == []


def test_would_never_marry_is_no_marriage_and_an_engagement_keeps_miss() -> None:
    # a negated fact never reaches the rule (the graph reads non-negated facts only); an engagement while she is
    # still "Miss Cradock" is a proposal, not yet a change of name
    plan = consolidate([HUSBAND, BRIDE, WIFE], [wed("ell", "mr", 31, predicate="engaged_to")])
    assert plan.merges == []


def test_two_women_married_to_him_are_a_suggestion() -> None:
    sister = member("ann", "Ann Cradock", episodes=range(0, 30))
    plan = consolidate([HUSBAND, BRIDE, WIFE, sister], [wed("ell", "mr", 31), wed("ann", "mr", 32)])
    assert plan.merges == [] and {s.candidate_uuid for s in plan.suggestions} == {"ell", "ann"}


def test_a_woman_married_to_another_man_under_his_name_is_no_bride() -> None:
    # "Mrs. Hale married to Mr. Hale": a stray fact marrying her to Mr. Pardoe too does not make her Mrs. Pardoe
    other = [member("mrh", "Mr. Hale", episodes=range(0, 80)), member("mrsh", "Mrs. Hale", episodes=range(0, 80))]
    plan = consolidate([HUSBAND, BRIDE, WIFE, *other],
                       [wed("mrh", "mrsh", 1), wed("mrsh", "mr", 20), wed("ell", "mr", 31)])
    assert merged(plan) == {("mrs", "ell", "married_name")}


def test_a_widow_marrying_again_takes_the_new_name() -> None:
    widow = member("cor", "Mrs. Corlett", episodes=range(0, 40))
    plan = consolidate([HUSBAND, widow, WIFE], [wed("mr", "cor", 30)])
    assert merged(plan) == {("mrs", "cor", "married_name")}


def test_two_men_of_the_name_leave_a_bare_married_name_alone() -> None:
    brother = member("bro", "Mr. Edmund Pardoe", episodes=range(5, 50))
    husband = member("mr", "Mr. Pardoe", "George Pardoe", episodes=range(10, 60))
    plan = consolidate([husband, brother, BRIDE, WIFE], [wed("ell", "mr", 31)])
    assert not {r for _, _, r in merged(plan)} & {"married_name"}


def test_a_former_name_the_text_gives_joins_the_married_name() -> None:
    # "Mrs. Pardoe (poor Miss Cradock that was)": a direct tie, whenever the book says it
    cast = [member("miss", "Miss Cradock", episodes=range(0, 5)), member("mrs", "Mrs. Pardoe", episodes=range(3, 90))]
    plan = consolidate(cast, descriptions=[Described(named="mrs", description="miss")])
    assert merged(plan) == {("miss", "mrs", "maiden_name")}


def test_a_former_name_tied_to_two_married_names_stays_apart() -> None:
    cast = [member("miss", "Miss Cradock", episodes=range(0, 5)), member("mrs", "Mrs. Pardoe", episodes=range(3, 90)),
            member("mrs2", "Mrs. Hale", episodes=range(3, 40))]
    ties = [Described(named="mrs", description="miss"), Described(named="mrs2", description="miss")]
    assert consolidate(cast, descriptions=ties).merges == []


def test_a_man_is_no_former_name() -> None:
    cast = [member("mr", "Mr. Cradock", episodes=range(0, 5)), member("mrs", "Mrs. Pardoe", episodes=range(3, 90))]
    assert consolidate(cast, descriptions=[Described(named="mrs", description="mr")]).merges == []


def test_a_bride_joined_to_her_married_name_is_still_miss_of_her_own_family() -> None:
    # once "Mrs. Pardoe" has joined Eleanor Cradock, "Miss Cradock" still means her (her mother, "Lady Cradock",
    # bears a title under the family name and is no daughter)
    cast = [HUSBAND, member("ell", "Eleanor Cradock", episodes=range(0, 40)), WIFE,
            member("miss", "Miss Cradock", episodes=range(0, 20)),
            member("lady", "Lady Cradock", "Lady Ann Cradock", episodes=range(0, 10)),
            member("her", "Emily", episodes=range(300))]
    plan = consolidate(cast, [wed("ell", "mr", 31)])
    assert {("mrs", "ell", "married_name")} <= merged(plan)
    assert any(f == "miss" and i == "ell" for f, i, _ in merged(plan))
    assert not any("lady" in (f, i) for f, i, _ in merged(plan))


def test_a_description_tied_to_a_married_name_is_no_former_name() -> None:
    # "Mrs. Pardoe, the housekeeper": a description tie, left to the description rules and their rivals
    cast = [member("mrs", "Mrs. Pardoe", episodes=range(3, 90)), member("hk", "the Housekeeper", episodes=range(5)),
            member("hk2", "the Second Housekeeper", episodes=range(5, 9))]
    plan = consolidate(cast, descriptions=[Described(named="mrs", description="hk")])
    assert not any(r == "maiden_name" for _, _, r in merged(plan))
