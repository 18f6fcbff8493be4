"""Consolidate a book's cast once the book is read: merge the entities that were created before the form that
links them ("Charlotte" before "Charlotte Lucas", "Mr. Bingley" and "Charles Bingley", a bare "Gardiner").
Pure: the caller reads the cast, the marriages and the quote replies, and applies the merges it returns.

Cost is bounded by blocking: each entity is compared only with the entities sharing a surname or a given-name
key with it, never with all pairs. Rules run in order, each on the cast as the previous ones left it; a merge
joins the forms, mentions and episodes of the two members, so a later rule sees the joined entity. Every rule
refuses a pair the name rules conflict on (`score_pair`: Mr. vs Mrs. vs Miss on one surname, two different
first names, the late Mr. X), and a rule that finds no single clear answer leaves a suggestion instead.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from strata.resolve.alias_rules import AliasTie, alias_tie, pet_form
from strata.resolve.cast import (
    Cast,
    CastMember,
    CastMerge,
    CastSuggestion,
    ConsolidationPlan,
    Described,
    Marriage,
    Member,
    Reply,
    kept_apart,
    other_surnames,
    score,
    settled,
    shared_scene,
    smaller_first,
    viable,
)
from strata.resolve.decide import evidence, prominent
from strata.resolve.description_rules import described, role_title
from strata.resolve.family_rules import (
    bare_surname,
    miss_surname,
    title_given,
    title_initial,
    title_surname,
)
from strata.resolve.lexicon import PLAIN_HONORIFICS
from strata.resolve.married_names import maiden_name, married_name
from strata.resolve.names import ParsedName, given_compatible, parse_name, titles_overlap
from strata.resolve.normalize import LEADING_ARTICLES, match_form
from strata.resolve.scoring import MERGE_THRESHOLD, score_pair
from strata.resolve.types import CandidateEntity, MatchScore, MentionCandidate

__all__ = ["AliasTie", "CastMember", "CastMerge", "CastSuggestion", "ConsolidationPlan", "Described", "Marriage",
           "Reply", "consolidate", "other_surnames"]

# A name spoken to ("..., Caroline") names whoever answers: it joins the one who gave this share of the replies,
# with at least this many replies.
VOCATIVE_MIN_REPLIES = 2
VOCATIVE_SHARE = 0.6
# A name held exactly (as name or alias) by at least this many entities, all of which can be one person, joins
# them without regard to weaker matches.
SHARED_NAME_MIN = 2


def _introduced_first(m: Member, o: Member, s: MatchScore) -> bool:
    """A lone given name joins a full name only when the full name came first ("first names introduced with a
    surname"): a "Mary" of the first chapter is not the "Mary King" of the twentieth."""
    if s.reason not in ("partial", "partial_diminutive") or not s.mention_form or not s.candidate_form:
        return True
    a, b = parse_name(s.mention_form), parse_name(s.candidate_form)
    single, full, single_side = (a, b, m) if len(a.name_tokens) == 1 else (b, a, o)
    full_side = o if single_side is m else m
    token = single.name_tokens[0] if single.name_tokens else ""
    by_given = bool(full.given) and token != full.surname
    return not by_given or full_side.first_position <= single_side.first_position


def _other_title(m: Member, o: Member, s: MatchScore) -> bool:
    """A family title form ("Miss de Bourgh") against a name with a title it does not share."""
    mine = tuple(h for p in m.parsed for h in p.honorifics)
    theirs = tuple(h for p in o.parsed for h in p.honorifics)
    return s.reason == "surname_only" and bool(mine) and bool(theirs) and not titles_overlap(mine, theirs)


def _family_title_form(s: MatchScore) -> bool:
    """The matched form is a plain title + a surname ("Miss Barry")."""
    p = parse_name(s.mention_form or "")
    return bool(p.honorifics and not p.given and p.surname and len(p.surname) > 1
                and set(p.honorifics) <= PLAIN_HONORIFICS)


def _one_person(found: Sequence[tuple[Member, MatchScore]]) -> bool:
    """No two of the matched entities conflict: they could all be one person."""
    return all(score(a, b).conflict is None and not other_surnames(a, b)
               for i, (a, _) in enumerate(found) for b, _ in found[i + 1:])


def _every_form_fits(src: Member, dst: Member) -> bool:
    """Each name of the joining entity fits the survivor's own name at merge level: a "Catherine" entity that
    also holds "Kitty" is not "Lady Catherine" (a nickname against a rank is only possible), however its
    "Catherine" matches one of her aliases."""
    name = CandidateEntity(uuid=dst.uuid, name=dst.forms[0], type="Person")
    scene = shared_scene(src, dst)
    return all(f == dst.forms[0] or _titled_fuller(p, dst) or score_pair(
        MentionCandidate(name=f, type="Person"), name, scene=scene).score >= MERGE_THRESHOLD
        for f, p in zip(src.forms, src.parsed, strict=True))


def _titled_fuller(p: ParsedName, dst: Member) -> bool:
    """The survivor itself holds this name or a fuller one: a plain title + surname ("Miss Cuthbert") it writes
    with the same title before a given name ("Miss Marilla Cuthbert"), or a full name it holds up to a
    diminutive ("Tom Chitling" / "Tommy Chitling"), whatever its own name ("Mr. Chitling") says less."""
    if not p.surname or not (p.given or p.honorifics):
        return False
    if p.given:
        return any(q.given and q.surname == p.surname and given_compatible(p.given[0], q.given[0])
                   and len(p.given[0]) > 1 and q.qualifiers == p.qualifiers for q in dst.parsed)
    return set(p.honorifics) <= PLAIN_HONORIFICS and any(
        q.given and q.surname == p.surname and titles_overlap(p.honorifics, q.honorifics) for q in dst.parsed)


def _leader(m: Member, found: Sequence[tuple[Member, MatchScore]]) -> tuple[Member, MatchScore] | None:
    """The one match a name clearly means: the only one; else the one strictly ahead on evidence (a shared
    distinctive title, the literal name, a matching plain title: `decide`'s tie-break), else among those
    level on evidence the one far more mentioned (`decide`'s prominence)."""
    if len(found) == 1:
        return found[0]
    forms = m.parsed
    ranked = sorted(found, key=lambda x: evidence(forms, x[0].parsed), reverse=True)
    top = evidence(forms, ranked[0][0].parsed)
    leaders = [x for x in ranked if evidence(forms, x[0].parsed) == top]
    if len(leaders) == 1:
        return leaders[0]
    lead = prominent([s for _, s in leaders], {o.uuid: o.mentions for o, _ in leaders})
    return next((x for x in leaders if lead is not None and x[0].uuid == lead.candidate_uuid), None)


def _name_match(cast: Cast) -> bool:
    """A name the rules tie at merge level only to entities that could all be one person, and no more weakly
    to any other ("Eliza" / Elizabeth, "Charlotte" / "Charlotte Lucas", "Lady Catherine de Bourgh" / the far
    more mentioned "Lady Catherine"): it joins the one it clearly means; the smaller joins the larger."""
    blocks = cast.blocks()
    for m in reversed(cast.by_size()):  # the most mentioned first: it draws its own names before stray ones
        if m.uuid not in cast.members:
            continue
        found = viable(m, cast.neighbours(m, blocks))
        strong = [x for x in found if x[1].score >= MERGE_THRESHOLD]
        # a weaker possible match is a rival, except a family member under another title ("Miss de Bourgh" for
        # "Lady Catherine de Bourgh"); for an untitled "Caroline Bingley", "Miss Bingley" stays a rival
        rivals = [x for x in found if x[1].score < MERGE_THRESHOLD and not _other_title(m, x[0], x[1])]
        exact = [x for x in strong if x[1].exact]
        if len(exact) == 1 and _family_title_form(exact[0][1]):
            # the very title + surname held by one entity ("Miss Barry" by Josephine Barry): a relative named in
            # full ("Diana Barry") is only the family the title is shared with, no rival
            rivals = [x for x in rivals if x[1].reason != "surname_only"]
        if len(exact) >= SHARED_NAME_MIN and _one_person(exact):
            # several entities already hold this very name and can all be one person ("Sikes", "Mr. Sikes",
            # "Bill Sikes" holding "Sikes"): they are, whatever a weaker match beside them ("Bister Sikes") says
            strong, rivals = exact, []
        # a weaker match that could be the same person as every strong one is no rival: all may be one
        rivals = [x for x in rivals if not _one_person([*strong, x])]
        if not strong or rivals or not _one_person(strong):
            continue
        pick = _leader(m, strong)
        if pick is None:
            continue
        o, s = pick
        back = [x for x, _ in viable(o, cast.neighbours(o, blocks)) if x is not m]
        src, dst = smaller_first(m, o)
        if any(score(m, x).conflict for x in back) or not _introduced_first(m, o, s) or not _every_form_fits(src, dst):
            continue  # the other also fits one this name rules out: "Caroline Bingley" fits "Miss Bingley" too
        if not settled(cast, m, o, blocks):
            continue
        cast.merge(src, dst, f"name:{s.reason}", "the entity this name clearly means", s)
        return True
    return False


def _full_forms(m: Member) -> set[str]:
    """Its forms with a given name and a surname ("Thaddeus Sholto", "Mr. Thaddeus Sholto"), in match form;
    descriptions ("the Second Housemaid") and epithets are no full names."""
    return {match_form(f) for f, p in zip(m.forms, m.parsed, strict=True)
            if p.given and p.surname and not p.qualifiers and f.split()[0].lower() not in LEADING_ARTICLES}


def _shared_full_name(cast: Cast) -> bool:
    """Two entities that both hold one full name are one person: ingestion made the second before the names
    that tie it to the first arrived, and a bare surname both also hold ("Sholto", said of the whole family)
    left every later rule with several candidates. Not when kept apart or their own names conflict
    ("Mr. John Knightley" / "Mrs. John Knightley" never share a form in match form)."""
    holders: dict[str, list[Member]] = {}
    for m in reversed(cast.by_size()):
        for form in _full_forms(m):
            holders.setdefault(form, []).append(m)
    for form in sorted(holders):
        found = holders[form]
        if len(found) < 2:
            continue
        dst, src = found[0], found[1]
        primary = score_pair(MentionCandidate(name=src.forms[0], type="Person"),
                             CandidateEntity(uuid=dst.uuid, name=dst.forms[0], type="Person"))
        if kept_apart(src, dst) or primary.conflict is not None or other_surnames(src, dst):
            continue
        cast.merge(src, dst, "shared_full_name", f"both hold the full name {form!r}", score(src, dst))
        return True
    return False


def _family_title_of(m: Member, o: Member) -> bool:
    """Every name of ``m`` is one title + surname ("Miss Woodhouse") and ``o`` has a full name with that surname:
    said to someone of that family, the title names whoever answers."""
    surnames = {p.surname for p in m.parsed}
    titled = all(p.honorifics and not p.given and p.surname for p in m.parsed)
    return titled and len(surnames) == 1 and bool(surnames & o.surnames(titled=False))


def _vocative(cast: Cast, replies: Sequence[Reply]) -> bool:
    """A one-word name spoken to ("..., Caroline"), or a title + surname spoken to one of that family ("..., Miss
    Woodhouse"), joins whoever answers it, when one person gives most of the replies and the names do not
    conflict."""
    answers: dict[str, Counter[str]] = {}
    for r in replies:
        a, b = cast.current(r.addressed), cast.current(r.replier)
        if a in cast.members and b in cast.members:  # the name answering itself counts against the others
            answers.setdefault(a, Counter())[b] += 1
    for uuid, counts in sorted(answers.items()):
        m = cast.members.get(uuid)
        if m is None:
            continue
        replier, n = counts.most_common(1)[0]
        if replier == uuid or n < VOCATIVE_MIN_REPLIES or n < VOCATIVE_SHARE * sum(counts.values()):
            continue
        o = cast.members[replier]
        if not (m.bare or _family_title_of(m, o)):
            continue
        s = score(m, o)
        if s.conflict is not None or not settled(cast, m, o, cast.blocks()):
            continue
        cast.merge(m, o, "vocative_reply", f"{n} of {sum(counts.values())} replies to this name come from it", s)
        return True
    return False


def consolidate(members: Sequence[CastMember], marriages: Sequence[Marriage] = (),
                replies: Sequence[Reply] = (), descriptions: Sequence[Described] = (),
                aliases: Sequence[AliasTie] = ()) -> ConsolidationPlan:
    """The merges (in order: each ``into`` is current when its turn comes) and suggestions for one book."""
    cast = Cast(members)
    rules = (_shared_full_name, _name_match, title_surname, title_given, title_initial, bare_surname,
             lambda c: married_name(c, marriages), lambda c: maiden_name(c, descriptions), miss_surname,
             lambda c: _vocative(c, replies), lambda c: described(c, descriptions), role_title, pet_form,
             lambda c: alias_tie(c, aliases))
    progress = True
    while progress:  # each step merges one pair: at most len(members) rounds
        progress = any(rule(cast) for rule in rules)
    merged = set(cast.merged)
    suggestions = [s for s in cast.suggestions.values()
                   if s.entity_uuid not in merged and s.candidate_uuid not in merged]
    return ConsolidationPlan(merges=cast.plan, suggestions=suggestions)
