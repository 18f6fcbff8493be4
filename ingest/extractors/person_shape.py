"""Names shaped like a person's, whatever type the small spaCy model guessed.

The small model tags "Eleanor Marsh" an organization and "Lydia" a place about as often as a person; a type of
another class then keeps the name apart from the same person's other names for good (resolution never joins a
Person and a Place). Three kinds of evidence in one episode make a name a Person:
- it opens with a given name of clear gender and its other words are capitalized name words, not the head of a
  place or an institution ("Eleanor Marsh", not "Victoria Station");
- it is one given name of clear gender that the model also tagged a person once in the episode, or that speaks
  or is spoken to in a quote;
- it is one word that the episode also writes after a title ("Bingley" beside "Mr. Bingley").
"""

from __future__ import annotations

from collections.abc import Iterable

from strata.ingest.extractors.gender import given_name_gender
from strata.resolve.lexicon import HONORIFICS

# Words that end place and institution names; a name ending in one is not a person ("Elizabeth Street").
PLACE_HEADS = frozenset({
    "street", "road", "lane", "square", "place", "park", "hall", "house", "lodge", "court", "castle", "abbey",
    "church", "chapel", "college", "university", "school", "station", "bridge", "hill", "river", "lake", "bay",
    "island", "county", "town", "city", "village", "inn", "hotel", "arms", "company", "bank", "society", "club",
    "manor", "farm", "green", "cross", "gardens", "terrace", "row", "wood", "forest", "hospital", "museum",
    "theatre", "theater", "library", "mountains", "valley", "airport", "corporation", "institute", "foundation",
})
# Of those, the words that end a place's name and almost never a family name ("Lane", "Hill", "Green", "Hall"
# are surnames too): a name of two words or more after its titles that ends in one names a place, whatever the
# model tagged ("Trafalgar Square", "King Edward Street", "Waterloo Bridge").
PLACE_ONLY_HEADS = frozenset({
    "street", "road", "square", "bridge", "station", "avenue", "terrace", "crescent", "gardens", "embankment",
    "quay", "wharf", "college", "university", "school", "hospital", "museum", "theatre", "theater", "library",
    "hotel", "company", "society", "club", "institute", "corporation", "foundation", "county", "airport",
    "cathedral", "abbey", "chapel",
})
MAX_PERSON_TOKENS = 3


def _words(name: str) -> list[str]:
    return name.replace(".", ". ").split()


def given_name_led(name: str) -> bool:
    """Two or three capitalized words led by a given name of clear gender, not ending in a place word."""
    words = _words(name)
    if not 2 <= len(words) <= MAX_PERSON_TOKENS or not all(w[:1].isupper() and w.isalpha() for w in words):
        return False
    if words[0].lower().strip(".") in HONORIFICS or words[-1].lower() in PLACE_HEADS:
        return False
    return given_name_gender(words[0]) is not None


def place_shaped(name: str) -> bool:
    """Two or more capitalized words after any titles, the last a word that ends only places' names."""
    words = _words(name)
    while words and words[0].lower().strip(".") in HONORIFICS:
        words = words[1:]
    return (len(words) >= 2 and all(w[:1].isupper() for w in words)
            and words[-1].lower().strip(".,") in PLACE_ONLY_HEADS)


def person_names(names: Iterable[str], person_once: set[str], quote_parties: set[str]) -> set[str]:
    """The names (of ``names``) this episode's evidence makes persons. ``person_once``: names the model tagged
    a person at least once; ``quote_parties``: names that speak or are spoken to."""
    names = list(names)
    titled_surnames = {words[-1].lower() for n in names
                       if len(words := _words(n)) == 2 and words[0].lower().strip(".") in HONORIFICS}
    out = set()
    for name in names:
        words = _words(name)
        if given_name_led(name):
            out.add(name)
        elif len(words) == 1 and words[0].isalpha() and words[0][:1].isupper():
            single = words[0]
            if single.lower() in titled_surnames:
                out.add(name)
            elif given_name_gender(single) is not None and (name in person_once or name in quote_parties):
                out.add(name)
    return out
