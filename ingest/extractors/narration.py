"""What a narrator states by convention rather than by a verb: couples named together, and the gender a bare
surname carries in a text that also titles it.

- "Mr. and Mrs. Gardiner", "Dr. and Mrs. Hale", "Sir Thomas and Lady Bertram": a married couple;
- "Darcy" in a text that says "Mr. Darcy": a man, whatever a census of first names says of "Darcy" (bare
  surnames name the titled man; women keep their title or go by their given name).
Pure functions over text and names; the extractor wires them in.
"""

from __future__ import annotations

import re
from collections import defaultdict

from strata.ingest.extractors.frames import FrameFact
from strata.resolve.lexicon import HONORIFICS, Gender

# "Mr. and Mrs. X" / "Sir G and Lady X": two titles joined by "and" before one surname.
_COUPLE = re.compile(
    r"\b(?P<his>Mr|Dr|Doctor|Colonel|Captain|Major|General|Admiral|Professor|Sir (?P<given>[A-Z][a-z]+))\.?"
    r"\s+and\s+(?P<her>Mrs|Lady)\.?\s+(?P<surname>[A-Z][a-z]+(?:[-'][A-Z]?[a-z]+)?)\b")
_TITLE_DOT = {"Mr": "Mr.", "Dr": "Dr.", "Mrs": "Mrs."}


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
