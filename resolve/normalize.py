"""Text folding and the entity key used for the (group_id, key) uniqueness constraint.

Key = "<class>:<folded name>" when the type maps to a coarse ontology class (person, place, ...), and the
bare folded name for generic/unknown types ("Entity"). So a Person "Paris" and a Place "Paris" can coexist,
while "City" and "Place" share one key. Honorifics stay in the key ("mr bennet" != "mrs bennet"); spelled
out or dotted forms fold to one spelling ("Mr." == "Mr" == "Mister").
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from strata.resolve.lexicon import HONORIFIC_VARIANTS, HONORIFICS
from strata.resolve.ontology import Ontology, load_ontology
from strata.schema.errors import InputError

_APOSTROPHES = "'\u2019\u2018\u02bc`\u00b4"
_POSSESSIVE = re.compile(r"(?<=\w)['\u2019\u02bc]s\b")  # "Darcy's" -> "Darcy"
_TRAILING_APOSTROPHE = re.compile(r"(?<=s)['\u2019\u02bc](?=\s|$)")  # "Collins'" -> "Collins"
_DROP = re.compile(rf"[{_APOSTROPHES}.]")  # joined, not split: "O'Brien" -> "obrien", "Mr." -> "mr"
_NON_WORD = re.compile(r"[\W_]+")


@lru_cache(maxsize=65536)
def fold_text(text: str) -> str:
    """NFKC, casefold, accents removed, possessives and punctuation stripped, whitespace collapsed."""
    text = unicodedata.normalize("NFKC", text).casefold()
    text = _POSSESSIVE.sub("", text)
    text = _TRAILING_APOSTROPHE.sub("", text)
    # accents: "Zoë" and "Zoe" are one key
    text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    text = _DROP.sub("", text)
    return " ".join(_NON_WORD.sub(" ", text).split())


def canonical_honorific(token: str) -> str | None:
    """Canonical honorific for a folded token ("mister" -> "mr"), None if it is not one."""
    token = HONORIFIC_VARIANTS.get(token, token)
    return token if token in HONORIFICS else None


@lru_cache(maxsize=65536)
def fold_name(name: str) -> str:
    """fold_text plus canonical spelling of a leading honorific."""
    tokens = fold_text(name).split()
    if tokens:
        tokens[0] = canonical_honorific(tokens[0]) or tokens[0]
    return " ".join(tokens)


# Leading words a name may be written with or without ("the King of Hearts", "a Cook"); never part of a key's
# identity for matching, though the key itself keeps them (keys of stored names stay as they were).
LEADING_ARTICLES = frozenset({"the", "a", "an"})


@lru_cache(maxsize=65536)
def match_form(name: str) -> str:
    """The form two names are compared in when asking "is this the same name": fold_name of the name without a
    leading article, its first remaining word's honorific spelled one way ("The King Of Hearts", "the king of
    hearts" and "King of Hearts" are one form; "The Doctor" is "dr"). Not a key: ``entity_key`` is unchanged."""
    tokens = fold_text(name).split()
    while len(tokens) > 1 and tokens[0] in LEADING_ARTICLES:
        tokens = tokens[1:]
    if tokens:
        tokens[0] = canonical_honorific(tokens[0]) or tokens[0]
    return " ".join(tokens)


def type_class(type_name: str | None, ontology: Ontology | None = None) -> str | None:
    return (ontology or load_ontology()).type_class(type_name)


def entity_key(name: str, type: str | None = "Entity", ontology: Ontology | None = None) -> str:
    """The normalized key of an entity: "<class>:<folded name>" or the folded name for generic types."""
    folded = fold_name(name)
    if not folded:
        raise InputError(f"entity name {name!r} has no letters or digits", {"name": name})
    cls = type_class(type, ontology)
    return f"{cls}:{folded}" if cls else folded


def name_keys(name: str, ontology: Ontology | None = None) -> list[str]:
    """Every key an entity of this name can have: the generic one and one per class of the ontology (a key
    names its class, never the type, so this needs no look at which types a group uses); a hyphened name
    asks for its joined key too ("The Station-Master" is also written "the Stationmaster"). Empty for a name
    without letters or digits."""
    onto = ontology or load_ontology()
    forms = [name, *([re.sub(r"\s*[-\u2010\u2011]\s*", "", name)] if re.search(r"\w[-\u2010\u2011]\w", name) else [])]
    folded = {f for f in map(fold_name, forms) if f}
    return sorted(folded | {f"{cls}:{f}" for cls in onto.classes for f in folded})
