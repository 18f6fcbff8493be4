"""Who a description in a speech tag is within its window: the named person it stands for, or itself.

"said the colonel" after "Colonel Ford" is Colonel Ford; "said the doctor" in an exchange whose only untagged
named man is Mr. Lane is Mr. Lane; "said the mariner" with neither stays "the Mariner", a character of its own.
Apart from tag_descriptors (which reads a description out of text) because it needs the window's people.
"""

from __future__ import annotations

from strata.ingest.extractors.exchange_people import People, merge
from strata.ingest.extractors.narration_people import Window
from strata.ingest.extractors.tag_descriptors import gender, head_of
from strata.ingest.extractors.turns import Turn
from strata.resolve.normalize import canonical_honorific

TITLE_REACH = 3000  # characters back a title-bearing name is looked for ("the colonel" -> "Colonel Ford")


def speaker(win: Window, name: str, pos: int) -> str:
    """Whom a naming description is in the window at ``pos``: the latest name that bears its head as a title
    ("Colonel Ford" for "the colonel"), else the description itself, known to the window from here on (with
    the gender its noun tells) so that a later "said he" can point back at it."""
    head = head_of(name)
    title = canonical_honorific(head) or head
    for m in reversed(win.mentions):
        if m.pos >= pos:
            continue
        if pos - m.pos > TITLE_REACH:
            break
        first = m.name.split()[0].lower().rstrip(".")
        if len(m.name.split()) > 1 and (canonical_honorific(first) or first) == title:
            return m.name
    told = gender(head)
    if told is not None:
        win.described_gender.setdefault(name, told)
    return name


def join_epithets(people: People, turns: list[Turn], named_tags: set[str], narrated: set[str]) -> None:
    """A description that tags an exchange ("said the doctor") is the one person the exchange's narration names
    ("Mr. Lane") who never gets a tag by name there, of the description's gender: a novel calls a named character
    by role too. With no such person, or two, the description stays its own character ("said the mariner")."""
    for described in [n for n in people.names if n.startswith("the ")]:
        gender = people.gender(described)
        if gender is None:
            continue
        named = {x for x in narrated if x in people.names and not x.startswith("the ") and x not in named_tags
                 and x != "I" and people.gender(x) == gender}
        if len(named) == 1:
            merge(people, turns, described, named.pop())
