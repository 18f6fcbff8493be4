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

from strata.schema.models import ExtractedFact, Span

if TYPE_CHECKING:
    from spacy.tokens import Doc

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
_TITLES = frozenset({"mr", "mr.", "mrs", "mrs.", "miss", "ms", "ms.", "master", "dr", "dr.", "sir", "lady", "lord"})
MAX_NAME_TOKENS = 5


@dataclass(frozen=True)
class AliasTie:
    """Two names the text says are one person's."""

    name: str  # "Claypole"
    alias: str  # "Bolter"
    start: int  # the alias's characters in the doc
    end: int
    evidence: tuple[int, int]  # the words that tie them (doc offsets)


def _person_end(doc: Doc, i: int, token_names: dict[int, tuple[str, str]]) -> tuple[int, str] | None:
    """(first token, name) of the person's name whose last token is ``i``, or None."""
    if i < 0 or i not in token_names or token_names[i][1] != "Person":
        return None
    name = token_names[i]
    if i + 1 < len(doc) and token_names.get(i + 1) == name:
        return None  # not the name's last token
    lo = i
    while lo - 1 >= 0 and token_names.get(lo - 1) == name:
        lo -= 1
    return lo, name[0]


def _matches(doc: Doc, i: int, words: tuple[str, ...]) -> bool:
    return i + len(words) <= len(doc) and all(doc[i + k].lower_ == w for k, w in enumerate(words))


def _second_name(doc: Doc, i: int) -> tuple[int, int] | None:
    """The capitalized name that starts at token ``i`` ("the Artful Dodger", "Mr. Morris Bolter", "Bolter") and
    ends the phrase there (punctuation, a quote mark or the text's end next), as (first, last) tokens."""
    j = i
    if j < len(doc) and doc[j].lower_ in _ARTICLES:
        j += 1
    first = j
    while j < len(doc) and j - first < MAX_NAME_TOKENS and (
            doc[j].lower_ in _TITLES or (doc[j].is_alpha and doc[j].text[:1].isupper())):
        j += 1
    if j == first or all(doc[k].lower_ in _TITLES for k in range(first, j)):
        return None
    if j < len(doc) and not (doc[j].text in _CLOSERS or doc[j].is_quote):
        return None
    return i, j - 1


def find_aliases(doc: Doc, token_names: dict[int, tuple[str, str]]) -> list[AliasTie]:
    out: list[AliasTie] = []
    for t in doc:
        found = _person_end(doc, t.i, token_names)
        if found is None:
            continue
        lo, name = found
        nxt = t.i + 1
        links: tuple[tuple[str, ...], ...] = ()
        start = nxt
        if nxt < len(doc) and doc[nxt].text == ",":
            links = tuple(w for w in ALIAS_LINKS if _matches(doc, nxt + 1, w))
            start = nxt + 1
        if not links:
            links = tuple(w for w in NAMING_PHRASES if _matches(doc, nxt, w))
            start = nxt
        for words in sorted(links, key=len, reverse=True)[:1]:
            span = _second_name(doc, start + len(words))
            if span is None:
                continue
            a, b = span
            alias = doc[a:b + 1].text
            if alias.split()[0].lower() in _ARTICLES:
                alias = "the " + " ".join(alias.split()[1:])
            if alias == name:
                continue
            out.append(AliasTie(name=name, alias=alias, start=doc[a].idx, end=doc[b].idx + len(doc[b]),
                                evidence=(doc[lo].idx, doc[b].idx + len(doc[b]))))
    return out


def record_aliases(col: Collector, doc: Doc, token_names: dict[int, tuple[str, str]], offset: int) -> None:
    """Each tie as a mention of the second name and a ``known_as`` fact (a repeat adds its evidence)."""
    for tie in find_aliases(doc, token_names):
        col.add_mention(tie.alias, "Person", Span(start=tie.start + offset, end=tie.end + offset))
        evidence = Span(start=tie.evidence[0] + offset, end=tie.evidence[1] + offset)
        key = (tie.name, PREDICATE, tie.alias, False, None)
        known = col.facts.get(key)
        if known is not None:
            if evidence not in known.spans:
                col.facts[key] = known.model_copy(update={"spans": [*known.spans, evidence]})
            continue
        col.facts[key] = ExtractedFact(subject=tie.name, predicate=PREDICATE, object=tie.alias,
                                       fact=f"{tie.name} is also called {tie.alias}", subject_type="Person",
                                       object_type="Person", spans=[evidence], confidence=CONFIDENCE)
