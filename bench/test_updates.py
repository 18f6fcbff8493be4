"""Knowledge-updates bench, pure parts: the changes read from the table, what holds when, the chat, the questions,
name-based scoring and the BM25 readers. No services."""

from __future__ import annotations

import random
import re
from datetime import UTC, date, datetime
from pathlib import Path
from types import SimpleNamespace

from bench import updates_phrasings as words
from bench.updates_score import (
    BM25,
    block_body,
    bm25_first,
    bm25_latest,
    first_named,
    hit_text,
    named,
    summarize,
    table,
)
from bench.updates_world import (
    Change,
    Slot,
    build_world,
    cast_changes,
    chat_sessions,
    half_of,
    holders_on,
    leader_changes,
    phrase,
    question_years,
    questions_for,
    render,
)

CSV = """Country,Role,Name,Start,End
Finland,Prime minister,Ann Aho,2000-01-01,2003-01-01
Finland,Prime Minister,Bo Berg,2003-01-01,2006-01-01
Finland,Prime Minister,Cai Carlsson,2007-01-01,2010-01-01
Finland,Prime Minister,Cai Carlsson,2010-01-01,2012-06-30
Netherlands,monarch,Dirk de Vries,1990-05-01,
"""


def test_table_rows_become_starts_and_ends_only_where_nobody_follows_at_once(tmp_path: Path):
    path = tmp_path / "leaders.csv"
    path.write_text(CSV, encoding="utf-8")
    changes = leader_changes(path)
    pm = Slot("office", "Finland", "Prime Minister")  # "Prime minister" and "Prime Minister": one office
    told = [(c.day.isoformat(), c.value, c.end, c.previous) for c in changes if c.slot == pm]
    assert told == [("2000-01-01", "Ann Aho", False, None),
                    ("2003-01-01", "Bo Berg", False, "Ann Aho"),  # ends the day Bo starts: no end told
                    ("2006-01-01", "Bo Berg", True, None),  # a gap before Cai: the end is told
                    ("2007-01-01", "Cai Carlsson", False, None),
                    ("2010-01-01", "Cai Carlsson", False, None),  # a new term: nobody to succeed
                    ("2012-06-30", "Cai Carlsson", True, None)]  # nobody follows
    assert holders_on([c for c in changes if c.slot == pm], date(2006, 7, 1)) == frozenset()
    assert holders_on([c for c in changes if c.slot == pm], date(2004, 7, 1)) == {"Bo Berg"}
    crown = [c for c in changes if c.slot.role == "Monarch"]
    assert [(c.value, c.end) for c in crown] == [("Dirk de Vries", False)]


def test_two_starts_on_one_day_are_two_holders_and_an_end_closes_only_its_holder():
    slot = Slot("office", "Poland", "President")
    changes = [Change(slot, date(2005, 1, 1), "A"), Change(slot, date(2010, 7, 8), "B"),
               Change(slot, date(2010, 7, 8), "C"), Change(slot, date(2011, 1, 1), "D"),
               Change(slot, date(2012, 1, 1), "C", end=True)]
    assert holders_on(changes, date(2010, 7, 8)) == {"B", "C"}
    assert holders_on(changes, date(2012, 6, 1)) == {"D"}


def test_question_years_have_one_holder_on_1_july_and_spread_over_the_holders():
    slot = Slot("residence", "Maya Lindqvist")
    changes = [Change(slot, date(2000, 3, 1), "Lisbon"), Change(slot, date(2004, 8, 1), "Porto"),
               Change(slot, date(2006, 1, 1), "Porto", end=True), Change(slot, date(2008, 1, 1), "Berlin"),
               Change(slot, date(2012, 1, 1), "Oslo"), Change(slot, date(2016, 1, 1), "Riga")]
    years = question_years(changes, date(2020, 12, 31), cap=4)
    # runs: Lisbon 2000-04, Porto 2005, (none 2006-07), Berlin 2008-11, Oslo 2012-15, Riga 2016-20: 5 runs -> 4
    assert years == [2002, 2005, 2014, 2018]
    assert all(len(holders_on(changes, date(y, 7, 1))) == 1 for y in years)
    qs = questions_for(slot, changes, date(2020, 12, 31))
    assert [q.qtype for q in qs] == ["now"] * 3 + ["year", "as_of"] * 4
    assert {q.gold for q in qs if q.qtype == "now"} == {"Riga"}
    as_of = [q for q in qs if q.qtype == "as_of"]
    assert as_of[0].as_of == datetime(2002, 7, 1, tzinfo=UTC) and as_of[0].gold == "Lisbon"
    assert "in 2005" in qs[5].text and qs[5].gold == "Porto" and qs[5].asked == datetime(2005, 7, 1, tzinfo=UTC)
    assert set(qs[0].values) == {"Lisbon", "Porto", "Berlin", "Oslo", "Riga"}


def test_phrasings_are_data_with_two_disjoint_halves_of_at_least_eight_each():
    for kind in words.KINDS:
        halves = words.PHRASINGS[kind]
        tune = {t for part in halves["tune"].values() for t, _ in part}
        check = {t for part in halves["check"].values() for t, _ in part}
        assert not tune & check
        assert len(tune) + len(check) >= 16 and min(len(tune), len(check)) >= 8
        assert all(halves[h]["end"] for h in words.HALVES)
        allowed = {"x", "y", "z", "role", "Role", "role_short"} if kind == "office" else {"p", "v", "z"}
        for t in tune | check:
            assert set(re.findall(r"\{(\w+)\}", t)) <= allowed, t


def test_a_change_is_told_in_its_slots_half_and_previous_only_when_there_is_one():
    rng = random.Random(1)
    for country in ("Finland", "Chile", "Kenya", "Peru", "Japan", "Ghana"):
        slot = Slot("office", country, "Prime Minister")
        pool = {t for t, _ in words.PHRASINGS["office"][slot.half]["start"]}
        for _ in range(20):
            use: dict[str, int] = {}
            text = phrase(Change(slot, date(2000, 1, 1), "Ann Aho"), rng, use)
            (template,) = use
            assert template in pool and "{z}" not in template and "Ann Aho" in text
    crown = Slot("office", "Sweden", "King")
    for _ in range(20):
        use = {}
        phrase(Change(crown, date(2000, 1, 1), "Carl Gustaf", previous="Gustaf Adolf"), rng, use)
        (template,) = use
        assert dict(words.PHRASINGS["office"][crown.half]["start"])[template] in ("any", "crown")


def test_rendering_possessives_articles_and_sentence_case():
    assert render("{y}'s new {role} is {x}.", {"y": "the Netherlands", "role": "monarch", "x": "Dirk de Vries"}) \
        == "The Netherlands' new monarch is Dirk de Vries."
    assert render("Big news: {y} named {x}.", {"y": "the United Kingdom", "x": "Ann Aho"}) \
        == "Big news: The United Kingdom named Ann Aho."


def test_the_chat_one_session_per_date_reporter_alternates_listener_states_nothing():
    slot = Slot("residence", "Maya Lindqvist")
    changes = [Change(slot, date(2001, 1, 1), "Lisbon"), Change(Slot("team", "Jonas Voss"), date(2001, 1, 1), "X FC"),
               Change(slot, date(2003, 5, 2), "Porto", previous="Lisbon")]
    sessions, _ = chat_sessions(changes)
    assert [s["date"] for s in sessions] == ["2001-01-01", "2003-05-02"]
    speakers = [m["speaker"] for s in sessions for m in s["messages"]]
    assert speakers == ["Ana", "Ben", "Ben", "Ana", "Ana", "Ben"]
    assert sessions[1]["messages"][0]["timestamp"] == "2003-05-02T09:00:00+00:00"
    templates = {t for kind in words.PHRASINGS.values() for half in kind.values() for part in half.values()
                 for t, _ in part}
    reactions = [t for group in words.REACTIONS.values() for t in group]
    shapes = [re.compile(re.sub(r"\\\{\w+\\\}", ".+", re.escape(t)) + "$") for t in reactions]
    replies = [m["text"] for s in sessions for m in s["messages"][1::2]]
    assert all(any(shape.match(r) for shape in shapes) for r in replies)
    assert not set(reactions) & templates


def test_the_cast_is_seeded_and_values_do_not_repeat_within_a_slot():
    a, b = cast_changes(12, seed=3), cast_changes(12, seed=3)
    assert a == b and a != cast_changes(12, seed=4)
    by_slot: dict[Slot, list[str]] = {}
    for c in a:
        if not c.end:
            by_slot.setdefault(c.slot, []).append(c.value)
    assert all(len(v) == len(set(v)) for v in by_slot.values())
    assert {s.kind for s in by_slot} == {"residence", "team", "employment", "relationship"}
    assert half_of("office:Finland|Prime Minister") == half_of("office:Finland|Prime Minister")


def test_names_are_found_whole_case_and_diacritics_aside_longest_first():
    values = ["Recep Tayyip Erdoğan", "Abdullah Gül", "Lee", "Lee Hsien Loong"]
    assert named("recep tayyip erdogan replaced ABDULLAH GÜL", values) == ["Recep Tayyip Erdoğan", "Abdullah Gül"]
    assert named("Lee Hsien Loong took over", values) == ["Lee Hsien Loong"]  # not also "Lee"
    assert named("Leeds is a city", values) == []
    assert named("Binali Yildirim", ["Binali Yıldırım"]) == ["Binali Yıldırım"]
    assert named("Massimo D’Alema", ["Massimo D'Alema"]) == ["Massimo D'Alema"]
    assert first_named(["Wow, really?", None, "Z stepped down and X replaced Z"], ["X", "Z"]) == "Z"


def test_hits_entities_skipped_facts_by_names_and_sentence_passages_by_text():
    fact = SimpleNamespace(kind="fact", entity=None, episode=None,
                           fact=SimpleNamespace(subject_name="Finland", object_name="Ann Aho", fact=None))
    entity = SimpleNamespace(kind="entity", fact=None, episode=None, entity=SimpleNamespace(name="Bo Berg"))
    passage = SimpleNamespace(kind="episode", fact=None, entity=None, episode=SimpleNamespace(text="Ana: Bo Berg!"))
    values = ["Ann Aho", "Bo Berg"]
    assert first_named((hit_text(h) for h in (entity, passage, fact)), values) == "Bo Berg"
    assert first_named((hit_text(h) for h in (entity, fact, passage)), values) == "Ann Aho"
    assert block_body('Memory for "Who is Bo Berg?":\nFacts:\n- Ann Aho') == "Facts:\n- Ann Aho"


def test_bm25_readers_first_named_and_latest_said_by_then():
    texts = ["Ann Aho is the new prime minister of Finland.", "Wow, really?",
             "Bo Berg took over as prime minister of Finland.", "Wasn't Ann Aho in charge before?",
             "Maya moved to Porto."]
    stamps = [datetime(2000, 1, 1, 9, tzinfo=UTC), datetime(2000, 1, 1, 9, 1, tzinfo=UTC),
              datetime(2004, 1, 1, 9, tzinfo=UTC), datetime(2004, 1, 1, 9, 1, tzinfo=UTC),
              datetime(2005, 1, 1, tzinfo=UTC)]
    ranked = BM25(texts).rank("Who is the prime minister of Finland?")
    assert set(ranked) == {0, 2} and 4 not in ranked
    values = ["Ann Aho", "Bo Berg"]
    assert bm25_first(ranked, texts, values) in values
    assert bm25_latest(ranked, texts, stamps, values, None) == "Bo Berg"
    assert bm25_latest(ranked, texts, stamps, values, datetime(2002, 7, 1, tzinfo=UTC)) == "Ann Aho"
    # the listener's question that names the old holder is the latest message: the reader takes it
    ranked = BM25(texts).rank("Ann Aho Bo Berg")
    assert bm25_latest(ranked, texts, stamps, values, None) == "Ann Aho"


def test_summary_and_table_by_kind_half_and_question_type():
    rows = [{"kind": "office", "half": "check", "qtype": "now", "search": True, "context": False,
             "bm25_first": False, "bm25_latest": True},
            {"kind": "office", "half": "check", "qtype": "now", "search": False, "context": False,
             "bm25_first": True, "bm25_latest": True},
            {"kind": "team", "half": "tune", "qtype": "year", "search": True, "context": True,
             "bm25_first": True, "bm25_latest": False}]
    s = summarize(rows)
    assert s["office"]["check"]["now"] == {"n": 2, "search": 0.5, "context": 0.0, "bm25_first": 0.5,
                                           "bm25_latest": 1.0}
    assert s["all"]["tune"]["year"]["n"] == 1
    assert "| office | check | search | 0.500 (2) | - | - |" in table(s)


def test_the_world_from_the_shared_table_when_it_is_there():
    from bench.updates_world import LEADERS

    if not LEADERS.exists():
        import pytest

        pytest.skip(f"needs {LEADERS}")
    world = build_world(limit_offices=6, people=4)
    offices = {c.slot for c in world.changes if c.slot.kind == "office"}
    assert len(offices) == 6 and {s.half for s in offices} == {"tune", "check"}
    assert all(q.gold in q.values for q in world.questions)
    assert len({s["date"] for s in world.sessions}) == len(world.sessions)
