"""Undo a merge from its record (graph/edit.py ``merge_entities`` keeps a snapshot of what it moved).

Restores exactly: the merged entity is current again under its own name and aliases; the mentions it had
(episode, spans, surface forms) point at it again, and an episode's mention of the survivor that the merge
created is removed; its facts (same uuids, either side) and quotes (said / spoken to) come back; the survivor's
aliases are what they were; facts expired as duplicates by the merge are current again; the touched slots'
temporal rules run again; the pair is kept apart from then on (a rejected suggestion: strata.resolve.apart),
except when a whole pass is taken back (``undo_pass``).
Not restored: provenance the kept duplicate took from the expired one (episodes,
evidence) stays on it, and anything written to the survivor after the merge stays on the survivor.

A record of names that joined inside an episode (no merged entity to revive) is undone by a split
(graph/split.py): its names leave the entity for the entity they make, with the episodes that used only those
names, the facts only those episodes support and those episodes' quotes. An episode that used both kinds of
names stays: which mention meant whom is not recorded.
"""

from __future__ import annotations

import json
from datetime import datetime

from neo4j import ManagedTransaction
from pydantic import BaseModel

from strata.graph.commit import TimelineFn, recompute_slots
from strata.graph.driver import Graph
from strata.graph.network import refresh_partners
from strata.graph.queries import consolidate as q
from strata.graph.queries import split as sq
from strata.graph.split import SplitHow, SplitRules, split_forms
from strata.graph.suggestions import keep_apart
from strata.graph.text_version import bump as bump_text_version
from strata.schema.errors import InputError, NotFoundError


class UndoResult(BaseModel):
    record_uuid: str
    restored: str  # the entity that is current again
    survivor: str
    facts_restored: int
    mentions_restored: int
    duplicates_reopened: int
    slot_updates: int


def undo_record(graph: Graph, group_id: str, entity_uuid: str, record_uuid: str, rules: SplitRules,
                now: datetime, apart: bool = True) -> UndoResult:
    """Undo the merge a record describes: revive the merged entity, or split an episode's names off. ``apart``:
    the two are kept apart from then on (a judgement on this merge; not when a whole pass is taken back)."""
    rows = graph.query(q.GET_RECORD, record_uuid=record_uuid, group_id=group_id, uuid=entity_uuid)
    if not rows:
        raise NotFoundError(f"merge record {record_uuid} of entity {entity_uuid} not found")
    rec = rows[0]["props"]
    if rec.get("merged_uuid") or rec.get("undone_at") is not None:
        return undo_merge(graph, group_id, entity_uuid, record_uuid, rules.timeline, now, apart)
    if rec.get("split_from"):  # a split goes back: the names and exactly the episodes it moved
        if rec.get("undone_at") is not None:
            raise InputError("this split was already undone", {"record_uuid": record_uuid})
        back = SplitHow(into_uuid=rec["split_from"], rule="undo", reason=f"undo of split {record_uuid}",
                        only_episodes=list(rec.get("episodes") or []))
        done = split_forms(graph, group_id, entity_uuid, list(rec.get("forms") or []), rules, now, back)
        graph.query(q.MARK_UNDONE, record_uuid=record_uuid, now=now)
        graph.query(sq.EXPIRE_IF_EMPTY, uuid=entity_uuid, into_uuid=rec["split_from"], group_id=group_id, now=now)
        return UndoResult(record_uuid=record_uuid, restored=rec["split_from"], survivor=entity_uuid,
                          facts_restored=done.facts_moved, mentions_restored=done.mentions_moved,
                          duplicates_reopened=0, slot_updates=done.slot_updates)
    done = split_forms(graph, group_id, entity_uuid, list(rec.get("forms") or []), rules, now,
                       SplitHow(rule="undo", reason=f"undo of merge record {record_uuid} ({rec.get('rule')})"))
    graph.query(q.MARK_UNDONE, record_uuid=record_uuid, now=now)
    if apart:
        graph.write(lambda tx: keep_apart(tx, group_id, done.into_uuid, entity_uuid, now,
                                          f"merge {record_uuid} undone"))
    return UndoResult(record_uuid=record_uuid, restored=done.into_uuid, survivor=entity_uuid,
                      facts_restored=done.facts_moved, mentions_restored=done.mentions_moved, duplicates_reopened=0,
                      slot_updates=done.slot_updates)


def undo_merge(graph: Graph, group_id: str, entity_uuid: str, record_uuid: str, timeline: TimelineFn,
               now: datetime, apart: bool = True) -> UndoResult:
    def work(tx: ManagedTransaction) -> UndoResult:
        row = tx.run(q.GET_RECORD, record_uuid=record_uuid, group_id=group_id, uuid=entity_uuid).single()
        if row is None:
            raise NotFoundError(f"merge record {record_uuid} of entity {entity_uuid} not found")
        rec = row["props"]
        if rec.get("undone_at") is not None:
            raise InputError("this merge was already undone", {"record_uuid": record_uuid})
        if not rec.get("merged_uuid") or not rec.get("snapshot"):
            raise InputError("this record joined names inside an episode (no merged entity to restore)",
                             {"record_uuid": record_uuid, "rule": rec.get("rule")})
        snap = json.loads(rec["snapshot"])
        p = {"group_id": group_id, "from_uuid": rec["merged_uuid"], "into_uuid": entity_uuid}
        tx.run(q.UNDO_REVIVE, into_aliases=snap["into_aliases"], now=now, **p).consume()
        moved = tx.run(q.UNDO_FACTS, facts=snap["facts"], **p).data()
        reopened = tx.run(q.UNDO_DUPLICATES, uuids=rec.get("duplicates") or [], group_id=group_id).data()
        tx.run(q.UNDO_MENTIONS, mentions=snap["mentions"], **p).consume()
        tx.run(q.UNDO_QUOTES, said=snap["said"], told=snap["told"], **p).consume()
        tx.run(q.MARK_UNDONE, record_uuid=record_uuid, now=now).consume()
        if apart:
            keep_apart(tx, group_id, rec["merged_uuid"], entity_uuid, now, f"merge {record_uuid} undone")
        refresh_partners(tx, group_id, (rec["merged_uuid"], entity_uuid), now)
        seeds = sorted({(r["subject_uuid"], r["predicate"], r["object_uuid"]) for r in moved + reopened})
        _, updates = recompute_slots(tx, group_id, seeds, timeline, now)
        bump_text_version(tx, group_id)
        return UndoResult(record_uuid=record_uuid, restored=rec["merged_uuid"], survivor=entity_uuid,
                          facts_restored=len(moved), mentions_restored=len(snap["mentions"]),
                          duplicates_reopened=len(reopened), slot_updates=updates)

    return graph.write(work)


def undo_pass(graph: Graph, group_id: str, source_uuid: str | None, rules: SplitRules,
              now: datetime) -> list[UndoResult]:
    """Undo every merge and split of the consolidation pass over a group (or one source), newest first. The
    pairs are not kept apart: taking a whole pass back judges no merge of it (a pass run again redoes them)."""
    rows = graph.query(q.PASS_RECORDS, group_id=group_id, source_uuid=source_uuid)
    return [undo_record(graph, group_id, r["entity_uuid"], r["uuid"], rules, now, apart=False) for r in rows]
