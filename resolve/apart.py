"""Pairs kept apart: a reviewer rejected the suggestion that two entities are one, or a merge of them was
undone. Every automatic path (resolution at ingestion, the consolidation pass) honours it. Pure.

A mention that names an entity exactly (its name or an alias) is that entity as far as the pair is concerned:
the entities kept apart from it are not its candidates, and its names never join them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from strata.resolve.normalize import fold_name
from strata.resolve.types import CandidateEntity


def _names(c: CandidateEntity) -> set[str]:
    return {fold_name(f) for f in (c.name, *c.aliases)}


def named_exactly(forms: Iterable[str], candidates: Sequence[CandidateEntity]) -> set[str]:
    """The candidates one of ``forms`` names exactly."""
    folded = {fold_name(f) for f in forms}
    return {c.uuid for c in candidates if folded & _names(c)}


def keep_apart(forms: Iterable[str], candidates: Sequence[CandidateEntity]) -> list[CandidateEntity]:
    """Candidates left once those kept apart from an entity the mention names exactly are dropped. A mention
    naming both sides of a pair keeps both (it resolves to neither by that name: see ``foreign_forms``)."""
    exact = named_exactly(forms, candidates)
    return [c for c in candidates if c.uuid in exact or not set(c.apart) & exact]


def foreign_forms(forms: Iterable[str], chosen: str, candidates: Sequence[CandidateEntity]) -> set[str]:
    """The folded forms of a mention that name an entity kept apart from ``chosen``: they do not join it."""
    apart = {c.uuid for c in candidates if chosen in c.apart}
    apart |= {u for c in candidates if c.uuid == chosen for u in c.apart}
    names = {n for c in candidates if c.uuid in apart for n in _names(c)}
    return {fold_name(f) for f in forms} & names
