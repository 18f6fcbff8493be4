"""Who the consolidation pass counts as a person (strata.ingest.consolidate)."""

from __future__ import annotations

from strata.graph.consolidate import CastRow
from strata.ingest.consolidate import _is_person


def test_a_first_name_and_a_titled_surname_make_a_person_whatever_the_type() -> None:
    row = CastRow(uuid="t", name="Toby Crackit", type="Organization")
    assert _is_person(row, {"crackit"})  # "Mr. Crackit" is a person of the book
    assert not _is_person(row, {"sikes"})
    assert not _is_person(CastRow(uuid="b", name="Grace Church", type="Organization"), {"sikes"})
