"""Retention in the graph: a group's stored policy, one run of it (hide what is due, restore what no longer is),
the retention purge, and the last use of memories that salience reads. The rules are in strata.schema.retention.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from pydantic import BaseModel

from strata.graph.driver import Graph
from strata.graph.queries import retention as q
from strata.graph.read import native
from strata.graph.text_version import bump_groups
from strata.schema.retention import Cutoffs, RetentionCounts, RetentionPolicy, RetentionPurge, StoredPolicy, salience

BATCH = 2_000  # rows per write transaction of a run or a purge
POLICY_FIELDS = tuple(RetentionPolicy.model_fields)
# Search reads a group's half-life through this per-process cache (one look per group a while, not per search).
HALF_LIFE_TTL_S = 30.0
_half_lives: dict[tuple[str, str], tuple[float, float | None]] = {}
_lock = threading.Lock()


class ContentSize(BaseModel):
    """Bytes the group holds in what retention can hide, visible and hidden (strings: characters; vectors:
    4 bytes a number)."""

    raw_text: int = 0
    raw_text_hidden: int = 0
    passages: int = 0
    passages_hidden: int = 0
    fact_vectors: int = 0
    fact_vectors_hidden: int = 0

    @property
    def total(self) -> int:
        return sum(self.model_dump().values())


def get_policy(graph: Graph, group_id: str) -> StoredPolicy:
    rows = graph.query(q.GET_POLICY, group_id=group_id)
    if not rows:
        return StoredPolicy(group_id=group_id)
    props = native(rows[0]["props"])
    return StoredPolicy(group_id=group_id, policy=RetentionPolicy(**{k: props.get(k) for k in POLICY_FIELDS}),
                        updated_at=props.get("updated_at"), updated_by=props.get("updated_by"),
                        applied_at=props.get("applied_at"))


def put_policy(graph: Graph, group_id: str, policy: RetentionPolicy, now: datetime,
               actor: str | None = None) -> StoredPolicy:
    graph.query(q.PUT_POLICY, group_id=group_id, fields=policy.model_dump(), now=now, actor=actor)
    with _lock:
        _half_lives.pop((graph.database, group_id), None)
    return get_policy(graph, group_id)


def policy_groups(graph: Graph) -> list[str]:
    """Groups that ever stored a policy (a policy set back to the default still restores on its next run)."""
    return [r["group_id"] for r in graph.query(q.POLICY_GROUPS)]


def _loop(graph: Graph, cypher: str, **params: Any) -> int:
    done = 0
    while n := graph.query(cypher, batch=BATCH, **params)[0]["n"]:
        done += n
    return done


def _count(graph: Graph, cypher: str, **params: Any) -> int:
    return int(graph.query(cypher, **params)[0]["n"])


# (hide, restore) statements and their counts per kind, with the cutoff each reads.
_KINDS = (
    ("episodes", "raw_text_before", (q.HIDE_EPISODES, q.EPISODES_DUE), (q.RESTORE_EPISODES, q.EPISODES_BACK)),
    ("passages", "passages_before", (q.HIDE_PASSAGES, q.PASSAGES_DUE), (q.RESTORE_PASSAGES, q.PASSAGES_BACK)),
    ("facts", "history_before", (q.HIDE_FACTS, q.FACTS_DUE), (q.RESTORE_FACTS, q.FACTS_BACK)),
)
_COUNT_NAMES = {"episodes": ("episodes_compacted", "episodes_restored"),
                "passages": ("passages_hidden", "passages_restored"),
                "facts": ("facts_compacted", "facts_restored")}


def apply_cutoffs(graph: Graph, group_id: str, cut: Cutoffs, now: datetime, dry_run: bool = False) -> RetentionCounts:
    """Restore what the cutoffs no longer make due, then hide what they do, in bounded batches (``dry_run``:
    count only). Restoring first lets a looser policy bring back what a stricter one hid."""
    counts: dict[str, int] = {}
    for kind, field, (hide, hide_count), (restore, restore_count) in _KINDS:
        before = getattr(cut, field)
        hidden_name, restored_name = _COUNT_NAMES[kind]
        if dry_run:
            counts[restored_name] = _count(graph, restore_count, group_id=group_id, before=before)
            counts[hidden_name] = _count(graph, hide_count, group_id=group_id, before=before) if before else 0
            continue
        counts[restored_name] = _loop(graph, restore, group_id=group_id, before=before)
        counts[hidden_name] = _loop(graph, hide, group_id=group_id, before=before, now=now) if before else 0
    if not dry_run:
        graph.query(q.APPLIED, group_id=group_id, now=now)
        if any(counts.values()):  # after the batches' commits: what was hidden or restored changed its text
            bump_groups(graph, [group_id])
    return RetentionCounts(**counts)


def purge_hidden(graph: Graph, group_id: str, now: datetime) -> RetentionPurge:
    """Remove for good what retention hid in the group: it can no longer be restored."""
    purged = RetentionPurge(group_id=group_id, purged_at=now,
                            episodes=_loop(graph, q.PURGE_EPISODES, group_id=group_id, now=now),
                            passages=_loop(graph, q.PURGE_PASSAGES, group_id=group_id),
                            facts=_loop(graph, q.PURGE_FACTS, group_id=group_id, now=now))
    if purged.episodes or purged.passages or purged.facts:
        bump_groups(graph, [group_id])
    return purged


def content_size(graph: Graph, group_id: str) -> ContentSize:
    rows = graph.query(q.CONTENT_SIZE, group_id=group_id)
    return ContentSize(**{k: int(v or 0) for k, v in rows[0].items()})


def half_life(graph: Graph, group_id: str) -> float | None:
    """The group's salience half-life (days), None without decay; cached per process for a few seconds."""
    key = (graph.database, group_id)
    hit = _half_lives.get(key)
    if hit is not None and hit[0] > time.monotonic():
        return hit[1]
    rows = graph.query(q.HALF_LIFE, group_id=group_id)
    value = rows[0]["half_life"] if rows else None
    with _lock:
        _half_lives[key] = (time.monotonic() + HALF_LIFE_TTL_S, value)
    return value


def saliences(graph: Graph, group_id: str, facts: Sequence[str], entities: Sequence[str], now: datetime,
              half_life_days: float) -> dict[str, float]:
    """Salience of the given facts and entities at ``now`` (one read)."""
    if not facts and not entities:
        return {}
    rows = graph.fetch(q.LAST_USE, group_id=group_id, facts=list(facts), entities=list(entities))
    return {r["uuid"]: salience(_dt(r["last_used_at"]), _dt(r["learned_at"]), now, half_life_days) for r in rows}


def touch(graph: Graph, group_id: str, facts: Iterable[str], entities: Iterable[str], passages: Iterable[str],
          now: datetime) -> None:
    """Record that search returned these memories (notes through the passages they hang off)."""
    facts, entities, passages = list(facts), list(entities), list(passages)
    if not (facts or entities or passages):
        return
    graph.query(q.TOUCH, group_id=group_id, facts=facts, entities=entities, passages=passages, now=now)


def _dt(value: Any) -> datetime | None:
    return value.to_native() if hasattr(value, "to_native") else value
