"""Retraction with restore (the hard delete, purge, is graph/purge.py).

Retracting an episode removes its provenance from the facts it supported, expires those it alone
supported (history is kept: ``expired_at`` is transaction time), expires entities nothing supports any
more, and re-runs the temporal rules on the touched slots so facts it had closed reopen.
"""

from __future__ import annotations

from datetime import datetime

from neo4j import ManagedTransaction
from pydantic import BaseModel

from strata.graph.commit import TimelineFn, recompute_slots
from strata.graph.driver import Graph
from strata.graph.network import episode_cast, refresh_interactions
from strata.graph.queries import retract as q
from strata.graph.text_version import bump as bump_text_version
from strata.schema.errors import NotFoundError


class RetractResult(BaseModel):
    episodes: int
    facts_released: int
    facts_expired: int
    entities_dropped: int
    slot_updates: int


def retract_in(tx: ManagedTransaction, group_id: str, episode_uuid: str, timeline: TimelineFn,
               now: datetime) -> RetractResult:
    """One episode's retraction inside the caller's transaction (a purge retracts and deletes in one)."""
    if not tx.run(q.MARK_EPISODE_RETRACTED, episode_uuid=episode_uuid, group_id=group_id, now=now).data():
        raise NotFoundError(f"episode {episode_uuid} not found in group {group_id}")
    released = tx.run(q.RELEASE_FACTS, episode_uuid=episode_uuid, now=now).data()
    cast = episode_cast(tx, episode_uuid)
    dropped = tx.run(q.DROP_MENTIONS, episode_uuid=episode_uuid, now=now).single(strict=True)["dropped"]
    refresh_interactions(tx, group_id, cast, now)
    seeds = {(r["subject_uuid"], r["predicate"], r["object_uuid"]) for r in released}
    _, updates = recompute_slots(tx, group_id, sorted(seeds), timeline, now)
    bump_text_version(tx, group_id)
    return RetractResult(episodes=1, facts_released=len(released),
                         facts_expired=sum(1 for r in released if r["expired"]),
                         entities_dropped=dropped, slot_updates=updates)


def retract_episode(graph: Graph, group_id: str, episode_uuid: str, timeline: TimelineFn,
                    now: datetime) -> RetractResult:
    return graph.write(lambda tx: retract_in(tx, group_id, episode_uuid, timeline, now))


def retract_source(graph: Graph, group_id: str, source_uuid: str, timeline: TimelineFn,
                   now: datetime) -> RetractResult:
    """Retract every episode of a source, one transaction per episode (bounded transaction size)."""
    if not graph.query(q.MARK_SOURCE_RETRACTED, source_uuid=source_uuid, group_id=group_id, now=now):
        raise NotFoundError(f"source {source_uuid} not found in group {group_id}")
    total = RetractResult(episodes=0, facts_released=0, facts_expired=0, entities_dropped=0, slot_updates=0)
    for row in graph.query(q.SOURCE_EPISODES, source_uuid=source_uuid, group_id=group_id):
        one = retract_episode(graph, group_id, row["uuid"], timeline, now)
        total = RetractResult(**{k: getattr(total, k) + getattr(one, k) for k in RetractResult.model_fields})
    return total
