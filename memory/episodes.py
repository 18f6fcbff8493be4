"""Request bodies for writes, and their conversion to the ``Episode`` model ingestion takes."""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from strata.ingest.sources import render_fact
from strata.schema import ids
from strata.schema.errors import SizeLimitError
from strata.schema.models import Episode, FactStatement, IsoDatetime, Message, utcnow

EXAMPLE_TEXT: dict[str, Any] = {"content": "Ann Archer became mayor of Avalon in 1990.", "kind": "text",
                "reference_time": "1990-05-01T00:00:00Z", "source": "avalon-gazette", "speaker": "reporter",
                "metadata": {"doc_id": "gazette-17"}}
EXAMPLE_CHAT: dict[str, Any] = {"messages": [
    {"speaker": "alice", "text": "I moved to Lisbon last month.", "timestamp": "2024-03-02T10:00:00Z",
     "metadata": {"message_id": "m-1"}},
    {"speaker": "bob", "text": "Nice! Do you still work at Acme?", "timestamp": "2024-03-02T10:01:00Z",
     "metadata": {"message_id": "m-2"}}], "source": "chat-42", "metadata": {"thread": "t-9"}}



class MessageIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    speaker: str = Field(..., min_length=1, max_length=200)
    text: str = Field(..., max_length=100_000)
    timestamp: IsoDatetime | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)


class EpisodeIn(BaseModel):
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
    agent: str | None = Field(None, min_length=1, max_length=200, pattern=r"^[^\x00-\x1f]+$",
                              description="Who asserts it (an agent, a user, a pipeline); default: the key's name.")

    @model_validator(mode="after")
    def _one_body(self) -> EpisodeIn:
        given = [name for name in ("content", "messages", "facts") if getattr(self, name) is not None]
        if len(given) != 1:
            raise ValueError("give exactly one of content, messages or facts")
        return self


class BatchIn(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"episodes": [EXAMPLE_TEXT]}]})

    episodes: list[EpisodeIn] = Field(..., min_length=1, max_length=1000)


def to_episode(group_id: str, body: EpisodeIn, max_chars: int, agent: str | None = None) -> Episode:
    now = utcnow()
    fields: dict[str, Any]
    if body.messages is not None:
        fields = _chat(body.messages)
    elif body.facts is not None:
        canonical = json.dumps([f.model_dump(mode="json") for f in body.facts], sort_keys=True, ensure_ascii=False)
        fields = {"kind": "facts", "content": "\n".join(render_fact(f) for f in body.facts),
                  "facts": body.facts, "content_hash": ids.content_hash(canonical)}
    else:
        fields = {"kind": body.kind or "text", "content": body.content or ""}
        if body.speaker:
            fields["speakers"] = [body.speaker]
    if len(fields["content"]) > max_chars:
        raise SizeLimitError(f"episode content of {len(fields['content'])} characters exceeds {max_chars}",
                             {"chars": len(fields["content"]), "limit": max_chars})
    fields.setdefault("content_hash", ids.content_hash(fields["content"]))
    reference = body.reference_time or fields.pop("first_timestamp", None)
    fields.pop("first_timestamp", None)
    agent = body.agent or agent
    # Who says it is part of what was said: two agents posting the same text are two assertions, each recorded.
    uuid = ids.stable_uuid("api-episode", group_id, fields["content_hash"], reference, body.source, body.speaker,
                           json.dumps(body.metadata, sort_keys=True, default=str), agent)
    return Episode(uuid=uuid, group_id=group_id, source_name=body.source, reference_time=reference or now,
                   reference_time_inferred=reference is None, metadata=body.metadata, agent=agent,
                   span_start=0, span_end=len(fields["content"]), **fields)


def _chat(messages: list[MessageIn]) -> dict[str, Any]:
    lines, out, offset = [], [], 0
    for m in messages:
        line = f"{m.speaker}: {m.text}"
        out.append(Message(speaker=m.speaker, text=m.text, timestamp=m.timestamp, metadata=m.metadata,
                           start=offset, end=offset + len(line)))
        lines.append(line)
        offset += len(line) + 1
    stamps = [m.timestamp for m in out if m.timestamp is not None]
    return {"kind": "chat", "content": "\n".join(lines), "messages": out,
            "speakers": list(dict.fromkeys(m.speaker for m in out)), "first_timestamp": min(stamps, default=None)}
