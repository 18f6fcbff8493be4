"""Adapter between the graph's slot records and the pure temporal rules.

graph/ gathers every fact of the touched slots and calls ``recompute_timeline``; the rules run per
predicate with that predicate's functionality, so one predicate's facts never close another's.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from datetime import datetime

from strata.resolve.temporal import compute_slot_timeline
from strata.resolve.types import SlotFunctionality, TemporalFact
from strata.schema.plan import SlotFact, SlotUpdate


def recompute_timeline(facts: list[SlotFact], functional: Mapping[str, SlotFunctionality | None],
                       now: datetime) -> list[SlotUpdate]:
    by_predicate: dict[str, list[TemporalFact]] = defaultdict(list)
    for f in facts:
        by_predicate[f.predicate].append(TemporalFact(
            uuid=f.uuid, subject_uuid=f.subject_uuid, predicate=f.predicate, object_uuid=f.object_uuid,
            valid_at=f.valid_at, stated_invalid_at=f.stated_invalid_at, invalid_at=f.invalid_at,
            invalidated_by=f.invalidated_by, created_at=f.created_at, negated=f.negated, story_at=f.story_at,
            story_until=f.story_until))
    updates = []
    for predicate, members in sorted(by_predicate.items()):
        for u in compute_slot_timeline(members, functional.get(predicate), now):
            updates.append(SlotUpdate(uuid=u.fact_uuid, invalid_at=u.invalid_at, invalidated_by=u.invalidated_by,
                                      story_until=u.story_until))
    return updates
