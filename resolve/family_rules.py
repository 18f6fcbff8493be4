"""The consolidation rules that read family names: a title + surname, a lone surname, a married name and "Miss
<Surname>" each join the one member of the family the book's names and scenes point to (or leave a suggestion).
Pure, like `strata.resolve.consolidate`, which runs them in its order."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from strata.resolve.cast import (
    Cast,
    Member,
    contested,
    kept_apart,
    other_surnames,
    score,
    settled,
    shared_scene,
    smaller_first,
    viable,
)
from strata.resolve.decide import PROMINENCE_MIN, PROMINENCE_RATIO
from strata.resolve.names import parse_name
from strata.resolve.types import MatchScore

# Miss <Surname> names the eldest unmarried daughter: the sister whose episodes it shares far more than chance
# (lift over both their frequencies) is taken when her lift is this ratio above the next sister's and above
# chance (1.0); only sisters sharing at least MISS_MIN_SHARED episodes with it compete.
MISS_LIFT_RATIO = 1.5
MISS_MIN_SHARED = 3
# A sister for "Miss <Surname>" bears no title but these ("Lady Catherine de Bourgh" is the mother).
UNMARRIED_TITLES = frozenset({"miss", "ms", "master"})
# Kin words said as titles tell nothing of a marriage: "Aunt Emma" (her nephews' word) is Miss Woodhouse, "Aunt
# Josephine" is Miss Barry; beside "Miss" they are no other title.
KIN_TITLES = frozenset({"aunt", "uncle"})
MAIDEN_TITLES = UNMARRIED_TITLES | KIN_TITLES
# Titles a family form may bear to join the one full name of its gender (`only_full_name`); not "Mrs." (a
# married name: `married_name`) nor ranks ("Lady", "Colonel": a courtesy or a post, often another relative).
FAMILY_TITLES = frozenset({"mr", "miss", "ms", "master"})
# Titles said before a given name as well as a surname ("Mrs. Rachel", "Miss Emma", "Master Charley").
PLAIN_TITLES = frozenset({"mr", "mrs", "miss", "ms", "master"})


def _family_form(m: Member) -> tuple[str, str] | None:
    """(surname, gender) when every form of ``m`` is one plain title of one gender + one surname, or that surname
    alone ("Mr. Sikes", "Sikes"; "Miss Smith"), a married title aside (`married_name`), else None."""
    titled = [p for p in m.parsed if p.honorifics and not p.given and p.surname]
    surnames = Counter(p.surname for p in titled if p.surname)
    titles = {h for p in titled for h in p.honorifics}
    if not titled or len(m.genders) != 1 or not titles <= FAMILY_TITLES:
        return None
    # the plural and the clipped forms the extractor leaves ("Miss Smiths", "Mr. Sike") are the same name
    stems = {_stem(x) for x in surnames} | {_stem(p.bare) for p in m.parsed if p.bare}
    if len(stems) != 1 or len(titled) + sum(1 for p in m.parsed if p.bare and not p.honorifics) != len(m.parsed):
        return None
    return surnames.most_common(1)[0][0], next(iter(m.genders))


def _stem(surname: str) -> str:
    return surname[:-1] if surname.endswith("s") and len(surname) > 3 else surname


def _title_and_one_word(m: Member) -> tuple[str, str] | None:
    """(word, gender) when every form of ``m`` is one plain title of one gender + one word ("Mrs. Rachel", "Mr.
    Thaddeus"), or that word alone."""
    words = {p.surname or p.bare for p in m.parsed if not p.given}
    titled = [p for p in m.parsed if p.honorifics]
    if (len(words) != 1 or not titled or len(m.genders) != 1 or any(p.given for p in m.parsed)
            or not {h for p in titled for h in p.honorifics} <= PLAIN_TITLES):
        return None
    word = next(iter(words))
    return (word, next(iter(m.genders))) if word else None


def title_given(cast: Cast) -> bool:
    """"Mrs. Rachel", "Mr. Thaddeus": a title before a given name, as servants and neighbours say it, joins the
    only person of that gender the book names in full with that given name, when the word is nobody's surname,
    that person is as present and they share a scene ("Mr. Darcy" stays a surname: Darcy is one)."""
    blocks = cast.blocks()
    surnames = {x for o in cast.members.values() for p in o.parsed if p.given and p.surname for x in [p.surname]}
    for m in cast.by_size():
        found = _title_and_one_word(m)
        # nobody's surname, nor another's title + surname ("Mrs. Hughes" beside "Dr. Hughes")
        if found is None or found[0] in surnames or any(
                p.honorifics and p.surname == found[0] for o in cast.members.values() if o is not m
                for p in o.parsed):
            continue
        word, gender = found
        # every member, not only the blocked neighbours: a word no list knows as a given name ("Mr. Sherlock")
        # parses as a surname and shares no key with "Sherlock Holmes"
        named = [o for o in cast.members.values()
                 if o is not m and any(p.given and p.surname and len(p.surname) > 1 and p.given[0] == word
                                       for p in o.parsed)]
        could = [o for o in named if gender in o.genders or not o.genders]
        # a given name the lists do not know ("Sherlock Holmes") is the one when it is the only one so named
        if len(could) != 1 or could[0].genders != {gender} and (could[0].genders or len(named) != 1):
            continue
        o = could[0]
        if kept_apart(m, o) or o.mentions < m.mentions or not shared_scene(m, o) or not settled(cast, m, o, blocks):
            continue
        cast.merge(m, o, "title_given", "a title before the given name of the only such person", score(m, o))
        return True
    return False


def title_surname(cast: Cast) -> bool:
    """"Mr. Bingley", "Mr. Sikes" (who is also called "Sikes"), "Miss Smith": a family form (one plain title of
    one gender + a surname, or that surname alone) joins the only person of that gender the book names in full
    with that surname, when they share a scene. Among several, a member the book tells apart by writing the
    title before a given name as well ("Mr. John Knightley") is not the one the bare title means ("Mr.
    Knightley" is George). Any other full name of the surname whose gender is not known leaves it, unless far
    less present than the one known; a "Miss" is no woman named under another title ("Lady Anne Darcy")."""
    blocks = cast.blocks()
    for m in cast.by_size():
        found = _family_form(m)
        if found is None:
            continue
        surname, gender = found
        titles = {h for p in m.parsed for h in p.honorifics}
        # by stem: "Mr. Dawkin" (clipped) and "Mr. Dawkins" are one family form of "Jack Dawkins"
        full = [o for o in cast.neighbours(m, blocks) if _stem(surname) in map(_stem, o.surnames(titled=False))]
        known = [o for o in full if o.genders == {gender}]
        # a full name of unknown gender could be the one, unless far less present than the one known; alone of
        # its surname, it is the one ("Mr. Crackit" / "Toby Crackit": Toby is either)
        could = [o for o in full if gender in o.genders and o not in known or not o.genders]
        if not known and len(could) == 1 and len(full) == 1:
            known, could = could, []
        if len(known) > 1:
            known = [o for o in known if not _titled_given_form(o, _stem(surname), titles)]
        if len(known) > 1 and _one_person(known):  # "Tom Chitling" and "Tommy Chitling": the most present
            known = [max(known, key=lambda o: (o.mentions, o.uuid))]
        if len(known) != 1 or any(x.mentions * PROMINENCE_RATIO > known[0].mentions for x in could):
            continue
        o = known[0]
        if titles <= UNMARRIED_TITLES and not _maiden(o, _stem(surname)):
            continue  # a daughter's title for a woman named under another ("Lady", "Mrs.")
        if _join_in_scene(cast, m, o, blocks, "title_surname", "the only full name of this gender with this surname"):
            return True
    return False


def _maiden(o: Member, stem: str) -> bool:
    """``o`` bears no title but a daughter's under this surname (``stem``): "Lady Lucas" is the mother, but a
    "Charlotte Lucas" the pass already joined to her married name ("Mrs. Collins") is still Miss Lucas."""
    return all(set(p.honorifics) <= MAIDEN_TITLES for p in o.parsed
               if p.surname is None or _stem(p.surname) == stem or not p.honorifics)


def _one_person(found: Sequence[Member]) -> bool:
    """No two of them conflict by name: they may all be one person."""
    return all(score(a, b).conflict is None and not other_surnames(a, b)
               for i, a in enumerate(found) for b in found[i + 1:])


def _titled_given_form(o: Member, stem: str, titles: set[str]) -> bool:
    """``o`` is written with the title before a given name and the surname ("Mr. John Knightley") and never
    with the title and the surname alone: the book tells it apart from the bare title + surname, which names
    another of the family. ("Miss Josephine Barry", also written "Miss Barry", is not told apart.)"""
    written = [parse_name(f) for f in {*o.forms, *o.written}]
    fuller = any(p.given and _stem(p.surname or "") == stem and titles & set(p.honorifics) for p in written)
    short = any(not p.given and _stem(p.surname or "") == stem and titles & set(p.honorifics) for p in written)
    return fuller and not short


def _title_initial(m: Member) -> tuple[str, set[str]] | None:
    """(letter, titles) when every form of ``m`` is a plain title before one initial ("Mr. E.")."""
    letters = {p.surname for p in m.parsed if p.honorifics and not p.given and p.surname and len(p.surname) == 1}
    titles = {h for p in m.parsed for h in p.honorifics}
    if len(letters) != 1 or len(m.parsed) != sum(1 for p in m.parsed if p.surname in letters and not p.given) or (
            not titles or not titles <= PLAIN_TITLES):
        return None
    return next(iter(letters)), titles


def title_initial(cast: Cast) -> bool:
    """"Mr. E." (a letter writer's or a gossip's discretion) joins the only member the book writes with that
    title before a surname of that initial ("Mr. Elton"), when they share a scene; "Mr. B" among Mr. Brownlow,
    Mr. Bumble and Mr. Bolter stays itself."""
    blocks = cast.blocks()
    for m in cast.by_size():
        found = _title_initial(m)
        if found is None:
            continue
        letter, titles = found
        named = [o for o in cast.members.values() if o is not m and any(
            p.surname and len(p.surname) > 1 and p.surname[0] == letter and not p.given and titles & set(p.honorifics)
            for p in o.parsed)]
        if len(named) != 1:
            continue
        o = named[0]
        if _join_in_scene(cast, m, o, blocks, "title_initial",
                          "the only one written with this title before a surname of this initial"):
            return True
    return False


def _join_in_scene(cast: Cast, m: Member, o: Member, blocks: dict[str, set[str]], rule: str, reason: str) -> bool:
    """Merge the less written of ``m`` and ``o`` into the other, when no name conflict parts them, a scene holds
    both, and no other candidate contests the pair."""
    s = score(m, o)
    if s.conflict is not None or not shared_scene(m, o) or not settled(cast, m, o, blocks):
        return False
    cast.merge(*smaller_first(m, o), rule, reason, s)
    return True


def _holders(cast: Cast, m: Member, surname: str, blocks: dict[str, set[str]]) -> list[tuple[Member, MatchScore]]:
    return [(o, s) for o, s in viable(m, cast.neighbours(m, blocks)) if surname in o.surnames()]


def bare_surname(cast: Cast) -> bool:
    """A lone surname ("Gardiner", "Hill") joins the only person holding it; among several, the only man (a
    narrator names men by bare surname, women by title or given name), else one far more prominent."""
    blocks = cast.blocks()
    for m in cast.by_size():
        if not m.bare or m.genders - {"m"}:
            continue
        surname = m.parsed[0].bare or ""
        holders = _holders(cast, m, surname, blocks)
        if not holders or contested(m, cast.neighbours(m, blocks)):
            continue
        men = [(o, s) for o, s in holders if o.genders == {"m"}]
        if len(holders) == 1:
            pick, rule = holders[0], "bare_surname:only_holder"
        elif len(men) == 1:
            pick, rule = men[0], "bare_surname:only_man"
        else:
            counts = {o.uuid: o.mentions for o, _ in holders}
            first, second = sorted(counts.values(), reverse=True)[:2]
            lead = [h for h in holders if h[0].mentions == first]
            if not (first >= PROMINENCE_MIN and first >= PROMINENCE_RATIO * second and len(lead) == 1):
                cast.suggest(m, [o for o, _ in holders], "bare_surname")
                continue
            pick, rule = lead[0], "bare_surname:prominent"
        cast.merge(m, pick[0], rule, f"a lone surname joins its holder ({rule.split(':')[1].replace('_', ' ')})",
                   pick[1])
        return True
    return False


def _titled_only(m: Member, title: str) -> str | None:
    """The surname when every form of ``m`` is ``title`` + surname ("Mrs. Collins"), else None."""
    surnames = {p.surname for p in m.parsed if p.honorifics == (title,) and not p.given and p.surname}
    others = [p for p in m.parsed if not (p.honorifics == (title,) and not p.given) and not p.bare]
    return next(iter(surnames)) if len(surnames) == 1 and not others else None


def holders_any(cast: Cast, m: Member, surname: str,
                 blocks: dict[str, set[str]]) -> list[tuple[Member, MatchScore]]:
    """Holders of ``surname`` whatever their score against ``m`` (a Mr. conflicts with a Mrs. by design)."""
    return [(o, score(m, o)) for o in cast.neighbours(m, blocks) if surname in o.surnames()]


def miss_surname(cast: Cast) -> bool:
    """"Miss Bennet" is the eldest unmarried daughter: the sister (a woman with a full name of that surname and
    no married title) whose episodes it shares far beyond chance, when one clearly does; else a suggestion."""
    blocks = cast.blocks()
    for m in cast.by_size():
        surname = _titled_only(m, "miss")
        if surname is None:
            continue
        sisters = [o for o, s in holders_any(cast, m, surname, blocks)
                   if s.conflict is None and surname in o.surnames(titled=False) and not o.genders - {"f"}
                   and _maiden(o, _stem(surname))]
        if not sisters:
            continue
        lifts = sorted(((len(m.episodes & o.episodes) * cast.episodes / (m.mentions * o.mentions or 1), o)
                        for o in sisters if len(m.episodes & o.episodes) >= MISS_MIN_SHARED),
                       key=lambda x: (-x[0], x[1].uuid))
        if not lifts:
            cast.suggest(m, sisters, "miss_surname")
            continue
        best_lift, best = lifts[0]
        # against the next sister, and against chance (lift 1: a heroine is in every episode)
        clear = best_lift >= MISS_LIFT_RATIO * max(lifts[1][0] if len(lifts) > 1 else 0.0, 1.0)
        if not clear:
            cast.suggest(m, [o for _, o in lifts], "miss_surname")
            continue
        cast.merge(m, best, "miss_surname", f"the sister it shares episodes with most beyond chance "
                   f"(lift {best_lift:.2f})", score(m, best))
        return True
    return False
