"""Temporal rules: order independence, idempotence, retraction restore, no collateral, negations."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from strata.resolve.temporal import (
    apply_negations,
    apply_updates,
    compute_slot_timeline,
    holds,
    is_believed_at,
    is_valid_at,
)
from strata.resolve.types import TemporalFact

T0 = datetime(2020, 1, 1, tzinfo=UTC)
NOW = datetime(2025, 6, 1, tzinfo=UTC)


def day(n: int) -> datetime:
    return T0 + timedelta(days=n)


def fact(uuid: str, s: str, o: str, valid: int | None, p: str = "lives_in", **kw: object) -> TemporalFact:
    return TemporalFact(uuid=uuid, subject_uuid=s, predicate=p, object_uuid=o,
                        valid_at=None if valid is None else day(valid), **kw)


def ends(facts: list[TemporalFact], functional: str | None = "subject") -> dict[str, tuple]:
    return {u.fact_uuid: (u.invalid_at, u.invalidated_by) for u in compute_slot_timeline(facts, functional, NOW)}


def oracle(facts: list[TemporalFact], functional: str | None) -> dict[str, tuple]:
    """Brute-force statement of the rules, to check the sweep implementation against."""
    live = [f for f in facts if f.expired_at is None]
    out = {}
    for f in live:
        if f.negated:
            continue
        closes = []
        if f.stated_invalid_at is not None:
            closes.append((f.stated_invalid_at, 0, None))
        for n in live:
            same = (n.subject_uuid, n.predicate, n.object_uuid) == (f.subject_uuid, f.predicate, f.object_uuid) or (
                functional == "symmetric" and (n.object_uuid, n.predicate, n.subject_uuid) == (
                    f.subject_uuid, f.predicate, f.object_uuid))
            if n.negated and n.valid_at is not None and same and (f.valid_at is None or f.valid_at <= n.valid_at):
                closes.append((n.valid_at, 1, n.uuid))
        for g in live:
            if g.negated or g.predicate != f.predicate or g.valid_at is None:
                continue
            if f.valid_at is not None and g.valid_at <= f.valid_at:
                continue
            subj = functional in ("subject", "both") and g.subject_uuid == f.subject_uuid \
                and g.object_uuid != f.object_uuid
            obj = functional in ("object", "both") and g.object_uuid == f.object_uuid \
                and g.subject_uuid != f.subject_uuid
            # symmetric: g shares an entity with f, on either side, and pairs it with someone else
            shared = {f.subject_uuid, f.object_uuid} & {g.subject_uuid, g.object_uuid}
            either = functional == "symmetric" and any(
                _partner(g, x) != _partner(f, x) for x in shared)
            if subj or obj or either:
                closes.append((g.valid_at, 2, g.uuid))
        t, _, by = min(closes) if closes else (None, 0, None)
        out[f.uuid] = (t, by)
    return out


def _partner(f: TemporalFact, entity: str) -> str:
    return f.object_uuid if f.subject_uuid == entity else f.subject_uuid


@st.composite
def fact_sets(draw: st.DrawFn) -> list[TemporalFact]:
    """Facts over subjects s1, s2 and objects o1-o3, or (half the time) over one pool of people e1-e4 on
    either side, as a symmetric predicate sees them: (e1, e2) and (e2, e1) both occur."""
    n = draw(st.integers(1, 12))
    shared = draw(st.booleans())
    facts = []
    for i in range(n):
        stated = draw(st.one_of(st.none(), st.integers(0, 30)))
        if shared:
            subject, obj = draw(st.permutations(["e1", "e2", "e3", "e4"]))[:2]
        else:
            subject, obj = draw(st.sampled_from(["s1", "s2"])), draw(st.sampled_from(["o1", "o2", "o3"]))
        facts.append(fact(
            f"f{i:02d}",
            subject,
            obj,
            draw(st.one_of(st.none(), st.integers(0, 20))),
            p=draw(st.sampled_from(["lives_in", "likes"])),
            stated_invalid_at=None if stated is None else day(stated),
            negated=draw(st.integers(0, 4)) == 0,
            expired_at=NOW if draw(st.integers(0, 6)) == 0 else None,
        ))
    return facts


FUNCTIONAL = st.sampled_from([None, "subject", "object", "both", "symmetric"])


@settings(max_examples=300, deadline=None)
@given(fact_sets(), FUNCTIONAL, st.randoms())
def test_any_permutation_gives_the_same_intervals(facts, functional, rnd):
    shuffled = list(facts)
    rnd.shuffle(shuffled)
    assert compute_slot_timeline(facts, functional, NOW) == compute_slot_timeline(shuffled, functional, NOW)


@settings(max_examples=300, deadline=None)
@given(fact_sets(), FUNCTIONAL)
def test_matches_the_brute_force_statement_of_the_rules(facts, functional):
    assert ends(facts, functional) == oracle(facts, functional)


@settings(max_examples=200, deadline=None)
@given(fact_sets(), FUNCTIONAL)
def test_idempotent(facts, functional):
    once = apply_updates(facts, compute_slot_timeline(facts, functional, NOW))
    again = compute_slot_timeline(once, functional, NOW + timedelta(days=1))
    assert not any(u.changed for u in again)
    assert apply_updates(once, again) == once


@settings(max_examples=200, deadline=None)
@given(fact_sets(), FUNCTIONAL, st.data())
def test_retraction_restores_and_recommit_equals_original(facts, functional, data):
    live = [f for f in facts if f.expired_at is None]
    if not live:
        return
    victim = data.draw(st.sampled_from(live))
    state = apply_updates(facts, compute_slot_timeline(facts, functional, NOW))
    retracted = [f.model_copy(update={"expired_at": NOW}) if f.uuid == victim.uuid else f for f in state]
    after = apply_updates(retracted, compute_slot_timeline(retracted, functional, NOW))
    without = [f for f in facts if f.uuid != victim.uuid]
    assert {k: v for k, v in ends(after, functional).items()} == ends(without, functional)
    recommitted = [f.model_copy(update={"expired_at": None}) if f.uuid == victim.uuid else f for f in after]
    assert ends(recommitted, functional) == ends(facts, functional)


@settings(max_examples=200, deadline=None)
@given(fact_sets(), FUNCTIONAL)
def test_no_collateral_across_slots_and_predicates(facts, functional):
    full = ends(facts, functional)
    for key in {(f.subject_uuid, f.predicate) for f in facts}:
        # for subject slots, one (subject, predicate) alone must give the same ends as inside everything
        if functional != "subject":
            break
        part = [f for f in facts if (f.subject_uuid, f.predicate) == key]
        assert ends(part, functional) == {k: v for k, v in full.items() if k in ends(part, functional)}
    if functional is None:  # non-functional: only stated ends and negations close anything
        for f in facts:
            if f.uuid in full and full[f.uuid][0] is not None:
                assert full[f.uuid][1] is None or any(n.negated and n.uuid == full[f.uuid][1] for n in facts)


def test_newer_fact_closes_older_and_late_old_fact_lands_closed():
    a, b = fact("a", "x", "paris", 0), fact("b", "x", "london", 10)
    late = fact("c", "x", "rome", -5)
    e = ends([a, b, late])
    assert e == {"a": (day(10), "b"), "b": (None, None), "c": (day(0), "a")}


def test_restating_the_same_value_does_not_close_the_run():
    e = ends([fact("a", "x", "paris", 0), fact("b", "x", "paris", 5), fact("c", "x", "rome", 9)])
    assert e == {"a": (day(9), "c"), "b": (day(9), "c"), "c": (None, None)}


def test_same_day_starts_overlap_deterministically():
    e = ends([fact("a", "x", "paris", 3), fact("b", "x", "rome", 3), fact("c", "x", "oslo", 7)])
    assert e == {"a": (day(7), "c"), "b": (day(7), "c"), "c": (None, None)}


def test_object_functional_office_holders():
    facts = [fact("h1", "ann", "mayor", 0, p="holds_office"), fact("h2", "bob", "mayor", 4, p="holds_office"),
             fact("h3", "cat", "ceo", 2, p="holds_office")]
    assert ends(facts, "object") == {"h1": (day(4), "h2"), "h2": (None, None), "h3": (None, None)}


def test_a_symmetric_fact_restated_the_other_way_round_is_one_partnership():
    facts = [fact("m1", "ann", "bob", 0, p="spouse_of"), fact("m2", "bob", "ann", 3, p="spouse_of"),
             fact("m3", "cat", "ann", 9, p="spouse_of"), fact("m4", "bob", "dee", 12, p="spouse_of")]
    # Ann's marriage to Bob, stated from either side, ends when Ann marries Cat; Bob's later marriage to Dee
    # ends nothing of Ann's.
    assert ends(facts, "symmetric") == {"m1": (day(9), "m3"), "m2": (day(9), "m3"), "m3": (None, None),
                                        "m4": (None, None)}
    # Read as "both" (one partner per side, direction kept), Ann's marriage to Bob as first stated would stay
    # open after she married Cat: Cat's fact names Ann as object, Bob's restatement names her as object too.
    assert ends(facts, "both")["m1"] == (None, None)


def test_explicit_end_wins_if_earlier():
    facts = [fact("a", "x", "paris", 0, stated_invalid_at=day(3)), fact("b", "x", "rome", 9)]
    assert ends(facts)["a"] == (day(3), None)


def test_negation_closes_only_the_matching_fact():
    likes = [fact("l1", "x", "y", 0, p="likes"), fact("l2", "x", "z", 0, p="likes"),
             fact("l3", "w", "y", 0, p="likes"), fact("l4", "x", "y", 8, p="likes")]
    neg = fact("n", "x", "y", 5, p="likes", negated=True)
    e = ends([*likes, neg], None)
    assert e == {"l1": (day(5), "n"), "l2": (None, None), "l3": (None, None), "l4": (None, None)}
    updates = apply_negations(likes, neg, NOW)
    assert [(u.fact_uuid, u.invalid_at, u.invalidated_by) for u in updates] == [("l1", day(5), "n")]


def test_invalidated_at_set_only_when_invalid_at_changes():
    a, b = fact("a", "x", "paris", 0), fact("b", "x", "rome", 9)
    first = {u.fact_uuid: u for u in compute_slot_timeline([a, b], "subject", NOW)}
    assert first["a"].invalidated_at == NOW and first["b"].invalidated_at is None


def test_valid_and_believed_selection():
    f = fact("a", "x", "paris", 0, invalid_at=day(10), invalidated_at=day(20), created_at=day(1))
    assert is_valid_at(f, day(5)) and not is_valid_at(f, day(10))
    assert is_believed_at(f, day(1)) and not is_believed_at(f, day(0))
    # at day 15 we did not yet know it had ended on day 10
    assert holds(f, day(12), known_at=day(15)) and not holds(f, day(12), known_at=day(21))
