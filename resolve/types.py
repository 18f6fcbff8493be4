"""Small frozen models that resolve/ takes and returns. Layers above convert from schema/ models."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import Field

from strata.schema.models import Frozen, Functionality, Span, UtcDatetime

SlotFunctionality = Functionality
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


class PredicateInfo(Frozen):
    name: str
    description: str = ""
    functional: SlotFunctionality | None = None
    count: int = 0
    embedding: list[float] | None = None


class TemporalFact(Frozen):
    """The part of a fact the temporal rules need.

    ``stated_invalid_at`` is the end the source stated (kept so recomputation can reopen what a retracted
    fact had closed); ``invalid_at`` is the current effective end (stated, computed or from a negation).
    Transaction time of the end: ``invalidated_at`` is when it last changed; ``end_changed_at[i]`` is when it
    changed and ``end_before[i]`` what it was just before (None: open), oldest first. Facts whose end changed
    before that history was kept carry one earlier state in ``prev_invalid_at``/``prev_invalidated_at``
    (``end_changed_at`` None).
    """

    uuid: str
    subject_uuid: str
    predicate: str
    object_uuid: str
    valid_at: UtcDatetime | None = None
    stated_invalid_at: UtcDatetime | None = None
    invalid_at: UtcDatetime | None = None
    invalidated_at: UtcDatetime | None = None
    invalidated_by: str | None = None
    end_changed_at: list[UtcDatetime] | None = None
    end_before: list[UtcDatetime | None] | None = None
    prev_invalid_at: UtcDatetime | None = None
    prev_invalidated_at: UtcDatetime | None = None
    created_at: UtcDatetime | None = None
    expired_at: UtcDatetime | None = None
    negated: bool = False
    episodes: list[str] = Field(default_factory=list)
    # Story clock (books): the offset of the statement in the book, and of the statement that closed it.
    story_at: int | None = None
    story_until: int | None = None


class TimelineUpdate(Frozen):
    fact_uuid: str
    invalid_at: datetime | None
    invalidated_by: str | None
    invalidated_at: datetime | None
    story_until: int | None = None
    # True when invalid_at, invalidated_by or story_until differ from the input fact
    changed: bool
