"""One frozen request model per write use case, beside the reads' (schema/requests.py): what REST's body or
query, the MCP tool's arguments and the CLI's options are derived from (api/derive.py), bounds declared once.

Who or what is written to (the group, the entity, the fact: the caller's address) is not part of the request.
A file's content is not either: each front-end carries it its own way (REST uploads it, MCP sends its text,
the CLI reads a path); ``SourceText`` is the MCP form.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ConfigDict, Field, model_validator

from strata.schema.models import FactStatement, IsoDatetime, IsoUtcDatetime
from strata.schema.plan import PREDICATE
from strata.schema.requests import Request

FORMATS = ("book", "chat-jsonl", "transcript", "sessions-json", "facts-jsonl")
MAX_BATCH = 1000  # episodes per batch
MAX_BUDGET_S = 600.0  # a refresh stops after the batch in hand past this long and answers where to go on
AGENT_TEXT = "Who asserts it (an agent, a user, a pipeline); default: the key's name."

EXAMPLE_TEXT: dict[str, Any] = {"content": "Ann Archer became mayor of Avalon in 1990.", "kind": "text",
                                "reference_time": "1990-05-01T00:00:00Z", "source": "avalon-gazette",
                                "speaker": "reporter", "metadata": {"doc_id": "gazette-17"}}
EXAMPLE_CHAT: dict[str, Any] = {"messages": [
    {"speaker": "alice", "text": "I moved to Lisbon last month.", "timestamp": "2024-03-02T10:00:00Z",
     "metadata": {"message_id": "m-1"}},
    {"speaker": "bob", "text": "Nice! Do you still work at Acme?", "timestamp": "2024-03-02T10:01:00Z",
     "metadata": {"message_id": "m-2"}}], "source": "chat-42", "metadata": {"thread": "t-9"}}


class MessageIn(Request):
    model_config = ConfigDict(extra="forbid")

    speaker: str = Field(..., min_length=1, max_length=200)
    text: str = Field(..., max_length=100_000)
    timestamp: IsoDatetime | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)


class EpisodeIn(Request):
    """One episode: ``content`` (text), or ``messages`` (a chat episode), or ``facts`` (structured statements)."""

    # exactly one body, as _one_body enforces, declared so the OpenAPI document says it too
    model_config = ConfigDict(extra="forbid", json_schema_extra={
        "examples": [EXAMPLE_TEXT, EXAMPLE_CHAT],
        "oneOf": [{"required": [name], "properties": {name: {"not": {"type": "null"}}}}
                  for name in ("content", "messages", "facts")]})

    content: str | None = Field(None, min_length=1, max_length=1_000_000)
    kind: Literal["text", "chat", "json", "facts"] | None = None
    reference_time: IsoDatetime | None = None
    source: str | None = Field(None, max_length=300, description="A name for where this came from.")
    speaker: str | None = Field(None, max_length=200)
    metadata: dict[str, Any] = Field(default_factory=dict)
    messages: list[MessageIn] | None = Field(None, min_length=1, max_length=5000)
    facts: list[FactStatement] | None = Field(None, min_length=1, max_length=5000)
    agent: str | None = Field(None, min_length=1, max_length=200, pattern=r"^[^\x00-\x1f]+$", description=AGENT_TEXT)

    @model_validator(mode="after")
    def _one_body(self) -> EpisodeIn:
        given = [name for name in ("content", "messages", "facts") if getattr(self, name) is not None]
        if len(given) != 1:
            raise ValueError("give exactly one of content, messages or facts")
        return self


class BatchIn(Request):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"episodes": [EXAMPLE_TEXT]}]})

    episodes: list[EpisodeIn] = Field(..., min_length=1, max_length=MAX_BATCH)


class SourceRequest(Request):
    """A whole file to segment into episodes as one job; its content travels beside (upload, text or path)."""

    format: str = Field(..., max_length=40, description=f"One of: {', '.join(FORMATS)}", examples=["chat-jsonl"])
    name: str | None = Field(None, max_length=300, description="The source's name (default: the file's).")
    agent: str | None = Field(None, min_length=1, max_length=200, description=AGENT_TEXT)


class SourceText(SourceRequest):
    """``SourceRequest`` with the file's text, as an MCP client (which cannot upload) sends it."""

    text: str = Field(..., min_length=1, description="The whole file's text.")


class Correction(Request):
    """What to change; omitted fields keep their value."""

    fact: str | None = Field(None, min_length=1, max_length=2000, description="The fact's sentence.")
    predicate: str | None = Field(None, max_length=64, pattern=PREDICATE.pattern,
                                  description="lowercase snake_case")
    object_uuid: str | None = Field(None, max_length=64, description="The new object's uuid.")
    valid_at: IsoUtcDatetime | None = Field(None, description="When it became true (ISO 8601).")
    invalid_at: IsoUtcDatetime | None = Field(None, description="When it ended (ISO 8601).")
    reason: str | None = Field(None, max_length=500)


class RetractRequest(Request):
    purge: bool = Field(False, description="Hard delete for data removal: also deletes everything derived only "
                                           "from it.")


class MergeRequest(Request):
    model_config = ConfigDict(json_schema_extra={"examples": [{"into": "6b0c5e4e-0000-5000-8000-000000000001",
                                                               "reason": "same person"}]})

    into: str = Field(..., max_length=64, description="The entity that survives.")
    reason: str | None = Field(None, max_length=500)


class UndoRequest(Request):
    """Nothing beyond the address (the survivor and the merge record)."""


class AcceptRequest(Request):
    into: str | None = Field(None, max_length=64, description="The survivor: either entity (default: the candidate).")


class RejectRequest(Request):
    reason: str | None = Field(None, max_length=500)


class ReviewRequest(AcceptRequest, RejectRequest):
    """Accept or reject in one call (the MCP tool): ``into`` applies to an accept, ``reason`` to a reject."""

    decision: Literal["accept", "reject"] = Field(..., description="accept: merge the pair; reject: never again.")


class ApplyRetentionRequest(Request):
    dry_run: bool = Field(False, description="Count what the run would hide and restore; change nothing.")


class PurgeRetentionRequest(Request):
    # Literal[True]: the schema declares what the server demands, so an unconfirmed purge is refused like any
    # other invalid value (REST 422, the CLI exit 2); the CLI's --yes sets it
    confirm: Literal[True] = Field(description="Must be true: a retention purge cannot be undone.")


class PurgeGroupRequest(Request):
    # a bool (not Literal[True]) so that false stays the 400 it always was: "a group can only be purged"
    purge: bool = Field(..., description="Required, true: a group is only ever purged (hard delete).",
                        json_schema_extra={"enum": [True]})


class ConsolidateRequest(Request):
    source: str | None = Field(None, max_length=64, description="Only this source (book); default: every source.")


class RefreshSummariesRequest(Request):
    force: bool = Field(False, description="Write every summary again, even one whose input did not change.")
    budget_s: float = Field(60.0, gt=0, le=MAX_BUDGET_S,
                            description="Stop after the batch in hand past this many seconds.")
    after: str = Field("", max_length=64, description="`next_cursor` of an unfinished refresh.")
    batch: int | None = Field(None, ge=1, le=1000,
                              description="Entities per round trip (default STRATA_SUMMARY_BATCH).")


class RefreshCommunitiesRequest(Request):
    budget_s: float | None = Field(None, gt=0, le=MAX_BUDGET_S,
                                   description="The run's time budget in seconds (default "
                                               "STRATA_COMMUNITY_TIME_BUDGET_S).")
