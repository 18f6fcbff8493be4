"""Names and descriptors (issue 30): the parse, the clustering rules it drives, and a lookup that forgives form."""

from __future__ import annotations

import pytest

from strata.resolve.clusters import collapse_mentions
from strata.resolve.decide import decide
from strata.resolve.lookup import rank_by_name
from strata.resolve.names import NameRelation, compare_names, parse_name
from strata.resolve.normalize import entity_key, match_form
from strata.resolve.scoring import MERGE_THRESHOLD, POSSIBLE_THRESHOLD, score_pair
from strata.resolve.types import CandidateEntity, MentionCandidate
from strata.schema.models import ExtractedEntity


def person(uuid: str, name: str, *aliases: str, mentions: int = 0) -> CandidateEntity:
    return CandidateEntity(uuid=uuid, name=name, type="Person", aliases=list(aliases), mentions=mentions)


def relation(a: str, b: str) -> NameRelation:
    return compare_names(parse_name(a), parse_name(b)).relation


# --- the parse -----------------------------------------------------------------------------------------------

def test_descriptor_head_and_modifier():
    p = parse_name("the White Rabbit")
    assert (p.given, p.surname) == (("white",), "rabbit")
    p = parse_name("the Fish-Footman")
    assert (p.given, p.surname) == (("fish",), "footman")
    assert parse_name("The Rabbit").name_tokens == ("rabbit",)


def test_title_and_surname():
    p = parse_name("Mrs. Hurst")
    assert (p.honorifics, p.given, p.surname) == (("mrs",), (), "hurst")


@pytest.mark.parametrize("name", ["The King Of Hearts", "the king of hearts", "King of Hearts"])
def test_role_title_with_designation(name):
    p = parse_name(name)
    assert (p.role, p.designation, p.name_tokens) == ("king", "hearts", ())


def test_role_title_alone_and_address_title():
    assert parse_name("the Duchess").role == "duchess"
    assert parse_name("The Doctor").role == "dr"
    assert parse_name("Sir").role is None  # said to many people: not a role
    assert parse_name("Madam").role is None


def test_possessive_phrases_are_relational():
    assert "of:her" in parse_name("her sister").qualifiers
    assert "rel:jailer" in parse_name("Fagin's Jailer").qualifiers
    assert parse_name("Fagin's Jailer").name_tokens == ("fagin",)
    # a possessive inside a complement is part of the designation, not a relation
    assert parse_name("The Clerk At Oliver's Trial").qualifiers == frozenset()


def test_epithet():
    p = parse_name("William the Conqueror")
    assert p.name_tokens == ("william",)
    assert "epithet:conqueror" in p.qualifiers


# --- pairwise relations --------------------------------------------------------------------------------------

@pytest.mark.parametrize(("a", "b", "expected"), [
    ("the White Rabbit", "the Rabbit", NameRelation.PARTIAL),
    ("the Cheshire Cat", "the Cat", NameRelation.PARTIAL),
    ("the Queen of Hearts", "the Queen", NameRelation.PARTIAL),
    ("The Knave Of Hearts", "the Knave", NameRelation.PARTIAL),
    ("The King Of Hearts", "the King", NameRelation.PARTIAL),
    ("King of Hearts", "the king of hearts", NameRelation.SAME),
    ("the Fish-Footman", "the Frog-Footman", NameRelation.CONFLICT),
    ("the Queen of Hearts", "the Queen of Spades", NameRelation.CONFLICT),
    ("the Second Housemaid", "the Housemaid", NameRelation.CONFLICT),
    ("The Station-Master", "Stationmaster", NameRelation.SAME),
    ("A Man", "The Invisible Man", NameRelation.NONE),
    ("Small", "A Small, Dark, Brisk Man", NameRelation.NONE),
    ("Bill", "William the Conqueror", NameRelation.CONFLICT),
    ("Fagin", "Fagin's Jailer", NameRelation.CONFLICT),
    ("The Doctor", "Dr. Kemp", NameRelation.ROLE),
    ("Sir", "Sir William Lucas", NameRelation.NONE),
])
def test_relations(a, b, expected):
    assert relation(a, b) is expected
    assert relation(b, a) is expected


def test_role_against_titled_person_is_only_possible():
    score = score_pair(MentionCandidate(name="the Doctor", type="Person"), person("k", "Dr. Kemp"))
    assert POSSIBLE_THRESHOLD <= score.score < MERGE_THRESHOLD


# --- clustering rules ----------------------------------------------------------------------------------------

def test_bare_descriptor_joins_the_only_fuller_name_with_its_head():
    decision = decide(MentionCandidate(name="the Rabbit", type="Person"),
                      [person("w", "White Rabbit"), person("a", "Alice")])
    assert (decision.action, decision.uuid) == ("merge", "w")


def test_bare_descriptor_between_two_fuller_names_stays_apart():
    decision = decide(MentionCandidate(name="the Footman", type="Person"),
                      [person("fish", "Fish-Footman"), person("frog", "Frog-Footman")])
    assert decision.action == "ambiguous"


def test_same_head_different_modifiers_never_merge():
    decision = decide(MentionCandidate(name="the Frog-Footman", type="Person"), [person("fish", "Fish-Footman")])
    assert decision.action == "create"
    groups = collapse_mentions([ExtractedEntity(name="Fish-Footman", type="Person"),
                                ExtractedEntity(name="Frog-Footman", type="Person"),
                                ExtractedEntity(name="Footman", type="Person")])
    assert len(groups) == 3


def test_queen_joins_queen_of_hearts_when_she_is_the_only_queen():
    decision = decide(MentionCandidate(name="the Queen", type="Person"), [person("q", "Queen of Hearts")])
    assert (decision.action, decision.uuid) == ("merge", "q")


def test_nickname_alone_is_no_evidence_across_episodes():
    # "Bill" the lizard is not William the Conqueror, nor any William the text never calls Bill
    conqueror = decide(MentionCandidate(name="Bill", type="Person"), [person("w", "William the Conqueror")])
    assert conqueror.action == "create"
    other = decide(MentionCandidate(name="Bill", type="Person"), [person("w", "William Smith")])
    assert other.action != "merge"


def test_nickname_in_one_scene_joins():
    # both written in one episode: co-reference in a scene is the evidence
    groups = collapse_mentions([ExtractedEntity(name="Lizzy", type="Person"),
                                ExtractedEntity(name="Elizabeth Bennet", type="Person")])
    assert len(groups) == 1


def test_nickname_already_an_alias_still_merges():
    decision = decide(MentionCandidate(name="Lizzy", type="Person"), [person("e", "Elizabeth Bennet", "Lizzy")])
    assert (decision.action, decision.uuid) == ("merge", "e")


# --- lookup forgives form --------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["The King Of Hearts", "the king of hearts", "King of Hearts", "the King"])
def test_lookup_forgives_case_articles(name):
    candidates = [person("king", "King", "King of Hearts"), person("queen", "Queen of Hearts"), person("a", "Alice")]
    ranked = rank_by_name(name, candidates, [0.5] * len(candidates))
    assert ranked and candidates[ranked[0][0]].uuid == "king"


def test_lookup_finds_the_only_king_for_a_fuller_name():
    candidates = [person("king", "the King", mentions=9), person("a", "Alice")]
    ranked = rank_by_name("The King Of Hearts", candidates, [0.5, 0.5])
    assert [candidates[i].uuid for i, _ in ranked] == ["king"]


@pytest.mark.parametrize("name", ["Mister Darcy", "Mr Darcy", "mr. darcy", "Mr. Darcy's", "the Mr. Darcy"])
def test_lookup_forgives_honorific_spelling_and_possessive(name):
    candidates = [person("d", "Mr. Darcy"), person("m", "Miss Darcy")]
    ranked = rank_by_name(name, candidates, [0.5, 0.5])
    assert candidates[ranked[0][0]].uuid == "d" and ranked[0][1] == 1.0


def test_relational_phrase_finds_no_unrelated_entity():
    # "her sister" is no one the words name: a pronoun entity the channels found close must not be returned
    candidates = [person("she", "She")]
    assert rank_by_name("her sister", candidates, [0.95]) == []


def test_match_form_is_not_the_key():
    assert match_form("The King Of Hearts") == match_form("king of hearts") == "king of hearts"
    assert match_form("The Doctor") == "dr"
    # keys of stored names stay as they were
    assert entity_key("The King Of Hearts", "Person") == "person:the king of hearts"
    assert entity_key("Mr. Darcy", "Person") == "person:mr darcy"


# --- initials, inverted names, a full name against a family's bare surname ----------------------------------

def test_a_lone_initial_joins_no_name():
    # "Mr. B" must not gather every B-name of the book
    for name in ("Bates", "Mr. Brownlow", "Bolter"):
        assert relation("Mr. B", name) is NameRelation.NONE
    assert relation("E. Bennet", "Elizabeth Bennet") is NameRelation.DIMINUTIVE  # beside a surname it may


def test_a_name_written_surname_first_is_the_same_name():
    assert relation("Wilcox Charles", "Charles Wilcox") is NameRelation.SAME


def test_a_full_name_does_not_join_a_family_surname_entity_by_the_surname():
    father = person("mr", "Mr. Wilcox", "Wilcox", mentions=70)
    evie = person("evie", "Evie", mentions=25)
    ranked = rank_by_name("Evie Wilcox", [father, evie], [0.8, 0.8])
    assert [[father, evie][i].uuid for i, _ in ranked][0] == "evie"
    assert decide(MentionCandidate(name="Evie Wilcox", type="Person"), [father]).action != "merge"
    # the other way round a bare surname still joins the one full name bearing it
    assert decide(MentionCandidate(name="Wilcox", type="Person"), [person("c", "Charles Wilcox")]).action == "merge"
    # and within one scene the two join as before
    assert len(collapse_mentions([ExtractedEntity(name="Bingley", type="Person"),
                                  ExtractedEntity(name="Charles Bingley", type="Person")])) == 1


def test_lookup_gives_no_answer_from_the_diminutive_table_alone():
    william = person("w", "William Smith", mentions=40)
    assert rank_by_name("Bill", [william], [0.5]) == []
    # once the text has called him so, the alias answers exactly
    called = person("w", "William Smith", "Bill", mentions=40)
    assert rank_by_name("Bill", [called], [0.5])[0][1] == 1.0


def test_lookup_leaves_out_a_relative_by_title_and_surname():
    # "Mr. Gillis" is not Ruby Gillis; "Mr. Bingley" may be the one Charles Bingley
    assert rank_by_name("Mr. Gillis", [person("r", "Ruby Gillis")], [0.8]) == []
    assert [i for i, _ in rank_by_name("Mr. Bingley", [person("c", "Charles Bingley")], [0.8])] == [0]


def test_the_same_title_on_a_shorter_name_is_a_part_of_the_longer():
    assert relation("Mrs. Lynde", "Mrs. Rachel Lynde") is NameRelation.PARTIAL
    # a title against an untitled full name stays only possible: she may be a daughter
    assert relation("Mrs. Bennet", "Jane Bennet") is NameRelation.SURNAME_ONLY
    decision = decide(MentionCandidate(name="Mrs. Lynde", type="Person"), [person("r", "Mrs. Rachel Lynde")])
    assert (decision.action, decision.uuid) == ("merge", "r")
    # a rank before a given name is a courtesy title of its own
    assert relation("Lady Darcy", "Lady Anne Darcy") is NameRelation.SURNAME_ONLY


def test_a_generic_head_is_told_by_its_complement():
    # "the Man" is anyone; "the Man at the Gate" is one man: neither is part of the other
    assert relation("the Man", "the Man at the Gate") is NameRelation.NONE
    assert relation("the Porter", "the Porter at the Gate") is NameRelation.PARTIAL  # a role is not generic


def test_a_first_one_says_there_are_others():
    assert compare_names(parse_name("the First Sentry"), parse_name("the Sentry")).conflict == "other_one"


def test_a_description_finds_only_what_the_name_rules_relate():
    cands = [person("g", "the Porter", mentions=9), person("w", "the Second Woman", mentions=4),
             person("h", "the Grey Heron", mentions=2)]
    found = lambda name: [cands[i].uuid for i, _ in rank_by_name(name, cands, [0.95] * len(cands))]  # noqa: E731
    assert found("the porter") == ["g"] and found("The Heron") == ["h"]  # a part of a fuller description
    assert found("The Night Porter") == []  # says more than "the Porter": another porter, maybe
    assert found("The Porter At The Gate") == []
    assert found("The Second Waiter") == []  # no rule relates it to "the Second Woman", however near its channel
