"""Search's wire models: what a search asks (``SearchQuery``, resolved by the use-case floor) and what it
answers (``SearchResult`` of ``SearchHit``s with their provenance). graph/search.py computes them."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from strata.schema.models import Entity, Fact, TimeWindow
from strata.schema.story import StoryCut

HitKind = Literal["fact", "entity", "episode"]


class SearchQuery(BaseModel):
    q: str = ""
    limit: int = Field(default=10, ge=1, le=100)
    as_of: datetime | None = None
    known_at: datetime | None = None
    include_history: bool = False
    types: list[str] | None = None
    predicates: list[str] | None = None
    kinds: list[HitKind] | None = None
    center: list[str] = Field(default_factory=list)
    mmr: bool = False
    mmr_lambda: float = Field(default=0.7, ge=0.0, le=1.0)
    # Only what was said (a passage's episode) or became true (a fact) in [said_after, said_before).
    said_after: datetime | None = None
    said_before: datetime | None = None
    # The time the question asks about ("in May 2023"): ranked higher, not filtered (resolve/timewords.py).
    around: TimeWindow | None = None
    # A book's story read up to a position (graph/story.py): facts and passages from before it, instead of as_of.
    story: StoryCut | None = None
    # Only what this agent asserted: its facts (alone or with others) and its episodes' passages; no entity hits.
    agent: str | None = None


class MessageRef(BaseModel):
    index: int
    speaker: str | None = None
    text: str
    timestamp: datetime | None = None
    start: int
    end: int
    metadata: dict[str, Any] = Field(default_factory=dict)


class Provenance(BaseModel):
    episode_uuid: str
    source_uuid: str | None = None
    source_name: str | None = None
    seq: int | None = None
    kind: str | None = None
    reference_time: datetime | None = None
    start: int | None = None
    end: int | None = None
    text: str | None = None
    speaker: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)
    messages: list[MessageRef] = Field(default_factory=list)


class PassageHit(BaseModel):
    uuid: str
    episode_uuid: str
    start: int
    end: int
    text: str
    speaker: str | None = None
    # The passage's memory notes: its statements rewritten to stand alone (names, absolute dates).
    notes: list[str] = Field(default_factory=list)


class SearchHit(BaseModel):
    kind: HitKind
    score: float
    channels: list[str]
    fact: Fact | None = None
    entity: Entity | None = None
    episode: PassageHit | None = None
    provenance: list[Provenance] = Field(default_factory=list)
    # When it was said: the earliest reference time among its provenance episodes (a fact's valid time is
    # in `fact`).
    said_at: datetime | None = None
    # The fact that answers the question's slot at the time asked ("Who is the CEO of Walmart?"), ranked first.
    answer: bool = False
    # For a fact of the asked slot that no longer held then: when it ended and who or what took its place
    # ("superseded 2014-02-01: Doug McMillon"; "ended 2019-06-06" when nothing did).
    superseded: str | None = None


class SearchResult(BaseModel):
    query: str
    hits: list[SearchHit]
    # Channels left out because what they need failed: "vector" when the query could not be embedded (the
    # embedding service unreachable after its retries). Full text and the graph still answered.
    degraded: list[Literal["vector"]] = Field(default_factory=list)
