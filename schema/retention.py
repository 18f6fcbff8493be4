"""Retention policies: how long a group keeps what it was told, per kind of memory. Defaults keep everything.

Each policy hides what is due rather than deleting it: the hidden values move to ``archived_*`` properties
beside the originals (outside every index), so a looser policy applied again restores them, until a retention
purge removes them for good. What each policy keeps and what reads see afterwards: docs/api.md, "Retention".
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from typing import Annotated, Any

from pydantic import BeforeValidator, Field, model_validator

from strata.schema.models import Frozen, UtcDatetime

MAX_DAYS = 36_500  # a century: longer is "forever", which is None


def _a_number(value: Any) -> Any:
    """JSON numbers only, as the document's ``integer``/``number`` say: ``true`` or ``"30"`` is refused, where
    pydantic would read them as 1 and 30 (``30.0`` stays an integer, as JSON Schema counts it)."""
    if isinstance(value, bool | str):
        raise ValueError("must be a JSON number")
    return value


Days = Annotated[int | None, BeforeValidator(_a_number)]
HalfLife = Annotated[float | None, BeforeValidator(_a_number)]


def _days(description: str) -> Any:
    """A number of days a kind of memory is kept; None keeps it forever."""
    return Field(None, ge=0, le=MAX_DAYS, description=description)


class RetentionPolicy(Frozen):
    """A group's policy. Every field None (the default) keeps that kind of memory as it is, forever."""

    raw_text_days: Days = _days(
        "Keep an episode's raw text (its content, chat messages, structured statements and passages' text) this "
        "many days after ingestion; then the episode is compacted: facts, notes, mentions, quotes and provenance "
        "pointers stay.")
    passages_days: Days = _days(
        "Keep passages (the searched pieces of the raw text, with their vectors) this many days after ingestion; "
        "the episode's own text, facts and notes stay.")
    compact_history_days: Days = _days(
        "Facts that ended (in valid time and as learned), or were retracted or expired as duplicates, more than "
        "this many days ago keep every temporal and provenance property but lose their vector: listings, "
        "timelines and as-of / known-at reads still see them, vector search no longer does.")
    salience_half_life_days: HalfLife = Field(
        None, gt=0, le=MAX_DAYS,
        description="Salience of facts, notes and entities halves every this many days since search last returned "
                    "them (or since they were learned); search ranks less salient memories lower.")

    @model_validator(mode="after")
    def _passages_go_with_raw_text(self) -> RetentionPolicy:
        if self.raw_text_days is not None and self.passages_days is not None \
                and self.passages_days > self.raw_text_days:
            raise ValueError("passages_days must not exceed raw_text_days: passages are raw text and go with it")
        return self

    @property
    def keeps_everything(self) -> bool:
        return all(v is None for v in self.model_dump().values())


class StoredPolicy(Frozen):
    """A group's policy as stored, with who set it and when it last ran."""

    group_id: str
    policy: RetentionPolicy = Field(default_factory=RetentionPolicy)
    updated_at: UtcDatetime | None = None
    updated_by: str | None = None
    applied_at: UtcDatetime | None = None


class RetentionCounts(Frozen):
    """What a run hid (or would hide: dry run) and restored, per kind."""

    episodes_compacted: int = 0
    episodes_restored: int = 0
    passages_hidden: int = 0
    passages_restored: int = 0
    facts_compacted: int = 0
    facts_restored: int = 0


class RetentionRun(Frozen):
    group_id: str
    dry_run: bool
    ran_at: datetime
    policy: RetentionPolicy
    counts: RetentionCounts
    seconds: float = 0.0


class RetentionPurge(Frozen):
    """A retention purge: the hidden values removed for good (no longer restorable)."""

    group_id: str
    purged_at: datetime
    episodes: int = 0
    passages: int = 0
    facts: int = 0


# -- what a policy makes due, and how salience decays (pure; the graph queries compare stored times with these
# cutoffs, so the rule is written once) --------------------------------------------------------------------

# Salience never counts for less than this many half-lives: a memory unused for years still ranks on its text.
MAX_HALF_LIVES = 3.0


class Cutoffs(Frozen):
    """Items learned (episodes: ingested; facts: ended or expired) before a cutoff are due; None: nothing is."""

    raw_text_before: datetime | None = None
    passages_before: datetime | None = None
    history_before: datetime | None = None
    half_life_days: float | None = Field(None, gt=0)


def _before(days: int | None, now: datetime) -> datetime | None:
    return None if days is None else now - timedelta(days=days)


def cutoffs(policy: RetentionPolicy, now: datetime) -> Cutoffs:
    """The cutoffs of ``policy`` at ``now``. Passages are raw text: they are due under either policy, so their
    cutoff is the later of the two."""
    raw = _before(policy.raw_text_days, now)
    passages = _before(policy.passages_days, now)
    return Cutoffs(raw_text_before=raw, passages_before=max((c for c in (raw, passages) if c), default=None),
                   history_before=_before(policy.compact_history_days, now),
                   half_life_days=policy.salience_half_life_days)


def due(at: datetime | None, before: datetime | None) -> bool:
    """An item stamped ``at`` is due under a cutoff (the same comparison the graph queries make)."""
    return before is not None and at is not None and at < before


def salience(last_used_at: datetime | None, learned_at: datetime | None, now: datetime,
             half_life_days: float | None) -> float:
    """1.0 when just used (or no decay); halves every ``half_life_days`` since last use, or since it was learned
    when never used; floored at ``MAX_HALF_LIVES`` half-lives."""
    since = last_used_at or learned_at
    if half_life_days is None or since is None:
        return 1.0
    idle_days = max((now - since).total_seconds() / 86_400.0, 0.0)
    return 0.5 ** min(idle_days / half_life_days, MAX_HALF_LIVES)


def salience_feature(value: float) -> float:
    """What ranking adds per unit of its salience weight: log2 of salience (0 fresh, -1 per half-life)."""
    return math.log2(value) if value > 0 else -MAX_HALF_LIVES
