"""Clean a book's cast before consolidating it: names that sit on the wrong entity are split off. Pure.

Two cases, both left by merges inside single episodes:
- one entity holds titles of two genders ("Gardiner" with "Mr. Gardiner" and "Mrs. Gardiner"): the forms of
  the gender the book writes less often leave (to the entity named so, else to a new one);
- an alias that is another entity's own name and that the rules relate only weakly to the holder's name
  ("Kitty" on "Lady Catherine" while "Kitty" is an entity of her own): it goes to that entity;
- a bare surname on a woman named by title ("Hall" on "Mrs. Hall") while the book has a man named by title with
  that surname ("Mr. Hall"): a narrator names men by bare surname, women by title, so it goes to him.
The caller moves the names with the episodes that used only them (graph/split.py) and reads the cast again.
"""

from __future__ import annotations

from collections.abc import Sequence

from strata.resolve.cast import CastMember
from strata.resolve.names import parse_name
from strata.resolve.normalize import fold_name
from strata.resolve.scoring import MERGE_THRESHOLD, score_pair
from strata.resolve.types import CandidateEntity, MentionCandidate
from strata.schema.models import Frozen


class CastSplit(Frozen):
    entity_uuid: str
    forms: list[str]
    into_uuid: str | None = None  # None: the entity these names make
    rule: str
    reason: str


def _title_gender(form: str) -> str | None:
    p = parse_name(form)
    genders = p.genders if p.honorifics else frozenset()
    return next(iter(genders)) if len(genders) == 1 else None


def _self_conflict(m: CastMember, named: dict[str, CastMember]) -> CastSplit | None:
    forms = list(dict.fromkeys([m.name, *m.aliases]))
    by_gender: dict[str, list[str]] = {}
    for f in forms:
        if (g := _title_gender(f)) is not None:
            by_gender.setdefault(g, []).append(f)
    if len(by_gender) < 2:
        return None
    own = _title_gender(m.name)
    if own is None:
        own = max(sorted(by_gender), key=lambda g: sum(m.form_episodes.get(f, 0) for f in by_gender[g]))
    leaving = [f for g, fs in sorted(by_gender.items()) if g != own for f in fs]
    target = next((named[fold_name(f)].uuid for f in leaving if fold_name(f) in named), None)
    return CastSplit(entity_uuid=m.uuid, forms=leaving, into_uuid=target if target != m.uuid else None,
                     rule="split:two_genders", reason="titles of two genders on one entity")


def _foreign_aliases(m: CastMember, named: dict[str, CastMember]) -> list[CastSplit]:
    out = []
    for alias in {fold_name(a): a for a in reversed(m.aliases)}.values():  # one split per spelling
        other = named.get(fold_name(alias))
        if other is None or other.uuid == m.uuid or fold_name(alias) == fold_name(m.name):
            continue
        fit = score_pair(MentionCandidate(name=alias, type="Person"),  # one entity's names: seen together
                         CandidateEntity(uuid=m.uuid, name=m.name, type="Person"), scene=True)
        if fit.score < MERGE_THRESHOLD:
            out.append(CastSplit(entity_uuid=m.uuid, forms=[alias], into_uuid=other.uuid, rule="split:foreign_alias",
                                 reason=f"{alias!r} is another entity's name and only weakly {m.name!r}"))
    return out


def _bare_surname_of_a_man(m: CastMember, men: dict[str, CastMember]) -> CastSplit | None:
    """A lone surname on a woman ("Hall" on "Mrs. Hall", "Andrews" on "Jane Andrews") while a man of the book
    bears that surname under "Mr.": it is his."""
    parsed = [parse_name(f) for f in (m.name, *m.aliases)]
    if {g for p in parsed for g in p.genders} != {"f"}:
        return None
    surnames = {p.surname for p in parsed if p.surname}
    bare = [a for a, p in zip(m.aliases, parsed[1:], strict=True)
            if p.bare in surnames and not p.honorifics and fold_name(a) != fold_name(m.name)]
    man = next((men[f"mr {fold_name(b)}"] for b in bare if f"mr {fold_name(b)}" in men), None)
    if not bare or man is None or man.uuid == m.uuid:
        return None
    forms = [b for b in bare if f"mr {fold_name(b)}" in men and men[f"mr {fold_name(b)}"] is man]
    return CastSplit(entity_uuid=m.uuid, forms=forms, into_uuid=man.uuid, rule="split:bare_surname_of_a_man",
                     reason=f"a lone surname names the man of the family ({man.name!r}), not {m.name!r}")


def cleanup(members: Sequence[CastMember]) -> list[CastSplit]:
    """Splits to apply before merging, one per (entity, destination)."""
    named: dict[str, CastMember] = {}
    men: dict[str, CastMember] = {}  # "mr <surname>" -> the most mentioned entity holding it
    for m in sorted(members, key=lambda m: (-len(m.episodes), m.uuid)):  # a name's entity: its most mentioned
        named.setdefault(fold_name(m.name), m)
        for f in (m.name, *m.aliases):
            p = parse_name(f)
            if p.honorifics == ("mr",) and p.surname and not p.given:
                men.setdefault(f"mr {p.surname}", m)
    out: list[CastSplit] = []
    for m in members:
        conflict = _self_conflict(m, named)
        if conflict is not None:
            out.append(conflict)
        foreign = [s for s in _foreign_aliases(m, named)
                   if not conflict or fold_name(s.forms[0]) not in {fold_name(f) for f in conflict.forms}]
        out += foreign
        bare = None if conflict else _bare_surname_of_a_man(m, men)
        if bare is not None and not {fold_name(f) for f in bare.forms} & {fold_name(s.forms[0]) for s in foreign}:
            out.append(bare)
    return out
