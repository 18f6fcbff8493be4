"""The consolidation rules for a second name of one person, each only on evidence in the text, never on a
dictionary alone. Pure, like `strata.resolve.consolidate`, which runs them after the name rules.

- ``pet_form``: a short or pet form of one cast name ("Gil" / Gilbert, "Bet" / Betsy, "Nance" / Nancy, "Faguey" /
  Fagin): the form clips the name, or clips it and adds a pet ending (-y, -ie, -ey, -uey...), no other cast name
  fits it, and the two are written together in scenes (a share of the short form's episodes also write the
  name). A clipping that is a common first name in its own right ("Jane" / Janet, "Rose" / Rosemary) is a name,
  not a clipping; the diminutive table's pairs ("Lizzy" / Elizabeth) are the name rules' business.
- ``alias_tie``: the text states a second name ("Claypole, otherwise Bolter", "John Dawkins, alias the Artful
  Dodger", "known as", "goes by the name of", "called himself": ``known_as`` facts from
  ingest/extractors/aliases.py): a member tied to exactly one other member joins it, whatever their surnames
  say (an alias is another surname), unless their genders conflict or they were kept apart. (A speaker naming
  themself in a quote, "I am Griffin", was a third rule for one session: of its three fitted firings two were no
  identification, a wish and a joke, and a wrong speaker joins two people; removed, docs/resolution.md.)
"""

from __future__ import annotations

from collections.abc import Sequence

from strata.resolve.cast import Cast, Member, kept_apart, score, smaller_first
from strata.resolve.given_names import census_frequencies
from strata.resolve.lexicon import GIVEN_NAME_CANONICAL
from strata.schema.models import Frozen

# Endings English adds to a clipped name to make a pet form ("Bets-y", "Fag-uey", "Nanc-e", "Charl-ie").
PET_SUFFIXES = ("", "e", "y", "ie", "ey", "ee", "uey", "sy", "sie", "o")
# The clipped stem keeps at least this many letters ("Gil", "Bet"; not "Jo", "Al": too many names open so).
MIN_STEM = 3
# A form the census lists as this share (percent of people) or more is a first name of its own ("Jane",
# "Rose", "Janet"), not a clipping of a longer one; clippings are rare as given names ("Gil" 0.006, "Bet" none).
OWN_NAME_SHARE = 0.05
# The short form is written in at least this many episodes that also write the name, and at least this share
# of its own episodes: the co-reference a scene gives ("Gil" beside Gilbert, "Nance" beside Nancy).
PET_MIN_SHARED = 1

def _own_name(token: str) -> bool:
    """A first name in its own right: in the diminutive table (its pairs are the name rules') or common."""
    freq = census_frequencies()
    return token in GIVEN_NAME_CANONICAL or max(freq["f"].get(token, 0.0), freq["m"].get(token, 0.0)) >= OWN_NAME_SHARE


def is_pet_form(short: str, name: str, surname: bool = False) -> bool:
    """``short`` clips ``name`` ("gil" / "gilbert"), or clips it and adds a pet ending ("faguey" / "fagin", "nance"
    / "nancy"). A surname (``surname``) has only the suffixed kind: "Gil" is no pet form of "Gillis"."""
    if short == name or len(short) < MIN_STEM or len(name) <= MIN_STEM or not short.isalpha():
        return False
    for suffix in PET_SUFFIXES:
        if suffix and not short.endswith(suffix):
            continue
        stem = short[:len(short) - len(suffix)] if suffix else short
        if len(stem) < MIN_STEM or len(stem) >= len(name) or not name.startswith(stem):
            continue
        if not suffix and surname:
            continue
        if suffix and name[len(stem):] == suffix:  # the same name, not a pet form of it
            continue
        return True
    return False


def _short_forms(m: Member) -> set[str]:
    """Its one-word untitled forms that could be pet forms ("Gil", "Nance", "Faguey")."""
    return {p.bare for p in m.parsed if p.bare and not p.honorifics and not p.qualifiers and not _own_name(p.bare)}


def _name_tokens(m: Member, surnames: set[str]) -> tuple[set[str], set[str]]:
    """(given names, surnames) of its forms; a lone word some titled form of the cast bears as a surname ("Gillis"
    beside "Mr. Gillis") counts as a surname."""
    lone = {p.bare for p in m.parsed if p.bare and not p.qualifiers}
    given = {p.given[0] for p in m.parsed if p.given and not p.qualifiers} | (lone - surnames)
    return given, {p.surname for p in m.parsed if p.surname and not p.qualifiers} | (lone & surnames)


def _genders_fit(a: Member, b: Member) -> bool:
    ga, gb = a.genders, b.genders
    return not (len(ga) == 1 and len(gb) == 1 and ga != gb)


def _cast_surnames(cast: Cast) -> set[str]:
    return {p.surname for m in cast.members.values() for p in m.parsed if p.surname}


def _pet_candidates(cast: Cast, m: Member, short: str, cast_surnames: set[str]) -> list[Member]:
    out = []
    for o in cast.members.values():
        if o.uuid == m.uuid:
            continue
        given, surnames = _name_tokens(o, cast_surnames)
        if short in given | surnames:
            return []  # another member holds the very form: it is a name there, not a pet form
        if any(is_pet_form(short, t) for t in given) or any(is_pet_form(short, t, surname=True) for t in surnames):
            out.append(o)
    return out


def _written_together(m: Member, o: Member) -> bool:
    return len(m.episodes & o.episodes) >= PET_MIN_SHARED


def pet_form(cast: Cast) -> bool:
    """A member holding a pet form of exactly one other member's name, written with it in scenes, joins it."""
    cast_surnames = _cast_surnames(cast)
    for m in cast.by_size():
        for short in sorted(_short_forms(m)):
            found = _pet_candidates(cast, m, short, cast_surnames)
            if len(found) != 1:
                continue  # no candidate, or a prefix of two cast names: no join
            o = found[0]
            if kept_apart(m, o) or not _genders_fit(m, o) or not _written_together(m, o):
                continue
            src, dst = smaller_first(m, o)
            cast.merge(src, dst, "pet_form", f"{short!r} is a pet form of a name of this person, written with it "
                       "in scenes", score(src, dst))
            return True
    return False


class AliasTie(Frozen):
    """The text says two names are one person's ("Claypole, otherwise Bolter"): a ``known_as`` fact."""

    a: str
    b: str


def alias_tie(cast: Cast, ties: Sequence[AliasTie]) -> bool:
    """Two members the text ties by an alias, each to the other only, are one person (the smaller joins the
    larger)."""
    tied: dict[str, set[str]] = {}
    for t in ties:
        x, y = cast.current(t.a), cast.current(t.b)
        if x != y and x in cast.members and y in cast.members:
            tied.setdefault(x, set()).add(y)
            tied.setdefault(y, set()).add(x)
    for uuid, others in sorted(tied.items()):
        if len(others) != 1:
            continue
        m, o = cast.members[uuid], cast.members[next(iter(others))]
        if tied[o.uuid] != {m.uuid} or kept_apart(m, o) or not _genders_fit(m, o):  # one tie each way
            continue
        src, dst = smaller_first(m, o)
        cast.merge(src, dst, "alias_tie", "the text gives this name as another name of this person", score(src, dst))
        return True
    return False
