"""Pairwise scoring of a mention against one candidate entity. Pure; thresholds are named here.

The score is the best over all (mention form, candidate form) pairs, where forms are name + aliases.
Conflicts are entity-level and force "different" (score 0): incompatible types, honorific gender of the two
entities, and any pair that shares a name but conflicts (Mr/Mrs/Miss with one surname, Jane vs Elizabeth
Bennet, "the late Mr. X" vs "Mr. X"). Embeddings only nudge a string match; they never create one, because
"Mr. Bennet" and "Mrs. Bennet" embed almost identically.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from rapidfuzz import fuzz
from rapidfuzz.distance import JaroWinkler

from strata.resolve.lexicon import PLAIN_HONORIFICS
from strata.resolve.names import NameRelation, ParsedName, compare_names, honorific_conflict, parse_name
from strata.resolve.normalize import fold_name, match_form, type_class
from strata.resolve.ontology import Ontology
from strata.resolve.types import CandidateEntity, MatchScore, MentionCandidate

# Decision thresholds (decide.py uses them too).
MERGE_THRESHOLD = 0.8  # at or above: same entity unless a rival is close
POSSIBLE_THRESHOLD = 0.6  # at or above: worth an adjudicator's look ("possibly same as")

# Rule scores for person names, strongest first.
EXACT_SCORE = 1.0  # folded forms identical ("Mr. Darcy" == "mr darcy")
BARE_NAME_SCORE = 0.95  # same name tokens, honorifics compatible ("Darcy" / "Mr. Darcy")
DIMINUTIVE_SCORE = 0.9  # same up to a diminutive ("Lizzy" / "Elizabeth")
PARTIAL_SCORE = 0.85  # part of the other ("Darcy" / "Fitzwilliam Darcy")
PARTIAL_DIMINUTIVE_SCORE = 0.82  # part through a diminutive ("Kitty" / "Catherine Bennet")
# ... but a bare nickname against a name with a rank ("Kitty" / "Lady Catherine De Bourgh") is only possible:
# a diminutive is how family and friends speak, a rank how everyone else does.
RANKED_DIMINUTIVE_SCORE = 0.7
# Both "Kitty" / "Lady Catherine" (one given name each) and "Kitty" / "Lady Catherine de Bourgh" (a part of it).
_NICKNAME_RELATIONS = frozenset({NameRelation.DIMINUTIVE, NameRelation.PARTIAL_DIMINUTIVE})
# Title + surname vs a full name ("Mr. Darcy" / "Fitzwilliam Darcy"): wife, daughters, father share that form,
# so it is only a possible match, for an adjudicator, never an automatic merge.
SURNAME_ONLY_SCORE = 0.75
# A role named by its title alone against a person bearing that title ("the Doctor" / "Dr. Kemp"): possible only.
ROLE_SCORE = 0.7
# A nickname or given-name variant from the diminutive table alone ("Bill" / "William", "Nancy" / "Anne") is
# only possible across episodes: a dictionary says the two names can be one person, not that they are. Within
# one episode (a scene that writes both) ``score_pair(..., scene=True)`` keeps the table's merge-level score.
UNEVIDENCED_NICKNAME_SCORE = 0.7

# Typos in a surname or single name ("Denny" / "Denney"): Jaro-Winkler on short names.
TYPO_MIN_LENGTH = 4  # shorter names differ by one letter too often (Hill / Hall)
TYPO_JARO_WINKLER = 0.95  # similarity at which a same-structure pair counts as a typo
TYPO_SCORE = 0.8

# Non-person names (places, organizations, works...): fuzzy token similarity, weaker partial matches.
OTHER_FUZZY_RATIO = 92.0  # rapidfuzz ratio (0-100) for a typo-level match
OTHER_PARTIAL_SCORE = 0.7  # "Netherfield" in "Netherfield Park": possible, not enough alone (York/New York)

# Embedding nudge: score += EMBEDDING_WEIGHT * (cosine - EMBEDDING_NEUTRAL), only on a string match.
EMBEDDING_WEIGHT = 0.2
EMBEDDING_NEUTRAL = 0.75
# A cosine this high lifts an OTHER_PARTIAL match of non-persons to a merge ("Netherfield"/"Netherfield Park").
EMBEDDING_STRONG = 0.9

_RELATION_SCORES = {
    NameRelation.SAME: BARE_NAME_SCORE,
    NameRelation.DIMINUTIVE: DIMINUTIVE_SCORE,
    NameRelation.PARTIAL: PARTIAL_SCORE,
    NameRelation.PARTIAL_DIMINUTIVE: PARTIAL_DIMINUTIVE_SCORE,
    NameRelation.SURNAME_ONLY: SURNAME_ONLY_SCORE,
    NameRelation.ROLE: ROLE_SCORE,
}


def cosine(a: Sequence[float] | None, b: Sequence[float] | None) -> float | None:
    if not a or not b or len(a) != len(b):
        return None
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return dot / norm if norm else None


def _forms(name: str, aliases: Sequence[str]) -> list[str]:
    seen: dict[str, str] = {}
    for form in (name, *aliases):
        folded = match_form(form)
        if folded and folded not in seen:
            seen[folded] = form
    return list(seen.values())


def _typo(a: ParsedName, b: ParsedName) -> bool:
    ta, tb = a.name_tokens, b.name_tokens
    if len(ta) != len(tb) or not ta or ta == tb:
        return False
    diffs = [(x, y) for x, y in zip(ta, tb, strict=True) if x != y]
    if len(diffs) != 1:
        return False
    x, y = diffs[0]
    return min(len(x), len(y)) >= TYPO_MIN_LENGTH and JaroWinkler.similarity(x, y) >= TYPO_JARO_WINKLER


def _person_pair(a: str, b: str, scene: bool = False) -> tuple[float, str, str | None]:
    pa, pb = parse_name(a), parse_name(b)
    cmp = compare_names(pa, pb)
    if cmp.relation is NameRelation.CONFLICT:
        return 0.0, "conflict", cmp.conflict
    if cmp.relation in _NICKNAME_RELATIONS and _ranked_against_bare(pa, pb):
        return RANKED_DIMINUTIVE_SCORE, cmp.relation.value, None
    if cmp.relation in _NICKNAME_RELATIONS and not scene and _nickname_only(pa, pb):
        return UNEVIDENCED_NICKNAME_SCORE, cmp.relation.value, None
    if (cmp.relation is NameRelation.PARTIAL and not scene and pa.given and pa.surname
            and pb.bare == pa.surname):
        # a full name ("Evie Wilcox") against an entity's bare surname ("Wilcox", held by Mr. Wilcox): the
        # surname is the family's, so this says no more than title + surname does; the other way round ("Wilcox"
        # for the one "Evie Wilcox") stays a part of the name, and within one scene the two join as before
        return SURNAME_ONLY_SCORE, NameRelation.SURNAME_ONLY.value, None
    if cmp.relation in _RELATION_SCORES:
        return _RELATION_SCORES[cmp.relation], cmp.relation.value, None
    if _typo(pa, pb) and pa.qualifiers == pb.qualifiers and honorific_conflict(pa, pb) is None:
        return TYPO_SCORE, "fuzzy", None
    return 0.0, "none", None


def _nickname_only(a: ParsedName, b: ParsedName) -> bool:
    """The two share no name token literally: only the diminutive table relates them ("Bill" / "William
    Smith"); "Lizzy Bennet" / "Elizabeth Bennet" share the surname, which is evidence of its own."""
    return not set(a.name_tokens) & set(b.name_tokens)


def _ranked_against_bare(a: ParsedName, b: ParsedName) -> bool:
    """One side carries a rank or office title (Lady, Sir, Colonel...), the other no title at all."""
    def ranked(p: ParsedName) -> bool:
        return bool(set(p.honorifics) - PLAIN_HONORIFICS)
    return (ranked(a) and not b.honorifics) or (ranked(b) and not a.honorifics)


def _other_pair(a: str, b: str) -> tuple[float, str, str | None]:
    fa, fb = fold_name(a), fold_name(b)
    ratio = fuzz.ratio(fa, fb)
    if ratio >= OTHER_FUZZY_RATIO:
        return ratio / 100.0 * BARE_NAME_SCORE, "fuzzy", None
    sa, sb = set(fa.split()), set(fb.split())
    if sa and sb and (sa <= sb or sb <= sa):
        return OTHER_PARTIAL_SCORE, "partial", None
    return 0.0, "none", None


def _entity_genders(forms: Sequence[str]) -> frozenset[str]:
    genders: set[str] = set()
    for form in forms:
        genders |= parse_name(form).genders
    return frozenset(genders)


def score_pair(
    mention: MentionCandidate, candidate: CandidateEntity, ontology: Ontology | None = None, scene: bool = False
) -> MatchScore:
    """Score how likely ``mention`` names ``candidate``; 0 with ``conflict`` set when they must differ.
    ``scene``: both are written in one episode (the within-episode collapse), which is evidence enough for a
    nickname from the diminutive table."""
    uuid = candidate.uuid
    cls_m, cls_c = type_class(mention.type, ontology), type_class(candidate.type, ontology)
    if cls_m and cls_c and cls_m != cls_c:
        return MatchScore(candidate_uuid=uuid, score=0.0, reason="conflict", conflict="type")
    m_forms, c_forms = _forms(mention.name, mention.aliases), _forms(candidate.name, candidate.aliases)
    c_folded = {match_form(f) for f in c_forms}
    person = "person" in (cls_m, cls_c) or any(parse_name(f).honorifics for f in (*m_forms, *c_forms))
    if person:
        gm, gc = _entity_genders(m_forms), _entity_genders(c_forms)
        # gender is a property of the entity: one alias "Mrs. Bennet" rules out "Mr. Bennet"
        if len(gm) == 1 and len(gc) == 1 and gm != gc:
            return MatchScore(candidate_uuid=uuid, score=0.0, reason="conflict", conflict="honorific_gender")
    best = (0.0, "none", "", "")
    for mf in m_forms:
        if match_form(mf) in c_folded:
            cf = next(f for f in c_forms if match_form(f) == match_form(mf))
            best = max(best, (EXACT_SCORE, "exact", mf, cf))
            continue
        for cf in c_forms:
            score, reason, conflict = _person_pair(mf, cf, scene) if person else _other_pair(mf, cf)
            if conflict:
                return MatchScore(candidate_uuid=uuid, score=0.0, reason="conflict", conflict=conflict,
                                  mention_form=mf, candidate_form=cf)
            best = max(best, (score, reason, mf, cf))
    score, reason, mf, cf = best
    cos = candidate.cosine if candidate.cosine is not None else cosine(mention.embedding, candidate.embedding)
    if cos is not None and POSSIBLE_THRESHOLD <= score < EXACT_SCORE:
        if not person and reason == "partial" and cos >= EMBEDDING_STRONG:
            score = max(score, MERGE_THRESHOLD)
        score = min(max(score + EMBEDDING_WEIGHT * (cos - EMBEDDING_NEUTRAL), 0.0), EXACT_SCORE - 0.01)
    return MatchScore(candidate_uuid=uuid, score=round(score, 4), reason=reason, exact=reason == "exact",
                      mention_form=mf or None, candidate_form=cf or None, embedding_cosine=cos)
