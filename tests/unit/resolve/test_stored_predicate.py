"""A predicate a client names maps to the stored name the write path gives it (issue 14)."""

from __future__ import annotations

import pytest

from strata.resolve.ontology import load_ontology
from strata.resolve.planner import _predicate
from strata.resolve.predicates import stored_predicate
from strata.schema.errors import InputError
from strata.schema.models import ExtractedFact
from strata.schema.plan import Predicate


@pytest.mark.parametrize("written", ["plays_for", "play_for", "plays for", "Plays_For", "PLAYS FOR", "played for",
                                     "is playing for"])
def test_spellings_of_one_relation_read_as_stored(written):
    assert stored_predicate(written, []) == "plays_for"  # the ontology's team relation
    assert stored_predicate(written, ["play_for", "member_of"]) == "play_for"  # a group's registered name stays


@pytest.mark.parametrize(("written", "stored"), [
    ("works_at", "employed_by"), ("Works at", "employed_by"), ("work_for", "employed_by"),
    ("employee_of", "employed_by"), ("married_to", "spouse_of"), ("lives_in", "lives_in"), ("live_in", "lives_in"),
    ("resides in", "lives_in"), ("holds_office", "holds_office"), ("friends_with", "friend_of"),
])
def test_ontology_synonyms_read_as_the_canonical_predicate(written, stored):
    assert stored_predicate(written, []) == stored


def test_the_groups_registry_decides_as_on_write():
    # A name registered before the ontology knew it stays what facts were written under (exact wins), and a
    # near spelling folds onto a registered name as the planner's fuzzy step does.
    assert stored_predicate("works at", ["work_at"]) == "work_at"
    assert stored_predicate("play for", ["plays_for"]) == "plays_for"
    assert stored_predicate("teaches", ["reach"]) == "teach"  # below the fuzzy threshold
    assert stored_predicate("does not play for", ["play_for"]) == "play_for"  # a filter names the relation


@pytest.mark.parametrize("written", ["plays_for", "Plays For", "works_at", "married to", "lived in", "founded",
                                     "is the CEO of", "live_at", "coaches", "belongs_to"])
@pytest.mark.parametrize("registry", [[], ["play_for", "found", "lives_in"], ["plays_for", "work_at", "coach"]])
def test_same_name_as_the_planner_gives_a_written_statement(written, registry):
    fact = ExtractedFact(subject="A", predicate=written, object="B")
    infos = [Predicate(name=n) for n in registry]
    assert stored_predicate(written, registry) == _predicate(fact, infos, load_ontology())[0]


def test_a_predicate_with_no_words_is_an_input_error():
    with pytest.raises(InputError):
        stored_predicate("  !!! ", [])


def test_every_ontology_name_and_synonym_is_stored_as_its_predicate():
    # Folding alone broke some ("sibling_of" -> "sible_of", "has_pet" -> "pet", "studies" -> "study").
    onto = load_ontology()
    wrong = {form: stored_predicate(form, [])
             for name, p in onto.predicates.items() for form in (name, *p.synonyms)
             if stored_predicate(form, []) != name}
    assert wrong == {}
    assert stored_predicate("is sibling of", []) == "sibling_of"
    assert stored_predicate("has a pet", []) == "has_pet"


def _toy_embed(texts: list[str]) -> list[list[float]]:
    # "settle down in" lands beside "lives in"; everything else points elsewhere, each its own way.
    near = {"settle down in": [1.0, 0.05, 0.0], "lives in": [1.0, 0.0, 0.0]}
    return [near.get(t, [0.0, 1.0, float(len(t))]) for t in texts]


def test_the_vector_step_reads_as_it_writes():
    registry = ["lives_in", "play_for"]
    assert stored_predicate("settle down in", registry, embed=_toy_embed) == "lives_in"
    assert stored_predicate("settle down in", registry) == "settle_down_in"  # no embedder, no vector step
    fact = ExtractedFact(subject="A", predicate="settle down in", object="B")
    infos = [Predicate(name=n) for n in registry]
    assert _predicate(fact, infos, load_ontology(), _toy_embed)[0] == "lives_in"
