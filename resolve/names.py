"""Person-name analysis: honorifics, given names, surname, qualifiers, and pairwise compatibility.

A name is split into address prefixes (dropped: "my dear", a leading article), qualifiers that make it a different
person ("the late", "... 's father", "her sister", an epithet: "William the Conqueror"), honorifics, given names and
a surname (with particles: "de Bourgh") and an optional designation ("of Pemberley": ignored when matching a
personal name; kept for a role named by its title alone, "the King of Hearts", where it tells two holders apart).

Descriptors parse the same way, the head where a surname is and its modifiers where given names are: "the White
Rabbit" is head "rabbit" + modifier "white", "the Fish-Footman" head "footman" + modifier "fish", so a bare "the
Rabbit" is part of "the White Rabbit" and "Fish-Footman" / "Frog-Footman" differ as two given names do. A role
title alone ("the King", "the Duchess", "the Doctor") is a descriptor whose head is that title (``role``).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from enum import Enum

from strata.resolve.given_names import census_genders
from strata.resolve.lexicon import (
    ADDRESS_PREFIXES,
    COMMON_GIVEN_NAMES,
    DISTINCT_QUALIFIERS,
    FEMALE_GIVEN_NAMES,
    GIVEN_NAME_CANONICAL,
    GIVEN_NAME_TITLES,
    HONORIFICS,
    INTERCHANGEABLE_HONORIFICS,
    MALE_GIVEN_NAMES,
    PLAIN_HONORIFICS,
    RELATION_NOUNS,
    SURNAME_PARTICLES,
    Gender,
)
from strata.resolve.normalize import canonical_honorific, fold_text

_RELATION_TAIL = re.compile(r"['\u2019\u02bc]s?\s+([^\W\d_]+)\s*$")

# Words that join several people into one phrase ("Giles and Brittles"): never part of one person's name.
COORDINATORS = frozenset({"and", "&", "or", "nor"})
# Possessive determiners that make a phrase relational ("her sister", "his father"): it names someone only
# through a person the words do not say, so it matches nothing but the same phrase.
POSSESSIVE_DETERMINERS = frozenset({"her", "his", "their", "your", "its", "our", "whose"})
# Titles that can name a role on their own ("the King", "the Duchess", "the Doctor") and so head a descriptor.
# Address titles ("Sir", "Madam", "Mr.", "Lady", "Mother") are said to many people and stay exact-only.
ADDRESS_TITLES = PLAIN_HONORIFICS | frozenset({"sir", "lord", "lady", "dame", "uncle", "aunt", "father", "mother",
                                               "brother", "sister"})
ROLE_TITLES = frozenset(HONORIFICS) - ADDRESS_TITLES
# Words that open a designation or complement after a name or a head ("of Pemberley", "with the Black Beard",
# "in Uniform", "at Oliver's Trial"): two phrases that both carry one and differ name two people.
COMPLEMENT_WORDS = frozenset({"of", "with", "in", "at", "from", "on"})
# Heads so general that sharing one says nothing ("a Man" / "the Invisible Man", "Small" / "a Small, Dark, Brisk
# Man"): a phrase with such a head relates only to the same words.
GENERIC_HEADS = frozenset({"man", "woman", "men", "women", "gentleman", "gentlemen", "lady", "ladies", "girl", "boy",
                           "child", "person", "people", "fellow", "voice", "youth", "lad", "creature", "figure"})
# Modifiers that say there is another one of the same head: "the Second Housemaid" is not "the Housemaid".
# "First" too: a first one says there are more ("the First Cabman" may be any of them, not "the Cabman").
OTHER_ONE_MODIFIERS = frozenset({"first", "second", "third", "fourth", "fifth", "other", "another", "next", "new"})


@dataclass(frozen=True)
class ParsedName:
    folded: str
    honorifics: tuple[str, ...] = ()
    given: tuple[str, ...] = ()
    surname: str | None = None
    # a single name token whose role (given or surname) cannot be told ("Darcy", "Jane")
    bare: str | None = None
    qualifiers: frozenset[str] = frozenset()
    # "of Hearts" in "the King of Hearts" (folded), kept only for a role title with no name ("the Duke of X")
    designation: str | None = None

    @property
    def role(self) -> str | None:
        """The role title a descriptor is named by alone ("the King", "the King of Hearts"), else None."""
        if self.name_tokens or len(self.honorifics) != 1 or self.honorifics[0] not in ROLE_TITLES:
            return None
        return self.honorifics[0]

    @property
    def name_tokens(self) -> tuple[str, ...]:
        if self.bare:
            return (self.bare,)
        return self.given + ((self.surname,) if self.surname else ())

    @property
    def genders(self) -> frozenset[Gender]:
        """From honorifics, else from a first given name of clear gender (every form must agree)."""
        from_titles = frozenset(g for h in self.honorifics if (g := HONORIFICS[h][0]) is not None)
        if from_titles:
            return from_titles
        first = self.given[0] if self.given else self.bare
        known = given_name_genders(first) if first else frozenset()
        if not known and self.given and self.surname and len(self.given[0]) > 1 and (
                census := census_genders().get(self.given[0])):
            # a given name before a surname ("Noah Claypole") beyond the built-in lists: the census lists decide;
            # never a lone word, which may be a surname ("Darcy")
            return frozenset({census})
        return known

    @property
    def marital(self) -> frozenset[str]:
        return frozenset(m for h in self.honorifics if (m := HONORIFICS[h][1]) is not None)


def given_name_genders(token: str) -> frozenset[Gender]:
    genders: set[Gender] = set()
    for canonical in given_forms(token):
        if canonical in FEMALE_GIVEN_NAMES:
            genders.add("f")
        if canonical in MALE_GIVEN_NAMES:
            genders.add("m")
    return frozenset(genders) if len(genders) == 1 else frozenset()


def given_forms(token: str) -> frozenset[str]:
    """The canonical given names a token may stand for, including itself ("lizzy" -> {elizabeth, lizzy})."""
    return GIVEN_NAME_CANONICAL.get(token, frozenset()) | {token}


def given_compatible(a: str, b: str) -> bool:
    """Same given name up to diminutives/spelling variants or an initial ("e" ~ "elizabeth")."""
    if a == b:
        return True
    if len(a) == 1 or len(b) == 1:
        return a[0] == b[0]
    return bool(given_forms(a) & given_forms(b))


def _strip_prefixes(tokens: list[str]) -> list[str]:
    changed = True
    while changed and tokens:
        changed = False
        for prefix in ADDRESS_PREFIXES:
            if len(tokens) > len(prefix) and tuple(tokens[: len(prefix)]) == prefix:
                tokens = tokens[len(prefix):]
                changed = True
                break
    return tokens


def parse_name(name: str) -> ParsedName:
    raw = unicodedata.normalize("NFKC", name).casefold().strip()
    qualifiers: set[str] = set()
    tokens = fold_text(raw).split()
    relation = _RELATION_TAIL.search(raw)
    # "Mr. Collins' father", "Fagin's Jailer": a noun after a possessive names someone else (not one whose own
    # name holds a possessive after a complement: "the Clerk at Oliver's Trial")
    if relation and len(tokens) > 1 and (relation.group(1) in RELATION_NOUNS or not COMPLEMENT_WORDS & set(
            fold_text(raw[:relation.start()]).split()[1:])):
        # "Mr. Collins' father" names the father, not Mr. Collins
        qualifiers.add(f"rel:{relation.group(1)}")
        tokens = tokens[:-1]
    folded = " ".join(tokens)
    if any(t in COORDINATORS for t in tokens[1:-1]):
        # "Oliver and Sikes", "Mr. and Mrs. Gardiner": several people; the phrase relates only to itself
        return ParsedName(folded=folded, qualifiers=frozenset({*qualifiers, "group"}), bare=folded)
    if len(tokens) > 1 and tokens[0] in POSSESSIVE_DETERMINERS:  # "her sister": whose, the words do not say
        qualifiers.add(f"of:{tokens[0]}")
        tokens = tokens[1:]
    honorifics: list[str] = []
    while True:
        tokens = _strip_prefixes(tokens)
        if len(tokens) > 1 and tokens[0] in DISTINCT_QUALIFIERS:
            qualifiers.add(tokens.pop(0))
        elif len(tokens) > 1 and (h := canonical_honorific(tokens[0])):
            honorifics.append(h)
            tokens.pop(0)
        else:
            break
    if tokens and (h := canonical_honorific(tokens[0])) and not honorifics and (
            len(tokens) == 1 or tokens[1] == "of"):  # "King", "King of Hearts": the title names the role
        honorifics.append(h)
        tokens.pop(0)
    designation = None
    if tokens and tokens[0] == "of" and honorifics:  # "the Duke of St. Austrey", "the Queen of Hearts"
        designation = " ".join(t for t in tokens[1:] if t not in ("the", "a", "an")) or None
        tokens = []
    if not tokens:
        return ParsedName(folded=folded, honorifics=tuple(honorifics), qualifiers=frozenset(qualifiers),
                          designation=designation)
    while tokens and tokens[-1] in DISTINCT_QUALIFIERS and len(tokens) > 1:  # "John Smith junior"
        qualifiers.add(tokens.pop())
    cut = next((i for i, t in enumerate(tokens) if i > 0 and t in COMPLEMENT_WORDS), None)
    if cut is not None:  # "Mr. Darcy of Pemberley", "the Man with the Black Beard", "the Clerk at the Trial"
        designation = " ".join(t for t in tokens[cut + 1:] if t not in ("the", "a", "an")) or None
        tokens = tokens[:cut]
    if "the" in tokens[1:-1]:
        # an epithet names one person among namesakes: "William the Conqueror" is not any William (nor Bill)
        cut = tokens.index("the", 1)
        qualifiers.add("epithet:" + " ".join(tokens[cut + 1:]))
        tokens = tokens[:cut]
    base = ParsedName(folded=folded, honorifics=tuple(honorifics), qualifiers=frozenset(qualifiers),
                      designation=designation)
    if len(tokens) == 1:
        token = tokens[0]
        if not honorifics:
            return _replace(base, bare=token)
        if honorifics[-1] in GIVEN_NAME_TITLES or token in COMMON_GIVEN_NAMES:
            return _replace(base, given=(token,))
        return _replace(base, surname=token)
    split = len(tokens) - 1
    # after a title the particles may open the surname ("Mr. de Bourgh"); without one, "Van" may be a given name
    while split > (0 if honorifics else 1) and tokens[split - 1] in SURNAME_PARTICLES:
        split -= 1
    return _replace(base, given=tuple(tokens[:split]), surname=" ".join(tokens[split:]) or None)


def _replace(p: ParsedName, **changes: object) -> ParsedName:
    return ParsedName(**{**p.__dict__, **changes})


class NameRelation(Enum):
    """How two parsed names relate, strongest first. CONFLICT forces "different"."""

    SAME = "bare_name"  # same name tokens, compatible honorifics
    DIMINUTIVE = "diminutive"  # same tokens up to diminutives
    PARTIAL = "partial"  # one is a part of the other ("Darcy" / "Fitzwilliam Darcy")
    PARTIAL_DIMINUTIVE = "partial_diminutive"  # part of the other through a diminutive ("Kitty" / "Catherine X")
    # title + surname vs a full name: the title form is shared by a family (Mrs. Bennet / Jane Bennet)
    SURNAME_ONLY = "surname_only"
    # a role named by its title alone vs a person bearing that title ("the Doctor" / "Dr. Kemp")
    ROLE = "role"
    NONE = "none"  # nothing in common
    CONFLICT = "conflict"


@dataclass(frozen=True)
class NameComparison:
    relation: NameRelation
    conflict: str | None = None


def honorific_conflict(a: ParsedName, b: ParsedName) -> str | None:
    if a.genders and b.genders and not (a.genders & b.genders):
        return "honorific_gender"
    if a.marital and b.marital and not (a.marital & b.marital):
        return "honorific_marital"
    # "Mrs. Forster" / "Colonel Forster", "Lady Darcy" / "Miss Darcy": title + surname alone is how a family's
    # members are told apart, so two different titles on one bare surname name two people.
    if (a.honorifics and b.honorifics and not a.given and not b.given and a.surname and a.surname == b.surname
            and not titles_overlap(a.honorifics, b.honorifics)):
        return "honorific_title"
    return None


def titles_overlap(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Some title of one is a title of the other, or stands for it ("Ms." for "Miss" or "Mrs.")."""
    return any(x == y or y in INTERCHANGEABLE_HONORIFICS.get(x, ()) for x in a for y in b)


def _single_vs_full(token: str, full: ParsedName) -> NameRelation:
    if token == full.surname or token in (full.surname or "").split():
        return NameRelation.PARTIAL
    if full.given and token == full.given[0]:
        return NameRelation.PARTIAL
    if full.given and given_compatible(token, full.given[0]) and len(token) > 1:
        return NameRelation.PARTIAL_DIMINUTIVE
    return NameRelation.NONE


def compare_names(a: ParsedName, b: ParsedName) -> NameComparison:
    """Relation between two person names, with the conflict rules that force "different"."""
    ta, tb = a.name_tokens, b.name_tokens
    if not ta or not tb:
        return _compare_titles_only(a, b)
    if (ta[-1] in GENERIC_HEADS or tb[-1] in GENERIC_HEADS) and ta != tb:
        return NameComparison(NameRelation.NONE)
    if ta[-1] == tb[-1] and len(ta) != len(tb) and OTHER_ONE_MODIFIERS & set(ta[:-1] + tb[:-1]):
        return NameComparison(NameRelation.CONFLICT, "other_one")  # "the Second Housemaid" / "the Housemaid"
    relation = _relation(a, b)
    if relation is not NameRelation.CONFLICT and a.designation and b.designation and a.designation != b.designation:
        return NameComparison(NameRelation.CONFLICT, "designation")  # "Queen of Hearts" / "Queen of Spades"
    if relation is NameRelation.SAME and bool(a.designation) != bool(b.designation):
        if ta[-1] in GENERIC_HEADS:  # "the Man on the Floor" is told by its complement; "the Man" is anyone
            return NameComparison(NameRelation.NONE)
        relation = NameRelation.PARTIAL  # "the Knave" is part of "the Knave of Hearts"
    if relation is NameRelation.CONFLICT:
        return NameComparison(relation, "given_name" if a.surname == b.surname else "surname")
    if relation is NameRelation.NONE:
        return NameComparison(relation)
    if a.qualifiers != b.qualifiers:
        return NameComparison(NameRelation.CONFLICT, "qualifier")
    if conflict := honorific_conflict(a, b):
        return NameComparison(NameRelation.CONFLICT, conflict)
    return NameComparison(relation)


def _compare_titles_only(a: ParsedName, b: ParsedName) -> NameComparison:
    """One side has no name, only titles. An address title ("Sir", "Madam") relates only to itself; a role
    title ("the King") is a descriptor: the same role with one designation missing is part of the other ("the
    Queen" / "the Queen of Hearts"), two designations that differ are two people, and a person bearing the title
    ("Dr. Kemp" for "the Doctor") is only possible."""
    if a.folded == b.folded:
        return NameComparison(NameRelation.SAME)
    role_a, role_b = a.role, b.role
    if role_a and role_a == role_b:
        if a.qualifiers != b.qualifiers:
            return NameComparison(NameRelation.CONFLICT, "qualifier")
        if a.designation == b.designation:
            return NameComparison(NameRelation.SAME)
        if a.designation and b.designation:
            return NameComparison(NameRelation.CONFLICT, "designation")
        return NameComparison(NameRelation.PARTIAL)
    role, other = (role_a, b) if role_a else (role_b, a)
    if role and other.name_tokens and role in other.honorifics and not (a.qualifiers | b.qualifiers):
        return NameComparison(NameRelation.ROLE)
    return NameComparison(NameRelation.NONE)


def _relation(a: ParsedName, b: ParsedName) -> NameRelation:
    ta, tb = a.name_tokens, b.name_tokens
    if ta == tb or "".join(ta) == "".join(tb):  # "Station-Master" / "Stationmaster"
        return NameRelation.SAME
    if len(ta) == len(tb) == 2 and ta == tb[::-1] and not (a.honorifics or b.honorifics):
        return NameRelation.SAME  # written surname first, as lists and indexes do: "Wilcox Charles"
    if len(ta) == 1 and len(tb) == 1:
        # a lone initial ("Mr. B", "Mr. E.") stands for no name in particular: only its other words can tell
        if min(len(ta[0]), len(tb[0])) == 1:
            return NameRelation.NONE
        return NameRelation.DIMINUTIVE if given_compatible(ta[0], tb[0]) else NameRelation.NONE
    if len(ta) == 1 or len(tb) == 1:
        single, full = (a, b) if len(ta) == 1 else (b, a)
        if single.surname and full.surname:  # "Mrs. Bennet" vs "Jane Bennet": roles known
            if single.surname != full.surname:
                return NameRelation.NONE
            # the same plain title on both ("Mrs. Lynde" / "Mrs. Rachel Lynde") is the one person named shorter;
            # a title against an untitled full name may be a relative ("Mrs. Bennet" / "Jane Bennet"), and a rank
            # before a given name is a courtesy title of its own ("Lady Anne Darcy" is not "Lady Darcy")
            if (single.honorifics and full.honorifics and titles_overlap(single.honorifics, full.honorifics)
                    and set(single.honorifics + full.honorifics) <= PLAIN_HONORIFICS):
                return NameRelation.PARTIAL
            return NameRelation.SURNAME_ONLY
        return _single_vs_full(single.name_tokens[0], full)
    # both have given names and a surname
    if a.surname != b.surname:
        same_given = bool(a.given and b.given and given_compatible(a.given[0], b.given[0]))
        return NameRelation.CONFLICT if same_given else NameRelation.NONE
    ga, gb = a.given, b.given
    if not all(given_compatible(x, y) for x, y in zip(ga, gb, strict=False)):
        return NameRelation.CONFLICT
    if len(ga) != len(gb):
        return NameRelation.PARTIAL  # "Anne de Bourgh" vs "Anne Catherine de Bourgh"
    return NameRelation.DIMINUTIVE
