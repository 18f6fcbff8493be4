"""Office holders from the leaders table, ingested in shuffled order as facts episodes.

Terms end when the successor starts (the End column is not used), so every answer below comes from the
temporal rules. Offices where the source itself has two holders starting on one day are reported by
``overlapping_rows`` and checked as overlaps: both holders count.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime
from pathlib import Path

import pytest

from strata.graph import Graph
from strata.graph.read import list_facts
from strata.graph.retract import retract_episode
from strata.ingest.embedders import HashEmbedder
from strata.ingest.extractors import SpacyExtractor
from strata.ingest.pipeline import Pipeline
from strata.ingest.testing.leaders import (
    PREDICATE,
    as_of_checks,
    holders,
    load_rows,
    now_questions,
    office_of,
    overlapping_rows,
    row_episode,
)
from strata.resolve.timeline import recompute_timeline
from strata.schema.models import utcnow

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def leaders(graph: Graph, shared_data: Path):
    data = shared_data / "temporal_facts"
    rows = load_rows(data / "dyknow_leaders.csv")
    group = f"test-leaders-{random.randrange(10**8)}"
    pipeline = Pipeline(graph, SpacyExtractor(), HashEmbedder(dimension=384))
    order = list(rows)
    random.Random(7).shuffle(order)
    for row in order:
        pipeline.process(row_episode(group, row))
    yield group, rows, data, pipeline
    graph.query("MATCH (n {group_id: $g}) DETACH DELETE n", g=group)


def test_every_row_became_one_fact_and_no_person_was_merged_wrongly(graph: Graph, leaders) -> None:
    group, rows, _, _ = leaders
    page = list_facts(graph, group, predicate=PREDICATE, include_history=True, limit=1000)
    distinct_rows = {(r.name, office_of(r.office), r.start) for r in rows}
    assert page.count == len(distinct_rows)
    assert {(f.subject_name, (f.role, f.object_name), f.valid_at) for f in page.items} == distinct_rows


def test_who_holds_it_now(graph: Graph, leaders) -> None:
    group, rows, data, _ = leaders
    questions = now_questions(data / "qa_now_0_gpt4o.jsonl")
    assert len(questions) >= 20
    wrong = [(office, gold, holders(graph, group, office)) for office, gold in questions
             if holders(graph, group, office) != gold]
    assert wrong == []


def test_as_of_every_term(graph: Graph, leaders) -> None:
    group, rows, _, _ = leaders
    checks = as_of_checks(rows)
    wrong = [(o, t.date(), want, got) for o, t, want in checks if (got := holders(graph, group, o, t)) != want]
    assert wrong == [], f"{len(wrong)}/{len(checks)} wrong"
    # The source's own same-day overlaps exist and are answered as overlaps (both holders), not dropped.
    assert overlapping_rows(rows)


def test_before_the_first_term_nobody_holds_the_office(graph: Graph, leaders) -> None:
    group, rows, _, _ = leaders
    first = min(rows, key=lambda r: r.start)
    assert holders(graph, group, first.office, datetime(1800, 1, 1, tzinfo=UTC)) == set()


def test_retracting_ten_percent_then_recommitting(graph: Graph, leaders) -> None:
    group, rows, _, pipeline = leaders
    gone = random.Random(11).sample(rows, len(rows) // 10)
    for row in gone:
        retract_episode(graph, group, row_episode(group, row).uuid, recompute_timeline, utcnow())
    kept = [r for r in rows if r not in gone]
    checks = as_of_checks(kept)
    wrong = [(o, t.date(), want, got) for o, t, want in checks if (got := holders(graph, group, o, t)) != want]
    assert wrong == [], f"after retraction {len(wrong)}/{len(checks)} wrong"
    for row in gone:
        pipeline.process(row_episode(group, row))
    checks = as_of_checks(rows)
    wrong = [(o, t.date(), want, got) for o, t, want in checks if (got := holders(graph, group, o, t)) != want]
    assert wrong == [], f"after re-commit {len(wrong)}/{len(checks)} wrong"
