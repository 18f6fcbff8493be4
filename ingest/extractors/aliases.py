"""A second name the text gives a person in so many words: "Claypole, otherwise Bolter", "Mr. John Dawkins,
otherwise the Artful Dodger", "Mr. Morris Bolter, late Claypole", "Smith, alias Jones", "Jones, also known as
Smith", "Jones went by the name of Smith", "Jones called himself Smith".

A novel's rogues and runaways take other names; the name rules see two people (two surnames, or a nickname no
table knows) until the text ties them. Each tie is stored as a ``known_as`` fact (the first name, the second),
evidence the book's consolidation pass weighs against the rest of the cast (a name tied to exactly one other
member joins it: resolve/alias_rules.py). The connecting words are data (ALIAS_LINKS, NAMING_PHRASES).

Not a tie: "the late Mr. Smith" (the dead, not a former name: "late" links only after a comma), a second name
that goes on with its clause ("Smith, otherwise Jones said"), a lowercase second part ("Smith, otherwise a
decent man": a description, appositions.py's business).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from strata.ingest.extractors.name_shape import is_honorific
from strata.schema.models import ExtractedFact, Span

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

    from strata.ingest.extractors.spacy_state import Collector

PREDICATE = "known_as"
CONFIDENCE = 0.6
# Words that, after a name and a comma, introduce another name of the same person.
ALIAS_LINKS: tuple[tuple[str, ...], ...] = (
    ("otherwise",), ("otherwise", "called"), ("otherwise", "known", "as"), ("alias",), ("formerly",), ("late",),
    ("also", "called"), ("also", "known", "as"), ("better", "known", "as"), ("known", "as"), ("commonly", "called"),
    ("called",), ("nicknamed",), ("surnamed",), ("a.k.a.",), ("aka",),
)
# Verb phrases after a person's name that give the name the person goes by ("went by the name of Bolter").
NAMING_PHRASES: tuple[tuple[str, ...], ...] = (
    ("goes", "by", "the", "name", "of"), ("went", "by", "the", "name", "of"), ("go", "by", "the", "name", "of"),
    ("gone", "by", "the", "name", "of"), ("called", "himself"), ("called", "herself"), ("calls", "himself"),
    ("calls", "herself"), ("was", "known", "as"), ("is", "known", "as"), ("was", "called"),
    ("passed", "under", "the", "name", "of"), ("passes", "under", "the", "name", "of"),
    ("went", "under", "the", "name", "of"), ("goes", "under", "the", "name", "of"),
)
_CLOSERS = frozenset({",", ".", ";", ":", "!", "?", "\u2014", "--", ")"})
_ARTICLES = frozenset({"the"})
MAX_NAME_TOKENS = 5


@dataclass(frozen=True)
class AliasTie:
    """Two names the text says are one person's."""

    name: str  # "Mr. Claypole"
    alias: str  # "Bolter"
    name_start: int  # the name's characters in the doc
    name_end: int
    start: int  # the alias's characters in the doc
    end: int
    evidence: tuple[int, int]  # the words that tie them (doc offsets)


def _word(t: Token) -> bool:
    """A capitalized name word ("Claypole", "Dodger"), not a title."""
    return t.is_alpha and t.text[:1].isupper() and not is_honorific(t)


def _first_name(doc: Doc, i: int, token_names: dict[int, tuple[str, str]]) -> tuple[int, str] | None:
    """(first token, name) of the name that ends at token ``i``: the extractor's name there (any type: the small
    model calls "Bolter" a place) with the titles before it, or a title + this word ("Mr.\nClaypole"); across a
    line break, a person's name before it joins it ("Mr. Morris\nBolter"). A capitalized word with neither a
    title nor a found name ("Yes, otherwise ...") is none."""
    j, words = i, [doc[i]]
    while True:
        k, crossed = j - 1, False
        while k >= 0 and doc[k].is_space:
            k, crossed = k - 1, True
        if k < 0 or len(words) >= MAX_NAME_TOKENS:
            break
        here, there = token_names.get(k), token_names.get(j)
        if is_honorific(doc[k]) or (_word(doc[k]) and here is not None and (
                here == there or (crossed and here[1] == "Person"))):
            words.append(doc[k])
            j = k
            continue
        break
    words.reverse()
    if not _word(words[0]) and not is_honorific(words[0]):
        return None
    if not (any(is_honorific(t) for t in words) or all(t.i in token_names for t in words)):
        return None
    return words[0].i, " ".join(t.text for t in words)


def _next_word(doc: Doc, i: int) -> int:
    while i < len(doc) and doc[i].is_space:
        i += 1
    return i


def _matches(doc: Doc, i: int, words: tuple[str, ...]) -> int | None:
    """The token after ``words`` written from token ``i`` on (line breaks skipped), or None."""
    for w in words:
        i = _next_word(doc, i)
        if i >= len(doc) or doc[i].lower_ != w:
            return None
        i += 1
    return i


def _second_name(doc: Doc, i: int) -> tuple[int, int, str] | None:
    """The capitalized name that starts at token ``i`` ("the Artful Dodger", "Mr. Morris Bolter", "Bolter") and
    ends the phrase there (punctuation, a quote mark or the text's end next), as (first, last token, name)."""
    i = _next_word(doc, i)
    words: list[Token] = []
    article = i < len(doc) and doc[i].lower_ in _ARTICLES
    j = _next_word(doc, i + 1) if article else i
    while j < len(doc) and len(words) < MAX_NAME_TOKENS and (_word(doc[j]) or is_honorific(doc[j])):
        words.append(doc[j])
        j = _next_word(doc, j + 1)
    if not words or not _word(words[-1]):
        return None
    if j < len(doc) and not (doc[j].text in _CLOSERS or doc[j].is_quote):
        return None
    name = " ".join(t.text for t in words)
    return i, words[-1].i, ("the " + name if article else name)


def find_aliases(doc: Doc, token_names: dict[int, tuple[str, str]]) -> list[AliasTie]:
    out: list[AliasTie] = []
    for t in doc:
        if not _word(t):
            continue
        nxt = t.i + 1
        after: int | None = None
        if nxt < len(doc) and doc[nxt].text in (",", "("):  # "Claypole, otherwise Bolter", "Dawkins (otherwise ...)"
            after = next((a for w in ALIAS_LINKS if (a := _matches(doc, nxt + 1, w)) is not None), None)
        if after is None:
            after = next((a for w in NAMING_PHRASES if (a := _matches(doc, nxt, w)) is not None), None)
        if after is None:
            continue
        first = _first_name(doc, t.i, token_names)
        second = _second_name(doc, after)
        if first is None or second is None or first[1] == second[2]:
            continue
        lo, name = first
        a, b, alias = second
        out.append(AliasTie(name=name, alias=alias, name_start=doc[lo].idx, name_end=t.idx + len(t),
                            start=doc[a].idx, end=doc[b].idx + len(doc[b]),
                            evidence=(doc[lo].idx, doc[b].idx + len(doc[b]))))
    return out


def record_aliases(col: Collector, doc: Doc, token_names: dict[int, tuple[str, str]], offset: int) -> None:
    """Each tie as a mention of the second name and a ``known_as`` fact (a repeat adds its evidence)."""
    for tie in find_aliases(doc, token_names):
        # both are persons' names, whatever type the small model gave them ("Bolter" a place)
        col.add_mention(tie.name, "Person", Span(start=tie.name_start + offset, end=tie.name_end + offset))
        col.add_mention(tie.alias, "Person", Span(start=tie.start + offset, end=tie.end + offset))
        evidence = Span(start=tie.evidence[0] + offset, end=tie.evidence[1] + offset)
        col.record(ExtractedFact(subject=tie.name, predicate=PREDICATE, object=tie.alias,
                                 fact=f"{tie.name} is also called {tie.alias}", subject_type="Person",
                                 object_type="Person", spans=[evidence], confidence=CONFIDENCE))
