"""Typed models shared by every layer: what flows between segment -> extract -> resolve -> commit -> read.

All datetimes are timezone-aware UTC; naive inputs are taken as UTC.
Offsets (``start``/``end``, ``span_start``/``span_end``) are Python string indices, end exclusive.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, model_validator


def _to_utc(value: datetime) -> datetime:
    if value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value.astimezone(UTC)


UtcDatetime = Annotated[datetime, AfterValidator(_to_utc)]

_NUMBER = re.compile(r"\s*[+-]?\d+(\.\d*)?\s*")


def _iso_only(value: object) -> object:
    # pydantic reads a number (or a numeric string) as Unix time; the API declares an ISO 8601 string, takes only that
    if isinstance(value, int | float) or (isinstance(value, str) and _NUMBER.fullmatch(value)):
        raise ValueError("a date-time is an ISO 8601 string")
    return value


# A time from outside (request bodies, query parameters): ISO 8601 text only, as the OpenAPI document declares.
IsoDatetime = Annotated[datetime, BeforeValidator(_iso_only)]
IsoUtcDatetime = Annotated[datetime, BeforeValidator(_iso_only), AfterValidator(_to_utc)]

EpisodeKind = Literal["chat", "text", "json", "facts"]
EpisodeStatus = Literal["queued", "processing", "done", "failed", "retracted"]
SourceKind = Literal["book", "text", "chat", "facts"]
# How many facts of a predicate hold at once. subject: one object per subject (lives_in); object: one subject
# per object (an office's holder); both: one on each side (a one-to-one assignment); symmetric: one partner
# at a time whichever side states it (spouse_of: "A married B" and "B married A" fill the same two slots).
Functionality = Literal["subject", "object", "both", "symmetric"]


def as_utc(value: datetime | None) -> datetime | None:
    """Aware UTC for Neo4j comparisons: a naive time is taken as UTC (a naive value would compare as null)."""
    return None if value is None else _to_utc(value)


def utcnow() -> datetime:
    return datetime.now(UTC)


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class TimeWindow(Frozen):
    """A stretch of time a query asks about (resolve/timewords.py reads it from the query's words)."""

    start: UtcDatetime
    end: UtcDatetime  # exclusive
    phrase: str = ""


class Span(Frozen):
    """A character range inside an episode's content."""

    start: int = Field(ge=0)
    end: int = Field(ge=0)

    @model_validator(mode="after")
    def _ordered(self) -> Span:
        if self.end < self.start:
            raise ValueError(f"span end {self.end} is before start {self.start}")
        return self


class Message(Frozen):
    """One chat message inside a chat episode; ``start``/``end`` locate its text in the episode content."""

    speaker: str = Field(min_length=1)
    text: str
    timestamp: UtcDatetime | None = None
    # True when the source gave no usable timestamp and one was inferred (ingestion time or session date).
    timestamp_inferred: bool = False
    metadata: dict[str, Any] = Field(default_factory=dict)
    start: int = Field(default=0, ge=0)
    end: int = Field(default=0, ge=0)


class FactStatement(Frozen):
    """An explicit statement for ``facts`` episodes: structured data that needs no extraction."""

    subject: str = Field(min_length=1)
    subject_type: str = "Entity"
    predicate: str = Field(min_length=1)
    object: str = Field(min_length=1)
    object_type: str = "Entity"
    valid_at: UtcDatetime | None = None
    invalid_at: UtcDatetime | None = None
    # How many facts of the predicate hold at once (see Functionality).
    functional: Functionality | None = None
    fact: str | None = None
    # The role of an office (holds_office): "CEO" with object "Walmart" is the slot CEO of Walmart.
    role: str | None = Field(default=None, max_length=100)
    metadata: dict[str, Any] = Field(default_factory=dict)


class Source(Frozen):
    uuid: str
    group_id: str
    name: str
    kind: SourceKind
    uri: str | None = None
    content_hash: str
    created_at: UtcDatetime = Field(default_factory=utcnow)
    metadata: dict[str, Any] = Field(default_factory=dict)


class Episode(Frozen):
    uuid: str
    group_id: str
    source_uuid: str | None = None
    source_name: str | None = None
    seq: int = Field(default=0, ge=0)
    kind: EpisodeKind
    content: str
    reference_time: UtcDatetime
    # True when the source gave no reference time and ingestion time was used instead.
    reference_time_inferred: bool = False
    span_start: int = Field(default=0, ge=0)
    span_end: int = Field(default=0, ge=0)
    speakers: list[str] = Field(default_factory=list)
    agent: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)
    messages: list[Message] = Field(default_factory=list)
    facts: list[FactStatement] = Field(default_factory=list)
    content_hash: str
    chapter: str | None = None
    # Story clock: a book episode's character offset in the normalized book text (None for chat and facts).
    story_position: int | None = Field(default=None, ge=0)
    status: EpisodeStatus = "queued"
    error: str | None = None
    created_at: UtcDatetime = Field(default_factory=utcnow)


class ExtractedEntity(Frozen):
    name: str = Field(min_length=1)
    type: str = "Entity"
    aliases: list[str] = Field(default_factory=list)
    description: str = ""
    spans: list[Span] = Field(default_factory=list)


class ExtractedFact(Frozen):
    subject: str = Field(min_length=1)
    predicate: str = Field(min_length=1)
    object: str = Field(min_length=1)
    fact: str = ""
    subject_type: str | None = None
    object_type: str | None = None
    valid_at: UtcDatetime | None = None
    invalid_at: UtcDatetime | None = None
    # The text states this relation ended or does not hold ("no longer", "not"): it closes a matching fact.
    negated: bool = False
    functional: Functionality | None = None
    spans: list[Span] = Field(default_factory=list)
    asserted_by: str | None = None
    confidence: float = Field(default=1.0, ge=0.0, le=1.0)
    # The role that qualifies an office (holds_office "ceo" of Walmart): the slot is (object, role).
    role: str | None = None


class ExtractedNote(Frozen):
    """A memory-worthy statement rewritten to stand alone: names for pronouns and "I", absolute dates.

    "I went to the climbing gym yesterday" said by Tom on 8 May 2023 becomes "On 7 May 2023 Tom went to the
    climbing gym". Linked to the entities it is about (by name, as extracted) and to its message span.
    """

    text: str = Field(min_length=1, max_length=1000)
    entities: list[str] = Field(default_factory=list)
    spans: list[Span] = Field(default_factory=list)
    valid_at: UtcDatetime | None = None  # when what it says happened or held, if the text dates it
    asserted_by: str | None = None


QuoteMethod = Literal["tag", "narration", "turn", "llm"]


class ExtractedQuote(Frozen):
    """One thing a character says in prose, and who says it to whom (names as the text gives them there).

    ``start``/``end`` run from the first quoted word to the last; ``spans`` are the quoted pieces without the
    narration between them (‹"Yes," said she, "I know."› is one quote of two pieces). ``method`` says how the
    speaker was found: a speech tag ("said Elizabeth"), the narration around the quote, turn-taking in a
    dialogue, or an LLM.
    """

    text: str = Field(min_length=1)
    start: int = Field(ge=0)
    end: int = Field(ge=0)
    spans: list[Span] = Field(default_factory=list)
    speaker: str | None = None
    addressees: list[str] = Field(default_factory=list)
    method: QuoteMethod | None = None
    confidence: float = Field(default=0.0, ge=0.0, le=1.0)
    # said by the first-person narrator ("said I"): named where the window calls the narrator by name, else
    # left without a speaker for the book's consolidation pass (strata.resolve.narrator)
    narrator: bool = False


class Note(Frozen):
    """A stored memory note as read back: its text, when what it says happened, who said it and where."""

    uuid: str
    text: str
    valid_at: UtcDatetime | None = None
    speaker: str | None = None
    episode_uuid: str
    start: int = 0
    end: int = 0
    said_at: UtcDatetime | None = None
    about: list[str] = Field(default_factory=list)


class Quote(Frozen):
    """A stored quotation as read back: what was said, by whom, to whom, and where in the source."""

    uuid: str
    text: str
    speaker: str | None = None
    speaker_uuid: str | None = None
    addressees: list[str] = Field(default_factory=list)
    addressee_uuids: list[str] = Field(default_factory=list)
    episode_uuid: str
    start: int = 0  # offsets in the episode's content
    end: int = 0
    source_start: int | None = None  # the same span in the whole source (a book), when the episode has one
    source_end: int | None = None
    position: int = 0
    method: str | None = None
    confidence: float = 0.0


class QuoteQuery(Frozen):
    """Filters of a quote listing. ``speaker``/``addressee``: an entity uuid, or a name matched (case folded)
    against the entity's name and aliases and the name the text gave."""

    group_id: str
    speaker: str | None = Field(default=None, max_length=300)
    addressee: str | None = Field(default=None, max_length=300)
    episode_uuid: str | None = None
    offset: int = Field(default=0, ge=0)
    limit: int = Field(default=100, ge=1, le=1000)


class QuotePage(Frozen):
    """One page of a quote listing: ``count`` matches in all, ``next_offset`` None on the last page."""

    count: int
    items: list[Quote]
    next_offset: int | None = None


class ExtractorInfo(Frozen):
    name: str
    model: str | None = None
    prompt_version: str | None = None


class TokenUsage(Frozen):
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached: bool = False


class Extraction(Frozen):
    """What an extractor returns for one episode."""

    episode_uuid: str
    entities: list[ExtractedEntity] = Field(default_factory=list)
    facts: list[ExtractedFact] = Field(default_factory=list)
    notes: list[ExtractedNote] = Field(default_factory=list)
    quotes: list[ExtractedQuote] = Field(default_factory=list)
    extractor: ExtractorInfo
    usage: TokenUsage = Field(default_factory=TokenUsage)
    summary: str | None = None
    warnings: list[str] = Field(default_factory=list)


class Entity(Frozen):
    uuid: str
    group_id: str
    name: str
    key: str
    type: str = "Entity"
    aliases: list[str] = Field(default_factory=list)
    summary: str = ""
    created_at: UtcDatetime | None = None
    updated_at: UtcDatetime | None = None


class Fact(Frozen):
    uuid: str
    group_id: str
    subject_uuid: str
    subject_name: str
    predicate: str  # the stored (normalized) name, the one filters match
    # What the statement or extractor wrote ("plays_for" of play_for); None for facts stored before it was kept.
    predicate_text: str | None = None
    object_uuid: str
    object_name: str
    fact: str
    # An office's role (holds_office): the slot is (object, role), "ceo" of Walmart.
    role: str | None = None
    valid_at: UtcDatetime | None = None
    invalid_at: UtcDatetime | None = None
    created_at: UtcDatetime | None = None
    invalidated_at: UtcDatetime | None = None
    invalidated_by: str | None = None
    expired_at: UtcDatetime | None = None
    confidence: float = 1.0
    episodes: list[str] = Field(default_factory=list)
    asserted_by: list[str] = Field(default_factory=list)
    agents: list[str] = Field(default_factory=list)
    extractor: str | None = None
    negated: bool = False
    # "episode_uuid:start:end" for each supporting text span.
    evidence: list[str] = Field(default_factory=list)
    # Story clock (books, docs/story-time.md): where the story first states it (offset in the book), the
    # chapter there, and where the statement that closed it stands.
    story_at: int | None = None
    story_chapter: int | None = None
    story_until: int | None = None
