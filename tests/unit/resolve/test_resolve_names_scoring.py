"""Keys, name parsing, pairwise scoring and decisions."""

from __future__ import annotations

import pytest

from strata.resolve.decide import decide
from strata.resolve.names import compare_names, parse_name
from strata.resolve.normalize import entity_key, name_keys
from strata.resolve.ontology import load_ontology
from strata.resolve.scoring import MERGE_THRESHOLD, POSSIBLE_THRESHOLD, score_pair
from strata.resolve.types import CandidateEntity, MentionCandidate
from strata.schema.errors import InputError


def test_entity_key_rules():
    assert entity_key("Mr. Bennet", "Person") == entity_key("mr  bennet", "Character") == "person:mr bennet"
    assert entity_key("Mr. Bennet", "Person") != entity_key("Mrs. Bennet", "Person")
    assert entity_key("Mister Darcy", "Person") == entity_key("Mr Darcy", "Person")
    assert entity_key("Darcy's", "Person") == entity_key("DARCY", "Person")
    assert entity_key("Zoë", "Entity") == "zoe"
    assert entity_key("Paris", "Place") != entity_key("Paris", "Person")
    assert entity_key("Paris", "City") == entity_key("Paris", "Place")
    with pytest.raises(InputError):
        entity_key(" .,' ", "Person")


def test_name_keys_hold_the_key_of_every_type_a_name_can_be_stored_under():
    onto = load_ontology()
    types = [*onto.entity_types, *(s for t in onto.entity_types.values() for s in t.synonyms), "Entity", "Spaceship"]
    keys = set(name_keys("Kenji W. Gomez"))
    assert {entity_key("Kenji W. Gomez", t) for t in types} == keys
    assert "person:kenji w gomez" in keys and "kenji w gomez" in keys
    assert entity_key("the Stationmaster", "Person") in name_keys("The Station-Master")
    assert name_keys(" .,' ") == []


def test_parse_name_parts():
    p = parse_name("Lady Catherine de Bourgh")
    assert (p.honorifics, p.given, p.surname) == (("lady",), ("catherine",), "de bourgh")
    assert parse_name("My dearest Lizzy").bare == "lizzy"
    assert parse_name("The late Mr. Darcy").qualifiers == {"late"}
    assert parse_name("Mr. Collins' father").qualifiers == {"rel:father"}


def s(mention: str, candidate: str, mtype: str = "Person", ctype: str = "Person", **kw) -> float:
    return score_pair(MentionCandidate(name=mention, type=mtype),
                      CandidateEntity(uuid="c", name=candidate, type=ctype, **kw)).score


@pytest.mark.parametrize(("a", "b"), [("Darcy", "Mr. Darcy"), ("Darcy", "Fitzwilliam Darcy"),
                                      ("Bill Turner", "William Turner"), ("Mr Denny", "Mr. Denney")])
def test_compatible_names_score_at_merge_level(a, b):
    assert s(a, b) >= MERGE_THRESHOLD


def test_a_nickname_needs_a_scene():
    # the diminutive table alone makes "Lizzy" / "Elizabeth" possible; one episode writing both makes it a merge
    assert POSSIBLE_THRESHOLD <= s("Lizzy", "Elizabeth") < MERGE_THRESHOLD
    scene = score_pair(MentionCandidate(name="Lizzy", type="Person"),
                       CandidateEntity(uuid="c", name="Elizabeth", type="Person"), scene=True)
    assert scene.score >= MERGE_THRESHOLD


@pytest.mark.parametrize(
    ("a", "b", "conflict"),
    [("Mr. Bennet", "Mrs. Bennet", "honorific_gender"), ("Mrs. Bennet", "Miss Bennet", "honorific_marital"),
     ("Jane Bennet", "Elizabeth Bennet", "given_name"), ("Mr. Darcy", "The late Mr. Darcy", "qualifier"),
     ("Mr. Bennet", "Elizabeth Bennet", "honorific_gender")],
)
def test_conflicts_force_different(a, b, conflict):
    score = score_pair(MentionCandidate(name=a, type="Person"), CandidateEntity(uuid="c", name=b, type="Person"))
    assert (score.score, score.conflict) == (0.0, conflict)
    assert compare_names(parse_name(a), parse_name(b)).conflict == conflict or conflict == "honorific_gender"


def test_type_conflict_and_generic_type():
    assert score_pair(MentionCandidate(name="Paris", type="Person"),
                      CandidateEntity(uuid="c", name="Paris", type="Place")).conflict == "type"
    assert s("Paris", "Paris", mtype="Entity", ctype="Place") == 1.0


def test_alias_overlap_is_exact_and_entity_gender_conflict():
    assert s("Lizzy", "Elizabeth Bennet", aliases=["Lizzy"]) == 1.0
    # one alias "Mrs. Bennet" makes the whole candidate female
    assert s("Mr. Bennet", "Bennet", aliases=["Mrs. Bennet"]) == 0.0


def test_embedding_nudges_but_never_creates_a_match():
    near = [1.0, 0.0]
    m = MentionCandidate(name="Mr. Bennet", type="Person", embedding=near)
    c = CandidateEntity(uuid="c", name="Mrs. Bennet", type="Person", embedding=near)
    assert score_pair(m, c).score == 0.0
    unrelated = CandidateEntity(uuid="d", name="Lucas", type="Person", embedding=near)
    assert score_pair(m, unrelated).score == 0.0


def test_non_person_partial_needs_embedding_support():
    m = MentionCandidate(name="Netherfield", type="Place", embedding=[1.0, 0.0])
    c = CandidateEntity(uuid="c", name="Netherfield Park", type="Place", embedding=[0.99, 0.1])
    assert score_pair(m, c).score >= MERGE_THRESHOLD
    assert s("York", "New York", "Place", "Place") < MERGE_THRESHOLD


def test_decide_outcomes():
    cands = [CandidateEntity(uuid="1", name="Mr. Darcy", type="Person"),
             CandidateEntity(uuid="2", name="Miss Darcy", type="Person"),
             CandidateEntity(uuid="3", name="Charles Bingley", type="Person")]
    assert decide(MentionCandidate(name="Mister Darcy", type="Person"), cands).uuid == "1"
    assert decide(MentionCandidate(name="Darcy", type="Person"), cands).action == "ambiguous"
    assert decide(MentionCandidate(name="Charles", type="Person"), cands).uuid == "3"
    assert decide(MentionCandidate(name="Mr. Collins", type="Person"), cands).action == "create"
    possible = decide(MentionCandidate(name="Fitzwilliam Darcy", type="Person"), cands)
    assert possible.action == "ambiguous" and possible.candidates[0].candidate_uuid == "1"


def test_a_coordinated_phrase_names_a_group_that_matches_only_itself() -> None:
    from strata.resolve.names import NameRelation, compare_names, parse_name

    group = parse_name("Giles and Brittles")
    assert "group" in group.qualifiers and not group.surname and not group.given
    for other in ("Mr. Brittles", "Brittles", "Giles", "Mr. Giles Brittles"):
        assert compare_names(group, parse_name(other)).relation in (NameRelation.NONE, NameRelation.CONFLICT), other
    assert compare_names(group, parse_name("Giles and Brittles")).relation is NameRelation.SAME
