"""Purge: the hard deletion a data-removal request asks for, of episodes, a source or a whole group.

An episode is retracted first (graph/retract.py: facts it alone supported expire, what it closed reopens, the
network follows), then everything derived only from it is deleted: facts no other episode states, entities left
with no mention, fact, quote or note, its passages, notes and quotes, merge records that name it, predicates no
fact uses any more, and its source and job once they hold no episode. What other episodes also support stays
without the purged provenance: a fact's episodes, evidence, speakers and writers lose the purged ones, its
sentence becomes a kept statement's words (embedded again) when it was the purged episode's, and an entity loses
the names only the purged episodes used (renamed after its remaining mentions when its name was one of them).
Each purge leaves a ``PurgeRecord``: what, when, by which key, how much; never content.

The layer takes its rules as arguments, as commits do: ``timeline`` (the temporal rules), ``entity_key`` (the
key a renamed entity gets) and ``embed`` (texts to vectors; None leaves the new texts without vectors).
"""

from __future__ import annotations

import uuid as uuidlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from neo4j import ManagedTransaction
from pydantic import BaseModel

from strata.graph.commit import TimelineFn, recompute_slots
from strata.graph.driver import Graph
from strata.graph.network import refresh_interactions
from strata.graph.queries import purge as q
from strata.graph.retract import RetractResult, retract_in
from strata.graph.text_version import bump as bump_text_version
from strata.schema.errors import InputError, NotFoundError

EmbedFn = Callable[[list[str]], list[list[float]]]
KeyFn = Callable[[str, str], str]
EPISODES_PER_TRANSACTION = 50
GROUP_BATCH = 5_000


class PurgeCounts(BaseModel):
    episodes: int = 0
    facts_deleted: int = 0
    facts_updated: int = 0
    entities_deleted: int = 0
    entities_updated: int = 0
    passages: int = 0
    notes: int = 0
    quotes: int = 0
    merge_records: int = 0
    predicates: int = 0
    sources: int = 0
    jobs: int = 0

    def __add__(self, other: PurgeCounts) -> PurgeCounts:
        return PurgeCounts(**{k: getattr(self, k) + getattr(other, k) for k in PurgeCounts.model_fields})


class PurgeRecord(PurgeCounts):
    """The audit record a purge leaves (stored as ``(:PurgeRecord)``): no content, only what, when, who, how much."""

    uuid: str
    group_id: str
    scope: Literal["episode", "source", "group"]
    target: str
    purged_at: datetime
    key_id: str | None = None
    episode_uuids: list[str] = []


class PurgeOutcome(BaseModel):
    retraction: RetractResult
    record: PurgeRecord


@dataclass(frozen=True)
class PurgeRules:
    """What the graph layer is handed from above (see the module)."""

    timeline: TimelineFn
    entity_key: KeyFn
    embed: EmbedFn | None = None


def purge_episode(graph: Graph, group_id: str, episode_uuid: str, rules: PurgeRules, now: datetime,
                  key_id: str | None = None) -> PurgeOutcome:
    return _purge(graph, group_id, [episode_uuid], rules, now, key_id, "episode", episode_uuid)


def purge_source(graph: Graph, group_id: str, source_uuid: str, rules: PurgeRules, now: datetime,
                 key_id: str | None = None) -> PurgeOutcome:
    rows = graph.query(q.SOURCE_EPISODES, source_uuid=source_uuid, group_id=group_id)
    if not rows:
        raise NotFoundError(f"source {source_uuid} not found in group {group_id}")
    return _purge(graph, group_id, rows[0]["episodes"], rules, now, key_id, "source", source_uuid)


def _purge(graph: Graph, group_id: str, episodes: list[str], rules: PurgeRules, now: datetime,
           key_id: str | None, scope: Literal["episode", "source"], target: str) -> PurgeOutcome:
    sources = [target] if scope == "source" else []  # a purged source goes once none of its episodes is left
    found = {r["uuid"]: r for r in graph.query(q.EPISODES, episodes=episodes, group_id=group_id)}
    if scope == "episode" and not found:
        raise NotFoundError(f"episode {target} not found in group {group_id}")
    busy = [u for u, r in found.items() if r["status"] == "processing"]
    if busy:
        # its commit would write it back after the purge; the sweep or the worker ends `processing`
        raise InputError("an episode is being processed: purge it once its job has finished",
                         {"episodes": busy[:20]})
    retraction = RetractResult(episodes=0, facts_released=0, facts_expired=0, entities_dropped=0, slot_updates=0)
    counts = PurgeCounts()
    order = [u for u in episodes if u in found]
    for start in range(0, len(order), EPISODES_PER_TRANSACTION):
        batch = order[start:start + EPISODES_PER_TRANSACTION]
        agents = sorted({found[u]["agent"] for u in batch if found[u]["agent"]})
        live = [u for u in batch if found[u]["status"] != "retracted"]

        def work(tx: ManagedTransaction, b: list[str] = batch, lv: list[str] = live,
                 a: list[str] = agents) -> tuple[RetractResult, PurgeCounts]:
            done = _purge_batch(tx, group_id, b, lv, a, rules, now)
            bump_text_version(tx, group_id)
            return done

        retracted, done = graph.write(work)
        retraction = _add(retraction, retracted)
        counts = counts + done
    if sources:
        counts.sources += graph.query(q.DELETE_EMPTY_SOURCES, uuids=list(sources))[0]["n"]
    record = PurgeRecord(uuid=str(uuidlib.uuid4()), group_id=group_id, scope=scope, target=target, purged_at=now,
                         key_id=key_id, episode_uuids=order, **counts.model_dump())
    graph.query(q.RECORD_PURGE, record=record.model_dump())
    return PurgeOutcome(retraction=retraction, record=record)


def _add(a: RetractResult, b: RetractResult) -> RetractResult:
    return RetractResult(**{k: getattr(a, k) + getattr(b, k) for k in RetractResult.model_fields})


def _purge_batch(tx: ManagedTransaction, group_id: str, episodes: list[str], to_retract: list[str],
                 agents: list[str], rules: PurgeRules, now: datetime) -> tuple[RetractResult, PurgeCounts]:
    retraction = RetractResult(episodes=0, facts_released=0, facts_expired=0, entities_dropped=0, slot_updates=0)
    legacy = [r["uuid"] for r in tx.run(q.LEGACY_RETRACTED, episodes=episodes).data()]
    for episode_uuid in to_retract:
        retraction = _add(retraction, retract_in(tx, group_id, episode_uuid, rules.timeline, now))
    p: dict[str, Any] = {"group_id": group_id, "episodes": episodes}
    cast: set[str] = set()
    forms: set[str] = set()
    for row in tx.run(q.CAST, episodes=episodes).data():
        cast.add(row["uuid"])
        if row["merged_into"]:
            cast.add(row["merged_into"])
        forms.update(row["forms"])
    if legacy:
        for row in tx.run(q.LEGACY_FORMS, episodes=legacy, group_id=group_id).data():
            cast.add(row["uuid"])
            forms.update(row["forms"])
    counts = PurgeCounts(episodes=len(episodes))

    # facts
    stated = [r["uuid"] for r in tx.run(q.FACTS_OF, **p).data()]
    deleted = tx.run(q.DELETE_FACTS, uuids=stated, **p).data()
    if legacy:
        deleted += tx.run(q.LEGACY_ORPHAN_FACTS, group_id=group_id).data()
        cast.update(r["uuid"] for r in tx.run(q.LEGACY_ORPHAN_ENTITIES, group_id=group_id).data())
    counts.facts_deleted = len(deleted)
    kept = tx.run(q.UPDATE_FACTS, uuids=stated, agents=agents, **p).data()
    counts.facts_updated = len(kept)
    reworded = [r for r in kept if r["reworded"]]
    if reworded and rules.embed is not None:
        vectors = rules.embed([r["fact"] for r in reworded])
        if vectors:
            tx.run(q.SET_FACT_EMBEDDINGS, rows=[{"uuid": r["uuid"], "embedding": v}
                                                for r, v in zip(reworded, vectors, strict=True)]).consume()
    cast.update(r["subject_uuid"] for r in deleted)
    cast.update(r["object_uuid"] for r in deleted)

    # what hangs off the episodes, then the episodes
    counts.notes = tx.run(q.DELETE_NOTES, **p).single(strict=True)["n"]
    counts.passages = tx.run(q.DELETE_PASSAGES, **p).single(strict=True)["n"]
    counts.quotes = tx.run(q.DELETE_QUOTES, **p).single(strict=True)["n"]
    gone = tx.run(q.DELETE_EPISODES, **p).data()
    cuts = [{"source_uuid": r["source_uuid"], "seq": r["seq"]} for r in gone
            if r["source_uuid"] is not None and r["seq"] is not None]
    if cuts:
        tx.run(q.FORGET_SUMMARIES, cuts=cuts).consume()
    jobs = sorted({j for r in gone for j in r["jobs"]})
    counts.jobs = tx.run(q.DELETE_EMPTY_JOBS, uuids=jobs).single(strict=True)["n"] if jobs else 0
    sources = sorted({c["source_uuid"] for c in cuts} | {r["source_uuid"] for r in gone if r["source_uuid"]})
    counts.sources = tx.run(q.DELETE_EMPTY_SOURCES, uuids=sources).single(strict=True)["n"] if sources else 0

    # entities: those nothing supports go; the others lose the names only the purge used
    removed_names: set[str] = set()
    for row in tx.run(q.DELETE_UNSUPPORTED_ENTITIES, uuids=sorted(cast), forms=sorted(forms)).data():
        counts.entities_deleted += 1
        removed_names.update(row["names"])
    for row in tx.run(q.ENTITY_FORMS, uuids=sorted(cast)).data():
        names = _clean_entity(tx, group_id, row, forms, rules, now)
        if names is not None:
            counts.entities_updated += 1
            removed_names.update(names)
    # every pair whose evidence changed (scenes together, quotes) is a pair of the purged episodes' cast
    refresh_interactions(tx, group_id, cast, now)
    if removed_names:
        tx.run(q.FORGET_NAMES, group_id=group_id, names=sorted(removed_names)).consume()

    counts.merge_records = tx.run(q.DELETE_MERGE_RECORDS, names=sorted(removed_names), **p).single(strict=True)["n"]
    predicates = sorted({r["predicate"] for r in deleted})
    if predicates:
        unused = tx.run(q.DELETE_UNUSED_PREDICATES, group_id=group_id, names=predicates)
        counts.predicates = unused.single(strict=True)["n"]
    # a fact still current when it went (one the retraction did not reach) may have closed others
    seeds = sorted({(r["subject_uuid"], r["predicate"], r["object_uuid"]) for r in deleted if r["current"]})
    if seeds:
        recompute_slots(tx, group_id, seeds, rules.timeline, now)
    return retraction, counts


def _clean_entity(tx: ManagedTransaction, group_id: str, row: dict, purged_forms: set[str], rules: PurgeRules,
                  now: datetime) -> set[str] | None:
    """Drop the names only the purge used (and the summary, which may come from it); rename the entity after
    its remaining mentions when its name was one of them. Returns the names dropped, None when unchanged."""
    remaining = row["forms"]
    dropped = {a for a in row["aliases"] if a in purged_forms and a not in remaining}
    name, key, renamed = row["name"], row["key"], False
    if name in purged_forms and name not in remaining and remaining:
        counted = Counter(remaining)
        name = min(counted, key=lambda f: (-counted[f], f))
        key = rules.entity_key(name, row["type"])
        if tx.run(q.KEY_TAKEN, group_id=group_id, key=key, uuid=row["uuid"]).single(strict=True)["taken"]:
            key = f"{key}#{row['uuid'][:8]}"  # another entity holds the name: this one keeps its own key
        dropped.add(row["name"])
        renamed = True
    if not dropped and not renamed and not row["summary"]:
        return None
    aliases = [a for a in row["aliases"] if a not in dropped]
    if name not in aliases:
        aliases.append(name)
    embedding = None
    if renamed and rules.embed is not None:
        vectors = rules.embed([name])
        embedding = vectors[0] if vectors else None
    tx.run(q.UPDATE_ENTITY, uuid=row["uuid"], name=name, key=key, aliases=aliases, summary="", now=now,
           renamed=renamed, embedding=embedding).consume()
    return dropped


def purge_group(graph: Graph, group_id: str, now: datetime, key_id: str | None = None) -> PurgeRecord:
    """Everything of the group, in bounded batches (one transaction each); the audit record stays."""
    if graph.query(q.PROCESSING, group_id=group_id, episodes=None)[0]["n"]:
        raise InputError("episodes of the group are being processed: purge it once its jobs have finished",
                         {"group": group_id})
    counts = PurgeCounts(**graph.query(q.GROUP_COUNTS, group_id=group_id)[0])
    for statement in q.GROUP_BATCHES:
        while graph.query(statement, group_id=group_id, batch=GROUP_BATCH)[0]["n"]:
            pass
    record = PurgeRecord(uuid=str(uuidlib.uuid4()), group_id=group_id, scope="group", target=group_id,
                         purged_at=now, key_id=key_id, **counts.model_dump())
    graph.query(q.RECORD_PURGE, record=record.model_dump())
    return record
