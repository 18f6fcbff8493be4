"""What a narrator states by convention rather than by a verb: couples named together, and the gender a bare
surname carries in a text that also titles it.

- "Mr. and Mrs. Gardiner", "Dr. and Mrs. Hale", "Sir Thomas and Lady Bertram": a married couple;
- "her husband" of "Mrs. Gardiner": "Mr. Gardiner", when the episode names him;
- "Darcy" in a text that says "Mr. Darcy": a man, whatever a census of first names says of "Darcy" (bare
  surnames name the titled man; women keep their title or go by their given name).
Pure functions over text and names; the extractor wires them in.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable

from strata.ingest.extractors.frames import FrameFact
from strata.resolve.lexicon import HONORIFICS, Gender

# "Mr. and Mrs. X" / "Sir G and Lady X": two titles joined by "and" before one surname.
_COUPLE = re.compile(
    r"\b(?P<his>Mr|Dr|Doctor|Colonel|Captain|Major|General|Admiral|Professor|Sir (?P<given>[A-Z][a-z]+))\.?"
    r"\s+and\s+(?P<her>Mrs|Lady)\.?\s+(?P<surname>[A-Z][a-z]+(?:[-'][A-Z]?[a-z]+)?)\b")
_TITLE_DOT = {"Mr": "Mr.", "Dr": "Dr.", "Mrs": "Mrs."}
_HUSBAND_TITLES = ("Mr.", "Mr", "Dr.", "Dr")


def couple_facts(sentence: str) -> list[FrameFact]:
    """spouse_of between the two people a "Mr. and Mrs. X" names, in the text's own spelling of each."""
    out = []
    for m in _COUPLE.finditer(sentence):
        surname = m.group("surname")
        if m.group("given"):
            husband = f"Sir {m.group('given')} {surname}"
        else:
            husband = f"{_TITLE_DOT.get(m.group('his'), m.group('his'))} {surname}"
        wife = f"{_TITLE_DOT.get(m.group('her'), m.group('her'))} {surname}"
        out.append(FrameFact(husband, "Person", "spouse_of", wife, "Person", False, m.group(0)))
    return out


def titled_spouse(owner: str, noun: str, known: Callable[[str], bool]) -> str | None:
    """"Her husband" of "Mrs. Gardiner" is "Mr. Gardiner", "his wife" of "Mr. Gardiner" is "Mrs. Gardiner",
    when the episode names that person: a married couple shares the husband's surname under these titles."""
    words = owner.split()
    if len(words) != 2:
        return None
    title, surname = words
    if noun == "husband" and title in ("Mrs.", "Mrs"):
        candidates = [f"{t} {surname}" for t in _HUSBAND_TITLES]
    elif noun == "wife" and title in _HUSBAND_TITLES:
        candidates = [f"Mrs. {surname}", f"Mrs {surname}"]
    else:
        return None
    return next((c for c in candidates if known(c.lower())), None)


def surname_genders(names: list[str]) -> dict[str, Gender]:
    """Bare surnames -> the gender their titled form gives: "Darcy" is male where "Mr. Darcy" appears; where
    only "Miss/Mrs. X" appear, a bare "X" is female. Only for names in ``names`` that are one bare word."""
    titled: dict[str, set[Gender]] = defaultdict(set)
    for name in names:
        words = name.split()
        title = HONORIFICS.get(words[0].lower().rstrip(".")) if len(words) > 1 else None
        if title is not None and title[0] is not None:
            titled[words[-1]].add(title[0])
    out: dict[str, Gender] = {}
    for name in names:
        seen = titled.get(name) if " " not in name else None
        if seen:
            out[name] = "m" if "m" in seen else next(iter(seen))
    return out
