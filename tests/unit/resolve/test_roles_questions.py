"""Offices as (organization, role) slots and the questions that ask for them: pure logic."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from strata.resolve.questions import state_question
from strata.resolve.roles import qualify_roles, roles
from strata.resolve.temporal import compute_slot_timeline
from strata.schema.models import ExtractedEntity, ExtractedFact, Extraction, ExtractorInfo
from strata.schema.plan import TemporalFact


@pytest.mark.parametrize(("office", "expected"), [
    ("CEO of Walmart", ("ceo", "Walmart")), ("Walmart CEO", ("ceo", "Walmart")),
    ("the Prime Minister of Italy", ("prime_minister", "Italy")),
    ("Secretary-General of the United Nations", ("secretary_general", "United Nations")),
    ("Acme Corp chief executive", ("ceo", "Acme Corp")), ("Queen of Denmark", ("monarch", "Denmark")),
    ("head coach of Ajax", ("head_coach", "Ajax")),
    ("the White Rabbit", None), ("Bank of England", None), ("walmart ceo", None),
])
def test_an_office_written_as_a_name_splits_into_role_and_organization(office, expected):
    assert roles().split_office(office) == expected


@pytest.mark.parametrize(("predicate", "role"), [("ceo_of", "ceo"), ("chairman_of", "chair"), ("head_of", "leader"),
                                                 ("be_president_of", "president"), ("live_in", None)])
def test_role_predicates_name_their_role(predicate, role):
    assert roles().of_predicate(predicate) == role


def test_statements_of_one_office_fold_onto_one_slot():
    facts = [ExtractedFact(subject="Lee Scott", predicate="ceo_of", object="Walmart"),
             ExtractedFact(subject="Mike Duke", predicate="holds_office", object="CEO of Walmart"),
             ExtractedFact(subject="Doug McMillon", predicate="holds_office", object="Walmart", role="Chief Executive"),
             ExtractedFact(subject="Ann", predicate="lives_in", object="Berlin")]
    extraction = Extraction(episode_uuid="e", extractor=ExtractorInfo(name="t"), facts=facts,
                            entities=[ExtractedEntity(name="CEO of Walmart", type="Office")])
    out = qualify_roles(extraction)
    assert [(f.predicate, f.object, f.role) for f in out.facts] == [
        ("holds_office", "Walmart", "ceo")] * 3 + [("lives_in", "Berlin", None)]
    assert [(e.name, e.type) for e in out.entities] == [("Walmart", "Organization")]  # the office gave way
    assert qualify_roles(out) == out  # idempotent


def _term(uuid: str, holder: str, org: str, role: str | None, year: int, negated: bool = False) -> TemporalFact:
    return TemporalFact(uuid=uuid, subject_uuid=holder, predicate="holds_office", object_uuid=org, role=role,
                        valid_at=datetime(year, 1, 1, tzinfo=UTC), negated=negated)


def test_a_role_is_its_own_slot_and_concurrent_roles_never_close_each_other():
    now = datetime(2025, 1, 1, tzinfo=UTC)
    facts = [_term("a", "lee", "walmart", "ceo", 2000), _term("b", "mike", "walmart", "ceo", 2009),
             _term("c", "rob", "walmart", "chair", 2005),  # another role of the same organization
             _term("d", "x", "walmart", "board_member", 2001), _term("e", "y", "walmart", "board_member", 2003),
             _term("f", "rob", "walmart", "chair", 2015, negated=True)]  # "stepped down as chairman"
    ends = {u.fact_uuid: (u.invalid_at, u.invalidated_by) for u in compute_slot_timeline(facts, "object", now)}
    assert ends["a"] == (datetime(2009, 1, 1, tzinfo=UTC), "b")
    assert ends["b"] == (None, None)
    assert ends["c"] == (datetime(2015, 1, 1, tzinfo=UTC), "f")
    assert ends["d"] == ends["e"] == (None, None)


@pytest.mark.parametrize(("question", "kind", "slot"), [
    ("Who is the current Prime Minister of Finland?", "office", ("prime_minister", "Finland")),
    ("Which individual is serving as the Prime Minister of Finland at present?", "office",
     ("prime_minister", "Finland")),
    ("Can you identify the person holding the position of Prime Minister in Finland right now?", "office",
     ("prime_minister", "Finland")),
    ("Who was the CEO of Walmart in 2010?", "office", ("ceo", "Walmart")),
    ("Who is Walmart's chief executive?", "office", ("ceo", "Walmart")),
    ("Who was Austria's president in 1999?", "office", ("president", "Austria")),
    ("Who was the president in Austria in 1999?", "office", ("president", "Austria")),
    ("who was king of spain in 2010", "office", ("monarch", "spain")),
    ("Who is the current head of state of Germany?", "office", ("head_of_state", "Germany")),
    ("Where does Maya live?", "subject", ("lives_in", "Maya")),
    ("Where did Maya Lopez live in 2015?", "subject", ("lives_in", "Maya Lopez")),
    ("Which city is Bruno Ferreira living in these days?", "subject", ("lives_in", "Bruno Ferreira")),
    ("Which company employs Bruno Ferreira at the moment?", "subject", ("employed_by", "Bruno Ferreira")),
    ("What team is Zoe Almeida on now?", "subject", ("plays_for", "Zoe Almeida")),
    ("Which team does Leo Park play for now?", "subject", ("plays_for", "Leo Park")),
    ("Who is Ann married to?", "subject", ("spouse_of", "Ann")),
    # the period of an initial or an abbreviation is part of the name; a sentence's period ends it
    ("where does Kenji W. Gomez work", "subject", ("employed_by", "Kenji W. Gomez")),
    ("Where did Dr. Priya N. Rao live before 2019?", "subject", ("lives_in", "Dr. Priya N. Rao")),
    ("Who is the mayor of St. Louis right now?", "office", ("mayor", "St. Louis")),
    ("Who runs J.P. Morgan as chief executive? Just curious.", "office", ("ceo", "J.P. Morgan")),
    ("who is the CEO of Acme. Tell me now", "office", ("ceo", "Acme")),
    ("Who was the chief executive of Acme Corp. back in 2004?", "office", ("ceo", "Acme Corp")),
    ("Who is the CEO of Halden Ltd. today", "office", ("ceo", "Halden Ltd")),
    ("where does dr. okafor live these days", "subject", ("lives_in", "dr. okafor")),
    ("Where was Gen. Tilney living in 1800?", "subject", ("lives_in", "Gen. Tilney")),
    ("Where's Ines Duarte living now?", "subject", ("lives_in", "Ines Duarte")),
    ("Where is Tomas Berg employed?", "subject", ("employed_by", "Tomas Berg")),
    ("Where's Tomas Berg working at the moment?", "subject", ("employed_by", "Tomas Berg")),
])
def test_questions_name_their_slot(question, kind, slot):
    ask = state_question(question, roles())
    assert ask is not None and ask.kind == kind
    assert ((ask.role, ask.org) if kind == "office" else (ask.predicate, ask.subject)) == slot


@pytest.mark.parametrize("question", ["What did Maya eat yesterday?", "Where do you live?",
                                      "Where does Andrew want to live to give their dog space?",
                                      "Who went to the CEO's party?", "Tell me about Walmart.",
                                      "Where is Tomas working on his thesis?"])
def test_other_questions_name_no_slot(question):
    assert state_question(question, roles()) is None
