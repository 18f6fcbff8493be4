"""The consolidation rules for characters named by a description ("the Beadle", "the Doctor"): such a character
joins a named one only on evidence in the text, and only when no other character of the cast has its head.
Pure, like `strata.resolve.consolidate`, which runs them after the name rules.

- ``described``: the text ties the description to one named person ("Mr. Bumble, the beadle", "the stranger
  was Griffin": ``described_as`` facts from ingest/extractors/appositions.py), and to nobody else;
- ``role_title``: the description is a title alone ("the Doctor") and one named person bears it ("Dr. Kemp"),
  with a scene where both are written.
Two people of one role (two policemen, "the First Cabman" beside "the Cabman") are never joined: a description
with another of its head in the cast, or tied to two names, stays itself.
"""

from __future__ import annotations

from collections.abc import Sequence

from strata.resolve.cast import Cast, Described, Member, kept_apart, score, shared_scene
from strata.resolve.names import parse_name
from strata.resolve.normalize import LEADING_ARTICLES


def is_description(m: Member) -> bool:
    """Named by a description: its name opens with an article ("the Beadle", "the Man with the Black Beard")."""
    return m.forms[0].split()[0].lower() in LEADING_ARTICLES


def head(form: str) -> str | None:
    """The word a description is a kind of: its last name word ("beadle", "policeman"), or its title alone
    ("dr" for "the Doctor")."""
    parsed = parse_name(form)
    return parsed.name_tokens[-1] if parsed.name_tokens else parsed.role


def _heads(m: Member) -> set[str]:
    return {h for f in m.forms if (h := head(f))}


def _rivals(cast: Cast, d: Member, x: Member) -> bool:
    """Another description of the cast with a head of ``d``'s: the text may mean either."""
    mine = _heads(d)
    return any(o.uuid not in (d.uuid, x.uuid) and is_description(o) and mine & _heads(o)
               for o in cast.members.values())


def _joinable(cast: Cast, d: Member, x: Member) -> bool:
    return (is_description(d) and not is_description(x) and not kept_apart(d, x)
            and score(d, x).conflict is None and not _rivals(cast, d, x))


def described(cast: Cast, ties: Sequence[Described]) -> bool:
    """A description the text ties to exactly one named member joins it."""
    named_by: dict[str, set[str]] = {}
    for t in ties:
        desc, name = cast.current(t.description), cast.current(t.named)
        if desc != name and desc in cast.members and name in cast.members:
            named_by.setdefault(desc, set()).add(name)
    for uuid, named in sorted(named_by.items()):
        if len(named) != 1:
            continue
        d, x = cast.members[uuid], cast.members[next(iter(named))]
        if _joinable(cast, d, x):
            cast.merge(d, x, "described_as", "the text says this description is this person", score(d, x))
            return True
    return False


def role_title(cast: Cast) -> bool:
    """"the Doctor" joins "Dr. Kemp" when he is the book's only named doctor and some episode writes both."""
    for d in reversed(cast.by_size()):
        if not is_description(d):
            continue
        parsed = parse_name(d.forms[0])
        role = parsed.role
        if role is None or parsed.designation:
            continue
        bearers = [o for o in cast.members.values() if o.uuid != d.uuid and not is_description(o)
                   and any(role in p.honorifics and p.name_tokens for p in o.parsed)]
        surnames = {p.surname or p.bare for o in bearers for p in o.parsed if role in p.honorifics and p.name_tokens}
        if len(bearers) != 1 or len(surnames) != 1:
            continue
        x = bearers[0]
        if shared_scene(d, x) and _joinable(cast, d, x):
            cast.merge(d, x, "role_title", f"the only named bearer of the title {role!r}", score(d, x))
            return True
    return False
