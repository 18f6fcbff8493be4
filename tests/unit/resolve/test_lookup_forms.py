"""A name lookup that forgives form: passing modifiers and one-letter misspellings (strata.resolve.lookup)."""

from strata.resolve.lookup import looser_forms, looser_pick, one_letter_off, rank_by_name
from strata.resolve.types import CandidateEntity


def _c(uuid: str, name: str, *aliases: str) -> CandidateEntity:
    return CandidateEntity(uuid=uuid, name=name, type="Person", aliases=list(aliases))


def test_passing_modifiers_are_dropped_after_an_article() -> None:
    assert looser_forms("Little Mary Joe") == ["Mary Joe"]
    assert looser_forms("a Little Lucas") == ["Lucas"]
    assert looser_forms("Miss Barry") == []
    assert looser_forms("Little") == []  # a name of its own, nothing to drop


def test_generations_are_not_passing_modifiers() -> None:
    # "young Mr. X" beside the father who holds "Mr. X" is the son: the lookup does not drop the word
    assert looser_forms("Young Mr. Archer") == []
    assert looser_forms("Old Miss Barry") == []


def test_looser_form_must_be_held_exactly() -> None:
    cands = [_c("1", "Miss Barry"), _c("2", "Josephine Barry", "Miss Josephine Barry")]
    assert looser_pick("Miss Barry", cands, rank_by_name("Miss Barry", cands, [1.0, 0.5]))
    only_full = [_c("2", "Josephine Barry")]
    assert not looser_pick("Miss Barry", only_full, rank_by_name("Miss Barry", only_full, [0.5]))


def test_bare_looser_form_of_a_family_is_nobody_in_particular() -> None:
    # "young Lucas" is some Lucas: not the one a lookup of "Lucas" ranks first among the family
    family = [_c("1", "Lucas"), _c("2", "Sir William Lucas")]
    assert not looser_pick("Lucas", family, rank_by_name("Lucas", family, [1.0, 0.5]))
    alone = [_c("1", "Sally")]
    assert looser_pick("Sally", alone, rank_by_name("Sally", alone, [1.0]))


def test_one_letter_off_a_long_word_of_one_entity() -> None:
    cands = [_c("1", "Miss Lucilla Harris"), _c("2", "Mrs. Forster"), _c("3", "Mrs. Hill")]
    assert one_letter_off("Miss Lucillia Harris", cands) == 0
    assert one_letter_off("Mrs. Forester", cands) == 1
    assert one_letter_off("Mrs. Hall", cands) is None  # short words one letter apart are other names
    assert one_letter_off("Miss Lucilla Harris", cands) is None  # the same name is no misspelling


def test_one_letter_off_two_entities_is_no_answer() -> None:
    cands = [_c("1", "Mr. Forster"), _c("2", "Mr. Foster")]
    assert one_letter_off("Mr. Fooster", cands) is None  # one letter off both
    both = [_c("1", "Mrs. Forster"), _c("2", "Mrs. Forestor")]
    assert one_letter_off("Mrs. Forester", both) is None
