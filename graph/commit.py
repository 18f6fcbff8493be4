"""The per-episode commit: one write transaction writes a ``CommitPlan`` and re-runs the temporal rules.

The temporal rules are pure functions owned by resolve/; the caller passes one in as ``timeline`` so
this layer stays free of decision logic (dependencies point resolve -> graph, never back).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from typing import Any

from neo4j import ManagedTransaction
from pydantic import BaseModel

from strata.graph import lucene
from strata.graph.driver import Graph
from strata.graph.network import refresh_interactions
from strata.graph.queries import commit as q
from strata.graph.summaries import mark_stale
from strata.graph.text_version import bump as bump_text_version
from strata.schema.models import Episode, Functionality
from strata.schema.plan import CommitPlan, TemporalFact, TimelineUpdate

TimelineFn = Callable[[list[TemporalFact], Mapping[str, Functionality | None], datetime], list[TimelineUpdate]]

PREDICATE_FLAGS = """
MATCH (x:Predicate {group_id: $group_id}) WHERE x.name IN $names
RETURN x.name AS name, x.functional AS functional, coalesce(x.has_negations, false) AS has_negations
"""
_MAX_SLOT_ROUNDS = 5


class CommitResult(BaseModel):
    episode_uuid: str
    entities: int
    facts: int
    passages: int
    slot_facts: int
    slot_updates: int
    # Entities whose facts or notes this commit changed (their summaries are due for a rewrite).
    touched: list[str] = []


def episode_properties(episode: Episode) -> dict[str, Any]:
    """Episode fields as Neo4j properties: nested values become JSON strings."""
    props = episode.model_dump(exclude={"messages", "facts", "metadata", "status", "error", "created_at"})
    props["metadata_json"] = json.dumps(episode.metadata, sort_keys=True, default=str)
    props["messages_json"] = json.dumps([m.model_dump(mode="json") for m in episode.messages])
    props["facts_json"] = json.dumps([f.model_dump(mode="json") for f in episode.facts])
    if episode.story_position is not None:
        # A book's chapter number, where story-time reads find the end of a chapter (graph/story.py).
        props["chapter_index"] = episode.metadata.get("chapter_index")
    return props


def evidence_key(episode_uuid: str, start: int, end: int) -> str:
    return f"{episode_uuid}:{start}:{end}"


def commit_episode(graph: Graph, plan: CommitPlan, timeline: TimelineFn, now: datetime,
                   agent: str | None = None) -> CommitResult:
    extractor = "/".join(x for x in (plan.extractor.name, plan.extractor.model, plan.extractor.prompt_version) if x)
    ep_uuid = plan.episode.uuid
    agents = [agent or plan.episode.agent] if (agent or plan.episode.agent) else []

    def work(tx: ManagedTransaction) -> CommitResult:
        # group_tag: the group as one full-text token (graph/lucene.py), set on what the text indexes cover.
        common: dict[str, Any] = {"group_id": plan.group_id, "group_tag": lucene.group_tag(plan.group_id), "now": now}
        if plan.source is not None:
            src = plan.source.model_dump(exclude={"metadata"})
            src["metadata_json"] = json.dumps(plan.source.metadata, sort_keys=True, default=str)
            tx.run(q.UPSERT_SOURCE, source=src).consume()
        tx.run(q.UPSERT_EPISODE, ep=episode_properties(plan.episode), extractor=extractor,
               summary=plan.summary, now=now, fact_count=len(plan.facts), entity_count=len(plan.entities)).consume()
        tx.run(q.UPSERT_ENTITIES, rows=[e.model_dump() for e in plan.entities], **common).consume()
        tx.run(q.UPSERT_MENTIONS, episode_uuid=ep_uuid, rows=_mention_rows(plan)).consume()
        negated = {f.predicate for f in plan.facts if f.negated}
        tx.run(q.UPSERT_PREDICATES, rows=[{**p.model_dump(), "negated": p.name in negated} for p in plan.predicates],
               **common).consume()
        fact_rows = [
            {**f.model_dump(exclude={"evidence", "asserted_by", "valid_at", "invalid_at"}),
             "valid_at": _iso(f.valid_at), "invalid_at": _iso(f.invalid_at),
             "evidence": [evidence_key(e.episode_uuid, e.start, e.end) for e in f.evidence],
             "asserted_by": [f.asserted_by] if f.asserted_by else [], "agents": agents}
            for f in plan.facts
        ]
        tx.run(q.UPSERT_FACTS, rows=fact_rows, episode_uuid=ep_uuid, extractor=extractor, **common).consume()
        tx.run(q.UPSERT_PASSAGES, rows=[p.model_dump() for p in plan.passages], episode_uuid=ep_uuid,
               **common).consume()
        if plan.notes:
            tx.run(q.UPSERT_NOTES, rows=[{**n.model_dump(exclude={"valid_at"}), "valid_at": _iso(n.valid_at)}
                                         for n in plan.notes], episode_uuid=ep_uuid, **common).consume()
        if plan.quotes:
            tx.run(q.UPSERT_QUOTES, rows=[x.model_dump() for x in plan.quotes], episode_uuid=ep_uuid,
                   **common).consume()
        if plan.merges:
            tx.run(q.RECORD_MERGES, rows=[m.model_dump() for m in plan.merges], **common).consume()
        if plan.suggestions:
            tx.run(q.RECORD_SUGGESTIONS, rows=[s.model_dump() for s in plan.suggestions], **common).consume()
        refresh_interactions(tx, plan.group_id, (m.entity_uuid for m in plan.mentions), now)
        seeds = [(f.subject_uuid, f.predicate, f.object_uuid) for f in plan.facts]
        touched = {uuid for n in plan.notes for uuid in n.entity_uuids}
        mark_stale(tx, plan.group_id, touched)
        slot_facts, updates = recompute_slots(tx, plan.group_id, seeds, timeline, now, touched)
        bump_text_version(tx, plan.group_id)
        return CommitResult(episode_uuid=ep_uuid, entities=len(plan.entities), facts=len(plan.facts),
                            passages=len(plan.passages), slot_facts=slot_facts, slot_updates=updates,
                            touched=sorted(touched))

    return graph.write(work)


def recompute_slots(tx: ManagedTransaction, group_id: str, seeds: Iterable[tuple[str, str, str]],
                    timeline: TimelineFn, now: datetime, touched: set[str] | None = None) -> tuple[int, int]:
    """Gather every fact of the slots the seed triples touch, run the rules, write what changed.

    The seeds' entities and both ends of every fact whose end changed are marked for a new summary (and added
    to ``touched`` when given): whatever changed a slot (a commit, retraction, merge or correction) changed what
    the graph says about them.
    """
    seeds = list(seeds)
    if not seeds:
        return 0, 0
    names = sorted({p for _, p, _ in seeds})
    rows = tx.run(PREDICATE_FLAGS, group_id=group_id, names=names).data()
    flags: dict[str, Functionality | None] = {r["name"]: r["functional"] for r in rows}
    # A (subject, predicate, object) pair can only close or reopen through a negation.
    negatable = {r["name"] for r in rows if r["has_negations"]}
    facts: dict[str, TemporalFact] = {}
    pending = _slots_for(seeds, flags, negatable)
    seen: set[tuple[str, str, str, str]] = set()
    for _ in range(_MAX_SLOT_ROUNDS):
        new = [s for s in pending if (s["kind"], s["predicate"], s["entity_uuid"], s.get("other_uuid", "")) not in seen]
        if not new:
            break
        seen.update((s["kind"], s["predicate"], s["entity_uuid"], s.get("other_uuid", "")) for s in new)
        for kind, query in q.SLOT_FACTS_BY_KIND.items():
            of_kind = [s for s in new if s["kind"] == kind]
            if of_kind:
                for row in tx.run(query, slots=of_kind, group_id=group_id).data():
                    facts[row["uuid"]] = TemporalFact.model_validate(row)
        # A predicate functional on both sides links slots: follow them until nothing new appears.
        pending = _slots_for([(f.subject_uuid, f.predicate, f.object_uuid) for f in facts.values()
                              if flags.get(f.predicate) in ("both", "symmetric")], flags, negatable)
    current = {f.uuid: (f.invalid_at, f.invalidated_by, f.story_until) for f in facts.values()}
    changed = [u for u in timeline(list(facts.values()), flags, now)
               if current.get(u.fact_uuid) != (u.invalid_at, u.invalidated_by, u.story_until)]
    if changed:
        tx.run(q.APPLY_SLOT_UPDATES, rows=[{"uuid": u.fact_uuid, "invalid_at": _iso(u.invalid_at),
                                            "invalidated_by": u.invalidated_by, "story_until": u.story_until,
                                            "end_changed": current.get(u.fact_uuid, (None,))[0] != u.invalid_at}
                                           for u in changed], now=now).consume()
    ends = {uuid for s, _, o in seeds for uuid in (s, o)}
    for u in changed:
        if u.fact_uuid in facts:
            ends |= {facts[u.fact_uuid].subject_uuid, facts[u.fact_uuid].object_uuid}
    mark_stale(tx, group_id, ends)
    if touched is not None:
        touched |= ends
    return len(facts), len(changed)


def _mention_rows(plan: CommitPlan) -> list[dict[str, Any]]:
    """The plan's mentions, plus a bare one for every fact subject it does not mention: retraction finds an
    episode's facts through its mentions of their subjects (graph/queries/retract.py)."""
    rows = [{"entity_uuid": m.entity_uuid, "spans": [x for s in m.spans for x in (s.start, s.end)],
             "surface_forms": m.surface_forms} for m in plan.mentions]
    mentioned = {m.entity_uuid for m in plan.mentions}
    rows += [{"entity_uuid": uuid, "spans": [], "surface_forms": []}
             for uuid in sorted({f.subject_uuid for f in plan.facts} - mentioned)]
    return rows


def _slots_for(triples: Iterable[tuple[str, str, str]], flags: Mapping[str, Functionality | None],
               negatable: set[str]) -> list[dict]:
    slots = []
    for subject, predicate, obj in triples:
        flag = flags.get(predicate)
        # A symmetric predicate's slot is an entity on either side: read both directions for both entities.
        ends = ((subject, obj), (obj, subject)) if flag == "symmetric" else ((subject, obj),)
        for one, other in ends:
            if predicate in negatable:
                slots.append({"kind": "pair", "predicate": predicate, "entity_uuid": one, "other_uuid": other})
            if flag in ("subject", "both", "symmetric"):
                slots.append({"kind": "subject", "predicate": predicate, "entity_uuid": one})
            if flag in ("object", "both", "symmetric"):
                slots.append({"kind": "object", "predicate": predicate, "entity_uuid": other})
    return slots


def _iso(value: datetime | None) -> str | None:
    """A time for a row parameter: the queries parse it with ``datetime()`` (see graph/queries/commit.py)."""
    return None if value is None else value.isoformat()
