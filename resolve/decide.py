"""Turn pairwise scores into a decision: merge into one entity, create a new one, or ask (ambiguous)."""

from __future__ import annotations

from collections.abc import Sequence

from strata.resolve.lexicon import PLAIN_HONORIFICS, SURNAME_MATCH_TITLES
from strata.resolve.names import ParsedName, parse_name, titles_overlap
from strata.resolve.ontology import Ontology
from strata.resolve.scoring import MERGE_THRESHOLD, POSSIBLE_THRESHOLD, score_pair
from strata.resolve.types import CandidateEntity, Decision, MatchScore, MentionCandidate

# A rival within this margin of the best score makes the decision ambiguous.
AMBIGUITY_MARGIN = 0.05
# For a single-token mention ("Darcy", "Mr. Bennet") every other candidate at merge level is a rival:
# a bare surname shared by several entities must not pick one of them.
SINGLE_TOKEN_MARGIN = 1.0
# Candidates listed in an ambiguous decision for an adjudicator.
MAX_LISTED = 5
# Among rivals the names cannot tell apart, one mentioned in at least PROMINENCE_MIN episodes and
# PROMINENCE_RATIO times as many as any other is the one meant: in a novel a bare "Darcy" is the Darcy the
# story follows, not his sister. Close counts ("Bennet" between Mr. and Mrs. Bennet) stay ambiguous.
PROMINENCE_MIN = 5
PROMINENCE_RATIO = 3.0


def _parsed(name: str, aliases: Sequence[str]) -> list[ParsedName]:
    return [parse_name(f) for f in (name, *aliases)]


def evidence(mention: Sequence[ParsedName], candidate: Sequence[ParsedName]) -> tuple[bool, bool, bool]:
    """Tie-break among rivals at merge level, strongest first: a shared distinctive title ("Sir William" /
    "Sir William Lucas" over "William Goulding"); the literal name token rather than a diminutive of it
    ("Catherine" names "Lady Catherine" before "Kitty"); a matching plain title ("Ms. Bingley" names
    "Miss Bingley" before an untitled "Bingley")."""
    m_titles = tuple(h for p in mention for h in p.honorifics)
    c_titles = tuple(h for p in candidate for h in p.honorifics)
    distinctive = bool((set(m_titles) & set(c_titles)) - PLAIN_HONORIFICS)
    tokens = {t for p in candidate for t in p.name_tokens}
    literal = any(t in tokens for p in mention for t in p.name_tokens)
    return distinctive, literal, titles_overlap(m_titles, c_titles)


def surname_match(best: MatchScore) -> bool:
    """"Mr. Bingley" / "Charles Bingley": a plain title + surname and a full name of the same known gender.
    Only used when no other candidate is viable: every other holder of the surname conflicts."""
    if not best.mention_form or not best.candidate_form:
        return False
    a, b = parse_name(best.mention_form), parse_name(best.candidate_form)
    titled, full = (a, b) if not a.given else (b, a)
    if titled.given or not full.given or not titled.honorifics:
        return False
    if not set(titled.honorifics) <= SURNAME_MATCH_TITLES:
        return False
    return bool(titled.genders) and titled.genders == full.genders


def _single_token(mention: MentionCandidate) -> bool:
    forms = (mention.name, *mention.aliases)
    return all(len(parse_name(f).name_tokens) <= 1 for f in forms)


def prominent(scores: Sequence[MatchScore], mentions: dict[str, int]) -> MatchScore | None:
    """The one candidate mentioned far more often than every other, if any."""
    if len(scores) < 2:
        return None
    ranked = sorted(scores, key=lambda s: -mentions.get(s.candidate_uuid, 0))
    first, second = (mentions.get(s.candidate_uuid, 0) for s in ranked[:2])
    if first >= PROMINENCE_MIN and first >= PROMINENCE_RATIO * second:
        return ranked[0]
    return None


def _order(scores: Sequence[MatchScore]) -> list[MatchScore]:
    return sorted(scores, key=lambda s: (-s.score, s.candidate_uuid))


def decide(
    mention: MentionCandidate, candidates: Sequence[CandidateEntity], ontology: Ontology | None = None
) -> Decision:
    """Merge only when one candidate clearly wins; an exact name/alias match on exactly one wins outright."""
    scores = _order([score_pair(mention, c, ontology) for c in candidates])
    viable = [s for s in scores if s.conflict is None and s.score >= POSSIBLE_THRESHOLD]
    if not viable:
        return Decision(action="create", reason="no candidate above the possible threshold")
    exact = [s for s in viable if s.exact]
    if len(exact) == 1:
        return Decision(action="merge", uuid=exact[0].candidate_uuid, candidates=viable[:MAX_LISTED],
                        reason="exact name or alias match")
    if len(exact) > 1:
        return Decision(action="ambiguous", candidates=exact[:MAX_LISTED],
                        reason="several candidates share this exact name")
    best = viable[0]
    if best.score < MERGE_THRESHOLD:
        if len(viable) == 1 and best.reason == "surname_only" and surname_match(best):
            return Decision(action="merge", uuid=best.candidate_uuid, candidates=viable,
                            reason="only same-gender holder of this surname")
        return Decision(action="ambiguous", candidates=viable[:MAX_LISTED], reason="only possible matches")
    margin = SINGLE_TOKEN_MARGIN if _single_token(mention) else AMBIGUITY_MARGIN
    rivals = [s for s in viable[1:] if s.score >= MERGE_THRESHOLD and s.score >= best.score - margin]
    if rivals:
        by_uuid = {c.uuid: _parsed(c.name, c.aliases) for c in candidates}
        forms = _parsed(mention.name, mention.aliases)
        ranked = sorted([best, *rivals], key=lambda s: evidence(forms, by_uuid[s.candidate_uuid]), reverse=True)
        top, runner_up = (evidence(forms, by_uuid[s.candidate_uuid]) for s in ranked[:2])
        if top > runner_up:
            return Decision(action="merge", uuid=ranked[0].candidate_uuid, candidates=ranked[:MAX_LISTED],
                            reason="only rival with a shared title or the literal name")
        leaders = [s for s in ranked if evidence(forms, by_uuid[s.candidate_uuid]) == top]
        if (lead := prominent(leaders, {c.uuid: c.mentions for c in candidates})) is not None:
            return Decision(action="merge", uuid=lead.candidate_uuid, candidates=ranked[:MAX_LISTED],
                            reason="far more prominent than the other candidates")
        return Decision(action="ambiguous", candidates=[best, *rivals][:MAX_LISTED],
                        reason=f"{len(rivals) + 1} candidates match about equally")
    return Decision(action="merge", uuid=best.candidate_uuid, candidates=viable[:MAX_LISTED],
                    reason=f"best match by {best.reason}")
