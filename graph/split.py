"""Split names off an entity: the names leave its aliases, and the episode mentions that used only those names,
the facts only those episodes support and the quotes of those episodes move to another entity (an existing
one, or the entity those names make). Used by the consolidation pass (an alias another entity bears as its
name, Mr. and Mrs. on one entity) and to undo a merge made inside an episode. An episode that used both kinds
of names stays with the entity: which of its mentions meant whom is not recorded.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from neo4j import ManagedTransaction
from pydantic import BaseModel

from strata.graph import lucene
from strata.graph.commit import TimelineFn, recompute_slots
from strata.graph.driver import Graph
from strata.graph.network import refresh_partners
from strata.graph.purge import KeyFn
from strata.graph.queries import split as q
from strata.graph.text_version import bump as bump_text_version
from strata.schema import ids
from strata.schema.errors import InputError, NotFoundError
from strata.schema.plan import LABEL


@dataclass(frozen=True)
class SplitRules:
    """What the graph layer is handed from above (resolve/, wired in ingest/rules.py): the temporal rules, entity
    keys and name folding."""

    timeline: TimelineFn
    entity_key: KeyFn
    fold_name: Callable[[str], str]


class SplitResult(BaseModel):
    entity_uuid: str
    into_uuid: str
    forms: list[str]
    mentions_moved: int
    facts_moved: int
    record_uuid: str
    slot_updates: int


@dataclass(frozen=True)
class SplitHow:
    """Where the forms go (None: an entity made from the first form) and what the split's record says: its rule,
    reason and source. ``only_episodes``: move only these episodes' mentions (undoing a split gives back exactly
    what it took), and the entity may then bear one of the forms as name."""

    into_uuid: str | None = None
    rule: str = "split"
    reason: str = ""
    only_episodes: list[str] | None = None
    source_uuid: str | None = None


def split_forms(graph: Graph, group_id: str, entity_uuid: str, forms: list[str], rules: SplitRules,
                now: datetime, how: SplitHow = SplitHow()) -> SplitResult:
    """Move ``forms`` off the entity (see the module and ``SplitHow``)."""
    fold_name, entity_key = rules.fold_name, rules.entity_key
    into_uuid, rule, reason, only_episodes, source_uuid = (how.into_uuid, how.rule, how.reason, how.only_episodes,
                                                           how.source_uuid)
    folded = {fold_name(f) for f in forms if fold_name(f)}
    if not folded:
        raise InputError("say which names to split off", {"uuid": entity_uuid})

    def work(tx: ManagedTransaction) -> SplitResult:
        row = tx.run(q.ENTITY, uuid=entity_uuid, group_id=group_id).single()
        if row is None:
            raise NotFoundError(f"entity {entity_uuid} not found or no longer current")
        if fold_name(row["name"]) in folded and only_episodes is None:
            raise InputError("an entity's own name cannot be split off", {"uuid": entity_uuid, "name": row["name"]})
        moving = [f for f in dict.fromkeys(row["aliases"]) if fold_name(f) in folded] or list(forms)
        target = into_uuid
        if target is None:
            label = row["type"] if LABEL.match(row["type"] or "") else "Entity"
            key = entity_key(moving[0], row["type"])
            target = tx.run(q.ENSURE_TARGET, group_id=group_id, key=key, new_uuid=ids.entity_uuid(group_id, key),
                            group_tag=lucene.group_tag(group_id), name=moving[0], type=row["type"], label=label,
                            now=now).single(strict=True)["uuid"]
        if target == entity_uuid:
            raise InputError("an entity cannot be split into itself", {"uuid": entity_uuid})
        episodes = [r["episode_uuid"] for r in tx.run(q.MENTION_FORMS, uuid=entity_uuid, group_id=group_id)
                    if r["forms"] and all(fold_name(f) in folded for f in r["forms"])
                    and (only_episodes is None or r["episode_uuid"] in only_episodes)]
        p: dict[str, Any] = {"uuid": entity_uuid, "into_uuid": target, "group_id": group_id, "episodes": episodes}
        tx.run(q.MOVE_MENTIONS, **p).consume()
        moved = tx.run(q.MOVE_FACTS, **p).data()
        tx.run(q.MOVE_QUOTES, **p).consume()
        keep = [a for a in row["aliases"] if fold_name(a) not in folded or fold_name(a) == fold_name(row["name"])]
        tx.run(q.SET_ALIASES, keep=keep, forms=moving, now=now, **p).consume()
        record_uuid = ids.stable_uuid("split", entity_uuid, target, *sorted(folded), now.isoformat())
        tx.run(q.RECORD_SPLIT, record_uuid=record_uuid, forms=moving, rule=rule, reason=reason, now=now,
               source_uuid=source_uuid, **p).consume()
        refresh_partners(tx, group_id, (entity_uuid, target), now)
        seeds = sorted({(r["subject_uuid"], r["predicate"], r["object_uuid"]) for r in moved})
        _, updates = recompute_slots(tx, group_id, seeds, rules.timeline, now)
        bump_text_version(tx, group_id)
        return SplitResult(entity_uuid=entity_uuid, into_uuid=target, forms=moving, mentions_moved=len(episodes),
                           facts_moved=len(moved), record_uuid=record_uuid, slot_updates=updates)

    return graph.write(work)
