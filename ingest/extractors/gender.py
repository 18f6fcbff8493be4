"""A person's likely grammatical gender from an honorific or a given name, for pronoun resolution only.

Given names come from the US census first-name frequency lists shipped in the ``names`` package (public
data). A name on both lists counts only when one list uses it far more often ("James" is male, "Jordan"
is neither). Never used to decide identity: a wrong guess costs one pronoun, not a merge.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

from strata.resolve.lexicon import FEMALE_GIVEN_NAMES, HONORIFICS, MALE_GIVEN_NAMES, Gender

# How many times more often one census list must use a name than the other for it to count as that gender.
DOMINANCE = 8.0


@lru_cache(maxsize=1)
def _census() -> dict[str, Gender]:
    freq: dict[Gender, dict[str, float]] = {"f": {}, "m": {}}
    lists: tuple[tuple[Gender, str], ...] = (("f", "dist.female.first"), ("m", "dist.male.first"))
    for gender, filename in lists:
        try:
            text = resources.files("names").joinpath(filename).read_text(encoding="ascii")
        except (ModuleNotFoundError, FileNotFoundError):
            continue  # without the lists only honorifics and the built-in lexicon decide
        for line in text.splitlines():
            parts = line.split()
            if len(parts) >= 2:
                freq[gender][parts[0].lower()] = float(parts[1]) or 0.0005
    out: dict[str, Gender] = {}
    rivals: tuple[tuple[Gender, Gender], ...] = (("f", "m"), ("m", "f"))
    for gender, other in rivals:
        for name, share in freq[gender].items():
            rival = freq[other].get(name, 0.0)
            if share >= DOMINANCE * rival:
                out[name] = gender
    return out


def given_name_gender(word: str) -> Gender | None:
    low = word.lower().strip(".")
    if low in FEMALE_GIVEN_NAMES:
        return "f"
    if low in MALE_GIVEN_NAMES:
        return "m"
    return _census().get(low)


def is_given_name(word: str) -> bool:
    """A word the census lists know as a first name (used to accept capitalized nouns as names)."""
    return word.lower() in _census() or word.lower() in FEMALE_GIVEN_NAMES or word.lower() in MALE_GIVEN_NAMES


def name_gender(name: str) -> Gender | None:
    """Gender a full name implies: its honorific first ("Mrs. Bennet"), else its first given name."""
    words = name.replace(".", ". ").split()
    if not words:
        return None
    title = HONORIFICS.get(words[0].lower().strip("."))
    if title is not None and title[0] is not None:
        return title[0]
    return given_name_gender(words[0])
