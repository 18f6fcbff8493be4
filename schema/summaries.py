"""Entity summaries and communities: what a summary is made from, and what a community is.

An entity's summary says in a few sentences what the graph says about it now: its most salient current facts
and its latest memory notes (ended, retracted and negated facts left out). A community is a group of closely
related entities (Leiden over the group's current facts and character interactions), titled by its top members
and summarised from their summaries.
"""

from __future__ import annotations

from datetime import datetime

from pydantic import Field

from strata.schema.models import Frozen, UtcDatetime

# Predicates of exchanges between characters (a book's quotes: ingest/extractors/interactions.py), said in a
# summary as who the entity talks with most, never fact by fact.
INTERACTION_PREDICATES = frozenset({"spoke_to"})


class DigestFact(Frozen):
    """One current fact about the entity, as its summary sees it."""

    uuid: str
    predicate: str
    sentence: str = ""
    subject_name: str
    object_name: str
    outgoing: bool = True  # the entity is the fact's subject
    other_uuid: str = ""
    functional: str | None = None  # the predicate's functionality (subject, object, both, symmetric)
    evidence: int = Field(default=1, ge=0)  # supporting spans (or episodes): how often the sources state it
    valid_at: UtcDatetime | None = None
    story_at: int | None = None


class DigestNote(Frozen):
    uuid: str
    text: str
    said_at: UtcDatetime | None = None


class EntityDigest(Frozen):
    """An entity and what a summary is made from: its most salient current facts and latest notes (bounded)."""

    uuid: str
    name: str
    type: str = "Entity"
    aliases: list[str] = Field(default_factory=list)
    description: str = ""  # what an LLM extractor said of it when it first met it
    facts: list[DigestFact] = Field(default_factory=list)
    notes: list[DigestNote] = Field(default_factory=list)
    partners: list[str] = Field(default_factory=list)  # the characters it appears with most (INTERACTS_WITH)
    summary: str = ""  # the stored one
    summary_hash: str | None = None  # the fingerprint of the digest it was made from


class SummaryWrite(Frozen):
    uuid: str
    summary: str
    summary_hash: str
    method: str  # "extractive", "llm" or "empty"


class SummaryRefresh(Frozen):
    """What one refresh did: entities examined, summaries changed, LLM calls, and where to go on."""

    group_id: str
    examined: int = 0
    changed: int = 0
    llm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    llm_cache_hits: int = 0
    fallbacks: int = 0  # LLM answers that failed and were replaced by the extractive summary
    seconds: float = 0.0
    complete: bool = True
    next_cursor: str | None = None  # the last entity uuid done, when a time budget stopped the run


class Community(Frozen):
    uuid: str
    group_id: str
    title: str
    summary: str = ""
    size: int = Field(ge=0)
    level: int = 0
    computed_at: datetime | None = None
    members: list[CommunityMember] = Field(default_factory=list)
    score: float | None = None  # full-text relevance when listed for a query


class CommunityMember(Frozen):
    uuid: str
    name: str
    type: str = "Entity"
    strength: float = 0.0  # weighted degree inside the community


class CommunityRun(Frozen):
    """One community computation of a group."""

    group_id: str
    entities: int = 0
    edges: int = 0
    communities: int = 0
    largest: int = 0
    written: bool = False
    stopped: str | None = None  # why the run stopped before writing (the time budget), if it did
    llm_calls: int = 0
    seconds: float = 0.0
    phases: dict[str, float] = Field(default_factory=dict)


Community.model_rebuild()
