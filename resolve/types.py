"""Small frozen models that resolve/ takes and returns. Layers above convert from schema/ models."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from strata.schema.models import Frozen, Span
from strata.schema.plan import TemporalFact, TimelineUpdate

__all__ = ["TemporalFact", "TimelineUpdate"]  # defined in schema/plan.py, where graph/ reads them too
DecisionAction = Literal["merge", "create", "ambiguous"]


class MentionCandidate(Frozen):
    """An entity as mentioned in an episode (after within-episode collapse)."""

    name: str = Field(min_length=1)
    type: str = "Entity"
    aliases: list[str] = Field(default_factory=list)
    embedding: list[float] | None = None


class CandidateEntity(Frozen):
    """An existing graph entity proposed by candidate generation."""

    uuid: str
    name: str = Field(min_length=1)
    type: str = "Entity"
    aliases: list[str] = Field(default_factory=list)
    embedding: list[float] | None = None
    # Its name vector's cosine to the mention's, when the lookup measured it (then no embedding needs to travel).
    cosine: float | None = None
    # Episodes that mention it (prominence): a bare "Darcy" names the Darcy the text keeps talking about.
    mentions: int = 0
    # Entities kept apart from it (a rejected suggestion, an undone merge): never joined automatically.
    apart: list[str] = Field(default_factory=list)


class MatchScore(Frozen):
    candidate_uuid: str
    score: float = Field(ge=0.0, le=1.0)
    # which rule produced the score: exact, bare_name, diminutive, partial, fuzzy, none
    reason: str
    # set when a rule forces "different" (type, honorific, given_name, qualifier); score is then 0
    conflict: str | None = None
    exact: bool = False
    mention_form: str | None = None
    candidate_form: str | None = None
    embedding_cosine: float | None = None


class Decision(Frozen):
    action: DecisionAction
    uuid: str | None = None
    # best first; for "ambiguous" the candidates an adjudicator should choose between
    candidates: list[MatchScore] = Field(default_factory=list)
    reason: str = ""


class MentionGroup(Frozen):
    """Mentions of one entity inside one episode, collapsed before resolution."""

    name: str
    type: str = "Entity"
    aliases: list[str] = Field(default_factory=list)
    members: list[int] = Field(default_factory=list)  # indices into the input list
    description: str = ""
    spans: list[Span] = Field(default_factory=list)

