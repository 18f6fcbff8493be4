"""The Neo4j Browser guide's queries, run as written (the text of its runnable blocks) against a small group."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from strata.graph import Graph
from strata.graph.retract import retract_episode
from strata.resolve.timeline import recompute_timeline
from strata.schema.neo4j_browser import guide_html
from tests.support.browser_guide import block, write_sample_group

pytestmark = pytest.mark.integration
GUIDE = guide_html("http://localhost:8000")


@pytest.fixture
def sample(graph: Graph, group_id: str):
    return write_sample_group(graph, group_id)


def _run(graph: Graph, query: str, **params: str) -> list:
    """Records with their nodes and relationships (what Browser draws), not flattened to dicts."""
    return graph.driver.execute_query(query, params, database_=graph.database).records


def _params(group_id: str, **extra: str) -> dict[str, str]:
    return {"group": group_id, "name": "Maya", "date": "2024-03-01", "source": "chat_sessions.json", **extra}


def test_now_and_as_of_read_maya_before_and_after_her_move(graph: Graph, group_id: str, sample) -> None:
    now = _run(graph, block(GUIDE, "RETURN e, r, other", "datetime() AND"), **_params(group_id))
    facts = {(row["r"]["predicate"], row["other"]["name"]) for row in now}
    assert ("lives_in", "Berlin") in facts and ("lives_in", "Lisbon") not in facts
    assert all(row["e"]["name"] == "Maya" for row in now)

    then = _run(graph, block(GUIDE, "datetime($date)"), **_params(group_id))
    facts = {(row["r"]["predicate"], row["other"]["name"]) for row in then}
    assert ("lives_in", "Lisbon") in facts and ("lives_in", "Berlin") not in facts

    by_alias_any_case = _run(graph, block(GUIDE, "datetime($date)"), **_params(group_id, name="maya"))
    assert len(by_alias_any_case) == len(then)
    other_group = _run(graph, block(GUIDE, "datetime($date)"), **_params(group_id + "-none"))
    assert other_group == []


def test_timeline_shows_ended_and_retracted_facts(graph: Graph, group_id: str, sample) -> None:
    timeline = block(GUIDE, "AS status")
    rows = _run(graph, timeline, **_params(group_id))
    status = {(r["predicate"], r["object"]): r["status"] for r in rows if r["subject"] == "Maya"}
    assert status[("lives_in", "Lisbon")] == "ended" and status[("lives_in", "Berlin")] == "true now"
    assert [r["valid_from"] for r in rows] == sorted(r["valid_from"] for r in rows)

    # Session 2 ("I live in Berlin now") withdrawn: Berlin stays in the history as retracted, Lisbon reopens.
    retract_episode(graph, group_id, sample.chat_episodes[1], recompute_timeline, datetime.now(UTC))
    rows = _run(graph, timeline, **_params(group_id))
    status = {(r["predicate"], r["object"]): r["status"] for r in rows if r["subject"] == "Maya"}
    assert status[("lives_in", "Berlin")] == "retracted" and status[("lives_in", "Lisbon")] == "true now"
    now = _run(graph, block(GUIDE, "RETURN e, r, other", "datetime() AND"), **_params(group_id))
    assert ("lives_in", "Lisbon") in {(row["r"]["predicate"], row["other"]["name"]) for row in now}


def test_quotes_of_a_speaker_by_name_or_alias(graph: Graph, group_id: str, sample) -> None:
    drawn = _run(graph, block(GUIDE, "RETURN s, said, q, to, t"), **_params(group_id, name="tom"))
    assert [(r["s"]["name"], r["q"]["text"], r["t"]["name"]) for r in drawn] == [
        ("Tom Grey", "Will you walk?", "Anna"), ("Tom Grey", "Then tomorrow,", "Anna")]
    listed = _run(graph, block(GUIDE, "AS said_to"), **_params(group_id, name="Anna"))
    assert [(r["quote"], r["said_to"]) for r in listed] == [("Not today, Tom.", ["Tom Grey"])]


def test_facts_from_one_source_only(graph: Graph, group_id: str, sample) -> None:
    query = block(GUIDE, "RETURN DISTINCT s, r, o")
    chat = {(r["s"]["name"], r["r"]["predicate"], r["o"]["name"]) for r in _run(graph, query, **_params(group_id))}
    assert ("Maya", "lives_in", "Berlin") in chat and ("Maya", "lives_in", "Lisbon") in chat
    assert not any(p == "holds_office" for _, p, _ in chat)
    offices = _run(graph, query, **_params(group_id, source="offices.jsonl"))
    assert {(r["s"]["name"], r["r"]["predicate"], r["r"]["role"], r["o"]["name"]) for r in offices} == {
        ("Ana Ferreira", "holds_office", "mayor", "Alvorada"), ("Rui Costa", "holds_office", "mayor", "Alvorada"),
        ("Marta Lopes", "holds_office", "mayor", "Alvorada")}


def test_who_interacts_with_whom(graph: Graph, group_id: str, sample) -> None:
    everyone = _run(graph, block(GUIDE, "RETURN a, i, b", "-[i:INTERACTS_WITH]->"), **_params(group_id))
    pairs = {frozenset((r["a"]["name"], r["b"]["name"])): r["i"]["weight"] for r in everyone}
    assert frozenset(("Tom Grey", "Anna")) in pairs and frozenset(("Maya", "Sofia")) in pairs
    assert pairs[frozenset(("Tom Grey", "Anna"))] == 1 + 2 * 3  # one scene, three quotes
    assert [r["i"]["weight"] for r in everyone] == sorted((r["i"]["weight"] for r in everyone), reverse=True)
    around = _run(graph, block(GUIDE, "RETURN a, i, b", "-[i:INTERACTS_WITH]-(b"), **_params(group_id, name="Anna"))
    assert {r["b"]["name"] for r in around} == {"Tom Grey"}


def test_helper_blocks_list_groups_and_names(graph: Graph, group_id: str, sample) -> None:
    groups = _run(graph, block(GUIDE, "AS some_sources"))
    assert any(r["group"] == group_id and r["sources"] == 2 for r in groups)
    names = _run(graph, block(GUIDE, "AS facts", "ORDER BY facts DESC"), **_params(group_id))
    assert names[0]["name"] == "Maya"
