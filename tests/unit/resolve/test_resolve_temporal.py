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
    holds_in_story,
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


def ends3(facts: list[TemporalFact], functional: str | None = "subject") -> dict[str, tuple]:
    """(invalid_at, invalidated_by, story_until) per fact."""
    return {u.fact_uuid: (u.invalid_at, u.invalidated_by, u.story_until)
            for u in compute_slot_timeline(facts, functional, NOW)}


def _key(f: TemporalFact) -> tuple:
    """The oracle's order of starts: valid time, then story position (none = start of the instant)."""
    return f.valid_at, -1 if f.story_at is None else f.story_at


def oracle(facts: list[TemporalFact], functional: str | None) -> dict[str, tuple]:
    """Brute-force statement of the rules, to check the sweep implementation against."""
    live = [f for f in facts if f.expired_at is None]
    out = {}
    for f in live:
        if f.negated:
            continue
        closes = []
        if f.stated_invalid_at is not None:
            closes.append((f.stated_invalid_at, -1, 0, None, None))
        for n in live:
            same = (n.subject_uuid, n.predicate, n.object_uuid) == (f.subject_uuid, f.predicate, f.object_uuid) or (
                functional == "symmetric" and (n.object_uuid, n.predicate, n.subject_uuid) == (
                    f.subject_uuid, f.predicate, f.object_uuid))
            if n.negated and n.valid_at is not None and same and (f.valid_at is None or _key(f) <= _key(n)):
                closes.append((n.valid_at, _key(n)[1], 1, n.uuid, n.story_at))
        for g in live:
            if g.negated or g.predicate != f.predicate or g.valid_at is None:
                continue
            if f.valid_at is not None and _key(g) <= _key(f):
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
                closes.append((g.valid_at, _key(g)[1], 2, g.uuid, g.story_at))
        t, _, _, by, until = min(closes) if closes else (None, 0, 0, None, None)
        out[f.uuid] = (t, by, until)
    return out


def _partner(f: TemporalFact, entity: str) -> str:
    return f.object_uuid if f.subject_uuid == entity else f.subject_uuid


@st.composite
def fact_sets(draw: st.DrawFn) -> list[TemporalFact]:
    """Facts over subjects s1, s2 and objects o1-o3, or (half the time) over one pool of people e1-e4 on
    either side, as a symmetric predicate sees them: (e1, e2) and (e2, e1) both occur."""
    n = draw(st.integers(1, 12))
    shared = draw(st.booleans())
    # Half the sets come from a story: some facts carry positions (few instants, so positions decide ties).
    positions = st.one_of(st.none(), st.integers(0, 5)) if draw(st.booleans()) else st.none()
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
            story_at=draw(positions),
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
    assert ends3(facts, functional) == oracle(facts, functional)


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
    assert {k: v for k, v in ends3(after, functional).items()} == ends3(without, functional)
    recommitted = [f.model_copy(update={"expired_at": None}) if f.uuid == victim.uuid else f for f in after]
    assert ends3(recommitted, functional) == ends3(facts, functional)


@settings(max_examples=200, deadline=None)
@given(fact_sets(), FUNCTIONAL)
def test_no_collateral_across_slots_and_predicates(facts, functional):
    full = ends3(facts, functional)
    for key in {(f.subject_uuid, f.predicate) for f in facts}:
        # for subject slots, one (subject, predicate) alone must give the same ends as inside everything
        if functional != "subject":
            break
        part = [f for f in facts if (f.subject_uuid, f.predicate) == key]
        assert ends3(part, functional) == {k: v for k, v in full.items() if k in ends3(part, functional)}
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


def test_known_at_reads_the_end_history():
    """Open until day 20, then ended on day 10; on day 30 corrected to day 8: each known_at sees its end."""
    f = fact("a", "x", "paris", 0, invalid_at=day(8), invalidated_at=day(30), created_at=day(1),
             end_changed_at=[day(20), day(30)], end_before=[None, day(10)])
    assert holds(f, day(12), known_at=day(19)) and not holds(f, day(12), known_at=day(21))
    assert holds(f, day(9), known_at=day(29)) and not holds(f, day(9), known_at=day(31))


def test_an_end_changed_before_histories_keeps_one_earlier_state():
    f = fact("a", "x", "paris", 0, stated_invalid_at=day(12), invalid_at=day(5), invalidated_at=day(20),
             prev_invalid_at=day(9), prev_invalidated_at=day(10), created_at=day(1))
    assert holds(f, day(10), known_at=day(5)) and not holds(f, day(10), known_at=day(15))  # stated, then day 9
    assert holds(f, day(7), known_at=day(15)) and not holds(f, day(7), known_at=day(21))


# Story clock: facts of one instant (a book's undated facts) ordered by where the story states them.

def told(uuid: str, s: str, o: str, at: int, p: str = "lives_in", **kw: object) -> TemporalFact:
    """A fact of a book: every undated statement shares the ingestion instant (day 0), ``at`` is its offset."""
    return fact(uuid, s, o, 0, p=p, story_at=at, **kw)


def test_a_later_statement_closes_an_earlier_one_of_the_same_instant():
    e = ends3([told("a", "x", "netherfield", 100), told("b", "x", "london", 5000), told("c", "x", "pemberley", 900)])
    # closed at the closer's valid time (the shared instant: not current at the end of the story)
    assert e == {"a": (day(0), "c", 900), "c": (day(0), "b", 5000), "b": (None, None, None)}


def test_equal_positions_overlap_like_equal_instants():
    e = ends3([told("a", "x", "paris", 10), told("b", "x", "rome", 10), told("c", "x", "oslo", 40)])
    assert e == {"a": (day(0), "c", 40), "b": (day(0), "c", 40), "c": (None, None, None)}


def test_a_spouse_stated_later_in_the_story_closes_the_earlier_partner_of_either_side():
    facts = [told("m1", "ann", "bob", 10, p="spouse_of"), told("m2", "cat", "ann", 70, p="spouse_of")]
    assert ends3(facts, "symmetric") == {"m1": (day(0), "m2", 70), "m2": (None, None, None)}


def test_a_story_negation_closes_only_what_was_stated_at_or_before_it():
    likes = [told("l1", "x", "y", 10, p="likes"), told("l2", "x", "y", 90, p="likes")]
    neg = told("n", "x", "y", 50, p="likes", negated=True)
    assert ends3([*likes, neg], None) == {"l1": (day(0), "n", 50), "l2": (None, None, None)}
    updates = apply_negations(likes, neg, NOW)
    assert [(u.fact_uuid, u.story_until) for u in updates] == [("l1", 50)]


def test_a_dated_statement_keeps_its_real_time_against_undated_story_facts():
    # "in 1805" (day -400 here) sorts before the book's undated facts whatever its position in the text
    dated = fact("d", "x", "bath", -400, story_at=700)
    e = ends3([told("a", "x", "paris", 100), dated])
    assert e == {"d": (day(0), "a", 100), "a": (None, None, None)}


def test_facts_without_positions_keep_todays_rules():
    plain = [fact("a", "x", "paris", 3), fact("b", "x", "rome", 3), fact("c", "x", "oslo", 7)]
    assert ends3(plain) == {"a": (day(7), "c", None), "b": (day(7), "c", None), "c": (None, None, None)}
    # a positioned fact at the same instant comes after the unpositioned ones: it closes them
    e = ends3([fact("a", "x", "paris", 3), fact("b", "x", "rome", 3, story_at=0)])
    assert e == {"a": (day(3), "b", 0), "b": (None, None, None)}


@settings(max_examples=200, deadline=None)
@given(fact_sets(), FUNCTIONAL)
def test_positions_only_order_facts_of_one_instant(facts, functional):
    # keep one fact per valid instant: then the story positions may not change who closes what, or when
    seen: set = set()
    distinct = [f for f in facts if f.valid_at not in seen and not seen.add(f.valid_at)]
    plain = [f.model_copy(update={"story_at": None}) for f in distinct]
    assert {k: v[:2] for k, v in ends3(distinct, functional).items()} == ends(plain, functional)
    assert all(v[2] is None for v in ends3(plain, functional).values())


def test_holds_in_story_reads_the_story_up_to_a_position():
    closed = told("a", "x", "paris", 100, story_until=900)
    assert not holds_in_story(closed, 100) and holds_in_story(closed, 101) and holds_in_story(closed, 900)
    assert not holds_in_story(closed, 901)
    assert not holds_in_story(fact("c", "x", "rome", 0), 10_000)  # a fact in no story
    assert not holds_in_story(told("n", "x", "rome", 5, negated=True), 50)
