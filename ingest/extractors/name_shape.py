"""Whether a surface string reads as a name: capitalized words with particles between them, no clause
punctuation, not a heading, not shouted capitals (used by the spaCy extractor's mentions, arguments and facts)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from strata.resolve.lexicon import HONORIFICS, SURNAME_PARTICLES

if TYPE_CHECKING:
    from spacy.tokens import Token

# Structural headings the small model tags as laws or works ("Chapter XVI", "BOOK ONE", "Part 2").
HEADING = re.compile(r"^(chapter|book|part|volume|section|act|scene|epilogue)\b[\s.:]*([ivxlcdm]+|\d+|[a-z]+)?\.?$",
                      re.IGNORECASE)
# Lowercase words a name may hold between capitalized ones ("Duchess of York", "Anne de Bourgh"); any other
# ("Longbourn if Lydia") means the name run swallowed the sentence around it.
NAME_PARTICLES = SURNAME_PARTICLES | {"of", "the", "and", "on", "y", "st.", "d'", "o'"}
MAX_NAME_TOKENS = 6
# Inside a name no clause punctuation or quote marks: an entity holding them is a fragment of dialogue.
_NOT_IN_NAMES = re.compile(r"[,;:!?\"“”()\[\]_*]|--|—")


def name_shaped(name: str) -> bool:
    """Capitalized words (with particles between them), no clause punctuation: not a fragment of dialogue."""
    words = name.split()
    if len(words) > MAX_NAME_TOKENS or _NOT_IN_NAMES.search(name):
        return False
    return all(w[:1].isupper() or not w[:1].isalpha() or w.lower() in NAME_PARTICLES for w in words)


def shouted(name: str) -> bool:
    """All capitals with a word of two letters or more ("CHORUS", "MR. DARCY"; not the initials "J. R.")."""
    letters = [c for c in name if c.isalpha()]
    return bool(letters) and all(c.isupper() for c in letters) and any(
        sum(c.isalpha() for c in w) >= 2 for w in name.split())


def acronym(name: str, label: str) -> bool:
    """"NATO", "IBM", "UN": one capitalized word of two to six letters the model tags an organization or place."""
    return label in ("ORG", "GPE") and " " not in name and 2 <= len(name) <= 6 and name.isalpha()


def argument_shaped(name: str) -> bool:
    """A fact argument that reads as a name: name-shaped, on one line, not a heading nor a title alone ("Mr." of
    "Mr. and Mrs. Gardiner")."""
    words = name.split()
    if not words or all(w.lower().rstrip(".") in HONORIFICS for w in words):
        return False
    return "\n" not in name and not HEADING.match(name) and name_shaped(name)


def is_honorific(t: Token) -> bool:
    return t.lower_.rstrip(".") in HONORIFICS and t.text[:1].isupper()
