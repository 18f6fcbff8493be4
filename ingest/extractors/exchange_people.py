"""The people of one exchange, one name each, and the forms of address that stand for them.

Inside a conversation one person goes by several names: the narration's "Mr. Darcy", a tag's "Darcy", a
vocative's "Lizzy" or a formal "Miss Bennet" said to someone the narration calls by her given name. Quote
attribution (quotes.py) decodes speakers over these people, so each must count once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from strata.ingest.extractors.turns import Turn
from strata.resolve.lexicon import HONORIFICS, PLAIN_HONORIFICS, Gender
from strata.resolve.names import given_compatible, given_name_genders

if TYPE_CHECKING:
    from strata.ingest.extractors.narration_people import Window

class People:
    """The people of one exchange, one name each: "Darcy" joins "Mr. Darcy", "Lizzy" joins "Elizabeth", when
    no one else present could be meant."""

    def __init__(self, win: Window) -> None:
        self.win = win
        self.names: list[str] = []
        self.variants: dict[str, list[str]] = {}

    def canonical(self, name: str) -> str:
        for known, variants in self.variants.items():
            if name in variants:
                return known
        matches = [n for n in self.names if any(self._same(name, v) for v in self.variants[n])]
        if len(matches) == 1:
            self.variants[matches[0]].append(name)
            return matches[0]
        self.names.append(name)
        self.variants[name] = [name]
        return name

    def gender(self, name: str) -> Gender | None:
        genders = {g for v in self.variants.get(name, [name]) if (g := self._gender(v)) is not None}
        return next(iter(genders)) if len(genders) == 1 else None

    def _gender(self, name: str) -> Gender | None:
        found = self.win.gender(name)
        if found is None and len(name.split()) == 1:
            given = given_name_genders(name.lower())  # "Lizzy" is an Elizabeth
            found = next(iter(given)) if len(given) == 1 else None
        return found

    def _same(self, a: str, b: str) -> bool:
        """"Darcy" and "Mr. Darcy", "Sir William" and "Sir William Lucas"; not "Mr. Hale" and "Mrs. Hale", nor
        "Hale" and "Miss Hale" where the window also has a "Mr. Hale"."""
        ta, wa = title_and_words(a)
        tb, wb = title_and_words(b)
        if ta and tb and ta != tb:
            return False
        if (ta is None) != (tb is None):
            bare = b if ta else a
            title_gender = HONORIFICS.get((ta or tb or "").lower(), (None, None))[0]
            given = given_name_genders(bare.split()[0].lower())
            if given and title_gender is not None and title_gender not in given:
                return False
            if not given and title_gender == "f":
                return False  # a bare surname is how narration names a man ("Bingley", not "Miss Bingley")
        wa, wb = [w.lower() for w in wa], [w.lower() for w in wb]
        plain = all(t is None or t in PLAIN_HONORIFICS for t in (ta, tb))  # "Kitty" is no "Lady Catherine"
        if plain and len(wa) == len(wb) == 1 and len(wa[0]) > 1 and len(wb[0]) > 1:
            return given_compatible(wa[0], wb[0])  # "Lizzy" and "Elizabeth"
        short, long = (wa, wb) if len(wa) <= len(wb) else (wb, wa)
        return short == long[:len(short)] or short == long[-len(short):]


def title_and_words(name: str) -> tuple[str | None, list[str]]:
    words = name.split()
    if len(words) > 1 and words[0].lower().rstrip(".") in TITLES:
        return words[0].lower().rstrip("."), words[1:]
    return None, words


def join_called(people: People, turns: list[Turn], before: list[str]) -> None:
    """A formal address ("Miss Bennet") that the exchange only ever calls, never tags nor narrates, is the
    form of address of a person of its gender under a plain name: the only one acting in the exchange (a tag's
    or the narration's "Elizabeth"), else, when none acts, the latest one active just before it (``before``,
    latest first). The two become one person."""
    acting = [p for t in turns for p, v in t.votes.items() if v > 0]  # tagged or narrated
    called = {n for t in turns for n in t.addressed}
    for formal in list(people.names):
        if formal not in called or formal in acting or title_and_words(formal)[0] is None:
            continue
        inside = _plain(people, formal, acting)
        if len(inside) == 1:
            _merge(people, turns, formal, inside[0])
        elif not inside and (outside := _plain(people, formal, before)):
            _merge(people, turns, formal, outside[0])


def _plain(people: People, formal: str, names: list[str]) -> list[str]:
    """The people among ``names`` of the formal address's gender who go by a name without a title."""
    gender = people.gender(formal)
    return [] if gender is None else [
        p for p in dict.fromkeys(names)
        if p != formal and p in people.variants and title_and_words(p)[0] is None and people.gender(p) == gender]


def merge(people: People, turns: list[Turn], name: str, into: str) -> None:
    """``name`` and ``into`` are one person of the exchange: its votes and calls go to ``into``."""
    _merge(people, turns, name, into)


def _merge(people: People, turns: list[Turn], name: str, into: str) -> None:
    for t in turns:
        if name in t.votes:
            t.votes[into] = t.votes.get(into, 0.0) + t.votes.pop(name)
        t.addressed = frozenset(into if n == name else n for n in t.addressed)
        if t.called == name:
            t.called = into
    people.names.remove(name)
    people.variants[into] += people.variants.pop(name)


TITLES = frozenset({"mr", "mrs", "miss", "ms", "dr", "sir", "lady", "lord", "colonel", "captain", "major",
                     "general", "aunt", "uncle", "madame", "mme", "mlle", "master", "professor", "king", "queen"})
