"""The temporal rules over the facts of the slots a write touched.

graph/ gathers every fact of the touched slots and calls ``recompute_timeline``; the rules run per
predicate with that predicate's functionality, so one predicate's facts never close another's.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from datetime import datetime

from strata.resolve.temporal import compute_slot_timeline
from strata.schema.models import Functionality
from strata.schema.plan import TemporalFact, TimelineUpdate


def recompute_timeline(facts: list[TemporalFact], functional: Mapping[str, Functionality | None],
                       now: datetime) -> list[TimelineUpdate]:
    by_predicate: dict[str, list[TemporalFact]] = defaultdict(list)
    for f in facts:
        by_predicate[f.predicate].append(f)
    return [u for predicate, members in sorted(by_predicate.items())
            for u in compute_slot_timeline(members, functional.get(predicate), now)]
