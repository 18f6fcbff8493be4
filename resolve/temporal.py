"""Temporal rules: each fact's end (valid time) computed from all live facts of its slot. Pure.

A fact's effective ``invalid_at`` is the earliest of
  1. ``stated_invalid_at`` (the source said when it ended),
  2. the earliest ``valid_at`` of a negation of the same (subject, predicate, object) at or after its start
     (for a symmetric predicate, of the same two entities in either order),
  3. for a functional slot, the earliest ``valid_at`` STRICTLY after its own of a fact in the same slot with a
     different value (object for "subject" slots, subject for "object" slots; both for "both"). A "symmetric"
     predicate has one slot per entity whichever side states it: (A, B) and (B, A) are both in A's slot with
     value B and in B's slot with value A, so restating a marriage the other way round closes nothing.
Ties between the three: stated, then negation, then successor. Facts with the same value restated later do
not close each other (a run). Facts starting at the same instant with different values overlap (neither
closes the other) until the next strictly later value: same-day handovers must carry distinct times.

Story clock. A fact from a book carries ``story_at`` (the character offset of its statement in the book).
"Before" and "after" above then mean the order of (``valid_at``, ``story_at``): facts of one valid instant
(every undated fact of a book has its ingestion time) are ordered by where the story states them, so a later
statement closes an earlier one in a functional slot, and a negation closes only what was stated at or before
it. A fact without a position sorts at the start of its instant, so facts without positions (chat) follow
exactly the rules above. A fact closed by a statement gets that statement's ``valid_at`` as ``invalid_at`` (for
an undated book fact its own instant: it is not current at the end of the story) and its ``story_at`` as
``story_until`` (None when the closer has no position or the end was stated).
Facts without ``valid_at`` sort before every dated fact: they are closed by the first dated different value
and close nothing. Expired facts are ignored (they neither close nor get updated), so expiring a fact and
recomputing reopens what it closed. The result depends only on the set of facts, never on their order.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from datetime import datetime

from strata.resolve.roles import slot_role
from strata.schema.models import Functionality
from strata.schema.plan import TemporalFact, TimelineUpdate

# (time, story position key, precedence, closing fact uuid, closer's story position); smaller wins
_Close = tuple[datetime, int, int, str | None, int | None]
_STATED, _NEGATION, _SUCCESSOR = 0, 1, 2
_NO_POSITION = -1  # a fact without a story position sorts at the start of its instant


def _pos(f: TemporalFact) -> int:
    return _NO_POSITION if f.story_at is None else f.story_at


def _order(f: TemporalFact) -> tuple[datetime, int]:
    """Where a dated fact starts: its valid time, then its story position."""
    return f.valid_at, _pos(f)  # type: ignore[return-value]


def _live(facts: Iterable[TemporalFact]) -> list[TemporalFact]:
    return [f for f in facts if f.expired_at is None]


# A fact in a slot: (its value there, the fact).
_Member = tuple[str, TemporalFact]
_BY_SUBJECT: tuple[tuple[str, str], ...] = (("subject_uuid", "object_uuid"),)
_BY_OBJECT: tuple[tuple[str, str], ...] = (("object_uuid", "subject_uuid"),)
_EITHER_SIDE = _BY_SUBJECT + _BY_OBJECT


def _slot(f: TemporalFact, side: str) -> str:
    """A slot's key: the entity on that side, qualified by the fact's role when it has one (an office is the
    slot (organization, role): the CEO of Walmart and the chair of Walmart are two slots)."""
    entity: str = getattr(f, side)
    return f"{entity}|{slot_role(f.role, f.subject_uuid)}" if f.role else entity


def _successor_closes(facts: Sequence[TemporalFact], sides: Sequence[tuple[str, str]]) -> dict[str, list[_Close]]:
    """Per slot: earliest strictly-later start of a different value. O(n log n) per slot.

    ``sides`` name the (slot, value) fields: several pairs put each fact in several slots of one pool (a
    symmetric predicate files (A, B) under A with value B and under B with value A).
    """
    slots: dict[str, list[_Member]] = defaultdict(list)
    for f in facts:
        for key, value in sides:
            slots[_slot(f, key)].append((getattr(f, value), f))
    out: dict[str, list[_Close]] = defaultdict(list)
    for members in slots.values():
        # groups of members sharing one start (valid_at, story position), in that order
        groups: list[list[_Member]] = []
        for m in sorted((m for m in members if m[1].valid_at is not None), key=lambda m: (_order(m[1]), m[1].uuid)):
            if not groups or _order(m[1]) != _order(groups[-1][0][1]):
                groups.append([])
            groups[-1].append(m)
        values = [frozenset(m[0] for m in g) for g in groups]
        # next_other[k]: first group after k whose set of values differs from group k's
        n = len(groups)
        next_other = [n] * n
        for k in range(n - 2, -1, -1):
            next_other[k] = k + 1 if values[k + 1] != values[k] else next_other[k + 1]

        starts = [(m, 0) for m in members if m[1].valid_at is None]  # undated: before every dated group
        starts += [(m, j + 1) for j, g in enumerate(groups) for m in g]
        for (v, f), k0 in starts:
            # first group at or after k0 holding a value other than v
            k = k0 if k0 >= n or values[k0] != {v} else next_other[k0]
            if k < n:
                closer = min(g[1].uuid for g in groups[k] if g[0] != v)
                first = groups[k][0][1]
                out[f.uuid].append((first.valid_at, _pos(first), _SUCCESSOR, closer, first.story_at))  # type: ignore[arg-type]
    return out


def _negation_closes(facts: Sequence[TemporalFact], symmetric: bool = False) -> dict[str, _Close]:
    def pair(f: TemporalFact) -> tuple[str, str, str, str]:
        # a symmetric predicate's negation may name the two the other way round; "stepped down as CEO" ends
        # the CEO's term, not a chair's
        ends = sorted((f.subject_uuid, f.object_uuid)) if symmetric else (f.subject_uuid, f.object_uuid)
        return ends[0], f.predicate, ends[1], f.role or ""

    negations: dict[tuple[str, str, str, str], list[TemporalFact]] = defaultdict(list)
    for n in facts:
        if n.negated and n.valid_at is not None:
            negations[pair(n)].append(n)
    out: dict[str, _Close] = {}
    for f in facts:
        if f.negated:
            continue
        for n in negations.get(pair(f), ()):
            if f.valid_at is None or _order(f) <= _order(n):
                close = (n.valid_at, _pos(n), _NEGATION, n.uuid, n.story_at)
                if f.uuid not in out or close < out[f.uuid]:
                    out[f.uuid] = close  # type: ignore[assignment]
    return out


def compute_slot_timeline(
    facts: Sequence[TemporalFact], functional: Functionality | None, now: datetime
) -> list[TimelineUpdate]:
    """New (invalid_at, invalidated_by, story_until) for every live, non-negated fact, sorted by fact uuid.

    Facts may span several slots and predicates: slots are computed independently (no collateral).
    ``functional`` None applies only stated ends and negations. ``invalidated_at`` is ``now`` for facts whose
    ``invalid_at`` changed (None when reopened) and the fact's previous value otherwise.
    """
    live = _live(facts)
    positive = [f for f in live if not f.negated]
    closes: dict[str, list[_Close]] = defaultdict(list)
    for f in positive:
        if f.stated_invalid_at is not None:
            closes[f.uuid].append((f.stated_invalid_at, _NO_POSITION, _STATED, None, None))
    for uuid, close in _negation_closes(live, symmetric=functional == "symmetric").items():
        closes[uuid].append(close)
    by_predicate: dict[str, list[TemporalFact]] = defaultdict(list)
    for f in positive:
        by_predicate[f.predicate].append(f)
    pools = {"subject": (_BY_SUBJECT,), "object": (_BY_OBJECT,), "both": (_BY_SUBJECT, _BY_OBJECT),
             "symmetric": (_EITHER_SIDE,)}.get(functional or "", ())
    for members in by_predicate.values():
        for sides in pools:
            for uuid, found in _successor_closes(members, sides).items():
                closes[uuid] += found
    updates = []
    for f in sorted(positive, key=lambda f: f.uuid):
        invalid_at, _, _, by, story_until = min(closes[f.uuid]) if closes[f.uuid] else (None, 0, 0, None, None)
        changed = (invalid_at, by, story_until) != (f.invalid_at, f.invalidated_by, f.story_until)
        if invalid_at != f.invalid_at:
            invalidated_at = now if invalid_at is not None else None
        else:
            invalidated_at = f.invalidated_at
        updates.append(TimelineUpdate(fact_uuid=f.uuid, invalid_at=invalid_at, invalidated_by=by,
                                      invalidated_at=invalidated_at, story_until=story_until, changed=changed))
    return updates


def apply_negations(
    facts: Sequence[TemporalFact], negation: TemporalFact, now: datetime
) -> list[TimelineUpdate]:
    """Close the open facts with the negation's subject, predicate and object that started at or before it.

    Touches nothing else. Equivalent to the negation's effect in ``compute_slot_timeline`` (which callers
    should prefer, so retracting the negation reopens the fact).
    """
    if negation.valid_at is None:
        return []
    t = negation.valid_at
    updates = []
    for f in sorted(_live(facts), key=lambda f: f.uuid):
        same = (f.subject_uuid, f.predicate, f.object_uuid, f.role or "") == (
            negation.subject_uuid, negation.predicate, negation.object_uuid, negation.role or "")
        if not same or f.negated or f.uuid == negation.uuid:
            continue
        started = f.valid_at is None or _order(f) <= _order(negation)
        if started and (f.invalid_at is None or f.invalid_at > t):
            updates.append(TimelineUpdate(fact_uuid=f.uuid, invalid_at=t, invalidated_by=negation.uuid,
                                          invalidated_at=now, story_until=negation.story_at, changed=True))
    return updates


def apply_updates(facts: Sequence[TemporalFact], updates: Sequence[TimelineUpdate]) -> list[TemporalFact]:
    """New fact values with the updates applied (inputs are not mutated)."""
    by_uuid = {u.fact_uuid: u for u in updates}
    out = []
    for f in facts:
        u = by_uuid.get(f.uuid)
        if u is None:
            out.append(f)
        else:
            out.append(f.model_copy(update={"invalid_at": u.invalid_at, "invalidated_by": u.invalidated_by,
                                            "invalidated_at": u.invalidated_at, "story_until": u.story_until}))
    return out


def is_valid_at(fact: TemporalFact, as_of: datetime) -> bool:
    """True in the world at ``as_of`` by the current interval (valid time only). Negations never hold."""
    if fact.negated:
        return False
    started = fact.valid_at is None or fact.valid_at <= as_of
    return started and (fact.invalid_at is None or as_of < fact.invalid_at)


def holds_in_story(fact: TemporalFact, position: int) -> bool:
    """True for a reader who has read the story up to offset ``position`` (exclusive): stated before it and
    not closed by a statement before it. Facts without a story position are in no story."""
    if fact.negated or fact.story_at is None:
        return False
    return fact.story_at < position and (fact.story_until is None or position <= fact.story_until)


def is_believed_at(fact: TemporalFact, known_at: datetime) -> bool:
    """True if the system held the fact at ``known_at``: learned by then and not yet expired."""
    learned = fact.created_at is None or fact.created_at <= known_at
    return learned and (fact.expired_at is None or fact.expired_at > known_at)


def believed_invalid_at(fact: TemporalFact, known_at: datetime) -> datetime | None:
    """The end we believed at ``known_at``: the current one unless it changed after ``known_at``, else the one
    in force just before the first change after ``known_at`` (the end history). A fact whose end changed
    before histories were kept has one earlier state, and before that its stated end.

    The same rule runs in Cypher (graph/queries/read.py ``BELIEVED_END``); tests/integration/
    test_temporal_rule.py checks the two agree on random facts."""
    if fact.invalidated_at is None or fact.invalidated_at <= known_at:
        return fact.invalid_at
    if fact.end_changed_at is None:
        if fact.prev_invalidated_at is not None and fact.prev_invalidated_at <= known_at:
            return fact.prev_invalid_at
        return fact.stated_invalid_at
    before = fact.end_before or []
    for i, changed in enumerate(fact.end_changed_at):
        if changed > known_at:
            return before[i] if i < len(before) else None
    return fact.invalid_at


def holds(fact: TemporalFact, as_of: datetime, known_at: datetime) -> bool:
    """True at valid time ``as_of`` as believed at transaction time ``known_at`` (graph/queries/read.py
    ``TEMPORAL_FILTER`` is the same rule in Cypher)."""
    if fact.negated or not is_believed_at(fact, known_at):
        return False
    end = believed_invalid_at(fact, known_at)
    started = fact.valid_at is None or fact.valid_at <= as_of
    return started and (end is None or as_of < end)
