"""Turn pairwise scores into a decision: merge into one entity, create a new one, or ask (ambiguous)."""

from __future__ import annotations

from collections.abc import Sequence

from strata.resolve.names import parse_name
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


def _single_token(mention: MentionCandidate) -> bool:
    forms = (mention.name, *mention.aliases)
    return all(len(parse_name(f).name_tokens) <= 1 for f in forms)


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
        return Decision(action="ambiguous", candidates=viable[:MAX_LISTED], reason="only possible matches")
    margin = SINGLE_TOKEN_MARGIN if _single_token(mention) else AMBIGUITY_MARGIN
    rivals = [s for s in viable[1:] if s.score >= MERGE_THRESHOLD and s.score >= best.score - margin]
    if rivals:
        return Decision(action="ambiguous", candidates=[best, *rivals][:MAX_LISTED],
                        reason=f"{len(rivals) + 1} candidates match about equally")
    return Decision(action="merge", uuid=best.candidate_uuid, candidates=viable[:MAX_LISTED],
                    reason=f"best match by {best.reason}")
