"""The character network: stored INTERACTS_WITH edges (for browsing) and the same figures read at any position."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from neo4j import ManagedTransaction

from strata.graph.driver import Graph
from strata.graph.queries import network as q
from strata.graph.story import story_params
from strata.schema.network import CHARACTER_TYPES, Interaction, Network, StoryPoint
from strata.schema.story import StoryCut


def refresh_interactions(tx: ManagedTransaction, group_id: str, entity_uuids: Iterable[str], now: datetime) -> int:
    """Recompute the INTERACTS_WITH edges between the given entities' characters; returns edges written."""
    uuids = sorted(set(entity_uuids))
    if len(uuids) < 2:
        return 0
    row = tx.run(q.REFRESH_CAST, uuids=uuids, group_id=group_id, types=list(CHARACTER_TYPES), now=now).single()
    return row["refreshed"] if row else 0


def refresh_partners(tx: ManagedTransaction, group_id: str, entity_uuids: Iterable[str], now: datetime) -> int:
    """Recompute every stored edge the given entities take part in (after a merge, an undo or a split moved
    their mentions or quotes); a retired entity's edges go."""
    uuids = sorted(set(entity_uuids))
    if not uuids:
        return 0
    row = tx.run(q.REFRESH_PARTNERS, uuids=uuids, group_id=group_id, types=list(CHARACTER_TYPES),
                 now=now).single()
    return row["refreshed"] if row else 0


def episode_cast(tx: ManagedTransaction, episode_uuid: str) -> list[str]:
    row = tx.run(q.EPISODE_CAST, episode_uuid=episode_uuid).single()
    return list(row["uuids"]) if row else []


def interaction_network(graph: Graph, group_id: str, *, story: StoryCut | None = None,
                        entity_uuid: str | None = None, limit: int = 20) -> Network:
    """The strongest interactions (scenes together + 2 x quotes either way); with a story cut, in one book
    as read up to the cut."""
    params = {"group_id": group_id, "types": list(CHARACTER_TYPES), "entity_uuid": entity_uuid,
              **story_params(story)}
    pairs: dict[tuple[str, str], dict] = {}
    for r in graph.query(q.SCENES, **params):
        pairs[(r["a_uuid"], r["b_uuid"])] = {
            **r, "first": StoryPoint(**r["first"]) if r["first"] else None,
            "last": StoryPoint(**r["last"]) if r["last"] else None}
    for r in graph.query(q.QUOTE_PAIRS, **params):
        speaker, addressee = (r["speaker_uuid"], r["speaker_name"]), (r["addressee_uuid"], r["addressee_name"])
        (a_uuid, a_name), (b_uuid, b_name) = sorted([speaker, addressee])
        row = pairs.setdefault((a_uuid, b_uuid), {"a_uuid": a_uuid, "a_name": a_name, "b_uuid": b_uuid,
                                                  "b_name": b_name, "scenes": 0})
        row["a_to_b" if speaker[0] == a_uuid else "b_to_a"] = r["quotes"]
    ranked = sorted((Interaction(**row) for row in pairs.values()),
                    key=lambda i: (-i.weight, i.a_name, i.b_name))
    return Network(group_id=group_id, as_of_position=story.position if story else None,
                   as_of_chapter=story.chapter if story else None, source_uuid=story.source_uuid if story else None,
                   interactions=ranked[:limit])
