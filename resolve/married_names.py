"""The consolidation rules for married names: "Mrs. Collins" is the woman the book marries to the only Mr.
Collins, and "Mrs. Weston (poor Miss Taylor that was)" is Miss Taylor. Pure, like `strata.resolve.consolidate`,
which runs them after the family-name rules (`strata.resolve.family_rules`)."""

from __future__ import annotations

from collections.abc import Sequence

from strata.resolve.cast import Cast, Described, Marriage, Member, kept_apart, score, smaller_first
from strata.resolve.description_rules import is_description
from strata.resolve.family_rules import holders_any

# A married name already in use before its marriage is told names someone else (his mother, a first wife, a
# widow of the name): refused when more than this share of its episodes come before the first one stating it.
MARRIED_BEFORE_SHARE = 0.25


def married_form(m: Member) -> tuple[str, str | None] | None:
    """(surname, the husband's given name or None) when every form of ``m`` is a married title + one surname
    ("Mrs. Collins"), or + the husband's given name as well ("Mrs. John Knightley"), else None."""
    titled = [p for p in m.parsed if not p.bare]
    if not titled or any(p.honorifics != ("mrs",) or not p.surname or len(p.given) > 1 for p in titled):
        return None
    surnames = {p.surname for p in titled if p.surname}
    givens = {p.given[0] for p in titled if p.given}
    if len(surnames) != 1 or len(givens) > 1:
        return None
    return next(iter(surnames)), next(iter(givens), None)


def _husband(cast: Cast, m: Member, surname: str, given: str | None, blocks: dict[str, set[str]]) -> Member | None:
    """The only man of the married name: of that surname, and of that given name when the name carries one
    ("Mrs. John Knightley" is Mr. John Knightley's wife, whoever else of the family is a Mr. Knightley)."""
    men = [o for o, _ in holders_any(cast, m, surname, blocks) if o.genders == {"m"}]
    if given is not None:
        men = [o for o in men if any(p.given[:1] == (given,) and p.surname == surname for p in o.parsed)]
    return men[0] if len(men) == 1 else None


def _taken(cast: Cast, w: Member, husband: Member, marriages: Sequence[Marriage]) -> bool:
    """``w`` is married under another name to another man: a "Mrs. Z" the facts marry to a man of surname Z
    ("Mrs. Bennet" of Mr. Bennet is no bride of Mr. Collins, whatever a stray fact says). A widow of that name
    with no husband in the facts ("Mrs. Corney") may marry again."""
    own = {p.surname for p in w.parsed if "mrs" in p.honorifics and p.surname} - husband.surnames()
    for x in marriages:
        a, b = cast.current(x.a), cast.current(x.b)
        if x.predicate != "spouse_of" or w.uuid not in (a, b):
            continue
        other = cast.members.get(b if a == w.uuid else a)
        if other is not None and other is not husband and other.genders == {"m"} and own & other.surnames():
            return True
    return False


def _told_before(m: Member, seq: int | None, position: int | None) -> bool:
    """The married name is not in use before the marriage is told: at most MARRIED_BEFORE_SHARE of its episodes
    come before the first episode stating it (a narrator uses the new name a little before telling the wedding;
    his mother, a first wife or a widow of the name are written long before). Without the episode, the story
    position: stated before the married name first appears."""
    if seq is not None:
        return sum(1 for e in m.episodes if e < seq) <= MARRIED_BEFORE_SHARE * m.mentions
    pos = position if position is not None else m.first_position
    return pos <= m.first_position


def married_name(cast: Cast, marriages: Sequence[Marriage]) -> bool:
    """"Mrs. Collins" ("Mrs. John Knightley") is the woman married to the only Mr. Collins (Mr. John Knightley):
    the one woman the book marries to him, or engages to him while it no longer calls her Miss, not married
    under another name to another man, when the married name is not in use before the marriage is told; two
    such women are a suggestion."""
    blocks = cast.blocks()
    for m in cast.by_size():
        found = married_form(m)
        if found is None:
            continue
        husband = _husband(cast, m, *found, blocks)
        if husband is None:
            continue
        told: dict[str, list[Marriage]] = {}
        for x in marriages:
            a, b = cast.current(x.a), cast.current(x.b)
            if husband.uuid not in (a, b) or a == b:
                continue
            wife = b if a == husband.uuid else a
            if wife != m.uuid and wife in cast.members:
                told.setdefault(wife, []).append(x)
        women = {}
        for wife, facts in sorted(told.items()):
            w = cast.members[wife]
            if w.genders - {"f"} or _taken(cast, w, husband, marriages):
                continue
            maiden = any("miss" in p.honorifics for p in w.parsed)
            # still called Miss and only engaged: a proposal or a rumour has not changed her name
            kept = [x for x in facts if x.predicate == "spouse_of" or not maiden]
            if kept:
                women[wife] = kept
        if len(women) != 1:
            if women:
                cast.suggest(m, [cast.members[w] for w in sorted(women)], "married_name")
            continue
        wife, facts = next(iter(women.items()))
        first = min(facts, key=lambda x: (x.seq is None, x.seq or 0, x.position or 0))
        bride = cast.members[wife]
        if kept_apart(m, bride) or m.genders - {"f"} or not _told_before(m, first.seq, first.position):
            continue
        cast.merge(m, bride, "married_name", "the woman married to the only man of this name", score(m, bride))
        return True
    return False


def maiden_name(cast: Cast, ties: Sequence[Described]) -> bool:
    """"Mrs. Weston (poor Miss Taylor that was)", "Mrs. Bumble, formerly Mrs. Corney", "Isabella, now Mrs. John
    Knightley": the text says a married name is a woman's former name (a ``described_as`` tie between two
    names, ingest/extractors/name_change.py). Joined when the married name is tied to that one name only and
    that name to no other married name, and neither is a man or kept apart from the other."""
    tied: dict[str, set[str]] = {}
    for t in ties:
        a, b = cast.current(t.named), cast.current(t.description)
        if a != b and a in cast.members and b in cast.members and married_form(cast.members[a]) is not None:
            tied.setdefault(a, set()).add(b)
    for uuid, names in sorted(tied.items()):
        if len(names) != 1:
            continue
        m, w = cast.members[uuid], cast.members[next(iter(names))]
        if any(uuid != a and w.uuid in others for a, others in tied.items()):
            continue  # one name tied to two married names: which is she?
        if is_description(w) or (m.genders | w.genders) - {"f"} or kept_apart(m, w):
            continue  # "Mrs. Bernstone, the housekeeper" is a description tie: `described` weighs its rivals
        cast.merge(*smaller_first(m, w), "maiden_name", "the text names this woman's former name", score(m, w))
        return True
    return False
