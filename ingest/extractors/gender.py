"""A person's likely grammatical gender from an honorific or a given name, for pronoun resolution only.

Given names come from the US census first-name frequency lists shipped in the ``names`` package (public
data). A name on both lists counts only when one list uses it far more often ("James" is male, "Jordan"
is neither). Never used to decide identity: a wrong guess costs one pronoun, not a merge.
"""

from __future__ import annotations

from strata.resolve.given_names import census_genders
from strata.resolve.lexicon import FEMALE_GIVEN_NAMES, HONORIFICS, MALE_GIVEN_NAMES, Gender


def given_name_gender(word: str) -> Gender | None:
    low = word.lower().strip(".")
    if low in FEMALE_GIVEN_NAMES:
        return "f"
    if low in MALE_GIVEN_NAMES:
        return "m"
    return census_genders().get(low)


def is_given_name(word: str) -> bool:
    """A word the census lists know as a first name (used to accept capitalized nouns as names)."""
    return word.lower() in census_genders() or word.lower() in FEMALE_GIVEN_NAMES or word.lower() in MALE_GIVEN_NAMES


def name_gender(name: str) -> Gender | None:
    """Gender a full name implies: its honorific first ("Mrs. Bennet"), else its first given name."""
    words = name.replace(".", ". ").split()
    if not words:
        return None
    title = HONORIFICS.get(words[0].lower().strip("."))
    if title is not None and title[0] is not None:
        return title[0]
    return given_name_gender(words[0])
