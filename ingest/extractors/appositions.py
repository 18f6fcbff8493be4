"""Who a description is, when the text says it in so many words: "Mr. Bumble, the beadle", "the housekeeper,
Mrs. Bernstone", "the stranger was Griffin".

A novel names a character by role for chapters ("the beadle said") and by name elsewhere; the role and the name
are two entities until something ties them. Here the ties the text writes itself: an apposition (the
description set off by commas right beside a person's name, either way round) or a copula ("the stranger was
Griffin", "Griffin was the stranger"), or a naming participle ("a porter, or gatekeeper, named McMurdo", "an
Indian butler named Lal Rao"). Each tie is stored as a ``described_as`` fact (the named person, the
description), evidence the book's consolidation pass weighs against the rest of the cast (a description tied to
one person only, and no other character with its head, joins that person: resolve/consolidate.py). The
description is named the way descriptors.py names it ("the Beadle"), so it is the entity the narration made.

Only role nouns tie ("the beadle"; not "the only person", "the very man": said of anyone). Not a tie: a list ("the
women-servants, Mr. Brittles, Mr. Giles, the tinker", "Holmes, the prisoner, and he"), a description followed by more
of its clause ("the magistrate, Mr. Bumble instructed Oliver"), a negated copula ("the stranger was not Hall").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from strata.ingest.extractors.descriptors import (
    Kind,
    definite_descriptions,
    description_name,
    head_word,
    kept_modifiers,
    lexicon,
)
from strata.ingest.extractors.relation_words import OCCUPATIONS
from strata.schema.models import ExtractedFact, Span

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

    from strata.ingest.extractors.spacy_state import Collector

PREDICATE = "described_as"
JOB_PREDICATE = "works_as"
# a parse-based tie, as sure as the extractor's other facts (spacy_facts.add_fact)
CONFIDENCE = 0.6
_CLOSERS = frozenset({",", ".", ";", ":", "!", "?", "\u2014", "--", ")"})
_COPULA = "be"
_COORDINATORS = frozenset({"and", "or", "nor"})
_NAMING = frozenset({"named", "called"})
_HEAD_POS = ("NOUN", "PROPN")


@dataclass(frozen=True)
class Apposition:
    """A named person the text says a description stands for."""

    name: str  # "Mr. Bumble"
    description: str  # "the Beadle"
    start: int  # the description's characters in the doc
    end: int
    evidence: tuple[int, int]  # the words that tie them (doc offsets)


def find_appositions(doc: Doc, token_names: dict[int, tuple[str, str]]) -> list[Apposition]:
    """The ties between a person's name (``token_names``: token index -> (name, type)) and a definite role or
    described noun ("the beadle", "the old woman") the sentence writes beside it."""
    out: list[Apposition] = []
    for found in definite_descriptions(doc, token_names, _HEAD_POS):
        if found.kind != "role":
            continue  # "the only person", "the very man": a generic noun is said of anyone, no name of its own
        det, t = found.det, found.head
        tie = _tied(doc, det, t, token_names)
        if tie is None:
            continue
        name, lo, hi = tie
        out.append(Apposition(name=name, description=found.name, start=det.idx, end=t.idx + len(t),
                              evidence=(doc[lo].idx, doc[hi].idx + len(doc[hi]))))
    out += _named(doc, token_names, lexicon())
    return out


def _named(doc: Doc, token_names: dict[int, tuple[str, str]], words: dict[str, Kind]) -> list[Apposition]:
    """"a porter, or gatekeeper, named McMurdo", "an Indian butler named Lal Rao": the role nouns right before
    "named" / "called" and the person's name right after it."""
    out: list[Apposition] = []
    for t in doc:
        if t.lower_ not in _NAMING or t.tag_ != "VBN":
            continue
        span = _person_span(doc, t.i + 1, token_names)
        if span is None or span[0] != t.i + 1 or not _closes(doc, span[1], listed=True):
            continue
        i = t.i - 1
        while i >= 0 and (doc[i].text == "," or doc[i].lower_ == "or" or doc[i].pos_ in ("NOUN", "ADJ")):
            word = head_word(doc[i], words) if doc[i].pos_ == "NOUN" and doc[i].tag_ == "NN" else None
            if word is not None and words[word] == "role":
                det = next((c for c in doc[i].lefts if c.dep_ == "det"), None)
                kept = (kept_modifiers(doc, det.i, doc[i].i, "role") if det is not None else None) or []
                start = det.idx if det is not None else doc[i].idx
                end = doc[span[1]].idx + len(doc[span[1]])
                out.append(Apposition(name=token_names[span[0]][0], description=description_name(kept, doc[i]),
                                      start=start, end=doc[i].idx + len(doc[i]), evidence=(start, end)))
            i -= 1
    return out


def record_appositions(col: Collector, doc: Doc, token_names: dict[int, tuple[str, str]], offset: int) -> None:
    """Each tie as a mention of the description and a ``described_as`` fact (a repeat adds its evidence); a
    description that is a job ("the housekeeper", "the beadle") also says what the person works as."""
    for tie in find_appositions(doc, token_names):
        col.add_mention(tie.description, "Person", Span(start=tie.start + offset, end=tie.end + offset))
        evidence = Span(start=tie.evidence[0] + offset, end=tie.evidence[1] + offset)
        _record(col, tie.name, PREDICATE, tie.description, "Person", evidence, f"{tie.name} is {tie.description}")
        job = tie.description.split()[-1].lower()
        if job in OCCUPATIONS:
            _record(col, tie.name, JOB_PREDICATE, job, "Concept", evidence, f"{tie.name} is a {job}")


def _record(col: Collector, name: str, predicate: str, obj: str, obj_type: str, evidence: Span, text: str) -> None:
    col.record(ExtractedFact(subject=name, predicate=predicate, object=obj, fact=text, subject_type="Person",
                             object_type=obj_type, spans=[evidence], confidence=CONFIDENCE))


def _person_span(doc: Doc, i: int, token_names: dict[int, tuple[str, str]]) -> tuple[int, int] | None:
    """The first and last token of the person's name token ``i`` is in, or None for no person's name."""
    if i < 0 or i >= len(doc) or i not in token_names or token_names[i][1] != "Person":
        return None
    name = token_names[i]
    lo, hi = i, i
    while lo - 1 >= 0 and token_names.get(lo - 1) == name:
        lo -= 1
    while hi + 1 < len(doc) and token_names.get(hi + 1) == name:
        hi += 1
    return lo, hi


def _closes(doc: Doc, i: int, listed: bool = False) -> bool:
    """The phrase ending at token ``i`` ends there: punctuation or the end of the text follows, and not a comma
    going on with a list ("Holmes, the prisoner, and he"), unless ``listed`` (a list of named roles goes on)."""
    if i + 1 >= len(doc):
        return True
    if not listed and doc[i + 1].text == "," and i + 2 < len(doc) and doc[i + 2].lower_ in _COORDINATORS:
        return False
    return doc[i + 1].text in _CLOSERS or doc[i + 1].is_quote


def _listed(doc: Doc, lo: int) -> bool:
    """A name written as one item of a list: a comma before it and a noun or name before the comma."""
    return lo >= 2 and doc[lo - 1].text == "," and doc[lo - 2].pos_ in ("NOUN", "PROPN")


def _tied(doc: Doc, det: Token, head: Token,
          token_names: dict[int, tuple[str, str]]) -> tuple[str, int, int] | None:
    """(name, first, last token of the tie) when the text ties the description to one person's name."""
    # "Mr. Bumble, the beadle," : the name, a comma, the description, and the description ends there; or no
    # comma ("Bunting the vicar.", "Wadgers the blacksmith")
    comma = det.i >= 1 and doc[det.i - 1].text == ","
    if det.i >= 1 + comma and _closes(doc, head.i):
        span = _person_span(doc, det.i - 1 - comma, token_names)
        if span is not None and not _listed(doc, span[0]):
            return token_names[span[0]][0], span[0], head.i
    # "the housekeeper, Mrs. Bernstone," : the description, a comma, the name, and the name ends there
    if head.i + 2 < len(doc) and doc[head.i + 1].text == ",":
        span = _person_span(doc, head.i + 2, token_names)
        if span is not None and _closes(doc, span[1]) and not _listed(doc, det.i):
            return token_names[span[0]][0], det.i, span[1]
    # "the stranger was Griffin", "Griffin was the stranger": one side the subject of "be", the other its attribute
    verb = head.head
    if head.dep_ in ("nsubj", "attr") and verb.lemma_.lower() == _COPULA and not any(
            c.dep_ == "neg" for c in verb.children):
        other = "attr" if head.dep_ == "nsubj" else "nsubj"
        for c in verb.children:
            span = _person_span(doc, c.i, token_names) if c.dep_ == other else None
            if span is not None:
                return token_names[span[0]][0], min(det.i, span[0]), max(head.i, span[1])
    return None
