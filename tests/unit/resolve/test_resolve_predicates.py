"""Predicate normalization, folding and the ontology."""

from __future__ import annotations

import pytest

from strata.resolve.ontology import load_ontology
from strata.resolve.predicates import fold_predicate, normalize_predicate, parse_predicate
from strata.schema.errors import InputError
from strata.schema.plan import Predicate


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("married", "marry"), ("is married to", "married_to"), ("Lives in", "live_in"), ("lived in", "live_in"),
     ("is living in", "live_in"), ("works for", "work_for"), ("has visited", "visit"), ("is the CEO of", "ceo_of"),
     ("was born in", "born_in"), ("liked", "like"), ("admired", "admire"), ("planned", "plan"),
     ("travelled to", "travel_to"), ("agreed with", "agree_with"), ("studied", "study"), ("goes to", "go_to"),
     ("Holds-Office!", "hold_office"), ("quarrelled with", "quarrel_with")],
)
def test_normalize_predicate(raw, expected):
    assert normalize_predicate(raw) == expected


def test_negation_is_reported():
    assert parse_predicate("no longer likes") == ("like", True)
    assert parse_predicate("doesn't like") == ("like", True)


@pytest.mark.parametrize("raw", ["", "  !!! ", "123", "is " + "very " * 10 + "long"])
def test_garbage_is_rejected(raw):
    with pytest.raises(InputError):
        normalize_predicate(raw)


def test_fold_predicate():
    existing = [Predicate(name="lives_in"), Predicate(name="father_of"), Predicate(name="admires")]
    assert fold_predicate("married_to", existing) == "spouse_of"  # ontology synonym
    assert fold_predicate("live_at", existing) == "lives_in"
    assert fold_predicate("admire", existing) == "likes"  # synonym wins over fuzzy
    assert fold_predicate("mother_ofs", [Predicate(name="mother_of")]) == "mother_of"
    assert fold_predicate("teach", existing) == "teach"
    emb = {"guardian_of": [1.0, 0.0], "custodian_of": [0.98, 0.05], "distrust": [0.99, 0.01], "trust": [1.0, 0.0]}
    assert fold_predicate("guardian_of", [Predicate(name="custodian_of")], emb) == "custodian_of"
    assert fold_predicate("distrust", [Predicate(name="trust")], emb) == "distrust"  # opposite prefix


def test_ontology_functionality_and_types():
    onto = load_ontology()
    assert onto.functional("spouse_of") == "symmetric"
    assert onto.functional("live_in") == "subject"
    assert onto.functional("holds_office") == "object"
    assert onto.functional("employed_by") == "subject"  # the current employer: a new one ends the previous
    assert onto.functional("member_of") is None
    assert onto.functional("unknown_predicate") is None
    assert onto.type_class("Character") == "person" and onto.type_class("Entity") is None
    assert set(onto.entity_types) >= {"Person", "Organization", "Place", "Event", "Object", "Concept", "Work"}
