"""One temporal rule: the Cypher filter every read uses (graph/queries/read.py ``TEMPORAL_FILTER``) against the
Python statement of it (resolve/temporal.py ``holds``, ``holds_in_story``), on random facts stored as real
``RELATES_TO`` relationships in Neo4j (in a transaction that is rolled back)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from strata.graph import Graph
from strata.graph.queries.read import TEMPORAL_FILTER
from strata.resolve.temporal import holds, holds_in_story, is_believed_at
from strata.resolve.types import TemporalFact

pytestmark = pytest.mark.integration

T0 = datetime(2020, 1, 1, tzinfo=UTC)
BOOK = "book-1"

STORE = """
UNWIND $rows AS row
CREATE (:TemporalProbe)-[r:RELATES_TO]->(:TemporalProbe)
SET r = row
"""
EVALUATE = """
MATCH (:TemporalProbe)-[r:RELATES_TO]->(:TemporalProbe)
// a WHERE drops a row whose filter is null as it drops false
RETURN r.uuid AS uuid, coalesce((""" + TEMPORAL_FILTER + """), false) AS holds
"""


def day(n: int) -> datetime:
    return T0 + timedelta(days=n)


days = st.integers(min_value=0, max_value=12).map(day)
maybe_day = st.none() | days


@st.composite
def facts(draw: st.DrawFn) -> TemporalFact:
    history = draw(st.none() | st.lists(st.tuples(days, maybe_day), max_size=4))
    legacy = history is None and draw(st.booleans())
    position = draw(st.none() | st.integers(0, 50))
    return TemporalFact(
        uuid=str(uuid.uuid4()), subject_uuid="s", predicate="p", object_uuid="o",
        valid_at=draw(maybe_day), stated_invalid_at=draw(maybe_day), invalid_at=draw(maybe_day),
        invalidated_at=draw(maybe_day), created_at=draw(maybe_day), expired_at=draw(maybe_day),
        negated=draw(st.booleans()),
        end_changed_at=None if history is None else sorted(t for t, _ in history),
        end_before=None if history is None else [b for _, b in history],
        prev_invalid_at=draw(maybe_day) if legacy else None, prev_invalidated_at=draw(maybe_day) if legacy else None,
        story_at=position, story_until=None if position is None else draw(st.none() | st.integers(position, 60)))


def stored(f: TemporalFact) -> dict[str, Any]:
    """The fact as the graph stores it (the end history's ends as ISO strings, '' for open)."""
    row = f.model_dump(exclude={"subject_uuid", "object_uuid", "episodes", "end_before"})
    if f.end_before is not None:
        row["end_before"] = ["" if b is None else b.isoformat() for b in f.end_before]
    row["story_source"] = BOOK if f.story_at is not None else None
    return {k: v for k, v in row.items() if v is not None}


def cypher_holds(graph: Graph, fs: list[TemporalFact], **params: Any) -> dict[str, bool]:
    with graph.driver.session(database=graph.database) as session:
        tx = session.begin_transaction()
        try:
            tx.run(STORE, rows=[stored(f) for f in fs]).consume()
            rows = tx.run(EVALUATE, include_history=False, story_source=BOOK, **params).data()
        finally:
            tx.rollback()
    return {r["uuid"]: r["holds"] for r in rows}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(fs=st.lists(facts(), min_size=1, max_size=6), as_of=days, known_at=days)
def test_valid_time_and_known_at_agree(graph: Graph, fs: list[TemporalFact], as_of: datetime,
                                        known_at: datetime) -> None:
    got = cypher_holds(graph, fs, as_of=as_of, known_at=known_at, story_at=None)
    assert got == {f.uuid: holds(f, as_of, known_at) for f in fs}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(fs=st.lists(facts(), min_size=1, max_size=6), position=st.integers(0, 60), known_at=days)
def test_story_cut_agrees(graph: Graph, fs: list[TemporalFact], position: int, known_at: datetime) -> None:
    got = cypher_holds(graph, fs, as_of=known_at, known_at=known_at, story_at=position)
    assert got == {f.uuid: is_believed_at(f, known_at) and holds_in_story(f, position) for f in fs}


def test_a_stated_end_later_closed_earlier(graph: Graph) -> None:
    """Stated to end on day 10, closed on day 5 by a successor learned on day 3: before day 3 we believed the
    stated end (the rule the Python statement got wrong before both became one)."""
    f = TemporalFact(uuid="a", subject_uuid="s", predicate="p", object_uuid="o", valid_at=day(0),
                     stated_invalid_at=day(10), invalid_at=day(5), invalidated_at=day(3), created_at=day(1),
                     end_changed_at=[day(3)], end_before=[day(10)])
    for known_at, as_of, expected in ((day(2), day(7), True), (day(4), day(7), False), (day(2), day(11), False)):
        assert holds(f, as_of, known_at) is expected
        assert cypher_holds(graph, [f], as_of=as_of, known_at=known_at, story_at=None) == {"a": expected}
