"""Family, employment and residence told in narration (issue 30 item 5): each shape with a case that states nothing.

Written sentences, not lines of any book (bench/bench_narration_relations.py measures the novels).
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from strata.ingest.extractors import SpacyExtractor
from strata.ingest.protocols import ExtractionContext
from strata.resolve.ontology import load_ontology
from strata.schema.models import Episode

REF = datetime(2024, 1, 1, tzinfo=UTC)
Fact = tuple[str, str, str, bool]


@pytest.fixture(scope="module")
def extractor() -> SpacyExtractor:
    return SpacyExtractor()


def relations(extractor: SpacyExtractor, text: str, speaker: str | None = None) -> set[Fact]:
    episode = Episode(uuid="ep", group_id="g", kind="text", content=text, reference_time=REF, content_hash="h",
                      speakers=[speaker] if speaker else [])
    known = load_ontology().predicates
    return {(f.subject, f.predicate, f.object, f.negated) for f in extractor.extract(episode, ExtractionContext()).facts
            if f.predicate in known and f.predicate != "described_as"}


# -- employment --------------------------------------------------------------------------------------------------
def test_a_job_noun_beside_a_name_says_the_job(extractor: SpacyExtractor) -> None:
    got = relations(extractor, "Mr. Hale's housekeeper, Mrs. Dobbs, opened the door. Mr. Lamb, the beadle, came.")
    assert ("Mrs. Dobbs", "employed_by", "Mr. Hale", False) in got
    assert ("Mrs. Dobbs", "works_as", "housekeeper", False) in got
    assert ("Mr. Lamb", "works_as", "beadle", False) in got


def test_a_job_with_no_name_or_denied_says_nothing(extractor: SpacyExtractor) -> None:
    got = relations(extractor, "Mr. Hale's housekeeper was ill. Mr. Rook was not a clerk. She looked like a maid.")
    assert not any(p in ("works_as", "employed_by") for _, p, _, _ in got)


def test_in_the_service_of(extractor: SpacyExtractor) -> None:
    got = relations(extractor, "Mr. Giles had been in the service of Mrs. Maylie for years.")
    assert ("Mr. Giles", "employed_by", "Mrs. Maylie", False) in got


def test_a_service_wished_or_refused_is_no_service(extractor: SpacyExtractor) -> None:
    got = relations(extractor, "Mr. Giles would never be in the service of Mrs. Maylie. "
                               "Tom wished to be in the service of Lord Brent.")
    assert not any(p == "employed_by" for _, p, _, _ in got)


def test_a_person_may_employ_in_narration(extractor: SpacyExtractor) -> None:
    got = relations(extractor, "Mrs. Dobbs was employed by Mr. Hale.")
    assert ("Mrs. Dobbs", "employed_by", "Mr. Hale", False) in got


def test_a_relative_clause_states_the_job_of_its_antecedent(extractor: SpacyExtractor) -> None:
    got = relations(extractor, "There was a lady, a Mrs. Pike, who was once governess to Miss Lane, and left.")
    assert ("Mrs. Pike", "employed_by", "Miss Lane", False) in got
    assert ("Mrs. Pike", "works_as", "governess", False) in got


def test_your_servant_greets_the_person_named(extractor: SpacyExtractor) -> None:
    got = relations(extractor, '"Your servant, Miss Lane," he said. "Your father, Miss Lane, was a brave man."')
    assert not any(s == "Miss Lane" for s, _, _, _ in got)


def test_my_servant_with_a_name_is_a_servant(extractor: SpacyExtractor) -> None:
    got = relations(extractor, "My servant, Ram Lal, came in.")
    assert ("Ram Lal", "works_as", "servant", False) in got


def test_employed_in_doing_is_no_employment(extractor: SpacyExtractor) -> None:
    got = relations(extractor, "Mr. Rook was employed in agreeing to everything Lady Brent said.")
    assert not any(p == "employed_by" for _, p, _, _ in got)


# -- residence ---------------------------------------------------------------------------------------------------
def test_who_lived_at(extractor: SpacyExtractor) -> None:
    got = relations(extractor, "Mrs. Pell, who lived at Hartfield, came in.")
    assert ("Mrs. Pell", "lives_in", "Hartfield", False) in got


def test_a_house_stands_for_its_place(extractor: SpacyExtractor) -> None:
    got = relations(extractor, "Mrs. Spence lived in a big yellow house at White Sands Cove.")
    assert ("Mrs. Spence", "lives_in", "White Sands Cove", False) in got


def test_a_hoped_for_home_is_none(extractor: SpacyExtractor) -> None:
    got = relations(extractor, "Mr. Rook, who would have lived at Bath if he could, stayed. "
                               "Ann hoped to see her daughter settled at Netherby.")
    assert not any(p == "lives_in" for _, p, _, _ in got)


def test_a_couple_moves_together(extractor: SpacyExtractor) -> None:
    got = relations(extractor, "Mr. and Mrs. Pell moved to Bath.")
    assert {("Mr. Pell", "lives_in", "Bath", False), ("Mrs. Pell", "lives_in", "Bath", False)} <= got


def test_a_wife_named_again_alone_moves_alone(extractor: SpacyExtractor) -> None:
    got = relations(extractor, "Mr. and Mrs. Pell came in, and Mrs. Pell moved to Bath.")
    assert ("Mrs. Pell", "lives_in", "Bath", False) in got
    assert ("Mr. Pell", "lives_in", "Bath", False) not in got


# -- family ------------------------------------------------------------------------------------------------------
def test_a_kin_noun_joined_to_the_name(extractor: SpacyExtractor) -> None:
    got = relations(extractor, "Emma never thought of any injury to her nephew Henry.")
    assert ("Henry", "relative_of", "Emma", False) in got


def test_a_capitalized_kin_title_with_a_possessor_is_kin(extractor: SpacyExtractor) -> None:
    got = relations(extractor, "Diana wrote her Aunt Josephine about the club.")
    assert any(s.endswith("Josephine") and p == "relative_of" and o == "Diana" for s, p, o, _ in got)


def test_a_kin_title_without_a_possessor_stays_a_title(extractor: SpacyExtractor) -> None:
    got = relations(extractor, "Then Master Bates and Uncle Pumble came in.")
    assert not any(p in ("relative_of", "child_of", "parent_of") for _, p, _, _ in got)


def test_a_list_is_no_apposition(extractor: SpacyExtractor) -> None:
    got = relations(extractor, "Mr. Weston, his son, Emma, and Harriet, only remained.")
    assert not any(p == "child_of" for _, p, _, _ in got)


def test_a_singular_noun_in_apposition_names_one(extractor: SpacyExtractor) -> None:
    got = relations(extractor, "Miss Darcy, the daughter of Mr. Darcy, of Pemberley, and Lady Anne, came.")
    assert ("Miss Darcy", "child_of", "Mr. Darcy", False) in got
    assert ("Lady Anne", "child_of", "Mr. Darcy", False) not in got


# -- marriage: measured here, shapes left to the married-name work ------------------------------------------------
def test_engaged_out_is_busy_not_betrothed(extractor: SpacyExtractor) -> None:
    assert not relations(extractor, "Tom and Ann were engaged out that evening.")
    assert ("Tom", "engaged_to", "Ann", False) in relations(extractor, "Tom and Ann were engaged.")
