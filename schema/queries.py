"""Parameter objects: what a read asks, one frozen model from the edge (REST, MCP, CLI) down to the Cypher."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

MAX_FACT_PAGE = 1000


class FactQuery(BaseModel):
    """A complete fact listing's filters. At the edge ``subject``/``object`` may be a uuid or an exact name and
    ``predicate`` is as a statement writes it; the application service resolves them (a uuid, the stored
    predicate) before the graph reads them."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    subject: str | None = None
    subject_key: str | None = None
    predicate: str | None = None
    # An office's role ("ceo", or as written: "CEO", "chief executive"): with object, the slot CEO of Walmart.
    role: str | None = Field(default=None, max_length=100)
    object: str | None = None
    object_key: str | None = None
    subject_type: str | None = None
    object_type: str | None = None
    as_of: datetime | None = None  # valid time: what was true then
    known_at: datetime | None = None  # transaction time: what the graph believed then
    include_history: bool = False
    agent: str | None = None  # only what this agent asserted
    cursor: str | None = None  # next_cursor of the previous page
    limit: int = Field(default=100, ge=1, le=MAX_FACT_PAGE)
