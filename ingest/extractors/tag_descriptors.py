"""The "the X" subject of a speech tag: someone already named, or a character named by role or description.

"said the lady" or "cried his wife" points back at a person the narration named (narration_people.resolve).
"said the barman", "said the stranger", "said the man with the black beard", "said the Voice" name their speaker
by what he is: many novels never give such a character another name, so the description is the speaker's name
("the Barman"), the same form the extractor gives characters named by role, for entity resolution to map. A
role that a recent name carries as its title ("said the colonel" after "Colonel Ford") is that person. Which
nouns point back and which name is data (``ingest/assets/speaker_nouns.json``).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Literal

from strata.resolve.lexicon import Gender

LEXICON = Path(__file__).resolve().parent.parent / "assets" / "speaker_nouns.json"
MAX_WORDS = 3  # determiner-less words of a description before its head ("the big red-faced navvy")
MAX_PHRASE = 4  # words of a describing phrase after the head ("with the black beard")
# Words that end the noun phrase: what follows the subject of a tag is not part of its name.
_STOP = frozenset({"and", "as", "who", "which", "that", "to", "while", "when", "but", "for", "then", "again",
                   "now", "at", "so", "still", "too", "very", "quite", "not", "had", "was", "is", "be", "been",
                   "were", "did", "does", "do", "would", "could", "should", "will", "shall", "might", "may", "in",
                   "on", "with", "from", "of", "by", "after", "before", "without", "into", "over", "under", "upon"})
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")

Reading = Literal["refers", "names"]


@dataclass(frozen=True)
class Lexicon:
    refers: frozenset[str]
    not_person: frozenset[str]
    gender: dict[str, Gender | None]
    endings: dict[str, Gender]
    prepositions: frozenset[str]
    ordinals: frozenset[str]
    roles: frozenset[str]
    person_endings: tuple[str, ...]
    not_person_endings: tuple[str, ...]


@lru_cache(maxsize=1)
def lexicon() -> Lexicon:
    data = json.loads(LEXICON.read_text(encoding="utf-8"))
    return Lexicon(refers=frozenset(data["refers"]), not_person=frozenset(data["not_person"]),
                   gender=dict(data["gender"]), endings=dict(data["gender_endings"]),
                   prepositions=frozenset(data["prepositions"]), ordinals=frozenset(data["ordinals"]),
                   roles=frozenset(data["roles"]), person_endings=tuple(data["person_endings"]),
                   not_person_endings=tuple(data["not_person_endings"]))


def is_person_noun(noun: str) -> bool:
    """A noun that names a person: listed as a role, or an agent's ending ("barman", "mariner")."""
    lex = lexicon()
    if noun in lex.roles or noun in lex.refers:
        return True
    return noun not in lex.not_person and noun.endswith(lex.person_endings) and not noun.endswith(
        lex.not_person_endings)


@dataclass(frozen=True)
class Description:
    """A tag subject "the ...": how it is read and the words it is written with."""

    reading: Reading
    name: str  # "the Barman", "the Man with the Black Beard"; for "refers", the phrase to resolve ("the lady")
    head: str  # the head noun, lower case


def read(text: str, start: int) -> Description | None:
    """The description starting at ``start`` ("the"/"The" ...) in narration, or None when it names nobody."""
    words = [(m.group(), m.start()) for m in _WORD.finditer(text, start)]
    if not words or words[0][0].lower() != "the":
        return None
    lex = lexicon()
    phrase: list[str] = []
    end = words[0][1] + 3
    for word, pos in words[1:MAX_WORDS + 2]:
        if re.search(r"[,;:.!?\"“”—–_()]", text[end:pos]) or word.lower() in _STOP or (
                word.endswith("ly") and word[:1].islower()):
            break
        phrase.append(word)
        end = pos + len(word)
    if not phrase:
        return None
    capital = phrase[0][:1].isupper()
    if capital:  # "the Voice", "the Invisible Man": the text writes it as a name
        phrase = [w for w in phrase if w[:1].isupper()] or phrase[:1]
        return Description("names", "the " + " ".join(phrase), phrase[-1].lower())
    head = phrase[-1].lower()
    if not is_person_noun(head):
        return None
    if head in lex.refers:
        described = _describing_phrase(text, end, words)
        if described and head not in ("former", "latter"):  # "the man with the black beard"
            return Description("names", "the " + _title(phrase + described), head)
        return Description("refers", "the " + " ".join(phrase), head)
    kept = [w for w in phrase[:-1] if w.lower() in lex.ordinals] + [phrase[-1]]  # "the angry beadle": a beadle
    return Description("names", "the " + _title(kept), head)


def _describing_phrase(text: str, end: int, words: list[tuple[str, int]]) -> list[str]:
    """"with the black beard" right after a generic head (no punctuation between), else []."""
    after = [(w, p) for w, p in words if p >= end]
    if not after or after[0][0].lower() not in lexicon().prepositions or text[end:after[0][1]].strip():
        return []
    out: list[str] = []
    last = end
    for word, pos in after[:MAX_PHRASE + 1]:
        if text[last:pos].strip() or (out and word.lower() in _STOP):
            break
        out.append(word)
        last = pos + len(word)
    # a preposition, "the", a noun at least: "with the black beard" says who; "in a hoarse voice" says how
    return out if len(out) >= 3 and out[1].lower() == "the" else []


def _title(words: list[str]) -> str:
    small = lexicon().prepositions | {"the", "a", "an", "his", "her"}
    return " ".join(w if w.lower() in small else w[:1].upper() + w[1:] for w in words)


def gender(head: str) -> Gender | None:
    lex = lexicon()
    if head in lex.gender:
        return lex.gender[head]
    return next((g for end, g in sorted(lex.endings.items(), key=lambda e: -len(e[0])) if head.endswith(end)),
                None)


def head_of(name: str) -> str:
    """The head noun of a description's name ("the Man with the Black Beard" -> "man")."""
    words = name.split()[1:]
    cut = next((k for k, w in enumerate(words) if w in lexicon().prepositions), len(words))
    return words[max(cut - 1, 0)].lower()


def tagged_descriptions(text: str, verb: str) -> frozenset[str]:
    """The naming descriptions a window's speech tags use ("said the mariner", "the barman cried"): the only
    ones its narration is read for, so that "The mariner stared" is a mention and "the door opened" is not.
    ``verb``: a regular expression for any speech-verb form."""
    found: set[str] = set()
    for m in re.finditer(rf"{verb}\s+(?=[Tt]he\s)", text):
        described = read(text, m.end())
        if described is not None and described.reading == "names":
            found.add(described.name)
    for m in re.finditer(rf"\b[Tt]he(?:\s+[A-Za-z][\w'’-]*){{1,3}}?\s+(?={verb})", text):
        described = read(text[:m.end()], m.start())
        if described is not None and described.reading == "names":
            found.add(described.name)
    return frozenset(found)


def narration_description(text: str, pos: int, known: frozenset[str]) -> Description | None:
    """The description at ``pos`` (a "the") when the window's tags name a speaker by it ("The mariner stared"
    after "said the mariner"), or that the text capitalizes as a name ("The Invisible Man swore"); any other
    "the ..." is no one's name here. A description no tag of the window uses is a person by a listed role
    (‹the stranger›), or capitalized in the text with a person noun; a noun that only ends like an agent
    (‹The floor was covered›) or a capitalized place (‹the Thames›) names no one."""
    described = read(text, pos)
    if described is None or described.reading != "names":
        return None
    lex = lexicon()
    if described.name in known or described.head in lex.roles or described.head in lex.refers:
        return described
    word = _WORD.search(text, pos + 3)
    capital = word is not None and word.group()[:1].isupper()
    return described if capital and is_person_noun(described.head) else None
