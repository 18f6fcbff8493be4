"""Chat sources: message records, sessions, and the episode builder shared by every chat-shaped format.

Episode content renders each message as ``Speaker: text`` on its own line(s); ``Message.start/end`` cover
that whole line inside the content. Sessions become episodes (or windows of N messages when configured);
an episode is split further at message boundaries only if it would exceed ``max_episode_chars``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from strata.schema.errors import SizeLimitError
from strata.schema.models import Message

from .common import Context, Problems, iter_json_lines
from .times import parse_timestamp

SESSION_GAP = timedelta(hours=6)

# First alias present wins; the others stay in message metadata.
SPEAKER_KEYS = ("speaker", "name", "user", "author", "sender", "from", "role")
TEXT_KEYS = ("text", "content", "message", "body")
TIME_KEYS = ("timestamp", "time", "date", "created_at", "datetime", "ts")
SESSION_KEYS = ("session", "session_id", "conversation", "conversation_id", "thread", "thread_id")


@dataclass
class RawMessage:
    speaker: str
    text: str
    timestamp: datetime | None = None
    inferred: bool = False
    raw_time: str | None = None  # the unparsable or time-only value, for the warning
    metadata: dict[str, Any] = field(default_factory=dict)
    where: str = ""  # "line 12" or a JSON path, for errors and warnings
    span: tuple[int, int] | None = None  # range in the source text, when known
    session: str | None = None


@dataclass
class RawSession:
    messages: list[RawMessage]
    key: str | None = None
    date: datetime | None = None
    date_inferred: bool = False
    metadata: dict[str, Any] = field(default_factory=dict)
    span: tuple[int, int] | None = None


def _first(obj: dict[str, Any], keys: tuple[str, ...]) -> tuple[str | None, Any]:
    for key in keys:
        if key in obj and obj[key] is not None and obj[key] != "":
            return key, obj[key]
    return None, None


def _as_text(value: Any) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, list):  # OpenAI-style content parts
        parts = [str(p["text"]) for p in value if isinstance(p, dict) and isinstance(p.get("text"), str)]
        return "\n".join(parts) if parts else None
    return None


def message_from_dict(obj: Any, where: str, problems: Problems) -> RawMessage | None:
    """Map one JSON message with common aliases to a RawMessage; problems are collected, not raised."""
    if not isinstance(obj, dict):
        problems.add(where, f"expected a JSON object, got {type(obj).__name__}")
        return None
    speaker_key, speaker = _first(obj, SPEAKER_KEYS)
    text_key, raw_text = _first(obj, TEXT_KEYS)
    text = _as_text(raw_text) if text_key else ("" if any(k in obj for k in TEXT_KEYS) else None)
    if speaker is None or isinstance(speaker, dict | list) or not str(speaker).strip():
        problems.add(where, f"no speaker (expected one of: {', '.join(SPEAKER_KEYS)})")
        return None
    if text is None:
        problems.add(where, f"no text (expected a string in one of: {', '.join(TEXT_KEYS)})")
        return None
    time_key, raw_time = _first(obj, TIME_KEYS)
    session_key, session = _first(obj, SESSION_KEYS)
    used = {speaker_key, text_key, time_key, session_key, "metadata"}
    metadata = dict(obj["metadata"]) if isinstance(obj.get("metadata"), dict) else {}
    metadata.update({k: v for k, v in obj.items() if k not in used})
    return RawMessage(
        speaker=str(speaker).strip(),
        text=text,
        raw_time=None if raw_time is None else str(raw_time),
        metadata=metadata,
        where=where,
        session=None if session is None else str(session),
    )


def resolve_times(ctx: Context, session: RawSession) -> None:
    """Parse message times; unparsable ones fall back to the previous message, session date or now."""
    previous: datetime | None = None
    anchor = session.date
    for message in session.messages:
        if message.timestamp is None and message.raw_time is not None:
            message.timestamp = parse_timestamp(message.raw_time, anchor=anchor)
            if message.timestamp is None:
                fallback, what = _fallback(ctx, previous, session.date)
                message.timestamp, message.inferred = fallback, True
                ctx.warnings.add(
                    "timestamp", f"{message.where}: unparsable timestamp {message.raw_time!r}, used {what}"
                )
        elif message.timestamp is None and (previous or session.date) is not None:
            # Keeps messages in order: an undated reply is no earlier than the message before it.
            message.timestamp, message.inferred = previous or session.date, True
        if message.timestamp is not None and not message.inferred:
            previous = message.timestamp
            anchor = message.timestamp


def _fallback(ctx: Context, previous: datetime | None, date: datetime | None) -> tuple[datetime, str]:
    if previous is not None:
        return previous, "previous message time"
    if date is not None:
        return date, "session date"
    return ctx.now, "ingestion time"


def build_chat_episodes(ctx: Context, sessions: list[RawSession]) -> None:
    """Turn sessions into chat episodes on ``ctx`` (windows and size limits applied here)."""
    for index, session in enumerate(sessions):
        if not session.messages:
            continue
        resolve_times(ctx, session)
        size = ctx.chat_window_messages
        groups = (
            [session.messages[i : i + size] for i in range(0, len(session.messages), size)]
            if size > 0
            else [session.messages]
        )
        window = 0
        for group in groups:
            for chunk in _split_by_size(ctx, group):
                _add_chat_episode(ctx, session, index, window, chunk)
                window += 1


def _render(message: RawMessage) -> str:
    return f"{message.speaker}: {message.text}"


def _split_by_size(ctx: Context, messages: list[RawMessage]) -> list[list[RawMessage]]:
    limit = ctx.max_episode_chars
    chunks: list[list[RawMessage]] = [[]]
    size = 0
    for message in messages:
        length = len(_render(message))
        if length > limit:
            raise SizeLimitError(
                f"{ctx.name}: {message.where}: message of {length} characters exceeds max_episode_chars={limit}",
                {"file": ctx.name, "where": message.where, "chars": length, "limit": limit},
            )
        if chunks[-1] and size + 1 + length > limit:
            chunks.append([])
            size = 0
        size += length + (1 if size else 0)
        chunks[-1].append(message)
    return chunks


def _add_chat_episode(ctx: Context, session: RawSession, index: int, window: int, chunk: list[RawMessage]) -> None:
    lines: list[str] = []
    messages: list[Message] = []
    offset = 0
    for raw in chunk:
        line = _render(raw)
        messages.append(
            Message(
                speaker=raw.speaker,
                text=raw.text,
                timestamp=raw.timestamp,
                timestamp_inferred=raw.inferred,
                metadata=raw.metadata,
                start=offset,
                end=offset + len(line),
            )
        )
        lines.append(line)
        offset += len(line) + 1
    reference, inferred = _reference_time(ctx, session, chunk)
    spans = [m.span for m in chunk if m.span is not None] or ([session.span] if session.span else [])
    metadata: dict[str, Any] = {**session.metadata, "session_index": index, "window_index": window}
    if session.key is not None:
        metadata["session"] = session.key
    wheres = list(dict.fromkeys(m.where for m in chunk if m.where))
    if wheres:
        metadata["location"] = wheres[0] if len(wheres) == 1 else f"{wheres[0]} .. {wheres[-1]}"
    ctx.add_episode(
        kind="chat",
        content="\n".join(lines),
        reference_time=reference,
        reference_time_inferred=inferred,
        span_start=min(s[0] for s in spans) if spans else 0,
        span_end=max(s[1] for s in spans) if spans else 0,
        speakers=list(dict.fromkeys(m.speaker for m in chunk)),
        messages=messages,
        metadata=metadata,
    )


def _reference_time(ctx: Context, session: RawSession, chunk: list[RawMessage]) -> tuple[datetime, bool]:
    for message in chunk:
        if message.timestamp is not None and not message.inferred:
            return message.timestamp, False
    if session.date is not None:
        return session.date, session.date_inferred
    for message in chunk:
        if message.timestamp is not None:
            return message.timestamp, True
    return ctx.now, True


def split_sessions(messages: list[RawMessage]) -> list[RawSession]:
    """By explicit session key when any message has one; else at time gaps over SESSION_GAP."""
    if any(m.session is not None for m in messages):
        by_key: dict[str | None, list[RawMessage]] = {}
        for message in messages:
            by_key.setdefault(message.session, []).append(message)
        return [RawSession(messages=group, key=key) for key, group in by_key.items()]
    sessions: list[list[RawMessage]] = []
    last: datetime | None = None
    for message in messages:
        stamp = parse_timestamp(message.raw_time) if message.raw_time else None
        if sessions and last is not None and stamp is not None and stamp - last > SESSION_GAP:
            sessions.append([])
        if not sessions:
            sessions.append([])
        sessions[-1].append(message)
        last = stamp or last
    return [RawSession(messages=group) for group in sessions]


def parse_chat_jsonl(ctx: Context) -> dict[str, Any]:
    """chat-jsonl: one JSON message object per line."""
    problems = Problems(ctx.name)
    messages: list[RawMessage] = []
    for _, start, end, where, obj in iter_json_lines(ctx.text, problems):
        message = message_from_dict(obj, where, problems)
        if message is not None:
            message.span = (start, end)
            messages.append(message)
    problems.raise_if_any()
    sessions = split_sessions(messages)
    build_chat_episodes(ctx, sessions)
    if messages and all(m.raw_time is None for m in messages):
        ctx.warnings.add("timestamp", f"{ctx.name}: no timestamps; reference time is the ingestion time")
    return {"messages": len(messages), "sessions": len(sessions)}
