"""A woman's change of name at marriage, as a narrator tells it, and marriages named by a noun.

Two kinds of statement, read between two person names of one sentence (the names the extractor found; the
word lists are data: ``ingest/assets/name_change.json``):
- a former name: "Mrs. Weston (poor Miss Taylor that was)", "Mrs. Bumble, formerly Mrs. Corney", "Mrs. Elton,
  née Hawkins", "Isabella, now Mrs. John Knightley", "Miss Lucas became Mrs. Collins". Stored as a
  ``described_as`` tie (the married name, the former name): the book's consolidation pass joins the two
  (resolve/married_names.py ``maiden_name``);
- a marriage named by a noun: "Miss Taylor's marriage to Mr. Weston", "the wedding of Jane and Mr. Bingley":
  a ``spouse_of`` fact, like "X married Y" (the verb frames of relation_words.py).
Not a statement: a married name followed by more of its clause ("Miss Bates, now Mrs. Elton is gone, ..."), a
possessive ("Harriet became Mrs. Weston's favourite"), a marriage that is only planned, hoped for or denied
("the proposed marriage of ...", "her marriage to Mr. Y would never ...").
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from strata.ingest.extractors.frames import FrameFact
from strata.ingest.extractors.name_shape import is_honorific
from strata.schema.models import ExtractedFact, Span

if TYPE_CHECKING:
    from spacy.tokens import Doc
    from spacy.tokens import Span as SpacySpan

    from strata.ingest.extractors.spacy_state import Collector

LEXICON = Path(__file__).resolve().parent.parent / "assets" / "name_change.json"
PREDICATE = "described_as"
CONFIDENCE = 0.6  # as sure as the extractor's other parse-based ties (appositions.py)
_MARRIED_TITLES = frozenset({"mrs", "mrs."})
_CLOSERS = frozenset({",", ".", ";", ":", "!", "?", ")", "--", "\u2014", "\u2013"})
_POSSESSIVE = frozenset({"'s", "\u2019s", "'", "\u2019"})
_OF = "of"
# The small model types many given names as places or organizations ("Eleanor Cradock" ORG): a name of these
# types may stand where the shape wants a person, beside a titled person.
_NAME_TYPES = frozenset({"Person", "Place", "Organization"})
_TITLES = frozenset({"mr", "mrs", "miss", "ms", "lady", "sir", "dr", "captain", "colonel", "major", "lord"})


@dataclass(frozen=True)
class Words:
    married_then_former: frozenset[tuple[str, ...]]
    former_suffix: frozenset[tuple[str, ...]]
    former_then_married: frozenset[tuple[str, ...]]
    marriage_nouns: frozenset[str]
    marriage_links: frozenset[str]
    not_yet: frozenset[str]
    gap_openers: frozenset[str]
    address_words: frozenset[str]
    name_openers: frozenset[str]


@cache
def words() -> Words:
    data = json.loads(LEXICON.read_text(encoding="utf-8"))

    def seqs(key: str) -> frozenset[tuple[str, ...]]:
        return frozenset(tuple(x) for x in data[key])

    def words_(key: str) -> frozenset[str]:
        return frozenset(data[key])

    return Words(married_then_former=seqs("married_then_former"), former_suffix=seqs("former_suffix"),
                 former_then_married=seqs("former_then_married"), marriage_nouns=words_("marriage_nouns"),
                 marriage_links=words_("marriage_links"), not_yet=words_("not_yet"),
                 gap_openers=words_("gap_openers"), address_words=words_("address_words"),
                 name_openers=words_("name_openers"))


@dataclass(frozen=True)
class NameChange:
    """The text says ``married`` ("Mrs. Weston") was formerly ``former`` ("Miss Taylor")."""

    married: str
    former: str
    evidence: tuple[int, int]  # doc character offsets of the words that say it


@dataclass(frozen=True)
class _Name:
    name: str
    lo: int  # first and last token
    hi: int
    type: str = "Person"

    @property
    def titled(self) -> bool:
        return self.type == "Person" and len(self.name.split()) > 1 and self.name.split()[0].rstrip(".").lower() in (
            _TITLES)


def _with_titled(span: Doc | SpacySpan, token_names: dict[int, tuple[str, str]]) -> dict[int, tuple[str, str]]:
    """The names the extractor found, and the titled names and the names after "née" it missed ("formerly Miss
    Hale": the small model tags one and not the other)."""
    out = dict(token_names)
    doc = span.doc if hasattr(span, "doc") else span
    end = span.end if hasattr(span, "end") else len(doc)
    for t in span:
        opener = t.lower_ in words().name_openers  # "née Winterbourne": a name, whatever the model typed it
        if not opener and (t.i in out or not is_honorific(t)):
            continue
        j = t.i + 1
        while j < end and (opener or j not in out) and doc[j].is_alpha and doc[j].text[:1].isupper() and (
                not is_honorific(doc[j])):
            j += 1
        if j == t.i + 1:
            continue
        first = t.i if is_honorific(t) else t.i + 1
        name = doc[first:j].text
        for i in range(first, j):
            out[i] = (name, "Person")
    return out


def person_names(doc: Doc | SpacySpan, token_names: dict[int, tuple[str, str]]) -> list[_Name]:
    """The person names of a span, in order, each once per occurrence."""
    out: list[_Name] = []
    token_names = _with_titled(doc, token_names)
    for t in doc:
        found = token_names.get(t.i)
        if found is None or found[1] not in _NAME_TYPES:
            continue
        if out and out[-1].hi == t.i - 1 and out[-1].name == found[0]:
            out[-1] = _Name(found[0], out[-1].lo, t.i, found[1])
        else:
            out.append(_Name(found[0], t.i, t.i, found[1]))
    return out


def _married(name: str) -> bool:
    words_ = name.split()
    return len(words_) >= 2 and words_[0].lower() in _MARRIED_TITLES


def _lower(doc: Doc, lo: int, hi: int) -> list[str]:
    return [doc[i].lower_ for i in range(lo, hi)]


def _core(gap: list[str], w: Words) -> tuple[str, ...] | None:
    """The gap's words once an opening punctuation and trailing address words are set aside, or None when the
    gap is not of that shape."""
    if gap and gap[0] in w.gap_openers:
        gap = gap[1:]
    while gap and gap[-1] in w.address_words:
        gap = gap[:-1]
    return tuple(gap)


def _closes(doc: Doc, hi: int, end: int) -> bool:
    """The name ending at token ``hi`` ends its phrase: punctuation or the end of the sentence follows."""
    return hi + 1 >= end or doc[hi + 1].text in _CLOSERS or doc[hi + 1].is_quote


def name_changes(doc: Doc, token_names: dict[int, tuple[str, str]]) -> list[NameChange]:
    """The former names each sentence of ``doc`` gives a married name."""
    w = words()
    out: list[NameChange] = []
    for sent in doc.sents:
        names = person_names(sent, token_names)
        said = {t.lower_ for t in sent}
        for a, b in zip(names, names[1:], strict=False):
            if a.name == b.name or not (a.titled or b.titled):
                continue
            gap = _lower(doc, a.hi + 1, b.lo)
            core = _core(gap, w)
            if not core and not gap:
                continue
            tail = _lower(doc, b.hi + 1, min(b.hi + 4, sent.end))
            span = (doc[a.lo].idx, doc[b.hi].idx + len(doc[b.hi]))
            if _married(a.name) and not _married_possessive(doc, a.hi):
                # "Mrs. Y, formerly Miss X," / "Mrs. Y (poor Miss X that was)"
                if core in w.married_then_former and gap[0] in w.gap_openers and _closes(doc, b.hi, sent.end):
                    out.append(NameChange(a.name, b.name, span))
                    continue
                suffix = next((s for s in w.former_suffix if tuple(tail[:len(s)]) == s), None)
                if suffix is not None and core == () and gap and gap[0] in w.gap_openers and _closes(
                        doc, b.hi + len(suffix), sent.end):
                    end = doc[b.hi + len(suffix)]
                    out.append(NameChange(a.name, b.name, (span[0], end.idx + len(end))))
                    continue
            if _married(b.name) and core in w.former_then_married and _closes(doc, b.hi, sent.end) and not (
                    _married_possessive(doc, b.hi) or said & w.not_yet and not (gap and gap[0] in w.gap_openers)):
                # "Miss X, now Mrs. Y," / "Miss X became Mrs. Y." (a verb: not if only wished or denied)
                out.append(NameChange(b.name, a.name, span))
    return out


def _married_possessive(doc: Doc, hi: int) -> bool:
    return hi + 1 < len(doc) and doc[hi + 1].lower_ in _POSSESSIVE


def marriage_noun_facts(sent: SpacySpan, token_names: dict[int, tuple[str, str]]) -> list[FrameFact]:
    """spouse_of for "X's marriage to/with Y" and "the marriage of X and/to/with Y" (wedding, union, ...), not
    when the sentence only plans, hopes for or denies it."""
    w = words()
    doc = sent.doc
    said = {t.lower_ for t in sent}
    if said & w.not_yet:
        return []
    out: list[FrameFact] = []
    names = person_names(sent, token_names)
    for a, b in zip(names, names[1:], strict=False):
        if a.name == b.name or not (a.type == b.type == "Person" or a.titled or b.titled):
            continue  # "the union of England and Scotland"
        gap = _lower(doc, a.hi + 1, b.lo)
        # "X's marriage to Y"
        possessive = (len(gap) == 3 and gap[0] in _POSSESSIVE and gap[1] in w.marriage_nouns
                      and gap[2] in w.marriage_links - {"and"})
        # "the marriage of X and Y"
        before = _lower(doc, max(sent.start, a.lo - 2), a.lo)
        of_form = (len(gap) == 1 and gap[0] in w.marriage_links and len(before) == 2
                   and before[0] in w.marriage_nouns and before[1] == _OF)
        if possessive or of_form:
            text = doc[a.lo - 2 if of_form else a.lo: b.hi + 1].text
            out.append(FrameFact(a.name, "Person", "spouse_of", b.name, "Person", False, text))
    return out


def record_name_changes(col: Collector, doc: Doc, token_names: dict[int, tuple[str, str]], offset: int) -> None:
    """Each former name as a ``described_as`` fact (the married name, the former one); a repeat adds evidence."""
    for change in name_changes(doc, token_names):
        evidence = Span(start=change.evidence[0] + offset, end=change.evidence[1] + offset)
        col.record(ExtractedFact(subject=change.married, predicate=PREDICATE, object=change.former,
                                 fact=f"{change.married} was formerly {change.former}", subject_type="Person",
                                 object_type="Person", spans=[evidence], confidence=CONFIDENCE))
