"""Manual edits: merge two entities, correct a fact. Each is one write transaction that re-runs the temporal
rules of the slots it touched (``timeline`` is passed in by the caller, as for commits and retractions)."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from neo4j import ManagedTransaction
from pydantic import BaseModel, Field

from strata.graph.commit import TimelineFn, recompute_slots
from strata.graph.driver import Graph
from strata.graph.network import refresh_partners
from strata.graph.queries import consolidate as cq
from strata.graph.queries import edit as q
from strata.graph.text_version import bump as bump_text_version
from strata.schema import ids
from strata.schema.errors import InputError, NotFoundError
from strata.schema.requests_write import Correction


class MergeResult(BaseModel):
    merged: str
    into: str
    facts_moved: int
    facts_deduplicated: int = 0
    mentions_moved: int
    slot_updates: int
    record_uuid: str | None = None


class MergeEvidence(BaseModel):
    """Why an automatic pass merges two entities: kept on the merge record beside what the merge moved."""

    rule: str
    reason: str = ""
    forms: list[str] = Field(default_factory=list)
    score: float | None = None
    mention_form: str | None = None
    candidate_form: str | None = None
    source_uuid: str | None = None


class ManualMerge(BaseModel):
    """Who merged two entities by hand, and why: kept on the merge record (rule ``manual``)."""

    model_config = {"frozen": True}

    reason: str | None = None
    actor: str | None = None


def merge_entities(graph: Graph, group_id: str, from_uuid: str, into_uuid: str, timeline: TimelineFn,
                   now: datetime, why: ManualMerge | MergeEvidence = ManualMerge()) -> MergeResult:
    """Merge ``from_uuid`` into ``into_uuid`` in one transaction. The record (rule ``manual``, or the evidence's
    rule) keeps a snapshot of what moved (mentions, facts, quotes, the survivor's aliases, the facts expired as
    duplicates) so ``graph.undo.undo_merge`` can take the merge back."""
    if from_uuid == into_uuid:
        raise InputError("an entity cannot be merged into itself", {"uuid": from_uuid})
    p: dict[str, Any] = {"group_id": group_id, "from_uuid": from_uuid, "into_uuid": into_uuid}

    def work(tx: ManagedTransaction) -> MergeResult:
        if tx.run(q.BOTH_ENTITIES, **p).single(strict=True)["n"] != 2:
            raise NotFoundError("both entities must exist, be current and belong to the group", p)
        snapshot = tx.run(cq.MERGE_SNAPSHOT, **p).single(strict=True).data()
        moved = tx.run(q.MOVE_OUTGOING, **p).data() + tx.run(q.MOVE_INCOMING, **p).data()
        mentions = tx.run(q.MOVE_MENTIONS, **p).single(strict=True)["moved"]
        tx.run(cq.MOVE_SAID, **p).consume()
        tx.run(cq.MOVE_TO, **p).consume()
        loops = tx.run(q.EXPIRE_SELF_LOOPS, moved=[r["uuid"] for r in moved], now=now, **p).single(strict=True)["uuids"]
        dedup = tx.run(q.DEDUPLICATE_FACTS, now=now, **p).single(strict=True)
        # undo reopens both: the duplicates and the facts that related the two merged entities
        kept = {"snapshot": json.dumps(snapshot), "duplicates": dedup["uuids"] + loops}
        if isinstance(why, ManualMerge):
            # the time is part of the id: the same two entities merged again after an undo get a new record
            record_uuid = ids.stable_uuid("merge", "manual", from_uuid, into_uuid, now.isoformat())
            tx.run(q.RECORD_MANUAL_MERGE, record_uuid=record_uuid, reason=why.reason, actor=why.actor, now=now,
                   **kept, **p).consume()
        else:
            record_uuid = ids.stable_uuid("merge", why.rule, from_uuid, into_uuid, now.isoformat())
            tx.run(cq.RECORD_PASS_MERGE, record_uuid=record_uuid, now=now, **why.model_dump(), **kept,
                   **p).consume()
        tx.run(q.RETIRE_MERGED, now=now, **p).consume()
        refresh_partners(tx, group_id, (from_uuid, into_uuid), now)
        seeds = sorted({(r["subject_uuid"], r["predicate"], r["object_uuid"]) for r in moved})
        _, updates = recompute_slots(tx, group_id, seeds, timeline, now)
        bump_text_version(tx, group_id)
        return MergeResult(merged=from_uuid, into=into_uuid, facts_moved=len(moved), mentions_moved=mentions,
                           facts_deduplicated=dedup["duplicates"], slot_updates=updates, record_uuid=record_uuid)

    return graph.write(work)


class CorrectionResult(BaseModel):
    uuid: str
    replaced: str | None = None
    slot_updates: int


def correct_fact(graph: Graph, group_id: str, uuid: str, fix: Correction, timeline: TimelineFn, now: datetime,
                 embed: object = None, predicate_text: str | None = None) -> CorrectionResult:
    """Text-only or end-only fixes change the fact in place; a new predicate, object or start makes a new
    version (deterministic uuid) and expires the old one, keeping it as history. ``fix.predicate`` is the stored
    name (the caller normalizes it); ``predicate_text`` what the client wrote, kept on the new version."""

    def work(tx: ManagedTransaction) -> CorrectionResult:
        row = tx.run(q.GET_FACT, uuid=uuid, group_id=group_id).single()
        if row is None:
            raise NotFoundError(f"fact {uuid} not found or no longer current")
        props = row["props"]
        predicate = fix.predicate or props["predicate"]
        written = (predicate_text or fix.predicate) if fix.predicate else props.get("predicate_text")
        object_uuid = fix.object_uuid or row["object_uuid"]
        valid_at = fix.valid_at or props["valid_at"]
        text = fix.fact or props.get("fact") or ""
        invalid_at = fix.invalid_at if fix.invalid_at is not None else props.get("stated_invalid_at")
        embedding = embed([text])[0] if (embed is not None and fix.fact) else None  # type: ignore[operator]
        new_uuid = ids.fact_uuid(group_id, row["subject_uuid"], predicate, object_uuid,
                                 valid_at.to_native() if hasattr(valid_at, "to_native") else valid_at)
        common: dict[str, Any] = {"group_id": group_id, "now": now, "reason": fix.reason, "embedding": embedding,
                  "fact": text, "invalid_at": invalid_at}
        seeds = {(row["subject_uuid"], props["predicate"], row["object_uuid"])}
        if new_uuid == uuid or (predicate, object_uuid, fix.valid_at) == (props["predicate"], row["object_uuid"], None):
            tx.run(q.UPDATE_FACT_TEXT, uuid=uuid, **common).consume()
            replaced, result_uuid = None, uuid
        else:
            ends = {"group_id": group_id, "from_uuid": row["subject_uuid"], "into_uuid": object_uuid}
            if object_uuid != row["subject_uuid"] and tx.run(q.BOTH_ENTITIES, **ends).single(strict=True)["n"] != 2:
                raise NotFoundError(f"entity {object_uuid} not found in the group")
            tx.run(q.ENSURE_PREDICATE, group_id=group_id, predicate=predicate, now=now).consume()
            tx.run(q.REPLACE_FACT, uuid=uuid, new_uuid=new_uuid, subject_uuid=row["subject_uuid"],
                   object_uuid=object_uuid, predicate=predicate, predicate_text=written, valid_at=valid_at, **common,
                   props={k: v for k, v in props.items() if k not in ("uuid", "fact_embedding")}).consume()
            seeds.add((row["subject_uuid"], predicate, object_uuid))
            replaced, result_uuid = uuid, new_uuid
        _, updates = recompute_slots(tx, group_id, sorted(seeds), timeline, now)
        bump_text_version(tx, group_id)
        return CorrectionResult(uuid=result_uuid, replaced=replaced, slot_updates=updates)

    return graph.write(work)
