"""The commit plan: everything one episode writes, decided before the write transaction starts.

resolve/ builds it (entity ids, predicate names, fact ids); graph/ writes it in one transaction.
``TemporalFact`` and ``TimelineUpdate`` carry a slot's facts from graph/ to the pure temporal rules (resolve/)
and their verdicts back.
"""

from __future__ import annotations

import re
from datetime import datetime

from pydantic import Field, field_validator

from strata.schema.models import Episode, ExtractorInfo, Frozen, Functionality, Source, Span, UtcDatetime

LABEL = re.compile(r"^[A-Z][A-Za-z0-9]{0,39}$")
PREDICATE = re.compile(r"^[a-z][a-z0-9_]{0,63}$")


class EntityWrite(Frozen):
    uuid: str
    key: str = Field(min_length=1)
    name: str = Field(min_length=1)
    type: str = "Entity"
    aliases: list[str] = Field(default_factory=list)
    summary: str = ""
    embedding: list[float] | None = None

    @field_validator("type")
    @classmethod
    def _label(cls, value: str) -> str:
        # Entity types become labels through `SET n:$(type)`: only safe identifiers get that far.
        if not LABEL.match(value):
            raise ValueError(f"entity type {value!r} is not a valid label (letters and digits, capitalized)")
        return value


class MentionWrite(Frozen):
    entity_uuid: str
    spans: list[Span] = Field(default_factory=list)
    surface_forms: list[str] = Field(default_factory=list)


class Evidence(Frozen):
    episode_uuid: str
    start: int = Field(ge=0)
    end: int = Field(ge=0)


class FactWrite(Frozen):
    uuid: str
    subject_uuid: str
    predicate: str
    predicate_text: str | None = None  # the predicate as the statement wrote it ("plays_for" of play_for)
    object_uuid: str
    fact: str
    role: str | None = None  # an office's role: the slot is (object, role)
    valid_at: UtcDatetime
    invalid_at: UtcDatetime | None = None  # stated by the source
    negated: bool = False
    confidence: float = Field(default=1.0, ge=0.0, le=1.0)
    asserted_by: str | None = None
    evidence: list[Evidence] = Field(default_factory=list)
    embedding: list[float] | None = None
    # Story clock (books): the statement's offset in the book, its chapter index and the book's source uuid.
    story_at: int | None = Field(default=None, ge=0)
    story_chapter: int | None = None
    story_source: str | None = None

    @field_validator("predicate")
    @classmethod
    def _predicate(cls, value: str) -> str:
        if not PREDICATE.match(value):
            raise ValueError(f"predicate {value!r} is not normalized (lowercase snake_case)")
        return value


class Predicate(Frozen):
    """A predicate: of the ontology (with its ``synonyms``), of a group's registry (with the ``count`` of facts
    using it, when a listing asks), of a write plan."""

    name: str
    description: str = ""
    functional: Functionality | None = None
    synonyms: list[str] = Field(default_factory=list)
    count: int = 0

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return FactWrite._predicate(value)

    @field_validator("description", mode="before")
    @classmethod
    def _description(cls, value: str | None) -> str:
        return value or ""  # a registry node may have none


class PassageWrite(Frozen):
    """A searchable piece of an episode (a chat message, a few sentences) with its own embedding."""

    uuid: str
    start: int = Field(ge=0)
    end: int = Field(ge=0)
    text: str
    speaker: str | None = None
    # The passage with the one before it (resolve/passages.py), indexed and embedded on its own.
    context: str | None = None
    embedding: list[float] | None = None
    context_embedding: list[float] | None = None


class NoteWrite(Frozen):
    """A self-contained memory note: linked to its passage (the message it rewrites) and its entities."""

    uuid: str
    text: str
    start: int = Field(ge=0)
    end: int = Field(ge=0)
    passage_uuid: str | None = None
    valid_at: UtcDatetime | None = None
    speaker: str | None = None
    entity_uuids: list[str] = Field(default_factory=list)


class QuoteWrite(Frozen):
    """Something a character says in a prose episode: (speaker)-[:SAID]->(quote)-[:TO]->(addressee)."""

    uuid: str
    text: str
    start: int = Field(ge=0)
    end: int = Field(ge=0)
    position: int = Field(ge=0)  # order of the quote inside its episode
    speaker: str | None = None  # the name as the text gives it, kept when no entity matched it
    speaker_uuid: str | None = None
    addressees: list[str] = Field(default_factory=list)
    addressee_uuids: list[str] = Field(default_factory=list)
    method: str | None = None
    confidence: float = Field(default=0.0, ge=0.0, le=1.0)
    narrator: bool = False  # said by the first-person narrator (ExtractedQuote.narrator)


class SameAsSuggestion(Frozen):
    """Offline resolution found a plausible but unproven match: recorded for review, not merged."""

    entity_uuid: str
    candidate_uuid: str
    score: float


class MergeRecordWrite(Frozen):
    """Why new names joined an entity (a rule and its evidence), so a wrong merge can be found and undone."""

    uuid: str
    entity_uuid: str
    forms: list[str]  # the names this merge added to the entity
    rule: str  # "exact", a scoring rule ("diminutive", "partial"...), "collapse", "adjudicator", "manual"
    reason: str = ""
    score: float | None = None
    mention_form: str | None = None
    candidate_form: str | None = None
    episode_uuid: str | None = None


class CommitPlan(Frozen):
    group_id: str
    episode: Episode
    source: Source | None = None
    entities: list[EntityWrite] = Field(default_factory=list)
    mentions: list[MentionWrite] = Field(default_factory=list)
    facts: list[FactWrite] = Field(default_factory=list)
    predicates: list[Predicate] = Field(default_factory=list)
    passages: list[PassageWrite] = Field(default_factory=list)
    notes: list[NoteWrite] = Field(default_factory=list)
    quotes: list[QuoteWrite] = Field(default_factory=list)
    suggestions: list[SameAsSuggestion] = Field(default_factory=list)
    merges: list[MergeRecordWrite] = Field(default_factory=list)
    extractor: ExtractorInfo
    summary: str | None = None


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
    role: str | None = None  # an office's role: part of the slot (resolve/roles.py slot_role)
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
