"""Reads and writes of entity summaries (the writing rules are in strata.resolve.summaries and
strata.ingest.summaries)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any

from neo4j import ManagedTransaction
from pydantic import BaseModel

from strata.graph.driver import Graph
from strata.graph.queries import summaries as q
from strata.graph.text_version import bump as bump_text_version
from strata.schema.summaries import INTERACTION_PREDICATES, EntityDigest, SummaryWrite

# Per entity, what a summary is made from at most (the most salient facts, its interlocutors, the latest notes,
# the characters it appears with most).
MAX_DIGEST_FACTS = 40
MAX_DIGEST_EXCHANGES = 12
MAX_DIGEST_NOTES = 8
MAX_DIGEST_PARTNERS = 4


def mark_stale(tx: ManagedTransaction, group_id: str, uuids: Iterable[str]) -> None:
    """Inside a write transaction that changed these entities' facts or notes."""
    ids = sorted(set(uuids))
    if ids:
        tx.run(q.MARK_STALE, uuids=ids, group_id=group_id).consume()


def claim(graph: Graph, group_id: str, now: datetime, min_interval_s: float, limit: int,
          uuids: Sequence[str] | None = None, force: bool = False) -> list[str]:
    """Clear the stale mark of up to ``limit`` entities whose summary is due (all of ``uuids`` that are stale,
    or the group's) and return them: the caller writes their summaries."""
    params = {"group_id": group_id, "due_before": now - timedelta(seconds=min_interval_s), "force": force,
              "limit": limit}
    if uuids is not None:
        if not uuids:
            return []
        rows = graph.query(q.CLAIM_TOUCHED, uuids=sorted(set(uuids)), **params)
    else:
        rows = graph.query(q.CLAIM_STALE, **params)
    return [r["uuid"] for r in rows]


def unclaim(graph: Graph, group_id: str, uuids: Sequence[str]) -> None:
    if uuids:
        graph.query(q.UNCLAIM, group_id=group_id, uuids=list(uuids))


class StaleGroup(BaseModel):
    group_id: str
    stale: int


def stale_groups(graph: Graph, limit: int = 1000) -> list[StaleGroup]:
    return [StaleGroup(**r) for r in graph.query(q.STALE_GROUPS, limit=limit)]


def group_entities(graph: Graph, group_id: str, after: str = "") -> list[str]:
    """Every live entity of the group after ``after``, in uuid order (a full refresh goes through them)."""
    return [r["uuid"] for r in graph.query(q.GROUP_ENTITIES, group_id=group_id, after=after)]


def digests(graph: Graph, group_id: str, uuids: Sequence[str], now: datetime) -> list[EntityDigest]:
    if not uuids:
        return []
    rows = graph.query(q.DIGESTS, group_id=group_id, uuids=list(uuids), now=now, max_facts=MAX_DIGEST_FACTS,
                       max_interactions=MAX_DIGEST_EXCHANGES, max_notes=MAX_DIGEST_NOTES,
                       max_partners=MAX_DIGEST_PARTNERS, interaction=sorted(INTERACTION_PREDICATES))
    return [EntityDigest.model_validate(r) for r in rows]


def write_summaries(graph: Graph, group_id: str, rows: Sequence[SummaryWrite], now: datetime) -> int:
    """Store the summaries; returns how many texts changed."""
    if not rows:
        return 0
    found = graph.write(lambda tx: _write_summaries(tx, group_id, [r.model_dump() for r in rows], now))
    return found[0]["changed"] if found else 0


def _write_summaries(tx: ManagedTransaction, group_id: str, rows: list[dict[str, Any]], now: datetime) -> list[dict]:
    found = tx.run(q.WRITE_SUMMARIES, group_id=group_id, rows=rows, now=now).data()
    bump_text_version(tx, group_id)
    return found


class EntitySummary(BaseModel):
    uuid: str
    name: str
    type: str = "Entity"
    summary: str


def summaries_of(graph: Graph, group_id: str, uuids: Sequence[str]) -> list[EntitySummary]:
    """The summaries of these entities, in the order given (those without one left out)."""
    if not uuids:
        return []
    return [EntitySummary(**r) for r in graph.query(q.SUMMARIES_OF, group_id=group_id, uuids=list(uuids))]
