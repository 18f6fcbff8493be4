"""The offline extractor on narration (no speaker): relation nouns, narration verb frames, couples, modality.

Written sentences, not lines of any book; each pattern has a case where nothing is stated.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from strata.ingest.extractors import SpacyExtractor
from strata.ingest.extractors.narration import couple_facts, surname_genders, titled_spouse
from strata.ingest.protocols import ExtractionContext
from strata.schema.models import Episode

REF = datetime(2024, 1, 1, tzinfo=UTC)


@pytest.fixture(scope="module")
def extractor() -> SpacyExtractor:
    return SpacyExtractor()


def facts(extractor: SpacyExtractor, text: str) -> set[tuple[str, str, str, bool]]:
    episode = Episode(uuid="ep", group_id="g", kind="text", content=text, reference_time=REF, content_hash="h")
    return {(f.subject, f.predicate, f.object, f.negated)
            for f in extractor.extract(episode, ExtractionContext()).facts}


def relations(extractor: SpacyExtractor, text: str) -> set[tuple[str, str, str, bool]]:
    from strata.resolve.ontology import load_ontology

    known = load_ontology().predicates
    return {f for f in facts(extractor, text) if f[1] in known}


# -- relation nouns ---------------------------------------------------------------------------------------------
def test_of_and_to_name_whose_relative(extractor: SpacyExtractor) -> None:
    got = relations(extractor, "Martha, the wife of Mr. Hale, was pleased. Mr. Thornton was nephew to Lady Ashby.")
    assert ("Martha", "spouse_of", "Mr. Hale", False) in got
    assert ("Mr. Thornton", "relative_of", "Lady Ashby", False) in got


def test_household_and_estate_nouns(extractor: SpacyExtractor) -> None:
    got = relations(extractor, "Mrs. Dale, the housekeeper of Thornfield, opened the door. "
                               "Mr. Rivers, the master of Marsh End, was away.")
    assert ("Mrs. Dale", "employed_by", "Thornfield", False) in got
    assert ("Mr. Rivers", "owns", "Marsh End", False) in got


def test_an_estate_noun_needs_a_place_owner(extractor: SpacyExtractor) -> None:
    got = relations(extractor, "Mr. Rivers, the master of Mr. Hale, was away.")
    assert not any(p == "owns" for _, p, _, _ in got)


def test_plural_relation_noun_with_names_after_a_comma(extractor: SpacyExtractor) -> None:
    got = relations(extractor, "Mr. Harcourt's sisters, Mrs. Fenwick and Miss Harcourt, came in.")
    assert {("Mrs. Fenwick", "sibling_of", "Mr. Harcourt", False),
            ("Miss Harcourt", "sibling_of", "Mr. Harcourt", False)} <= got


def test_a_singular_relation_noun_names_one_person(extractor: SpacyExtractor) -> None:
    got = relations(extractor, "Mr. Harcourt sat between his cousin Emily and Mrs. Fenwick.")
    assert ("Emily", "relative_of", "Mr. Harcourt", False) in got
    assert ("Mrs. Fenwick", "relative_of", "Mr. Harcourt", False) not in got


def test_a_dance_partner_is_not_a_partner(extractor: SpacyExtractor) -> None:
    got = relations(extractor, "Emily returned to her partner, Mr. Fenwick.")
    assert not any(p == "partner_of" for _, p, _, _ in got)


def test_a_future_wife_is_not_a_wife(extractor: SpacyExtractor) -> None:
    got = relations(extractor, "Emily will soon be the wife of Mr. Fenwick.")
    assert not any(p == "spouse_of" for _, p, _, _ in got)


# -- couples and spouses by title -------------------------------------------------------------------------------
def test_couples_named_together() -> None:
    assert [(f.subject, f.object) for f in couple_facts("Mr. and Mrs. Fenwick dined late.")] == [
        ("Mr. Fenwick", "Mrs. Fenwick")]
    assert [(f.subject, f.object) for f in couple_facts("Sir Hugh and Lady Ashby came.")] == [
        ("Sir Hugh Ashby", "Lady Ashby")]
    assert couple_facts("Mr. Fenwick and Mrs. Hale came.") == []  # two surnames: no couple stated


def test_her_husband_is_the_titled_husband_the_episode_names(extractor: SpacyExtractor) -> None:
    got = relations(extractor, "Mr. Fenwick was reading. Mrs. Fenwick looked up at her husband.")
    assert ("Mr. Fenwick", "spouse_of", "Mrs. Fenwick", False) in got
    assert titled_spouse("Mrs. Fenwick", "husband", lambda name: False) is None  # not named: nobody


def test_surname_gender_follows_its_title() -> None:
    genders = surname_genders(["Mr. Fenwick", "Fenwick", "Miss Ashby", "Ashby", "Hale"])
    assert genders == {"Fenwick": "m", "Ashby": "f"}


# -- verb frames ------------------------------------------------------------------------------------------------
def test_narration_frames(extractor: SpacyExtractor) -> None:
    got = relations(extractor, "Mr. Fenwick danced with Miss Ashby twice. Mrs. Hale dined with Mr. Fenwick. "
                               "Emily walked to Lambton. Sir Hugh introduced Mr. Fenwick to Emily. "
                               "Mr. Fenwick wrote to Mrs. Hale.")
    # the name's title is the mention code's to keep (the small model tags "Miss Ashby" as the ORG "Ashby")
    assert any(s == "Mr. Fenwick" and p == "danced_with" and o.endswith("Ashby") for s, p, o, _ in got)
    assert {("Mrs. Hale", "dined_with", "Mr. Fenwick", False),
            ("Emily", "visits", "Lambton", False), ("Mr. Fenwick", "knows", "Emily", False),
            ("Mr. Fenwick", "wrote_to", "Mrs. Hale", False)} <= got
    assert not any(s == "Sir Hugh" and p == "knows" for s, p, _, _ in got)  # the introducer is not introduced


def test_a_proposal_accepted_or_refused(extractor: SpacyExtractor) -> None:
    got = relations(extractor, "Mr. Fenwick proposed at last. Emily accepted Mr. Fenwick. Miss Ashby refused Mr. Hale.")
    assert ("Emily", "engaged_to", "Mr. Fenwick", False) in got
    assert ("Miss Ashby", "engaged_to", "Mr. Hale", True) in got


def test_narration_goes_to_places_not_to_rooms_or_people(extractor: SpacyExtractor) -> None:
    got = relations(extractor, "Emily went to the window. Emily went to her mother. Mr. Fenwick enjoyed the scene.")
    assert not any(p in ("visits", "likes") for _, p, _, _ in got)


def test_leaving_a_place_in_a_novel_is_not_quitting_a_job(extractor: SpacyExtractor) -> None:
    got = relations(extractor, "Mr. Fenwick left Lambton on Monday.")
    assert not any(p == "employed_by" for _, p, _, _ in got)


def test_a_bare_verb_with_a_frame_keeps_its_generic_reading(extractor: SpacyExtractor) -> None:
    got = facts(extractor, "Emily engaged Mr. Fenwick's attention. Emily called Mr. Fenwick.")
    assert not any(p == "engaged_to" for _, p, _, _ in got)
    assert ("Emily", "call", "Mr. Fenwick", False) in got


# -- modality ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "Mr. Fenwick wants to marry Emily.",
    "There is no danger of Mr. Fenwick's marrying Emily.",
    "If Mr. Fenwick married Emily, all would be well.",
    "Mr. Fenwick would marry Emily.",
    "Her mother made Emily marry Mr. Fenwick.",
])
def test_wished_supposed_or_caused_marriages_state_nothing(extractor: SpacyExtractor, text: str) -> None:
    assert not any(p == "spouse_of" for _, p, _, _ in relations(extractor, text))


def test_a_marriage_that_happened(extractor: SpacyExtractor) -> None:
    assert ("Mr. Fenwick", "spouse_of", "Emily Hale", False) in relations(
        extractor, "Mr. Fenwick married Emily Hale in the spring.")


# -- names and pronouns -----------------------------------------------------------------------------------------
def test_headings_are_never_arguments(extractor: SpacyExtractor) -> None:
    got = facts(extractor, "CHAPTER IV\n\nEmily watched her sister closely.")
    assert not any("CHAPTER" in s or "CHAPTER" in o for s, _, o, _ in got)


def test_a_subject_pronoun_keeps_the_last_subject(extractor: SpacyExtractor) -> None:
    got = relations(extractor, "Mr. Fenwick spoke with Mr. Hale for an hour. He then danced with Emily.")
    assert ("Mr. Fenwick", "danced_with", "Emily", False) in got
    assert ("Mr. Hale", "danced_with", "Emily", False) not in got


def test_an_untagged_place_name_takes_the_frames_kind(extractor: SpacyExtractor) -> None:
    # The small model tags neither "Bath" nor "Whitby" here; the frame says they are places, not people.
    got = relations(extractor, "Ann Archer lived in Bath with her aunt. Later Ann Archer moved to Whitby.")
    assert ("Ann Archer", "lives_in", "Bath", False) in got and ("Ann Archer", "lives_in", "Whitby", False) in got
    # a person stays a person: nobody "lives in" someone
    assert not any(f[2] == "Ann Archer" for f in relations(extractor, "Mr. Hale went to Ann Archer."))


@pytest.mark.parametrize(("text", "verb", "irrealis"), [
    ("Anna finally admitted that she married Tom.", "married", False),  # an admitted fact holds
    ("It took Anna years to admit that she married Tom.", "married", False),
    ("Anna loves living with Tom.", "living", False),  # liking a doing: she does it
    ("Anna would love to live with Tom.", "live", True),
    ("Anna thinks that Tom married Ruth.", "married", True),  # a supposition
    ("Anna wants to marry Tom.", "marry", True),
])
def test_what_a_clause_states_is_judged_by_its_own_head(text: str, verb: str, irrealis: bool) -> None:
    from strata.ingest.extractors.modality import is_irrealis
    from strata.ingest.extractors.spacy_extractor import load_nlp

    token = next(t for t in load_nlp()(text) if t.text == verb)
    assert is_irrealis(token) is irrealis
