"""What a retention policy makes due, and how salience decays. Pure: the graph layer compares stored times with
the cutoffs computed here, so the rule is written once (schema/retention.py says what each policy keeps)."""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from pydantic import Field

from strata.schema.models import Frozen
from strata.schema.retention import RetentionPolicy

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
