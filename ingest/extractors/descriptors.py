"""Characters named by a role or a description: "the beadle said", "the old woman came in".

A novel names many of its people only by what they are (the beadle, the matron, the stationmaster, the second
housemaid) or by how they look (the old woman, the stout man). spaCy's named entities never find them, so they
were never entities and could not be found, merged or quoted. Here a definite noun phrase whose head is a
person or animal noun of the lexicon (``ingest/assets/person_roles.json``: data, not rules) becomes a mention
when the text uses it as a character in the window: the subject of a speech verb once, or the subject of a real
(not modal, not hypothetical) verb and written at least twice. "A doctor would say" (indefinite, modal) and
"the doctor's bill" alone are no character.

The name keeps what tells two such people apart and drops what does not: a role noun keeps its compound nouns
and an ordinal ("the Mail Guard", "the Second Housemaid") and drops passing adjectives ("the angry beadle" is
"the Beadle"); a generic noun (man, woman, lady) names someone only with its description ("the Old Woman"; "the
woman" alone is nobody in particular). resolve/names.py then parses them as head + modifiers, so "the Rabbit"
joins the one "White Rabbit" and "the Fish-Footman" / "the Frog-Footman" stay two.
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from collections.abc import Container, Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from strata.ingest.extractors.modality import is_irrealis

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

LEXICON = Path(__file__).resolve().parent.parent / "assets" / "person_roles.json"
# A description is a character when the window makes it speak once, or act and name it again.
MIN_SPEECH_SUBJECT = 1
MIN_ACTION_SUBJECT = 1
MIN_OCCURRENCES_WITH_ACTION = 2
MAX_MODIFIERS = 3
# Ordinals and "other" say which one of several: they stay in a role's name.
ORDINALS = frozenset({"first", "second", "third", "fourth", "fifth", "sixth", "other", "last", "elder", "younger",
                      "head", "chief", "under"})
_SUBJECT_DEPS = ("nsubj", "nsubjpass")
_HYPHEN = frozenset({"-", "\u2010", "\u2011"})
_NOUNS = ("NOUN", "PROPN")
# the small model tags a noun after a speech verb a verb now and then ("cried the second housemaid"); its "the"
# still makes it a noun phrase
_HEAD_POS = ("NOUN", "PROPN", "VERB")
_WORD = re.compile(r"[^\W\d_]+")

Kind = Literal["role", "generic", "animal"]


@dataclass(frozen=True)
class Descriptor:
    """One character named by description: its name ("the Mail Guard"), entity type, and character offsets."""

    name: str
    type: str
    spans: tuple[tuple[int, int], ...]


@lru_cache(maxsize=1)
def lexicon() -> dict[str, Kind]:
    data = json.loads(LEXICON.read_text(encoding="utf-8"))
    out: dict[str, Kind] = {}
    for kind in ("role", "generic", "animal"):
        for word in data[kind]:
            out[word.lower()] = kind
    return out


def head_word(t: Token, words: dict[str, Kind]) -> str | None:
    for form in (t.lower_, t.lemma_.lower()):
        if form in words:
            return form
    return None


def kept_modifiers(doc: Doc, det: int, head: int, kind: Kind) -> list[Token] | None:
    """The words between "the" and the head that stay in the name, or None when the phrase is not one."""
    between = [doc[i] for i in range(det + 1, head)]
    if any(t.pos_ not in ("ADJ", "NOUN", "PROPN", "VERB", "ADV", "NUM", "PUNCT") for t in between):
        return None
    if any(t.pos_ == "PUNCT" and t.text not in _HYPHEN for t in between):
        return None  # "the, uh, man", "the old, tired man": not one plain description
    if kind == "generic":
        kept = between
    else:  # a role keeps its ordinal and the nouns joined to it; passing adjectives go
        kept = []
        for t in reversed(between):
            joins_nouns = t.text in _HYPHEN and t.i > det + 1 and doc[t.i - 1].pos_ in _NOUNS
            if t.pos_ in _NOUNS or joins_nouns:
                kept.append(t)
            else:
                break
        kept.reverse()
        if between and between[0].lower_ in ORDINALS and between[0] not in kept:
            kept.insert(0, between[0])
    if sum(1 for t in kept if t.text not in _HYPHEN) > MAX_MODIFIERS:
        return None
    if kind == "generic" and not any(t.text not in _HYPHEN for t in kept):
        return None
    return kept


def description_name(kept: list[Token], head: Token) -> str:
    """"the" and the kept words, each capitalised, spaced as written ("the Station-Master")."""
    out = "the"
    prev: Token | None = None
    for t in [*kept, head]:
        sep = " " if prev is None or t.i != prev.i + 1 else prev.whitespace_
        out += sep + _WORD.sub(lambda m: m.group(0)[0].upper() + m.group(0)[1:].lower(), t.text)
        prev = t
    return out


@dataclass(frozen=True)
class Definite:
    """A definite person or animal description as written: its head noun, its "the", the head's kind in the
    lexicon and the name it gets ("the Mail Guard")."""

    head: Token
    det: Token
    kind: Kind
    name: str


def definite_descriptions(doc: Doc, taken: Container[int], heads: tuple[str, ...] = _HEAD_POS) -> Iterator[Definite]:
    """Every "the" + lexicon noun phrase of the doc outside ``taken`` (tokens inside names), in text order."""
    words = lexicon()
    for t in doc:
        if t.i in taken or t.pos_ not in heads or t.tag_ in ("NNS", "NNPS"):
            continue
        word = head_word(t, words)
        if word is None:
            continue
        det = next((c for c in t.lefts if c.dep_ == "det"), None)
        if det is None or det.lower_ != "the" or any(i in taken for i in range(det.i, t.i)):
            continue
        kept = kept_modifiers(doc, det.i, t.i, words[word])
        if kept is not None:
            yield Definite(t, det, words[word], description_name(kept, t))


def _after_speech_verb(t: Token, speech_verbs: frozenset[str]) -> bool:
    """"said the beadle", which the small model may parse as an object: the phrase right after a speech verb
    that closes a quotation is its speaker."""
    verb = t.head
    return (verb.lemma_.lower() in speech_verbs and verb.i < t.i and t.dep_ in ("dobj", "attr", "nsubj")
            and all(w.dep_ in ("det", "amod", "compound", "punct", "nummod") or w.i == verb.i
                    for w in t.doc[verb.i:t.i]) and any(w.is_quote for w in t.doc[max(0, verb.i - 3):verb.i]))


def find_descriptors(doc: Doc, taken: set[int], speech_verbs: frozenset[str]) -> list[Descriptor]:
    """Definite person/animal descriptions the window uses as characters. ``taken``: token indices already
    inside a name (NER), left alone."""
    spans: dict[str, list[tuple[int, int]]] = defaultdict(list)
    types: dict[str, str] = {}
    spoke: Counter[str] = Counter()
    acted: Counter[str] = Counter()
    for found in definite_descriptions(doc, taken):
        t, det, name = found.head, found.det, found.name
        spans[name].append((det.idx, t.idx + len(t)))
        types[name] = "Animal" if found.kind == "animal" else "Person"
        verb = t.head
        inverted = _after_speech_verb(t, speech_verbs)
        if inverted or (t.dep_ in _SUBJECT_DEPS and verb.pos_ in ("VERB", "AUX") and not is_irrealis(verb)):
            acted[name] += 1
            if inverted or verb.lemma_.lower() in speech_verbs:
                spoke[name] += 1
    return [Descriptor(name, types[name], tuple(found)) for name, found in spans.items()
            if spoke[name] >= MIN_SPEECH_SUBJECT
            or (acted[name] >= MIN_ACTION_SUBJECT and len(found) >= MIN_OCCURRENCES_WITH_ACTION)]
