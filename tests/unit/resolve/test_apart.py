"""Pairs kept apart (a rejected suggestion, an undone merge): the pure rules resolution and the pass share."""

from __future__ import annotations

from strata.resolve.apart import foreign_forms, keep_apart
from strata.resolve.consolidate import CastMember, consolidate
from strata.resolve.types import CandidateEntity

MR = CandidateEntity(uuid="mr", name="Mr. Gardiner", type="Person", apart=["lone"])
LONE = CandidateEntity(uuid="lone", name="Gardiner", type="Person", apart=["mr"])
MRS = CandidateEntity(uuid="mrs", name="Mrs. Gardiner", type="Person")


def test_a_mention_naming_one_side_exactly_never_sees_the_other() -> None:
    assert [c.uuid for c in keep_apart(["Gardiner"], [MR, LONE, MRS])] == ["lone", "mrs"]
    assert [c.uuid for c in keep_apart(["Mr. Gardiner"], [MR, LONE, MRS])] == ["mr", "mrs"]


def test_a_mention_naming_neither_side_keeps_both() -> None:
    assert [c.uuid for c in keep_apart(["Edward Gardiner"], [MR, LONE])] == ["mr", "lone"]


def test_names_of_the_other_side_do_not_join_the_chosen_entity() -> None:
    assert foreign_forms(["Mr. Gardiner", "Gardiner"], "mr", [MR, LONE]) == {"gardiner"}
    assert foreign_forms(["Mr. Gardiner", "Gardiner"], "mrs", [MR, LONE, MRS]) == set()


def _cast(apart: bool) -> list[CastMember]:
    return [CastMember(uuid="mr", name="Mr. Gardiner", episodes=[0, 2], apart=["lone"] if apart else []),
            CastMember(uuid="mrs", name="Mrs. Gardiner", episodes=[0, 3]),
            CastMember(uuid="lone", name="Gardiner", episodes=[1])]


def test_the_pass_leaves_a_contested_lone_name_to_the_reviewer() -> None:
    assert [(m.from_uuid, m.into_uuid) for m in consolidate(_cast(False)).merges] == [("lone", "mr")]
    assert consolidate(_cast(True)).merges == []
