"""A purge waits for episodes a live worker holds, not for those whose holder died (an expired lease)."""

from __future__ import annotations

import pytest

from strata.graph import Graph
from strata.graph.purge import purge_group
from strata.schema.errors import InputError
from strata.schema.models import utcnow

pytestmark = pytest.mark.integration


def _processing(graph: Graph, group_id: str, lease_ms: int | None) -> None:
    graph.query("CREATE (e:Episode {uuid: randomUUID(), group_id: $g, status: 'processing', content: 'x'}) "
                "SET e.lease_until = CASE WHEN $ms IS NULL THEN null "
                "ELSE datetime() + duration({milliseconds: $ms}) END",
                g=group_id, ms=lease_ms)


def _episodes(graph: Graph, group_id: str) -> int:
    return graph.query("MATCH (e:Episode {group_id: $g}) RETURN count(e) AS n", g=group_id)[0]["n"]


def test_a_live_lease_blocks_the_purge(graph: Graph, group_id: str) -> None:
    _processing(graph, group_id, 60_000)
    with pytest.raises(InputError, match="being processed"):
        purge_group(graph, group_id, utcnow())
    assert _episodes(graph, group_id) == 1


def test_an_episode_without_a_lease_blocks_the_purge(graph: Graph, group_id: str) -> None:
    _processing(graph, group_id, None)
    with pytest.raises(InputError, match="being processed"):
        purge_group(graph, group_id, utcnow())


def test_an_expired_lease_does_not_block_the_purge(graph: Graph, group_id: str) -> None:
    _processing(graph, group_id, -60_000)
    record = purge_group(graph, group_id, utcnow())
    assert record.episodes == 1
    assert _episodes(graph, group_id) == 0
