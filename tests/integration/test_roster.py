"""The extractor's roster of a group without a source: the entities its latest committed episodes mention most,
read from a bounded window of episodes, so its cost does not grow with the group (issue #20: counting every
entity's mentions took seconds an episode in a group of 147k entities)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from strata.graph import read
from strata.graph.read import roster

pytestmark = pytest.mark.integration

# (episode, committed, entity names it mentions): Old Name only in the oldest episode, Recent Name in the three
# newest, Uncommitted Name only in an episode still queued.
EPISODES = [("old", datetime(2020, 1, 1, tzinfo=UTC), ["Old Name", "Recent Name"]),
            ("new-1", datetime(2024, 1, 1, tzinfo=UTC), ["Recent Name"]),
            ("new-2", datetime(2024, 2, 1, tzinfo=UTC), ["Recent Name"]),
            ("new-3", datetime(2024, 3, 1, tzinfo=UTC), ["Recent Name", "Other Name"]),
            ("queued", None, ["Uncommitted Name"])]


@pytest.fixture
def group(graph, group_id) -> str:
    for name, committed, mentioned in EPISODES:
        graph.query("CREATE (ep:Episode {uuid: $uuid, group_id: $g, committed_at: $committed}) "
                    "WITH ep UNWIND $names AS name "
                    "MERGE (e:Entity {group_id: $g, name: name}) ON CREATE SET e.uuid = randomUUID(), "
                    "e.type = 'Person', e.aliases = [] "
                    "CREATE (ep)-[:MENTIONS]->(e)",
                    uuid=f"{group_id}-{name}", g=group_id, committed=committed, names=mentioned)
    return group_id


def test_the_roster_is_the_latest_episodes_most_mentioned(graph, group) -> None:
    assert [r.name for r in roster(graph, group, None, 0)] == ["Recent Name", "Old Name", "Other Name"]


def test_the_roster_reads_only_the_latest_episodes(graph, group, monkeypatch) -> None:
    monkeypatch.setattr(read, "ROSTER_EPISODES", 3)
    assert [r.name for r in roster(graph, group, None, 0)] == ["Recent Name", "Other Name"]


def test_the_roster_query_starts_from_the_group_episodes_index(graph, group) -> None:
    """The plan seeks the group's committed episodes in the (group_id, committed_at) index and keeps the newest;
    no operator reads the group's entities."""
    from strata.graph.queries import read as q

    summary = graph.driver.execute_query("EXPLAIN " + q.GROUP_ROSTER, group_id=group, episodes=2, limit=10,
                                         database_=graph.database).summary
    plan = summary.plan["args"]["string-representation"]
    assert "RANGE INDEX ep:Episode(group_id, committed_at)" in plan, plan
    assert "NodeByLabelScan" not in plan and "e:Entity(group_id" not in plan, plan
