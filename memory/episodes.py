"""Request bodies for writes, and their conversion to the ``Episode`` model ingestion takes."""

from __future__ import annotations

import json
from typing import Any

from strata.ingest.sources import render_fact
from strata.schema import ids
from strata.schema.errors import SizeLimitError
from strata.schema.models import Episode, Message, utcnow
from strata.schema.requests_write import BatchIn, EpisodeIn, MessageIn

__all__ = ["BatchIn", "EpisodeIn", "MessageIn", "to_episode"]  # the bodies live in schema/; kept here for callers


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
