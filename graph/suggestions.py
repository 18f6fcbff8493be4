"""Review of suggested duplicates: list them, accept one (a merge, undoable like any other) or reject it for
good (no later resolution or consolidation pass suggests the pair again)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from neo4j import ManagedTransaction
from pydantic import BaseModel

from strata.graph.driver import Graph
from strata.graph.edit import ManualMerge, MergeResult, TimelineFn, merge_entities
from strata.graph.queries import suggestions as q
from strata.graph.read import native
from strata.schema.errors import InputError, NotFoundError


class Suggestion(BaseModel):
    entity_uuid: str
    entity_name: str
    entity_type: str
    entity_mentions: int
    candidate_uuid: str
    candidate_name: str
    candidate_type: str
    candidate_mentions: int
    score: float | None = None
    rule: str | None = None
    created_at: datetime | None = None


class Rejection(BaseModel):
    entity_uuid: str
    candidate_uuid: str
    rejected_at: datetime


def pending_suggestions(graph: Graph, group_id: str, entity_uuid: str | None = None, offset: int = 0,
                        limit: int = 100) -> list[Suggestion]:
    rows = graph.query(q.PENDING, group_id=group_id, entity_uuid=entity_uuid, offset=offset, limit=limit)
    return [Suggestion(**native(r)) for r in rows]


def _pending(graph: Graph, group_id: str, a: str, b: str) -> None:
    rows = graph.query(q.BETWEEN, group_id=group_id, a=a, b=b)
    if not rows:
        raise NotFoundError(f"no suggestion between {a} and {b}", {"entity": a, "candidate": b})
    if any(r["rejected_at"] is not None for r in rows):
        raise InputError("this suggestion was rejected", {"entity": a, "candidate": b})
    if not all(r["current"] for r in rows):
        raise InputError("one of the two entities is no longer current (merged or retracted)",
                         {"entity": a, "candidate": b})


def accept_suggestion(graph: Graph, group_id: str, entity_uuid: str, candidate_uuid: str, into: str | None,
                      timeline: TimelineFn, now: datetime, actor: str | None = None) -> MergeResult:
    """Merge the pair; ``into`` names the survivor (default: the candidate)."""
    _pending(graph, group_id, entity_uuid, candidate_uuid)
    survivor = into or candidate_uuid
    if survivor not in (entity_uuid, candidate_uuid):
        raise InputError("into must be one of the two entities", {"into": survivor})
    merged = entity_uuid if survivor == candidate_uuid else candidate_uuid
    result = merge_entities(graph, group_id, merged, survivor, timeline, now,
                            ManualMerge(reason="accepted suggestion", actor=actor))
    graph.query(q.ACCEPTED, group_id=group_id, a=entity_uuid, b=candidate_uuid)
    return result


def reject_suggestion(graph: Graph, group_id: str, entity_uuid: str, candidate_uuid: str, now: datetime,
                      actor: str | None = None, reason: str | None = None) -> Rejection:
    _pending(graph, group_id, entity_uuid, candidate_uuid)
    graph.query(q.REJECT, group_id=group_id, a=entity_uuid, b=candidate_uuid, now=now, actor=actor, reason=reason)
    return Rejection(entity_uuid=entity_uuid, candidate_uuid=candidate_uuid, rejected_at=now)


def kept_apart(graph: Graph, group_id: str, uuids: Sequence[str]) -> dict[str, list[str]]:
    """For each of ``uuids`` with any, the entities kept apart from it (strata.resolve.apart)."""
    if len(uuids) < 2:
        return {}
    rows = graph.query(q.KEPT_APART, group_id=group_id, uuids=sorted(set(uuids)))
    return {r["uuid"]: sorted(r["apart"]) for r in rows}


def keep_apart(tx: ManagedTransaction, group_id: str, a: str, b: str, now: datetime, reason: str,
               actor: str | None = None) -> None:
    """Mark a pair as not the same (an undone merge), so no automatic path joins them again."""
    tx.run(q.KEEP_APART, group_id=group_id, a=a, b=b, now=now, actor=actor, reason=reason).consume()
